"""What each agent reads, as data. A profile is the single place that knows an agent's habits."""

from __future__ import annotations

from dataclasses import dataclass

from jitctx.errors import UsageError

KIB = 1024


@dataclass(frozen=True)
class RulesDir:
    """A folder of scoped rule files, e.g. `.claude/rules/**/*.md`."""

    path: str  # POSIX, relative to the project root (or to the home directory for user rules)
    suffix: str  # file names must end with this


@dataclass(frozen=True)
class Profile:
    name: str
    summary: str
    # Candidate names checked in every directory of a chain, lowest priority first.
    dir_files: tuple[str, ...]
    # Loaded after everything else of the project (the `local` tier), per directory.
    local_files: tuple[str, ...]
    # Checked at the project root only (e.g. `.github/copilot-instructions.md`).
    root_files: tuple[str, ...]
    rules_dirs: tuple[RulesDir, ...]
    user_files: tuple[str, ...]  # relative to the home directory
    user_rules_dirs: tuple[RulesDir, ...]
    managed_files: tuple[str, ...]  # absolute
    scope_keys: tuple[str, ...]
    root_markers: tuple[str, ...]
    max_bytes: int
    # "jitctx": drop the broadest files first, cut the most specific; "codex": root first, cut, drop the rest
    truncation: str
    render: str  # "claude", "codex" or "plain"
    glob_dialect: str  # "bun", "gitignore" or "copilot"
    imports: bool
    # Per directory, only the first existing candidate counts (Codex: AGENTS.override.md wins over AGENTS.md).
    first_match_per_dir: bool = False
    # Does the agent discover nested files by itself while it works?
    native_jit: bool = True
    # File names the agent already loads on its own; a hook must not send them again.
    native_files: tuple[str, ...] = ()


_CLAUDE_MANAGED = ("/etc/claude-code/CLAUDE.md", "/Library/Application Support/ClaudeCode/CLAUDE.md")
_SCOPE_KEYS = ("paths", "globs", "applyTo", "fileMatchPattern")

CLAUDE_RULES = RulesDir(".claude/rules", ".md")
CURSOR_RULES = RulesDir(".cursor/rules", ".mdc")
COPILOT_RULES = RulesDir(".github/instructions", ".instructions.md")
KIRO_RULES = RulesDir(".kiro/steering", ".md")

PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile(
            name="jitctx",
            summary="every known instruction format (the default)",
            dir_files=(
                "CLAUDE.md",
                ".claude.md",
                "claude.md",
                ".claude/CLAUDE.md",
                ".claude/instructions.md",
                "AGENTS.md",
                "GEMINI.md",
            ),
            local_files=("CLAUDE.local.md",),
            root_files=(".github/copilot-instructions.md",),
            rules_dirs=(CLAUDE_RULES, CURSOR_RULES, COPILOT_RULES, KIRO_RULES),
            user_files=(".claude/CLAUDE.md", ".codex/AGENTS.md", ".gemini/GEMINI.md"),
            user_rules_dirs=(CLAUDE_RULES,),
            managed_files=_CLAUDE_MANAGED,
            scope_keys=_SCOPE_KEYS,
            root_markers=(".git", ".jitctx.toml"),
            max_bytes=64 * KIB,
            truncation="jitctx",
            render="plain",
            glob_dialect="bun",
            imports=True,
        ),
        Profile(
            name="claude-code",
            summary="Claude Code: CLAUDE.md chain, .claude/rules, CLAUDE.local.md",
            dir_files=("CLAUDE.md", ".claude/CLAUDE.md"),
            local_files=("CLAUDE.local.md",),
            root_files=(),
            rules_dirs=(CLAUDE_RULES,),
            user_files=(".claude/CLAUDE.md",),
            user_rules_dirs=(CLAUDE_RULES,),
            managed_files=_CLAUDE_MANAGED,
            scope_keys=("paths",),
            root_markers=(".git",),
            max_bytes=64 * KIB,
            truncation="jitctx",
            render="claude",
            glob_dialect="gitignore",
            imports=True,
            native_files=("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"),
        ),
        Profile(
            name="codex",
            summary="Codex: AGENTS.override.md > AGENTS.md per directory, root to cwd, 32 KiB",
            dir_files=("AGENTS.override.md", "AGENTS.md"),
            local_files=(),
            root_files=(),
            rules_dirs=(),
            user_files=(".codex/AGENTS.override.md", ".codex/AGENTS.md"),
            user_rules_dirs=(),
            managed_files=(),
            scope_keys=(),
            root_markers=(".git",),
            max_bytes=32 * KIB,
            truncation="codex",
            render="codex",
            glob_dialect="bun",
            imports=False,
            first_match_per_dir=True,
            native_jit=False,
            native_files=("AGENTS.override.md", "AGENTS.md"),
        ),
        Profile(
            name="dsh",
            summary="DeepSeek Harness: AGENTS.md hierarchy, 64 KiB rendered budget",
            dir_files=("AGENTS.md",),
            local_files=(),
            root_files=(),
            rules_dirs=(),
            user_files=(),
            user_rules_dirs=(),
            managed_files=(),
            scope_keys=(),
            root_markers=(".git",),
            max_bytes=64 * KIB,
            truncation="jitctx",
            render="dsh",
            glob_dialect="bun",
            imports=False,
            native_files=("AGENTS.md",),
        ),
        Profile(
            name="gemini",
            summary="Gemini CLI: GEMINI.md hierarchy bounded by .git",
            dir_files=("GEMINI.md",),
            local_files=(),
            root_files=(),
            rules_dirs=(),
            user_files=(".gemini/GEMINI.md",),
            user_rules_dirs=(),
            managed_files=(),
            scope_keys=(),
            root_markers=(".git",),
            max_bytes=64 * KIB,
            truncation="jitctx",
            render="plain",
            glob_dialect="bun",
            imports=True,
            native_files=("GEMINI.md",),
        ),
        Profile(
            name="cursor",
            summary="Cursor: .cursor/rules/*.mdc with globs/alwaysApply, AGENTS.md",
            dir_files=("AGENTS.md",),
            local_files=(),
            root_files=(".cursorrules",),
            rules_dirs=(CURSOR_RULES,),
            user_files=(),
            user_rules_dirs=(),
            managed_files=(),
            scope_keys=("globs",),
            root_markers=(".git",),
            max_bytes=64 * KIB,
            truncation="jitctx",
            render="plain",
            glob_dialect="bun",
            imports=False,
        ),
        Profile(
            name="copilot",
            summary="GitHub Copilot: .github/copilot-instructions.md, .github/instructions/*.instructions.md",
            dir_files=("AGENTS.md",),
            local_files=(),
            root_files=(".github/copilot-instructions.md",),
            rules_dirs=(COPILOT_RULES,),
            user_files=(),
            user_rules_dirs=(),
            managed_files=(),
            scope_keys=("applyTo",),
            root_markers=(".git",),
            max_bytes=64 * KIB,
            truncation="jitctx",
            render="plain",
            glob_dialect="copilot",
            imports=False,
        ),
    )
}

DEFAULT_PROFILE = "jitctx"


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise UsageError(f"unknown agent profile {name!r}; choose one of: {known}") from None
