"""What OpenCode reads by itself, seen in 1.18.33.

At start (in the system prompt of every request): the first that exists of `~/.config/opencode/AGENTS.md`
and `~/.claude/CLAUDE.md`; and of the names AGENTS.md, CLAUDE.md, CONTEXT.md the first found anywhere
from the cwd up to the worktree, every file of that name there. Just in time: after its `read` tool, for
each directory from the file's up to (not including) the cwd, the first of AGENTS.md, CLAUDE.md,
CONTEXT.md there, once per session. Nothing after a write, an edit or a shell command; no `.claude/rules`,
no `@imports`.
"""

from __future__ import annotations

from jitctx.profiles import Profile

DIR_FILES = ("AGENTS.md", "CLAUDE.md", "CONTEXT.md")  # per directory the first that exists counts
CLAUDE_FILE = "CLAUDE.md"
USER_AGENTS = ".config/opencode/AGENTS.md"
USER_CLAUDE = ".claude/CLAUDE.md"

PROFILE = Profile(
    name="opencode",
    summary="OpenCode: AGENTS.md > CLAUDE.md > CONTEXT.md, cwd to worktree; nested ones after its read tool",
    dir_files=DIR_FILES,
    first_match_per_dir=True,
    user_files=(USER_AGENTS, USER_CLAUDE),
    imports=False,
    native_files=DIR_FILES,
    # 1.18.33 (bin opencode, the Skill service: `.claude` and `.agents` from the cwd up to the worktree,
    # `skills/**/SKILL.md`; its config folders `.opencode`, `{skill,skills}/**/SKILL.md`). On a YAML
    # error its ConfigMarkdown.parse turns each `key: value` holding a `:` into a block scalar and
    # parses again.
    skill_dirs=(".opencode/skills", ".opencode/skill", ".claude/skills", ".agents/skills"),
    skill_frontmatter="recover",
)
