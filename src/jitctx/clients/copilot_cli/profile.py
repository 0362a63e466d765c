"""What GitHub Copilot CLI reads by itself: AGENTS.md, CLAUDE.md and GEMINI.md in every directory from
the git root to the cwd, `.github/copilot-instructions.md`, and the rules of `.github/instructions/` and of
the root's `.claude/rules/` (an unscoped rule whole at start, a scoped one only listed by its pattern);
`~/.copilot/copilot-instructions.md` and `~/.copilot/instructions/`. Just in time, after its `view` of a
file, the directory files above that file and the scoped rules that match it. No CLAUDE.local.md, no
`.claude/CLAUDE.md`, no rules folder below the root, and nothing after a shell, grep, glob or write.

It inlines the files a loaded file imports (`@docs/NOTE.md`, as `<imported_custom_instruction>`).
Its globs (1.0.102) expand braces and keep `*` inside one directory, as jitctx's default dialect does; a
pattern without a `/` (`Header.tsx`) it also matches against the file name at any depth, which no
dialect of jitctx does (jitctx matches it at the root only)."""

from __future__ import annotations

from jitctx.profiles import COPILOT_RULES, Profile, RulesDir

DIR_FILES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")
# Only the root's `.claude/rules` (with its subfolders): a `pkg/.claude/rules/` is not read (1.0.102).
ROOT_CLAUDE_RULES = RulesDir(".claude/rules", ".md")
USER_RULES = RulesDir(".copilot/instructions", ".instructions.md")

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
    native_files=(*DIR_FILES, "copilot-instructions.md"),
    skill_dirs=(".github/skills", ".claude/skills", ".agents/skills"),
)
