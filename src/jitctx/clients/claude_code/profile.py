"""What Claude Code reads by itself: the CLAUDE.md chain, `.claude/rules`, CLAUDE.local.md, and AGENTS.md
where no CLAUDE.md is (the built-in `agents-md` plugin, since 2.1.277)."""

from __future__ import annotations

from jitctx.profiles import CLAUDE_RULES, MANAGED_FILES, Profile

# Claude Code's own directory files: it loads them whatever a `paths:` in their frontmatter says.
OWN_FILES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")

PROFILE = Profile(
    name="claude-code",
    summary="Claude Code: CLAUDE.md chain, .claude/rules, CLAUDE.local.md",
    dir_files=("CLAUDE.md", ".claude/CLAUDE.md"),
    # Since Claude Code 2.1.277; the real client, run against a scripted model, confirms that a
    # CLAUDE.md anywhere on the cwd chain keeps every AGENTS.md out (tests/e2e).
    fallback_files=(("AGENTS.md", "CLAUDE.md"),),
    local_files=("CLAUDE.local.md",),
    rules_dirs=(CLAUDE_RULES,),
    user_files=(".claude/CLAUDE.md",),
    user_rules_dirs=(CLAUDE_RULES,),
    managed_files=MANAGED_FILES,
    scope_keys=("paths",),
    render="claude",
    glob_dialect="gitignore",
    native_files=("CLAUDE.md", ".claude/CLAUDE.md", "AGENTS.md", "CLAUDE.local.md"),
    unscoped_files=OWN_FILES,
    skill_dirs=(".claude/skills",),
    skill_tool="Skill",
)
