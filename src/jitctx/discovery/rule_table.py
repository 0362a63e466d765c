"""The scoped rules of the rules folders, prepared for matching on every tool call.

A hook runs in a new process per tool call. Parsing every rule's frontmatter there would import the YAML
and glob libraries each time, so the parse of each rule (its scope as a regex) is kept in `cache`, which
the session store saves with the session; a rule is parsed again only when its mtime, size or inode change.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from jitctx.model import Scope
from jitctx.project import Candidate, Project
from jitctx.scope import compiled_scope, literal_prefixes

# path -> [mtime_ns, size, inode, patterns or None, key, dialect, regex, recovered]
ScopeCache = dict[str, list[Any]]


@dataclass(frozen=True)
class ScopedRule:
    candidate: Candidate
    scope: Scope
    prefixes: tuple[str, ...]  # literal prefixes of its patterns; "" means "could be anywhere"
    pattern: re.Pattern[str]


def build_rule_table(project: Project, cache: ScopeCache) -> list[ScopedRule]:
    """One stat per rule; a rule whose version is in `cache` is not read. `cache` is updated in place."""
    table: list[ScopedRule] = []
    for candidate in project.rule_candidates():
        scope = _scope_of(project, candidate, cache)
        if scope is not None:
            table.append(ScopedRule(candidate, scope, literal_prefixes(scope), compiled_scope(scope.regex)))
    return table


def _scope_of(project: Project, candidate: Candidate, cache: ScopeCache) -> Scope | None:
    try:
        info = os.stat(candidate.path)
    except OSError:
        cache.pop(candidate.path, None)
        return None
    version = [info.st_mtime_ns, info.st_size, info.st_ino]
    entry = cache.get(candidate.path)
    if entry is not None and entry[:3] == version:
        if entry[3] is None:
            return None
        return Scope(tuple(entry[3]), str(entry[4]), str(entry[5]), str(entry[6]), bool(entry[7]))
    file = project.peek(candidate)
    scope = file.scope if file is not None else None
    if scope is None:
        cache[candidate.path] = [*version, None, "", "", "", False]
    else:
        cache[candidate.path] = [
            *version,
            list(scope.patterns),
            scope.key,
            scope.dialect,
            scope.regex,
            scope.recovered,
        ]
    return scope
