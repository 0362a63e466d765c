"""Which scoped rules may match a path, found by lookups instead of testing every rule (pure).

As ripgrep's globset does, each glob is filed under one key of one *strategy*. A glob offers every key
that each path it matches must have, and is filed under the one that the fewest globs of the table offer,
so that a touch names about the rules that match it however many there are:

* ``prefix``: the literal directories it starts with (`src/ui/**`, and a literal path `src/a.ts` as a
  whole); the path's own leading directories are looked up;
* ``name``: a literal segment anywhere in it (`Makefile` of `**/Makefile`, `mod3` of `**/mod3/**`), or
  two literal segments in a row (`mod3/f2.ts` of `**/mod3/f2.ts`, rarer than either); every segment of
  the path, and every two in a row, are looked up;
* ``ext``: a segment ending in a literal extension (`**/*.ts`, `test_*.py`); every segment's extension
  is looked up;
* ``other``: a glob with none of these (`**/*`, `*/x*/**`), tested through a few combined regexes that
  each stand for a chunk of such rules.

The index is a prefilter only: it names a *superset* of the rules whose scope matches, and each of those
is then confirmed by its own regex, so the answer is the per-rule matcher's by construction. The keys are
chosen so that the superset holds in every dialect: a gitignore or Copilot glob without an inner `/`
(`*.py`) or a negation may match at any depth, a literal segment matches a whole path segment (never part
of one; in bun and Copilot globs `a/b` matches `a//b` too, so the lookups read runs of slashes as one as
well), a gitignore key is filed lower-cased (Claude Code ignores case; the lookups try the path
lower-cased too), and whatever is not understood for certain (escapes, `.` segments, braces other than a
plain `{a,b}`, a case-folded glob outside ASCII, a regex flag) goes to ``other``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from jitctx.discovery.glob_keys import keyed_candidates
from jitctx.linear_regex import LinearPattern, UnsafeRegex, linear_union
from jitctx.model import Scope
from jitctx.scope import FOLDS_CASE, claude_code_globs, expand_braces

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
    folded = scope.dialect in FOLDS_CASE
    if folded and not all(pattern.isascii() for pattern in patterns):
        return None  # lower-casing a key outside ASCII may not agree with the agent's case folding
    # The globs as the regex was compiled from them: braces expanded over the whole scope, under one
    # budget (and in gitignore a trailing `/**` dropped; a Copilot glob's `**/` is its unanchored shape).
    if scope.dialect == "gitignore":
        patterns = claude_code_globs(tuple(p.strip() for p in patterns if p.strip()))
    elif scope.dialect == "copilot":
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
            keys.append([(strategy, key.lower()) for strategy, key in choices] if folded else choices)
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
    elif dialect == "copilot" and "/" not in body:
        anchored = False  # Copilot matches a glob without `/` against the file name, at any depth
    else:
        anchored = True
        if not segments[0]:
            return []  # an absolute glob never matches a relative path; keep it simple
    if any(s in ("", ".", "..") for s in segments):
        return []
    literal = [_SPECIAL.isdisjoint(segment) for segment in segments]
    prefix: list[tuple[str, str]] = []
    run = 0  # the segments of the literal prefix: their names are no rarer than it
    if anchored and literal[0]:
        run = literal.index(False) if False in literal else len(segments)
        prefix.append(("prefix", "/".join(segments[:run])))
    # Each glob segment other than `**` matches one whole segment of the path, wherever the `**` around
    # it put it: a literal one is that segment's name, two literal ones in a row are two path segments in
    # a row (`mod3/f2.ts`, rarer than either), one ending in a literal extension (`*.ts`) gives it that.
    # The most particular first: of keys as rare among the globs, the one fewer paths have is chosen.
    pairs: list[tuple[str, str]] = []
    names: list[tuple[str, str]] = []
    extensions: list[tuple[str, str]] = []
    for position in range(run, len(segments)):
        segment = segments[position]
        if literal[position]:
            names.append(("name", segment))
            if position and literal[position - 1]:
                pairs.append(("name", f"{segments[position - 1]}/{segment}"))
            continue
        tail = segment
        for index in range(len(segment) - 1, -1, -1):
            if segment[index] in _SPECIAL:
                tail = segment[index + 1 :]
                break
        dot = tail.rfind(".")
        if 0 <= dot < len(tail) - 1:
            extensions.append(("ext", tail[dot + 1 :]))
    return list(dict.fromkeys([*prefix, *pairs, *names, *extensions]))


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
