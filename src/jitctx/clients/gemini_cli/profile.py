"""What Gemini CLI reads by itself: its context files (GEMINI.md, or the names of `context.fileName`) from
the project root to the cwd and `~/.gemini/`, at start; and, just in time, those of the directories
above a path its own file tools touch. No `.claude/rules`, Cursor or Copilot rule, no CLAUDE.md by
default, and nothing on a shell read."""

from __future__ import annotations

from dataclasses import replace

from jitctx.profiles import Profile

DEFAULT_CONTEXT_FILES = ("GEMINI.md",)

PROFILE = Profile(
    name="gemini-cli",
    summary="Gemini CLI: GEMINI.md (or context.fileName) hierarchy, loaded just in time by its file tools",
    dir_files=DEFAULT_CONTEXT_FILES,
    user_files=(".gemini/GEMINI.md",),
    native_files=DEFAULT_CONTEXT_FILES,
    # 0.61.0 (bundle/chunk-5FZXKDXH.js: Storage.getProjectSkillsDir, getProjectAgentSkillsDir). On a YAML
    # error its skillLoader falls back to reading the `name:` and `description:` lines as text.
    skill_dirs=(".gemini/skills", ".agents/skills"),
    skill_frontmatter="recover",
)


def with_context_files(names: tuple[str, ...]) -> Profile:
    """The profile for a `context.fileName` setting: those names in every directory and in ~/.gemini/."""
    return replace(
        PROFILE,
        dir_files=names,
        user_files=tuple(f".gemini/{name}" for name in names),
        native_files=names,
    )
