"""What GitHub Copilot CLI reads by itself: AGENTS.md, CLAUDE.md and GEMINI.md in every directory from
the git root to the cwd, `.github/copilot-instructions.md`, and the rules of `.github/instructions/` and of
the root's `.claude/rules/` (an unscoped rule whole at start, a scoped one only listed by its pattern);
unscoped there means without `applyTo` or `paths` (an `.instructions.md` too, which VS Code's Copilot
applies only on request), or with `applyTo` `**`, `**/*` or `*` (1.0.102, pasted into the first request);
`~/.copilot/copilot-instructions.md` and `~/.copilot/instructions/`. Just in time, after its `view` of a
file, the directory files above that file and the scoped rules that match it. No CLAUDE.local.md, no
`.claude/CLAUDE.md`, no rules folder below the root, and nothing after a shell, grep, glob or write.

A sub-agent (its `task` tool) of the built-in general-purpose type starts with the same files in its
system prompt; an explore or task one starts with none of them. Every type seen loads the files above a
file, and the scoped rules matching it, after its own `view` of it.

It inlines the files a loaded file imports (`@docs/NOTE.md`, as `<imported_custom_instruction>`).
Its `applyTo` globs (1.0.102) expand braces and keep `*` inside one directory; a pattern without a `/`
(`Header.tsx`) it matches against the file name at any depth: jitctx's `copilot` dialect, in which every
receiver reads the `.github/instructions` format (jitctx.scope)."""

from __future__ import annotations

from jitctx.profiles import CLAUDE_RULES, COPILOT_RULES, Profile, RulesDir

DIR_FILES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")
# Only the root's `.claude/rules` (with its subfolders): a `pkg/.claude/rules/` is not read (1.0.102).
# Their globs mean what their format's agent means (jitctx.profiles): Claude Code's for `.claude/rules`,
# Copilot's for its own instructions.
ROOT_CLAUDE_RULES = RulesDir(".claude/rules", ".md", dialect=CLAUDE_RULES.dialect)
USER_RULES = RulesDir(".copilot/instructions", ".instructions.md", dialect=COPILOT_RULES.dialect)

PROFILE = Profile(
    name="copilot-cli",
    summary="GitHub Copilot CLI: AGENTS.md/CLAUDE.md/GEMINI.md root to cwd, Copilot and Claude rules, "
    "loaded just in time by its view tool",
    dir_files=DIR_FILES,
    root_files=(".github/copilot-instructions.md",),
    rules_dirs=(COPILOT_RULES, ROOT_CLAUDE_RULES),
    user_files=(".copilot/copilot-instructions.md",),
    user_rules_dirs=(USER_RULES,),
    scope_keys=("applyTo", "paths"),
    unscoped_rules_load=(".instructions.md",),
    whole_scopes=(("applyTo", "**"), ("applyTo", "**/*"), ("applyTo", "*")),
    native_files=(*DIR_FILES, "copilot-instructions.md"),
    # 1.0.102 (`copilot skill --help`, and `copilot skill list` run here: those folders from the cwd up
    # to the git root); it reads SKILL.md with serde_yaml (prebuilds/linux-x64/runtime.node) and does
    # not list a skill whose frontmatter is not YAML: "failed to parse YAML frontmatter: mapping values
    # are not allowed in this context" under "The following skills failed to load".
    skill_dirs=(".github/skills", ".claude/skills", ".agents/skills"),
)

# The sub-agent types that 1.0.102 gives the repository's instruction files at their start, as it gives
# the main agent (seen for general-purpose; explore and task get none). The other built-in types
# (`definitions/*.agent.yaml`: code-review, research, security-review, rubber-duck) and custom agents
# build their prompt from their own definition, which leaves the repository's files out unless a custom
# agent asks for them (`include-custom-instructions`): not known here, so those go out from jitctx.
AGENTS_WITH_START_FILES = frozenset({"general-purpose"})

# What a sub-agent of another type holds by itself when it starts: nothing.
BARE_START = Profile(
    name=PROFILE.name,
    summary="a GitHub Copilot CLI sub-agent that starts without the repository's instruction files",
    dir_files=(),
    native_jit=False,
    native_files=(),
    skill_dirs=PROFILE.skill_dirs,
)
