"""The scoped rules of the rules folders, prepared for matching on every tool call.

A hook runs in a new process per tool call. Parsing every rule's frontmatter there would import the YAML
and glob libraries each time, so the parse of each rule (its scope as a regex) is kept in `cache`, which
the session store saves with the session; a rule is parsed again only when its mtime, size or inode change.
A long-lived session builds its table again when `rules_watch` says the rules folders changed.

Matching a touched path against thousands of rules one by one would cost a regex match each; the table
files its rules in a `GlobIndex` (built on first use) so that only the few that may match are tested.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from jitctx.discovery.glob_index import GlobIndex, IndexedScope
from jitctx.linear_regex import LinearPattern
from jitctx.model import Scope
from jitctx.project import Candidate, Project
from jitctx.scope import compiled_scope

# path -> [mtime_ns, size, inode, patterns or None, key, dialect, regex, recovered, revision]
ScopeCache = dict[str, list[Any]]
# What the dialects' regexes are as of this jitctx: a session saved by one that compiled them otherwise
# (2: each rules folder in its format's dialect; Claude Code's any case and dropped trailing `/**`) has its
# rules parsed again.
SCOPE_REVISION = 2


@dataclass(frozen=True)
class ScopedRule:
    candidate: Candidate
    scope: Scope

    @cached_property
    def pattern(self) -> LinearPattern:
        # Compiled on first use: a glob's regex takes ~0.3 ms to compile, and the index tests only a few.
        return compiled_scope(self.scope.regex)

    def compiled(self) -> LinearPattern:
        return self.pattern


class RuleTable(list[ScopedRule]):
    """The scoped rules in the order they load, with an index over those scoped relative to the root."""

    _index: GlobIndex | None = None
    _paths: frozenset[str] = frozenset()
    _others: tuple[int, ...] = ()

    def _build(self) -> GlobIndex:
        index = GlobIndex(
            IndexedScope(position, rule.scope, rule.compiled)
            for position, rule in enumerate(self)
            if rule.candidate.base == "root"
        )
        self._others = tuple(i for i, rule in enumerate(self) if rule.candidate.base != "root")
        self._paths = frozenset(rule.candidate.path for rule in self)
        self._index = index
        return index

    def lookups(self) -> dict[str, Any]:
        """The index's tables as plain data, for the fast lane (`jitctx.discovery.quick`): rules by
        prefix, name and extension, and the positions of those tested every time (not filed under a key,
        or scoped relative to something other than the root)."""
        index = self._index if self._index is not None else self._build()
        return {
            "prefix": index.by_prefix,
            "name": index.by_name,
            "ext": index.by_ext,
            "always": sorted([*index.unkeyed(), *self._others]),
        }

    @property
    def paths(self) -> frozenset[str]:
        """The rule files of the table."""
        if self._index is None:
            self._build()
        return self._paths

    def matching(
        self,
        rel: str,
        loaded: Collection[str],
        match_other: Callable[[ScopedRule], bool],
        held: int | None = None,
        settled: Callable[[ScopedRule], bool] | None = None,
    ) -> tuple[list[ScopedRule], int]:
        """The rules whose scope matches root-relative `rel`, in table order, and how many others are
        neither matched nor in `loaded` (the scope skips a discovery counts). Rules scoped relative to
        something else (the cwd) are asked `match_other`, one by one: they are few. `held`, when known,
        is how many of `paths` are in `loaded`. A rule `settled` says a match would change nothing for
        (held, and known unchanged) is left out untested: most rules a warm touch matches are such."""
        index = self._index if self._index is not None else self._build()
        found = index.candidates(rel)
        if settled is not None:
            found = {position for position in found if not settled(self[position])}
        positions = sorted(p for p in found if self[p].pattern.match(rel))
        if self._others:
            positions = sorted([*positions, *(i for i in self._others if match_other(self[i]))])
        matched = [self[i] for i in positions]
        if not loaded:
            held = 0
        elif len(self._paths) == len(self):
            if held is None:
                held = len(self._paths.intersection(loaded))
        else:  # the same file twice in the table: count each entry, as a loop over the rules would
            held = sum(1 for rule in self if rule.candidate.path in loaded)
        held_matched = sum(1 for rule in matched if rule.candidate.path in loaded)
        return matched, len(self) - held - (len(matched) - held_matched)


# The tables of the rule sets a long-lived process (the warm daemon, the MCP server) has seen, by their
# rules and scopes: each event builds a session of its own, and would otherwise index every rule again.
_TABLES: dict[tuple[tuple[Candidate, str], ...], RuleTable] = {}
_MAX_TABLES = 8


def build_rule_table(project: Project, cache: ScopeCache, *, rescan: bool = False) -> RuleTable:
    """One stat per rule; a rule whose version is in `cache` is not read. `cache` is updated in place.
    With `rescan`, the rules folders are listed again first (see `Project.rule_candidates`)."""
    scoped = []
    for candidate in project.rule_candidates(rescan=rescan):
        scope = _scope_of(project, candidate, cache)
        if scope is not None:
            scoped.append((candidate, scope))
    key = tuple((candidate, scope.regex) for candidate, scope in scoped)
    table = _TABLES.get(key)
    if table is None or [rule.scope for rule in table] != [scope for _, scope in scoped]:
        table = RuleTable(ScopedRule(rule, scope) for rule, scope in scoped)
        if len(_TABLES) >= _MAX_TABLES:
            del _TABLES[next(iter(_TABLES))]
        _TABLES[key] = table
    return table


def _scope_of(project: Project, candidate: Candidate, cache: ScopeCache) -> Scope | None:
    try:
        info = os.stat(candidate.path)
    except OSError:
        cache.pop(candidate.path, None)
        return None
    version = [info.st_mtime_ns, info.st_size, info.st_ino]
    entry = cache.get(candidate.path)
    # A scope compiled in another dialect than its rules folder's, or by a jitctx that compiled the
    # dialects otherwise, is not this one's answer: the file is parsed again.
    if (
        entry is not None
        and entry[:3] == version
        and entry[8:] == [SCOPE_REVISION]
        and (entry[3] is None or entry[5] == project.profile.dialect_for(candidate.path))
    ):
        if entry[3] is None:
            return None
        return Scope(tuple(entry[3]), str(entry[4]), str(entry[5]), str(entry[6]), bool(entry[7]))
    file = project.parsed(candidate, (info.st_mtime_ns, info.st_size, info.st_ino))
    scope = file.scope if file is not None else None
    if scope is None:
        cache[candidate.path] = [*version, None, "", "", "", False, SCOPE_REVISION]
    else:
        cache[candidate.path] = [
            *version,
            list(scope.patterns),
            scope.key,
            scope.dialect,
            scope.regex,
            scope.recovered,
            SCOPE_REVISION,
        ]
    return scope
