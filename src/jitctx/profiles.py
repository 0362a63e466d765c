"""What each agent reads, as data. A profile is the single place that knows an agent's habits."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from jitctx import live_clients
from jitctx.errors import UsageError

KIB = 1024
# What makes a directory a project root, for every profile alike: `--agent` changes what is read, never
# where the project is (a subfolder with its own .jitctx.toml is a project inside a larger checkout).
ROOT_MARKERS = (".git", ".jitctx.toml")


@dataclass(frozen=True)
class RulesDir:
    """A folder of scoped rule files, e.g. `.claude/rules/**/*.md`."""

    path: str  # POSIX, relative to the project root (or to the home directory for user rules)
    suffix: str  # file names must end with this
    # Also read in subdirectories (`pkg/.claude/rules`): such a rule belongs to the directory that holds the
    # folder, loads when that directory is walked, and its scope is relative to that directory.
    nested: bool = False
    # How the agent of this format matches the folder's globs (`jitctx.scope.DIALECTS`), whichever agent
    # receives the rule: the folder decides what a glob means, the receiving profile only whether and
    # when the file reaches its agent.
    dialect: str = "bun"


@dataclass(frozen=True)
class SizeLimit:
    """A size limit one agent (or jitctx) applies to instruction text, and what happens past it.

    Budgets and lint name each number's owner: a limit that only makes the agent warn is a warning, not a
    cut, and jitctx's own model of a budget is not the agent's."""

    owner: str  # whose limit it is: an agent's profile name, or "jitctx"
    name: str  # how its owner calls it, for people
    applies_to: str  # "file" (each instruction file), "startup" (all loaded at start), "hook" (one answer)
    unit: str  # "bytes" or "chars" (characters, as the owner counts them)
    value: int
    cuts: bool  # True: text past the limit does not arrive; False: the owner only warns
    effect: str  # what happens past it, in a few words

    def to_dict(self) -> dict[str, object]:
        return {
            "owner": self.owner,
            "name": self.name,
            "applies_to": self.applies_to,
            "unit": self.unit,
            "value": self.value,
            "cuts": self.cuts,
            "effect": self.effect,
        }


@dataclass(frozen=True)
class Profile:
    """One agent's habits. Defaults describe the common case; each profile states only how it differs."""

    name: str
    summary: str
    # Candidate names checked in every directory of a chain, lowest priority first.
    dir_files: tuple[str, ...]
    # (name, unless): the agent reads `name` by itself only where no directory from the root down to its
    # cwd holds an `unless` file (Claude Code reads AGENTS.md in a project without CLAUDE.md): discovery
    # then lists them, and a hook leaves them to the agent.
    fallback_files: tuple[tuple[str, str], ...] = ()
    # Loaded after everything else of the project (the `local` tier), per directory.
    local_files: tuple[str, ...] = ()
    # Checked at the project root only (e.g. `.github/copilot-instructions.md`).
    root_files: tuple[str, ...] = ()
    rules_dirs: tuple[RulesDir, ...] = ()
    user_files: tuple[str, ...] = ()  # relative to the home directory
    user_rules_dirs: tuple[RulesDir, ...] = ()
    managed_files: tuple[str, ...] = ()  # absolute
    scope_keys: tuple[str, ...] = ()
    # Scope keys the agent reads as comma-separated text, not YAML (Cursor's `globs`): a YAML list there is
    # one literal pattern to it, matching no file.
    text_scope_keys: tuple[str, ...] = ()
    # Rule files (by suffix) that the agent loads whole at start when they declare no scope, where their
    # format applies them only on request (Copilot CLI: an `.instructions.md` without `applyTo`).
    unscoped_rules_load: tuple[str, ...] = ()
    # (key, glob) pairs of a scope that the agent reads as every file and loads whole at start, not on a
    # touch (Copilot CLI: `applyTo: "**"`). A scope is such only when every one of its globs is.
    whole_scopes: tuple[tuple[str, str], ...] = ()
    max_bytes: int = 64 * KIB
    # "jitctx": drop the broadest files first, cut the most specific; "root-first" (Codex's): keep from the
    # root down, cut the file that crosses the limit, drop the rest
    truncation: str = "jitctx"
    render: str = "plain"  # "claude", "agents-md", "plain" or "dsh" (assemble.render.STYLES)
    imports: bool = True
    # Per directory, only the first existing candidate counts (Codex: AGENTS.override.md wins over AGENTS.md).
    first_match_per_dir: bool = False
    # Per directory, of each group of names only the first that exists counts; names in no group all do
    # (jitctx's own profile read as Codex reads its files: AGENTS.override.md, else AGENTS.md, else the
    # configured fallbacks, beside CLAUDE.md and the rest).
    alternatives: tuple[tuple[str, ...], ...] = ()
    # Does the agent discover nested files by itself while it works?
    native_jit: bool = True
    # Does an agent without that (`native_jit` False) still load its scoped rules-folder files itself after
    # the tool calls it follows (Qwen Code's conditional `.qwen/rules`)?
    rules_after_tool: bool = False
    # File names the agent already loads on its own; a hook must not send them again.
    native_files: tuple[str, ...] = ()
    # Directory files whose frontmatter scope the agent ignores: they load on any touch of their subtree.
    # A scope in a nested CLAUDE.md is jitctx's own feature; Claude Code honours `paths:` only in rules
    # folders (the real client, tests/e2e).
    unscoped_files: tuple[str, ...] = ()
    # Agent Skills folders the agent reads (root-relative), and the tool through which it runs a skill
    # (its hook events show each use; "" when none is seen).
    skill_dirs: tuple[str, ...] = (".claude/skills", ".agents/skills", ".gemini/skills")
    skill_tool: str = ""
    # How the agent reads a SKILL.md whose frontmatter is not valid YAML (`description: Use when: x`):
    # "yaml" skips the skill, as the Agent Skills spec reads it; "recover" reads its `key: value` lines
    # by a recovery of its own and lists the skill (govern.skills.lists).
    skill_frontmatter: str = "yaml"
    # Whose `max_bytes` is and whether the agent itself cuts its startup files there. Codex stops at its
    # `project_doc_max_bytes`; an agent that loads every file whole keeps `max_bytes` as jitctx's own
    # model of a budget (render, explain), which says nothing about what that agent drops.
    max_bytes_owner: str = "jitctx"
    max_bytes_name: str = "max_bytes"
    max_bytes_cuts: bool = True
    # The agent's other size limits: warnings it shows, the cap on what one hook answer may carry.
    size_limits: tuple[SizeLimit, ...] = ()

    def startup_limit(self, max_bytes: int | None = None, configured: bool = False) -> SizeLimit:
        """The limit on what loads at startup, with its owner: a `max_bytes` from the project's config is
        the project's own budget (enforced); otherwise the profile's, cut or modelled as it says."""
        if configured and max_bytes is not None:
            budget = "the project's own budget"
            return SizeLimit("jitctx", "max_bytes (config)", "startup", "bytes", max_bytes, True, budget)
        value = self.max_bytes if max_bytes is None else max_bytes
        if self.max_bytes_cuts:
            effect = "cuts what does not fit"
        else:
            effect = f"{self.name} loads its files whole; this is jitctx's model (render, explain)"
        return SizeLimit(
            self.max_bytes_owner, self.max_bytes_name, "startup", "bytes", value, self.max_bytes_cuts, effect
        )

    def limits_for(self, applies_to: str) -> tuple[SizeLimit, ...]:
        return tuple(limit for limit in self.size_limits if limit.applies_to == applies_to)

    def scope_is_whole(self, key: str, patterns: Sequence[str]) -> bool:
        """Does this agent load a rule scoped by `key: patterns` at start, as if it had no scope?"""
        return bool(patterns) and all((key, pattern) in self.whole_scopes for pattern in patterns)

    def dialect_for(self, path: str) -> str:
        """The glob dialect of the file at `path` (absolute or relative, native or POSIX): that of the
        rules folder of this profile it lies in (`RulesDir.dialect`), else jitctx's own, "bun". By the
        path, not by how the file was listed: a rule read again by its path means what it meant."""
        posix = "/" + path.replace(os.sep, "/")
        for folder in (*self.rules_dirs, *self.user_rules_dirs):
            if f"/{folder.path}/" in posix and posix.endswith(folder.suffix):
                return folder.dialect
        return "bun"

    def ignores_scope(self, path: str, from_rules_dir: bool) -> bool:
        """Does this agent load the file at `path` whatever scope its frontmatter declares?"""
        if from_rules_dir:
            return False
        posix = path.replace(os.sep, "/")
        return any(posix == name or posix.endswith("/" + name) for name in self.unscoped_files)


# The managed (organisation-wide) CLAUDE.md places.
MANAGED_FILES = ("/etc/claude-code/CLAUDE.md", "/Library/Application Support/ClaudeCode/CLAUDE.md")
SCOPE_KEYS = ("paths", "globs", "applyTo", "fileMatchPattern")
# Every skills folder a live client reads (each declares its own in its profile's `skill_dirs`; a test
# keeps this the union): the default profile's, and where a file belongs to a skill (`skill_paths`).
SKILL_DIRS = (
    ".claude/skills",
    ".agents/skills",
    ".gemini/skills",
    ".github/skills",
    ".qwen/skills",
    ".opencode/skills",
    ".opencode/skill",
)

# Each format's glob dialect (jitctx.scope):
# - Claude Code matches `.claude/rules` globs with the npm `ignore` package (gitignore rules, any case),
#   after expanding braces and dropping a trailing `/**` (its 2.1.332 bundle).
# - Copilot's `applyTo`, as Copilot CLI 1.0.102 matches it (globset: a glob without `/` matches the file
#   name at any depth).
# - Cursor's `globs`: no source here establishes how Cursor matches them (it is no live client, and
#   cursor.com/docs/rules gives examples, not semantics), so they keep jitctx's own dialect.
# - Kiro's `fileMatchPattern`: likewise unmeasured; jitctx's own dialect.
CLAUDE_RULES = RulesDir(".claude/rules", ".md", nested=True, dialect="gitignore")
CURSOR_RULES = RulesDir(".cursor/rules", ".mdc", nested=True, dialect="bun")
COPILOT_RULES = RulesDir(".github/instructions", ".instructions.md", dialect="copilot")
KIRO_RULES = RulesDir(".kiro/steering", ".md", dialect="bun")

FORMAT_PROFILES: dict[str, Profile] = {
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
            managed_files=MANAGED_FILES,
            scope_keys=SCOPE_KEYS,
            skill_dirs=SKILL_DIRS,
        ),
        Profile(
            name="dsh",
            summary="DeepSeek Harness: AGENTS.md hierarchy, 64 KiB rendered budget",
            dir_files=("AGENTS.md",),
            render="dsh",
            imports=False,
            native_files=("AGENTS.md",),
        ),
        Profile(
            name="cursor",
            summary="Cursor: .cursor/rules/*.mdc with globs/alwaysApply, AGENTS.md",
            dir_files=("AGENTS.md",),
            root_files=(".cursorrules",),
            rules_dirs=(CURSOR_RULES,),
            scope_keys=("globs",),
            text_scope_keys=("globs",),
            imports=False,
        ),
        Profile(
            name="copilot",
            summary="GitHub Copilot: .github/copilot-instructions.md, .github/instructions/*.instructions.md",
            dir_files=("AGENTS.md",),
            root_files=(".github/copilot-instructions.md",),
            rules_dirs=(COPILOT_RULES,),
            scope_keys=("applyTo",),
            imports=False,
        ),
    )
}

DEFAULT_PROFILE = "jitctx"


class _AllProfiles(Mapping[str, Profile]):
    """The format profiles above, then one per live client. A live client declares its profile in its
    own folder (jitctx.clients) and reaches this module through `jitctx.live_clients`, so this module
    names no client and the core imports none."""

    def __init__(self) -> None:
        self._all: dict[str, Profile] | None = None
        self._aliases: dict[str, str] = {}

    def _load(self) -> dict[str, Profile]:
        if self._all is None:
            # The default first, then the live clients, then the other formats.
            merged = {DEFAULT_PROFILE: FORMAT_PROFILES[DEFAULT_PROFILE]}
            for client in live_clients.every():
                merged[client.name] = client.profile()
                self._aliases.update(dict.fromkeys(client.aliases, client.name))
            self._all = {**merged, **FORMAT_PROFILES}
        return self._all

    def __getitem__(self, name: str) -> Profile:
        profiles = self._load()
        return profiles[self._aliases.get(name, name)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __contains__(self, name: object) -> bool:
        return name in self._load() or name in self._aliases

    def aliases(self) -> dict[str, str]:
        self._load()
        return dict(self._aliases)


PROFILES = _AllProfiles()


def get_profile(name: str) -> Profile:
    profile = FORMAT_PROFILES.get(name)
    if profile is not None:
        return profile  # no client module is imported for a format profile
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise UsageError(f"unknown agent profile {name!r}; choose one of: {known}") from None


def profile_names() -> list[str]:
    """Every profile name `--agent` takes: the default, the live clients', the other formats'."""
    return list(PROFILES)
