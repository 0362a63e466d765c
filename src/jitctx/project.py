"""A project: its root, the agent profile, its config, and cached reads of its instruction files."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from jitctx.config import USER_CONFIG, Config, load_config, load_user_config
from jitctx.errors import UsageError
from jitctx.model import InstructionFile, Skip, Tier
from jitctx.paths import is_inside, relative_posix
from jitctx.profiles import DEFAULT_PROFILE, Profile, RulesDir, get_profile
from jitctx.reading import ReadOutcome, read_instruction
from jitctx.skill_paths import in_skill
from jitctx.walk import TOO_DEEP, walk_tree


@dataclass(frozen=True)
class Candidate:
    """A place where an instruction file may exist."""

    path: str  # absolute
    tier: Tier
    from_rules_dir: bool = False
    # What a scope is relative to: "root", "cwd" (user and managed rules) or "dir" (a rule of a nested
    # rules folder: relative to `directory`, the directory that holds the folder).
    base: str = "root"
    directory: str | None = None  # the chain directory a per-directory candidate belongs to


class Project:
    """The root of a repository as one agent profile sees it.

    `home` is where user-level files live (`~/.claude/CLAUDE.md`, …); pass None to leave the user tier out,
    which is what tests and reproducible CI runs want. `managed_files` overrides the profile's list.
    `user_config` is the user's own config (default: `.config/jitctx/config.toml` in `home`), the only
    place for settings that widen what is read; with neither, no user config is read.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        profile: str | Profile | None = None,
        config: Config | None = None,
        *,
        home: str | os.PathLike[str] | None = None,
        managed_files: tuple[str, ...] | None = None,
        user_config: str | os.PathLike[str] | None = None,
    ) -> None:
        root_path = Path(root)
        if not root_path.exists():
            raise UsageError(f"project root {str(root_path)!r} does not exist; pass an existing --root")
        if not root_path.is_dir():
            raise UsageError(f"project root {str(root_path)!r} is not a directory")
        self.root = os.path.realpath(root_path)
        if user_config is None and home is not None:
            user_config = os.path.join(home, *USER_CONFIG.split("/"))
        self.config = (
            config if config is not None else load_config(Path(self.root), load_user_config(user_config))
        )
        if isinstance(profile, Profile):
            self.profile = profile
        else:
            self.profile = get_profile(profile or self.config.agent or DEFAULT_PROFILE)
        self.home = os.path.realpath(home) if home is not None else None
        self.managed_files = managed_files if managed_files is not None else self.profile.managed_files
        self._cache: dict[str, tuple[tuple[int, int, int], ReadOutcome]] = {}
        self._rules: list[Candidate] | None = None
        # Subfolders candidate names live in (".claude" for ".claude/CLAUDE.md"), in any directory and at
        # the root; fixed by the profile, so worked out once (restore and every scan ask for them).
        nested_rules = tuple(f"{f.path}/{f.suffix}" for f in self.profile.rules_dirs if f.nested)
        self._subfolders = _subfolders((*self.profile.dir_files, *nested_rules))
        self._root_subfolders = _subfolders(
            (*self.profile.dir_files, *nested_rules, *self.profile.root_files)
        )

    @property
    def max_bytes(self) -> int:
        return self.config.max_bytes if self.config.max_bytes is not None else self.profile.max_bytes

    def display(self, real: str) -> str:
        """How a path is shown: POSIX relative to the root inside the project, absolute outside."""
        if is_inside(real, self.root):
            return relative_posix(real, self.root) or "."
        return real

    def read(self, candidate: Candidate) -> ReadOutcome | None:
        """Read a candidate, reusing the last read while its mtime, size and inode are unchanged.

        A project file that is a symlink to somewhere outside the project is not read: nothing from
        outside the project reaches the agent by way of a link.
        """
        try:
            link = os.lstat(candidate.path)
        except FileNotFoundError:
            self._cache.pop(candidate.path, None)
            return None
        except OSError:
            link = None
        # The file itself may be a link, and so may a folder between its chain directory and it
        # (`.claude/CLAUDE.md` with `.claude -> /elsewhere`): either way, resolve it and stay inside.
        linked = link is not None and stat.S_ISLNK(link.st_mode)
        nested = candidate.directory is not None and os.path.dirname(candidate.path) != candidate.directory
        if (linked or nested) and candidate.tier in (Tier.PROJECT, Tier.LOCAL):
            target = os.path.realpath(candidate.path)
            if not is_inside(target, self.root):
                why = f"resolves to {target}, outside the project; not read"
                return ReadOutcome(None, Skip(self.display(candidate.path), why))
        try:
            info = os.stat(candidate.path) if link is None or stat.S_ISLNK(link.st_mode) else link
        except FileNotFoundError:
            return None  # a dangling link
        except OSError:
            info = None
        if info is not None:
            key = (info.st_mtime_ns, info.st_size, info.st_ino)
            cached = self._cache.get(candidate.path)
            if cached is not None and cached[0] == key:
                return cached[1]
        outcome = read_instruction(
            candidate.path,
            self.display(candidate.path),
            candidate.tier,
            self.profile,
            from_rules_dir=candidate.from_rules_dir,
        )
        if outcome is not None and info is not None:
            self._cache[candidate.path] = ((info.st_mtime_ns, info.st_size, info.st_ino), outcome)
        return outcome

    def forget(self, path: str) -> None:
        """Drop the last read of `path`: the next read reads it, whatever its version says."""
        self._cache.pop(path, None)

    def parsed(self, candidate: Candidate, version: tuple[int, int, int]) -> InstructionFile | None:
        """The file as it is at `version` (mtime_ns, size, inode, from a stat just taken): the last read
        when it was of that version, without touching the disk again; otherwise read now."""
        cached = self._cache.get(candidate.path)
        outcome = cached[1] if cached is not None and cached[0] == version else self.read(candidate)
        return outcome.file if outcome is not None else None

    # -- where files may be -------------------------------------------------------------------------

    def managed_candidates(self) -> list[Candidate]:
        return [Candidate(p, Tier.MANAGED, base="cwd") for p in self.managed_files]

    def user_candidates(self) -> list[Candidate]:
        if self.home is None:
            return []
        return [
            Candidate(os.path.join(self.home, name), Tier.USER, base="cwd")
            for name in self.profile.user_files
        ]

    def pinned_candidates(self) -> list[Candidate]:
        """The files `[pin] paths` names that are inside the project (after realpath): a pin never
        reaches outside the project, whatever links lie on its way."""
        pinned: list[Candidate] = []
        for relative in self.config.pinned:
            path = os.path.join(self.root, *relative.split("/"))
            if is_inside(os.path.realpath(os.path.dirname(path)), self.root):
                pinned.append(Candidate(path, Tier.PROJECT))
        return pinned

    def in_skill_folder(self, directory: str) -> bool:
        """Is `directory` (real) a skill's folder or below one (`web/.agents/skills/x/`)? An instruction
        file there is a document of the skill, read with it, not an instruction of the project: it has
        no candidates (jitctx.skill_paths)."""
        return directory != self.root and in_skill(relative_posix(directory, self.root))

    def dir_candidates(self, directory: str) -> list[Candidate]:
        """Candidate files of one directory, lowest priority first (without the local tier)."""
        if self.in_skill_folder(directory):
            return []
        names = list(self.profile.dir_files)
        if directory == self.root:
            names.extend(self.profile.root_files)
        found = [
            Candidate(os.path.join(directory, name), Tier.PROJECT, directory=directory) for name in names
        ]
        if self.profile.first_match_per_dir:
            for candidate in found:
                if os.path.isfile(candidate.path):
                    return [candidate]
            return []
        for group in self.profile.alternatives:
            # Of each group only the first name that exists here counts; the others are not candidates.
            present = [c for c in found if os.path.basename(c.path) in group and os.path.isfile(c.path)]
            first = min(present, key=lambda c: group.index(os.path.basename(c.path)), default=None)
            found = [c for c in found if os.path.basename(c.path) not in group or c is first]
        return found

    def nested_rule_candidates(self, directory: str) -> list[Candidate]:
        """Rules of the nested rules folders of one directory below the root (`pkg/.claude/rules/*.md`);
        the root's own rules folders are `rule_candidates`."""
        if directory == self.root or self.in_skill_folder(directory):
            return []
        found: list[Candidate] = []
        for folder in self.profile.rules_dirs:
            if folder.nested:
                found.extend(
                    Candidate(p, Tier.PROJECT, from_rules_dir=True, base="dir", directory=directory)
                    for p in _rule_files(os.path.join(directory, *folder.path.split("/")), folder)
                )
        return found

    def listing_paths(self, directory: str) -> list[str]:
        """The directory and the subfolders its candidates live in (`.claude` for `.claude/CLAUDE.md`):
        creating or deleting a candidate file changes the mtime of one of them."""
        folders = self._root_subfolders if directory == self.root else self._subfolders
        return [directory, *(os.path.join(directory, folder) for folder in folders)]

    def local_candidates(self, directory: str) -> list[Candidate]:
        if self.in_skill_folder(directory):
            return []
        return [
            Candidate(os.path.join(directory, name), Tier.LOCAL, directory=directory)
            for name in self.profile.local_files
        ]

    def rule_folders(self) -> list[tuple[str, RulesDir, Tier]]:
        """The rules folders (absolute, whether they exist or not), what they hold and its tier: the
        user's first (lower priority), then the project's."""
        folders: list[tuple[str, RulesDir, Tier]] = []
        if self.home is not None:
            folders.extend(
                (os.path.join(self.home, *f.path.split("/")), f, Tier.USER)
                for f in self.profile.user_rules_dirs
            )
        folders.extend(
            (os.path.join(self.root, *f.path.split("/")), f, Tier.PROJECT) for f in self.profile.rules_dirs
        )
        return folders

    def rule_file_paths(self) -> list[str]:
        """The paths `rule_candidates(rescan=True)` would list now, in its order, without building them."""
        inside = self.root
        return [
            path
            for top, folder, tier in self.rule_folders()
            for path in _rule_files(top, folder, None if tier is Tier.USER else inside)
        ]

    def rule_candidates(self, *, rescan: bool = False) -> list[Candidate]:
        """Files of the rules folders: user rules first (lower priority), then the project's. Listed once,
        or again with `rescan` (a session's table of scoped rules asks, see `discovery.rules_watch`)."""
        if self._rules is None or rescan:
            rules: list[Candidate] = []
            for top, folder, tier in self.rule_folders():
                if tier is Tier.USER:
                    # The user's own rules are theirs wherever their links lead.
                    rules.extend(
                        Candidate(p, tier, from_rules_dir=True, base="cwd") for p in _rule_files(top, folder)
                    )
                else:
                    rules.extend(
                        Candidate(p, tier, from_rules_dir=True) for p in _rule_files(top, folder, self.root)
                    )
            self._rules = rules
        return self._rules

    def all_instruction_files(self) -> tuple[list[InstructionFile], list[Skip]]:
        """Every instruction file of the project tree (for lint, budget, provenance), in a stable order."""
        files: list[InstructionFile] = []
        skips: list[Skip] = []
        too_deep: list[str] = []
        candidates = [
            c
            for d in walk_dirs(self.root, too_deep)
            for c in self.dir_candidates(d) + self.nested_rule_candidates(d) + self.local_candidates(d)
        ]
        candidates.extend(c for c in self.rule_candidates() if c.tier is Tier.PROJECT)
        skips.extend(Skip(self.display(d), TOO_DEEP) for d in too_deep)
        seen: set[tuple[int, int]] = set()
        for candidate in candidates:
            outcome = self.read(candidate)
            if outcome is None:
                continue
            if outcome.skip is not None:
                skips.append(outcome.skip)
                continue
            assert outcome.file is not None
            ident = _identity(candidate.path)
            if ident in seen:
                continue
            seen.add(ident)
            files.append(outcome.file)
        return files, skips


def _identity(path: str) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_dev, info.st_ino


_SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".tox"}


def walk_dirs(root: str, too_deep: list[str] | None = None) -> Iterator[str]:
    """Every directory of the tree, top-down, not following symlinks (no loops, nothing outside), at most
    MAX_DEPTH levels down; directories whose subdirectories were left out for depth go to `too_deep`."""
    for current, _, _ in walk_tree(root, skip=_SKIP_DIRS, too_deep=too_deep):
        yield current


def _rule_files(top: str, folder: RulesDir, inside: str | None = None) -> list[str]:
    """The rule files of one rules folder `top`; with `inside`, only those whose real path is in it. The
    walk enters no linked folder, so below the folder's own real path only a linked file can lead
    elsewhere: one realpath for the folder and one per link, not one per rule (a thousand rules would pay
    a realpath each at every startup)."""
    if not os.path.isdir(top):
        return []
    top_inside = inside is None or is_inside(os.path.realpath(top), inside)
    found: list[str] = []
    links: set[str] = set()
    for current, _, filenames in walk_tree(top, file_links=links):
        for name in filenames:
            if not name.endswith(folder.suffix):
                continue
            path = os.path.join(current, name)
            if inside is None or (is_inside(os.path.realpath(path), inside) if path in links else top_inside):
                found.append(path)
    return found


def _subfolders(names: tuple[str, ...]) -> tuple[str, ...]:
    """The folders (native separators) that hold any of the POSIX relative `names`."""
    return tuple(sorted({os.path.join(*name.split("/")[:-1]) for name in names if "/" in name}))
