"""What Qwen Code reads by itself: its context files (QWEN.md and AGENTS.md, or the names of
`context.fileName`) from the cwd up to the `.git` root and in `~/.qwen/`, the project's
`.qwen/QWEN.local.md`, and its rules folders (`.qwen/rules/`, `~/.qwen/rules/`), all at start. No context
file below the cwd, no CLAUDE.md, no `.claude/rules`, Cursor or Copilot rule; a `.qwen/rules` file scoped
by `paths:` it adds itself after its own file tools."""

from __future__ import annotations

from dataclasses import replace

from jitctx.profiles import Profile, RulesDir

DEFAULT_CONTEXT_FILES = ("QWEN.md", "AGENTS.md")
# Qwen Code 0.24.4 matches `paths:` with picomatch ({dot: true}) relative to the git root: `*` stays in
# one segment (`*.prisma` is the root's only), `**` spans segments, braces expand, case counts. That is
# jitctx's own dialect.
QWEN_RULES = RulesDir(".qwen/rules", ".md", dialect="bun")

PROFILE = Profile(
    name="qwen-code",
    summary="Qwen Code: QWEN.md and AGENTS.md from the cwd up to the root, .qwen/rules; nothing nested",
    dir_files=DEFAULT_CONTEXT_FILES,
    root_files=(".qwen/QWEN.local.md",),
    rules_dirs=(QWEN_RULES,),
    user_files=tuple(f".qwen/{name}" for name in DEFAULT_CONTEXT_FILES),
    user_rules_dirs=(QWEN_RULES,),
    scope_keys=("paths",),
    # Its only load while it works is a scoped `.qwen/rules` file, after a call of one of its file tools
    # (`QwenFollower`): every context file below the cwd is jitctx's to send.
    native_jit=False,
    rules_after_tool=True,
    native_files=DEFAULT_CONTEXT_FILES,
    # 0.24.4 (chunks/chunk-EL2S73QY.js: SKILL_PROVIDER_CONFIG_DIRS = [".qwen", ".agents"], at the project
    # root). On a YAML error its yaml-parser falls back to a line parser (chunks/chunk-DXXCNZW4.js).
    skill_dirs=(".qwen/skills", ".agents/skills"),
    skill_frontmatter="recover",
)


def with_context_files(names: tuple[str, ...]) -> Profile:
    """The profile for a `context.fileName` setting: those names, in place of QWEN.md and AGENTS.md, in
    every directory of the chain and in ~/.qwen/."""
    return replace(
        PROFILE,
        dir_files=names,
        user_files=tuple(f".qwen/{name}" for name in names),
        native_files=names,
    )


def untrusted(profile: Profile) -> Profile:
    """What it reads in a folder it does not trust (folder trust switched on): its user files and rules
    only, no file of the project."""
    return replace(profile, dir_files=(), root_files=(), rules_dirs=(), native_files=())
