"""What Claude Code reads by itself: the CLAUDE.md chain, `.claude/rules`, CLAUDE.local.md, and AGENTS.md
where no CLAUDE.md is (the built-in `agents-md` plugin, since 2.1.277)."""

from __future__ import annotations

from jitctx.profiles import CLAUDE_RULES, MANAGED_FILES, Profile, SizeLimit

NAME = "claude-code"
# Claude Code 2.1.332 cuts none of its instruction files (only files over 4 MiB are skipped, as jitctx
# skips them); past these sizes it warns "Large CLAUDE.md will impact performance" and loads them whole.
# The per-file figure is max(40,000, 5% of the context window in tokens x characters per token), so
# 40,000 with a 200k window; the total is max(120,000, the per-file figure), over files not alone over it.
FILE_WARNING_CHARS = 40_000
TOTAL_WARNING_CHARS = 120_000
# What one hook answer may carry: Claude Code keeps 10,000 characters of a hook's additional context in
# the conversation, so jitctx's hook sends whole files up to it and names the rest (hook.context).
HOOK_CONTEXT_CHARS = 10_000
LIMITS = (
    SizeLimit(
        NAME, "Large CLAUDE.md warning", "file", "chars", FILE_WARNING_CHARS, False,
        "says the file will impact performance; it still loads whole",
    ),
    SizeLimit(
        NAME, "instruction files total warning", "startup", "chars", TOTAL_WARNING_CHARS, False,
        "says the files will impact performance; they still load whole",
    ),
    SizeLimit(
        NAME, "hook additional context", "hook", "chars", HOOK_CONTEXT_CHARS, True,
        "jitctx's hook sends whole files up to it and names the others for the agent to read",
    ),
)  # fmt: skip

# Claude Code's own directory files: it loads them whatever a `paths:` in their frontmatter says.
OWN_FILES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")

PROFILE = Profile(
    name=NAME,
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
    # A `paths:` of only `**` is no scope to it: the rule loads at start (2.1.332).
    whole_scopes=(("paths", "**"),),
    render="claude",
    native_files=("CLAUDE.md", ".claude/CLAUDE.md", "AGENTS.md", "CLAUDE.local.md"),
    unscoped_files=OWN_FILES,
    # Its own skills folder only (2.1.332, bin claude: `.agents/skills` appears only as a source it
    # imports from Cursor). On a YAML error it quotes each `key: value` holding `: `, `#`, `*`... and
    # parses again (the same bundle, the frontmatter reader's retry), so it lists such a skill.
    skill_dirs=(".claude/skills",),
    skill_frontmatter="recover",
    skill_tool="Skill",
    max_bytes_cuts=False,
    size_limits=LIMITS,
)
