"""Which scoped rules may match a path, found by lookups instead of testing every rule (pure).

As ripgrep's globset does, each glob is filed under one *strategy*, chosen by its shape:

* ``prefix``: the literal directories it starts with (`src/ui/**`, and a literal path `src/a.ts` as a
  whole); the path's own leading directories are looked up;
* ``name``: a literal last segment (`**/Makefile`); every segment of the path is looked up;
* ``ext``: a last segment ending in a literal extension (`**/*.ts`, `test_*.py`); every segment's
  extension is looked up;
* ``other``: anything else (`**/*`, `*/x/**`), tested through a few combined regexes that each stand for
  a chunk of such rules.

The index is a prefilter only: it names a *superset* of the rules whose scope matches, and each of those
is then confirmed by its own regex, so the answer is the per-rule matcher's by construction. The keys are
chosen so that the superset holds in every dialect: a gitignore glob without an inner `/` (`*.py`) or a
negation may match at any depth, a literal segment matches a whole path segment (never part of one), and
whatever is not understood for certain (escapes, `.` segments, braces other than a plain `{a,b}`, case
folding) goes to ``other``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from jitctx.discovery.glob_keys import keyed_candidates
from jitctx.linear_regex import LinearPattern, UnsafeRegex, linear_union
from jitctx.model import Scope
from jitctx.scope import expand_braces

_SPECIAL = frozenset("*?[]{}\\!")
_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")
_CHUNK = 32  # rules per combined regex of the `other` strategy
_MAX_EXPANSIONS = 64


# The options of each scope this process filed: a long-lived session builds its index again after a rule
# edit, and working out every glob's options again would cost it most of that build.
_OPTIONS: dict[Scope, Any] = {}
_MAX_OPTIONS = 50_000
_UNKNOWN = object()


class IndexedScope(NamedTuple):
    """One rule as the index sees it: its position in the table, its scope, and how to get its compiled
    regex (on first use: compiling thousands of regexes the index never tests would cost startup)."""

    position: int
    scope: Scope
    pattern: Callable[[], LinearPattern]


class GlobIndex:
    """The rules of one table filed by strategy; `matching(rel)` answers positions in table order."""

    def __init__(self, rules: Iterable[IndexedScope]) -> None:
        self.by_prefix: dict[str, list[int]] = {}
        self.by_name: dict[str, list[int]] = {}
        self.by_ext: dict[str, list[int]] = {}
        self.patterns: dict[int, Callable[[], LinearPattern]] = {}
        others: list[IndexedScope] = []
        filed: list[tuple[int, list[list[tuple[str, str]]]]] = []
        counts: dict[tuple[str, str], int] = {}
        for rule in rules:
            self.patterns[rule.position] = rule.pattern
            options = _OPTIONS.get(rule.scope, _UNKNOWN)
            if options is _UNKNOWN:
                options = scope_options(rule.scope)
                if len(_OPTIONS) >= _MAX_OPTIONS:
                    _OPTIONS.clear()
                _OPTIONS[rule.scope] = options
            if options is None:
                others.append(rule)
                continue
            filed.append((rule.position, options))
            for choices in options:
                for choice in choices:
                    counts[choice] = counts.get(choice, 0) + 1
        # Each glob goes under the key that the fewest globs share: `src/**/*.ts` under `src` when many
        # rules are about `.ts` files, under `ts` when many are about `src/`.
        for position, options in filed:
            for choices in options:
                strategy, key = min(choices, key=counts.__getitem__)
                bucket = getattr(self, f"by_{strategy}").setdefault(key, [])
                if not bucket or bucket[-1] != position:
                    bucket.append(position)
        # Combined regexes for the rest: one failed match rules out a whole chunk (a superset is enough
        # for that: `may_match`).
        self.chunks: list[tuple[LinearPattern | None, tuple[int, ...]]] = []
        for start in range(0, len(others), _CHUNK):
            chunk = others[start : start + _CHUNK]
            sources = tuple(rule.scope.regex for rule in chunk)
            combined: LinearPattern | None = None
            if not any(_GLOBAL_FLAGS.search(source) for source in sources):
                try:
                    combined = linear_union(sources)
                except UnsafeRegex:
                    combined = None  # one cannot be run: each is tested on its own
            self.chunks.append((combined, tuple(rule.position for rule in chunk)))

    def candidates(self, rel: str) -> set[int]:
        """Positions of the rules that may match `rel` (a superset of those that do)."""
        found = keyed_candidates(rel, self.by_prefix, self.by_name, self.by_ext)
        for combined, positions in self.chunks:
            if combined is None or combined.may_match(rel):
                found.update(positions)
        return found

    def unkeyed(self) -> list[int]:
        """Positions of the rules filed under no key: those the combined regexes stand for."""
        return [position for _, positions in self.chunks for position in positions]

    def matching(self, rel: str) -> list[int]:
        """Positions of the rules whose regex matches `rel`, in table order."""
        patterns = self.patterns
        return sorted(p for p in self.candidates(rel) if patterns[p]().match(rel))


def scope_options(scope: Scope) -> list[list[tuple[str, str]]] | None:
    """Per glob of the scope, the (strategy, key) pairs it could be filed under (any one of them holds every
    path the glob matches), or None when the scope must be tested every time."""
    if _GLOBAL_FLAGS.search(scope.regex):
        return None  # case folding, say: literal keys would miss
    keys: list[list[tuple[str, str]]] = []
    patterns = scope.patterns
    if scope.dialect == "gitignore":
        # Braces expanded as the regex was compiled: over the whole scope, under one budget.
        patterns = expand_braces(tuple(p.strip() for p in patterns if p.strip()))
    for raw in patterns:
        pattern = raw.strip()
        if not pattern:
            continue
        if scope.dialect == "gitignore":
            if pattern.startswith(("!", "#")):
                continue  # a negation only narrows, a comment matches nothing
            expanded: Sequence[str] = (pattern,)
        else:
            pattern = pattern.removeprefix("./")
            found = _expand_braces(pattern) if scope.dialect == "bun" else (pattern,)
            if found is None:
                return None
            expanded = found
        for one in expanded:
            choices = _options_of(one, scope.dialect)
            if not choices:
                return None
            keys.append(choices)
    return keys


def _options_of(pattern: str, dialect: str) -> list[tuple[str, str]]:
    body = pattern.rstrip("/")
    if not body:
        return []
    segments = body.split("/")
    if dialect == "gitignore":
        anchored = "/" in body  # without an inner `/`, a gitignore glob matches at any depth
        if body.startswith("/"):
            segments = segments[1:]
    else:
        anchored = True
        if not segments[0]:
            return []  # an absolute glob never matches a relative path; keep it simple
    if any(s in ("", ".", "..") for s in segments):
        return []
    options: list[tuple[str, str]] = []
    if anchored:
        prefix: list[str] = []
        for segment in segments:
            if _SPECIAL.intersection(segment):
                break
            prefix.append(segment)
        if prefix:
            options.append(("prefix", "/".join(prefix)))
    last = segments[-1]
    if last != "**" and not _SPECIAL.intersection(last):
        options.append(("name", last))
    else:
        tail = last
        for index in range(len(last) - 1, -1, -1):
            if last[index] in _SPECIAL:
                tail = last[index + 1 :]
                break
        dot = tail.rfind(".")
        if 0 <= dot < len(tail) - 1:
            options.append(("ext", tail[dot + 1 :]))
    return options


def _expand_braces(pattern: str) -> list[str] | None:
    """`{a,b}` groups expanded as wcmatch's BRACE does; None for anything less plain (nesting, ranges,
    escapes, a group without a comma), which is then tested every time."""
    if "{" not in pattern and "}" not in pattern:
        return [pattern]
    if "\\" in pattern or ".." in pattern or "[" in pattern:
        return None
    results = [""]
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "}":
            return None
        if char != "{":
            results = [r + char for r in results]
            index += 1
            continue
        close = pattern.find("}", index)
        if close < 0:
            return None
        inner = pattern[index + 1 : close]
        if "{" in inner or "," not in inner or "[" in inner or "]" in inner:
            return None
        options = inner.split(",")
        results = [r + o for r in results for o in options]
        if len(results) > _MAX_EXPANSIONS:
            return None
        index = close + 1
    return results
