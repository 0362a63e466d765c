"""How many files of the repository one glob of a scope matches, in one agent's glob dialect.

A glob that matches no file is dead: the rule it scopes never loads for it. Counting asks every
repository path, so each count is narrowed to the paths under the glob's literal leading folder (found by
bisection in the sorted list, or in a lower-cased one for a dialect that ignores case) and remembered per
(glob, dialect, folder): a hundred rules over a large monorepo repeat few globs.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from jitctx.scope import FOLDS_CASE, ScopeError, compile_scope, literal_prefix, scope_matches


@dataclass(frozen=True)
class GlobCount:
    """One glob of a scope as written, and how many repository files it matches."""

    glob: str
    matches: int
    # `!glob` narrows the other globs of its scope; its count is of the files it takes away, and it is
    # never dead (alone it matches nothing by design).
    negated: bool = False

    @property
    def dead(self) -> bool:
        return not self.negated and self.matches == 0


class GlobCounter:
    """Counts over one sorted list of root-relative POSIX file paths."""

    def __init__(self, paths: Sequence[str]) -> None:
        self._paths = sorted(paths)
        self._cache: dict[tuple[str, str, str], int] = {}
        self._folded: tuple[list[str], list[str]] | None = None  # (lower-cased keys, paths), sorted

    @property
    def files(self) -> int:
        return len(self._paths)

    def count(self, glob: str, dialect: str, folder: str = "") -> GlobCount:
        """The files `glob` matches in `dialect`, taken relative to `folder` (`pkg/`, or "" for the
        root: a rule of a nested rules folder is scoped relative to the folder that holds it)."""
        negated = glob.startswith("!")
        core = glob[1:] if negated else glob
        key = (core, dialect, folder)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._count(core, dialect, folder)
        return GlobCount(glob, found, negated)

    def _count(self, glob: str, dialect: str, folder: str) -> int:
        try:
            regex = compile_scope((glob,), dialect)
        except ScopeError:
            return 0  # a glob that cannot be read matches nothing (lint says why)
        prefix = folder + literal_prefix(glob, dialect)
        keys, paths = self._paths, self._paths
        if dialect in FOLDS_CASE and prefix.lower() != prefix.upper():
            keys, paths = self._lower_cased()
            prefix = prefix.lower()
        total = 0
        for index in range(bisect.bisect_left(keys, prefix), len(keys)):
            if not keys[index].startswith(prefix):
                break
            path = paths[index]
            if path.startswith(folder) and scope_matches(regex, path[len(folder) :]):
                total += 1
        return total

    def _lower_cased(self) -> tuple[list[str], list[str]]:
        if self._folded is None:
            pairs = sorted((path.lower(), path) for path in self._paths)
            self._folded = [key for key, _ in pairs], [path for _, path in pairs]
        return self._folded
