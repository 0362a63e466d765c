"""Instruction files outside the project that a symbolic link inside it leads to.

jitctx never reads them: a directory is inside the project by its real path (§2.4), so a link out of the
project is outside. A client that follows links reads them all the same: one of the live clients walks a
linked folder like any other and loads the AGENTS.md it finds there by itself. `lint` (the maintainer's
view) reports each as a finding, `doctor` (the user's) as a check; the caller says which names are
instruction files (the profiles it answers for).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from jitctx.govern.findings import Finding, finding
from jitctx.paths import is_inside
from jitctx.profiles import Profile
from jitctx.walk import walk_tree

# A link may lead anywhere (a home, `/`): what is walked behind one is bounded.
MAX_DEPTH = 8
MAX_ENTRIES = 5000
_SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__"})


@dataclass(frozen=True)
class LinkedFile:
    """An instruction file outside the project, as a client sees it through a link in the project."""

    link: str  # the link, POSIX relative to the root
    target: str  # where the link leads (its real path)
    file: str  # the instruction file through the link, POSIX relative to the root


class InstructionPaths:
    """Which root-relative POSIX paths are instruction files to any of `profiles`: a directory file or a
    local file in any folder, a root file at the root, a rule in a rules folder."""

    def __init__(self, profiles: Iterable[Profile]) -> None:
        names: set[str] = set()
        self.root_files: set[str] = set()
        self.rules: set[tuple[str, str]] = set()
        for profile in profiles:
            names.update(profile.dir_files, profile.local_files)
            self.root_files.update(profile.root_files)
            self.rules.update((rules.path, rules.suffix) for rules in profile.rules_dirs)
        self.names = frozenset(name for name in names if "/" not in name)
        self.nested = tuple(sorted(name for name in names if "/" in name))  # `.claude/CLAUDE.md`

    def __call__(self, path: str) -> bool:
        if path in self.root_files or path.rpartition("/")[2] in self.names:
            return True
        if any(path == name or path.endswith("/" + name) for name in self.nested):
            return True
        return any(f"/{folder}/" in "/" + path and path.endswith(suffix) for folder, suffix in self.rules)


def linked_instruction_files(
    root: str, paths: Iterable[str], is_instruction: InstructionPaths
) -> list[LinkedFile]:
    """The instruction files outside `root` that the links among `paths` (root-relative, as git or a walk
    lists them: a linked folder is one entry) lead to, in path order."""
    real_root = os.path.realpath(root)
    found: list[LinkedFile] = []
    for path in sorted(paths):
        full = os.path.join(root, *path.split("/"))
        if not os.path.islink(full):
            continue
        target = os.path.realpath(full)
        if is_inside(target, real_root):
            continue  # inside the project: jitctx reads it as the project's own
        if os.path.isfile(target):
            if is_instruction(path):
                found.append(LinkedFile(path, target, path))
        elif os.path.isdir(target):
            behind = sorted(_behind(target, path, is_instruction))
            found.extend(LinkedFile(path, target, f"{path}/{rel}") for rel in behind)
    return found


def _behind(target: str, link: str, is_instruction: InstructionPaths) -> list[str]:
    """Paths (relative to `target`) of the instruction files in the folder a link leads to, as they read
    through the link; bounded in depth and in entries looked at."""
    found: list[str] = []
    seen = 0
    for current, dirs, files in walk_tree(target, skip=_SKIP_DIRS):
        rel = os.path.relpath(current, target)
        prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        if prefix.count("/") >= MAX_DEPTH:
            dirs[:] = []
        seen += len(dirs) + len(files)
        found.extend(prefix + name for name in files if is_instruction(f"{link}/{prefix}{name}"))
        if seen > MAX_ENTRIES:
            break
    return found


def link_findings(linked: Iterable[LinkedFile], already: Iterable[str] = ()) -> list[Finding]:
    """One warning per instruction file reachable through a link out of the project; files `already`
    reported (a linked instruction file that lint skips) are left out."""
    skipped = set(already)
    return [
        finding(
            "instruction-link-outside",
            item.file,
            1,
            f"{item.file} is outside the project (the link {item.link} leads to {item.target}): jitctx does "
            "not read it, but a client that follows links loads it as an instruction file",
            f"copy what applies into the project and remove the link {item.link}, or point it inside the "
            "project",
        )
        for item in linked
        if item.file not in skipped
    ]
