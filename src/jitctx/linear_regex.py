"""Scope regexes matched in time linear in the path, whatever the glob (pure).

Python's `re` backtracks: the regex of `**/********************x` (twenty stars, in Claude Code's
gitignore dialect) runs for minutes against a twenty-character name, and any cloned repository can ship
such a rule. So scope regexes are run by RE2 (google-re2), whose matching is linear in the text. RE2 has
no lookarounds, and wcmatch's regexes use them (a `*` never matches a `.` or `..` segment, a segment is
never empty), so a regex with lookarounds is run through an exact rewriting:

* a lookaround's body is a short finite language (`\\.{1,2}(?:$|[/])`); where it holds in the path is
  found before matching by Python's `re` on that body alone (bounded work at each position), and each
  position gets an *annotation*: one character whose bits say which lookarounds hold there;
* the text RE2 reads holds, before each character of the path and at its end, K copies of that
  position's annotation. A lookaround (or an anchor) of the regex reads one copy and requires its bit;
  a character of the regex first skips the copies left. K is the most lookarounds one position can meet
  on one way through the regex, so each way Python's `re` matches is a way here, and the other way round.

Annotations are characters of a 4,096-code-point block of the private-use planes that the path does not
use. Before any of that, the regex with its lookarounds dropped (it matches a superset) is tried on the
path itself: most paths fail there, in microseconds, and a regex without lookarounds needs nothing more.
Lookaheads met before anything is consumed (a gitignore scope's negations, `(?!EXCLUDED)(?:INCLUDED)`)
hold at the path's start only, so each is a pattern of its own and its body may be any regex.

Matching is Python's, with two deliberate differences: `$` is the end of the path (Python's also matches
before a final newline, which no glob means), and an atomic group or a possessive repeat matches as a
plain one (wcmatch makes a star atomic only where that changes nothing). A regex this cannot read
(a backreference, case folding, `\\b`, a class such as `\\d`) is refused with `UnsafeRegex`; one whose
lookaround cannot be annotated (a body that is not a short finite language) matches nothing from the
first path that needs it. Neither is ever a regex our glob compilers write.

The regex is parsed by `re`'s own parser, so that it is read exactly as Python reads it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from re import _constants as sre  # type: ignore[attr-defined]  # re's own parser and its opcodes
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any, NamedTuple

import re2

from jitctx.errors import JitctxError

MAX_CODE_POINT = 0x10FFFF
BLOCK_BITS = 12  # lookarounds one regex may hold: one bit each in an annotation
BLOCK = 1 << BLOCK_BITS
# Blocks of the two private-use planes; the first one the path does not touch holds its annotations.
BLOCKS = tuple(plane + BLOCK * k for plane in (0xF0000, 0x100000) for k in range(0x10000 // BLOCK))
MAX_BODY_WAYS = 4096  # ways through a lookaround's body: bounds the work at each position
MAX_BODY_WIDTH = 64
MAX_RE2_REPEAT = 1000  # RE2 refuses larger counts
RE2_MAX_MEM = 64 << 20  # a scope of a thousand brace expansions fits


class UnsafeRegex(JitctxError):
    """A regex that cannot be matched in linear time with the meaning Python gives it."""


Ranges = tuple[tuple[int, int], ...]


class Chars(NamedTuple):
    """One character from a set of code points (inclusive ranges, sorted, disjoint)."""

    ranges: Ranges


class Seq(NamedTuple):
    items: tuple[Node, ...]


class Alt(NamedTuple):
    branches: tuple[Node, ...]


class Repeat(NamedTuple):
    item: Node
    low: int
    high: int | None  # None: no upper bound


class Anchor(NamedTuple):
    at_end: bool  # the end of the path; else its start


class Look(NamedTuple):
    behind: bool
    negated: bool
    body: Node


Node = Chars | Seq | Alt | Repeat | Anchor | Look
EMPTY = Seq(())
NOTHING = Chars(())


class LinearPattern:
    """A scope regex run by RE2: `match` (from the start of the path) and `fullmatch` answer as Python's
    `re` would (see the module's two differences), in time linear in the path."""

    def __init__(self, node: Node) -> None:
        self._node = node
        self._plain = _compile(_emit(node, None))  # lookarounds dropped: a superset, or exact without any
        self._exact: _Guarded | _Annotated | None = None  # made when a path first needs it
        self._looks = _has_lookaround(node)

    def match(self, path: str) -> bool:
        return self._matches(path, full=False)

    def may_match(self, path: str) -> bool:
        """False only where `match` is False: the superset alone, which skips the annotated program."""
        return self._plain.match(path.encode("utf-8", "surrogatepass")) is not None

    def fullmatch(self, path: str) -> bool:
        return self._matches(path, full=True)

    def _matches(self, path: str, *, full: bool) -> bool:
        text = path.encode("utf-8", "surrogatepass")
        if (self._plain.fullmatch(text) if full else self._plain.match(text)) is None:
            return False
        if not self._looks:
            return True
        if self._exact is None:
            try:
                self._exact = _exact_program(self._node)
            except UnsafeRegex:
                # Never a regex our glob compilers wrote (a damaged state file, say): it matches nothing.
                self._looks, self._plain = False, _compile(_emit(NOTHING, None))
                return False
        return self._exact.matches(path, full)


class _Guarded(NamedTuple):
    """A regex whose ways each start with lookaheads at the path's start (a gitignore scope's negations:
    `(?!EXCLUDED)(?:INCLUDED)`): each such lookahead is a pattern of its own, matched from the start of
    the path, so its body may be any regex."""

    ways: tuple[tuple[tuple[tuple[bool, LinearPattern], ...], LinearPattern], ...]  # (guards, the rest)

    def matches(self, path: str, full: bool) -> bool:
        for guards, rest in self.ways:
            if all(guard.match(path) is not negated for negated, guard in guards):
                if rest.fullmatch(path) if full else rest.match(path):
                    return True
        return False


def _exact_program(node: Node) -> _Guarded | _Annotated:
    ways = node.branches if isinstance(node, Alt) else (node,)
    split = [_leading_lookaheads(way) for way in ways]
    if not any(guards for guards, _ in split):
        return _Annotated(node)
    return _Guarded(
        tuple(
            (tuple((look.negated, LinearPattern(look.body)) for look in guards), LinearPattern(rest))
            for guards, rest in split
        )
    )


def _leading_lookaheads(node: Node) -> tuple[list[Look], Node]:
    """The lookaheads `node` meets before it can consume anything (all at the path's start when `node`
    starts the regex), and `node` without them."""
    items = node.items if isinstance(node, Seq) else (node,)
    guards: list[Look] = []
    for index, item in enumerate(items):
        if isinstance(item, Look) and not item.behind:
            guards.append(item)
        elif not isinstance(item, (Look, Anchor)):
            rest = tuple(i for i in items[:index] if not (isinstance(i, Look) and not i.behind))
            return guards, Seq(rest + items[index:])
    return guards, Seq(tuple(i for i in items if not (isinstance(i, Look) and not i.behind)))


class _Annotated:
    """The exact program of a regex with lookarounds, over annotated paths (see the module docstring)."""

    def __init__(self, node: Node) -> None:
        self.node = node
        # The tests met most often get the highest bits: the class that reads a bit is then the shorter.
        met: dict[str, int] = {}
        for test in _assertion_tests(node):
            met[test] = met.get(test, 0) + 1
        tests = sorted(met, key=lambda test: (-met[test], test))
        if len(tests) > BLOCK_BITS:
            raise UnsafeRegex(f"{len(tests)} kinds of lookaround and anchor; at most {BLOCK_BITS} are read")
        self.bits = {test: 1 << (BLOCK_BITS - 1 - index) for index, test in enumerate(tests)}
        self.tests = tuple(re.compile(test, re.DOTALL) for test in tests)
        self.copies = max(1, _most_assertions_at_one_position(node))
        self.programs: dict[int, Any] = {}
        self.program(BLOCKS[0])  # refused here, where the caller expects it, if RE2 cannot take it

    def program(self, base: int) -> Any:
        program = self.programs.get(base)
        if program is None:
            annotated = _emit(self.node, _Annotations(base, self.bits)) + _skip(base)
            program = self.programs[base] = _compile(annotated)
        return program

    def matches(self, path: str, full: bool) -> bool:
        base = _free_block(path)
        if base is None:  # the path uses every block: no character is left to annotate it with
            return False
        program = self.program(base)
        subject = _annotated_path(path, self.tests, self.copies, base)
        return (program.fullmatch(subject) if full else program.match(subject)) is not None


@lru_cache(maxsize=4096)
def linear_pattern(source: str) -> LinearPattern:
    """The linear-time pattern of a scope regex; UnsafeRegex when it cannot be had."""
    return LinearPattern(parsed(source))


def linear_union(sources: tuple[str, ...]) -> LinearPattern:
    """One pattern matching where any of `sources` matches (each parsed once, see `parsed`)."""
    return LinearPattern(Alt(tuple(parsed(source) for source in sources)))


# -- reading the regex ------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def parsed(source: str) -> Node:
    """`source` as Python's `re` reads it, in the few node kinds above; UnsafeRegex for what they miss."""
    try:
        tree = sre_parse.parse(source, re.DOTALL)
    except (re.error, RecursionError, OverflowError, ValueError) as exc:
        raise UnsafeRegex(f"not a regex Python reads: {exc}") from exc
    try:
        return _sequence(tree, tree.state.flags)
    except RecursionError as exc:
        raise UnsafeRegex("regex nested too deeply") from exc


def _sequence(pattern: Any, flags: int) -> Node:
    items = tuple(_item(op, av, flags) for op, av in pattern)
    return items[0] if len(items) == 1 else Seq(items)


def _item(op: Any, av: Any, flags: int) -> Node:
    if flags & re.IGNORECASE:
        raise UnsafeRegex("case folding is not read")
    if op is sre.LITERAL:
        return Chars(((av, av),))
    if op is sre.NOT_LITERAL:
        return Chars(_complement(((av, av),)))
    if op is sre.ANY:
        return Chars(((0, MAX_CODE_POINT),) if flags & re.DOTALL else _complement(((10, 10),)))
    if op is sre.IN:
        return Chars(_charset(av))
    if op is sre.BRANCH:
        return Alt(tuple(_sequence(branch, flags) for branch in av[1]))
    if op is sre.SUBPATTERN:
        _group, add, remove, pattern = av
        return _sequence(pattern, (flags | add) & ~remove)
    if op is sre.ATOMIC_GROUP:
        return _sequence(av, flags)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, high, pattern = av
        return Repeat(_sequence(pattern, flags), low, None if high == sre.MAXREPEAT else high)
    if op is sre.AT:
        if av in (sre.AT_BEGINNING, sre.AT_BEGINNING_STRING, sre.AT_END, sre.AT_END_STRING):
            if flags & re.MULTILINE and av in (sre.AT_BEGINNING, sre.AT_END):
                raise UnsafeRegex("multi-line anchors are not read")
            return Anchor(av in (sre.AT_END, sre.AT_END_STRING))
        raise UnsafeRegex(f"the anchor {av} is not read")
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        direction, pattern = av
        body = _sequence(pattern, flags)
        if body == EMPTY:  # `(?=)` always holds, `(?!)` never does
            return NOTHING if op is sre.ASSERT_NOT else EMPTY
        return Look(direction < 0, op is sre.ASSERT_NOT, body)
    raise UnsafeRegex(f"{str(op).lower()} is not read")


def _charset(items: Any) -> Ranges:
    negated = False
    ranges: list[tuple[int, int]] = []
    for op, av in items:
        if op is sre.NEGATE:
            negated = True
        elif op is sre.LITERAL:
            ranges.append((av, av))
        elif op is sre.RANGE:
            ranges.append((av[0], av[1]))
        else:
            raise UnsafeRegex(f"the class item {str(op).lower()} is not read")
    merged = _normalized(ranges)
    return _complement(merged) if negated else merged


def _normalized(ranges: list[tuple[int, int]]) -> Ranges:
    merged: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return tuple(merged)


def _complement(ranges: Ranges) -> Ranges:
    result: list[tuple[int, int]] = []
    start = 0
    for low, high in ranges:
        if low > start:
            result.append((start, low - 1))
        start = high + 1
    if start <= MAX_CODE_POINT:
        result.append((start, MAX_CODE_POINT))
    return tuple(result)


def _without(ranges: Ranges, low: int, high: int) -> Ranges:
    result: list[tuple[int, int]] = []
    for start, end in ranges:
        if end < low or start > high:
            result.append((start, end))
            continue
        if start < low:
            result.append((start, low - 1))
        if end > high:
            result.append((high + 1, end))
    return tuple(result)


def _has_lookaround(node: Node) -> bool:
    if isinstance(node, Look):
        return True
    if isinstance(node, Seq):
        return any(_has_lookaround(item) for item in node.items)
    if isinstance(node, Alt):
        return any(_has_lookaround(branch) for branch in node.branches)
    return isinstance(node, Repeat) and _has_lookaround(node.item)


def _assertion_tests(node: Node) -> list[str]:
    """The test of each anchor and lookaround of `node`, once per occurrence."""
    if isinstance(node, Anchor):
        return [_ANCHOR_TESTS[node.at_end]]
    if isinstance(node, Look):
        return [_test_source(node)]
    if isinstance(node, Seq):
        return [test for item in node.items for test in _assertion_tests(item)]
    if isinstance(node, Alt):
        return [test for branch in node.branches for test in _assertion_tests(branch)]
    if isinstance(node, Repeat):
        return _assertion_tests(node.item)
    return []


# -- lookarounds as tests on the path -------------------------------------------------------------------

_ANCHOR_TESTS = {False: r"\A", True: r"\Z"}


@lru_cache(maxsize=1024)
def _test_source(look: Look) -> str:
    """The Python regex that finds, as empty matches, the positions where `look`'s body holds (its
    negation is the bit left clear)."""
    ways, low, high = _body_shape(look.body)
    if high is None or high > MAX_BODY_WIDTH or ways > MAX_BODY_WAYS:
        raise UnsafeRegex("a lookaround whose body is not a short finite language")
    if look.behind and low != high:
        raise UnsafeRegex("a lookbehind of varying width")
    return f"(?{'<=' if look.behind else '='}{_python(look.body)})"


def _body_shape(node: Node) -> tuple[int, int, int | None]:
    """(ways through `node`, fewest characters, most characters or None for no bound)."""
    if isinstance(node, Chars):
        return 1, 1, 1
    if isinstance(node, Anchor):
        return 1, 0, 0
    if isinstance(node, Look):
        ways, _, high = _body_shape(node.body)
        return ways, 0, 0 if high is not None else None
    if isinstance(node, Seq):
        ways, low, high_sum = 1, 0, 0
        unbounded = False
        for item in node.items:
            w, lo, hi = _body_shape(item)
            ways, low = min(ways * w, MAX_BODY_WAYS + 1), low + lo
            unbounded = unbounded or hi is None
            high_sum += hi or 0
        return ways, low, None if unbounded else high_sum
    if isinstance(node, Alt):
        shapes = [_body_shape(branch) for branch in node.branches]
        highs = [hi for _, _, hi in shapes]
        return (
            min(sum(w for w, _, _ in shapes), MAX_BODY_WAYS + 1),
            min(lo for _, lo, _ in shapes),
            None if None in highs else max(hi for hi in highs if hi is not None),
        )
    if node.high is None:
        return MAX_BODY_WAYS + 1, 0, None
    w, lo, hi = _body_shape(node.item)
    ways = sum(min(w**count, MAX_BODY_WAYS + 1) for count in range(node.low, min(node.high, 64) + 1))
    return min(ways, MAX_BODY_WAYS + 1), lo * node.low, None if hi is None else hi * node.high


def _python(node: Node) -> str:
    """`node` written back as a Python regex (classes as explicit ranges, anchors as \\A and \\Z)."""
    if isinstance(node, Chars):
        if not node.ranges:
            return "(?!)"
        if node.ranges[-1][1] == MAX_CODE_POINT:  # `[^/]`: Python compiles a class spanning Unicode slowly
            excluded = _complement(node.ranges)
            return f"[^{''.join(_python_range(low, high) for low, high in excluded)}]" if excluded else "."
        return f"[{''.join(_python_range(low, high) for low, high in node.ranges)}]"
    if isinstance(node, Anchor):
        return _ANCHOR_TESTS[node.at_end]
    if isinstance(node, Look):
        return f"(?{'<' if node.behind else ''}{'!' if node.negated else '='}{_python(node.body)})"
    if isinstance(node, Seq):
        return "".join(f"(?:{_python(item)})" for item in node.items)
    if isinstance(node, Alt):
        return "(?:" + "|".join(_python(branch) for branch in node.branches) + ")"
    high = "" if node.high is None else str(node.high)
    return f"(?:{_python(node.item)}){{{node.low},{high}}}"


def _python_range(low: int, high: int) -> str:
    return f"\\U{low:08x}" if low == high else f"\\U{low:08x}-\\U{high:08x}"


def _most_assertions_at_one_position(node: Node) -> int:
    """K: the most anchors and lookarounds one way through `node` meets at one position of the path."""
    summary = _assertion_summary(node)
    return max(value for value in summary if value is not None) if any(v is not None for v in summary) else 0


# (zero, first, last, inner): the most assertions met on a way that consumes nothing; before the first
# character of a way that consumes; after its last; between two of its characters. None: no such way.
Summary = tuple[int | None, int | None, int | None, int | None]
_CHAR: Summary = (None, 0, 0, 0)
_ASSERTION: Summary = (1, None, None, None)


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _most(*values: int | None) -> int | None:
    present = [value for value in values if value is not None]
    return max(present) if present else None


def _then(a: Summary, b: Summary) -> Summary:
    return (
        _add(a[0], b[0]),
        _most(a[1], _add(a[0], b[1])),
        _most(b[2], _add(a[2], b[0])),
        _most(a[3], b[3], _add(a[2], b[1])),
    )


def _assertion_summary(node: Node) -> Summary:
    if isinstance(node, Chars):
        return _CHAR if node.ranges else (None, None, None, None)
    if isinstance(node, (Anchor, Look)):
        return _ASSERTION
    if isinstance(node, Seq):
        summary: Summary = (0, None, None, None)
        for item in node.items:
            summary = _then(summary, _assertion_summary(item))
        return summary
    if isinstance(node, Alt):
        summaries = [_assertion_summary(branch) for branch in node.branches]
        return (
            _most(*(s[0] for s in summaries)),
            _most(*(s[1] for s in summaries)),
            _most(*(s[2] for s in summaries)),
            _most(*(s[3] for s in summaries)),
        )
    # A repeat: its required rounds, then any number of rounds that consume (a round beyond the required
    # ones that consumes nothing can be left out of any match).
    body = _assertion_summary(node.item)
    summary = (0, None, None, None)
    for _ in range(min(node.low, MAX_RE2_REPEAT + 1)):
        summary = _then(summary, body)
    if node.high is None or node.high > node.low:
        consuming = (None, body[1], body[2], _most(body[3], _add(body[2], body[1])))
        summary = _then(summary, (0, consuming[1], consuming[2], consuming[3]))
    return summary


# -- writing it for RE2 ---------------------------------------------------------------------------------


class _Annotations(NamedTuple):
    base: int  # the block's first code point
    bits: dict[str, int]  # test source -> its bit


def _emit(node: Node, annotations: _Annotations | None) -> str:
    """RE2 syntax for `node`: without `annotations`, lookarounds dropped and anchors as RE2's own; with
    them, for the annotated path (module docstring)."""
    if isinstance(node, Chars):
        ranges = node.ranges
        if annotations is not None:
            ranges = _without(ranges, annotations.base, annotations.base + BLOCK - 1)
            return _skip(annotations.base) + _re2_class(ranges)
        return _re2_class(ranges)
    if isinstance(node, Anchor):
        if annotations is None:
            return r"\z" if node.at_end else "^"
        return _assertion(annotations, _ANCHOR_TESTS[node.at_end], negated=False)
    if isinstance(node, Look):
        if annotations is None:
            return ""
        return _assertion(annotations, _test_source(node), node.negated)
    if isinstance(node, Seq):
        return "".join(_emit(item, annotations) for item in node.items)
    if isinstance(node, Alt):
        return "(?:" + "|".join(_emit(branch, annotations) for branch in node.branches) + ")"
    if node.low > MAX_RE2_REPEAT or (node.high is not None and node.high > MAX_RE2_REPEAT):
        raise UnsafeRegex(f"a repeat of more than {MAX_RE2_REPEAT}")
    body = f"(?:{_emit(node.item, annotations)})"
    if node.high is None:
        return body + ("*" if node.low == 0 else "+" if node.low == 1 else f"{{{node.low},}}")
    if node.low == node.high:
        return f"{body}{{{node.low}}}"
    return body + ("?" if (node.low, node.high) == (0, 1) else f"{{{node.low},{node.high}}}")


def _assertion(annotations: _Annotations, test: str, negated: bool) -> str:
    """One annotation copy whose bit for `test` is set (clear when `negated`)."""
    base, bit = annotations.base, annotations.bits[test]
    runs = [
        (base + start + (0 if negated else bit), base + start + (bit if negated else 2 * bit) - 1)
        for start in range(0, BLOCK, 2 * bit)
    ]
    return _re2_class(tuple(runs))


def _skip(base: int) -> str:
    return f"[\\x{{{base:x}}}-\\x{{{base + BLOCK - 1:x}}}]*"


def _re2_class(ranges: Ranges) -> str:
    if not ranges:
        return r"[^\x{0}-\x{10ffff}]"  # matches nothing
    return f"[{''.join(_re2_range(low, high) for low, high in ranges)}]"


def _re2_range(low: int, high: int) -> str:
    return f"\\x{{{low:x}}}" if low == high else f"\\x{{{low:x}}}-\\x{{{high:x}}}"


def _compile(pattern: str) -> Any:
    options = re2.Options()
    options.max_mem = RE2_MAX_MEM
    options.never_capture = True
    options.log_errors = False
    try:
        return re2.compile(pattern.encode("utf-8", "surrogatepass"), options)
    except re2.error as exc:
        raise UnsafeRegex(f"RE2 cannot take it: {exc}") from exc


# -- the annotated path ---------------------------------------------------------------------------------


def _free_block(path: str) -> int | None:
    """The first annotation block holding no character of `path`."""
    if path.isascii():
        return BLOCKS[0]
    used = {ord(ch) >> BLOCK_BITS for ch in path if ord(ch) >= BLOCKS[0]}
    return next((base for base in BLOCKS if base >> BLOCK_BITS not in used), None)


_SUBJECTS: dict[tuple[str, tuple[re.Pattern[str], ...], int, int], bytes] = {}
_MAX_SUBJECTS = 4096


def _annotated_path(path: str, tests: tuple[re.Pattern[str], ...], copies: int, base: int) -> bytes:
    """The text RE2 reads for `path`: before each character and at the end, `copies` copies of the
    position's annotation (bit `BLOCK_BITS - 1 - i` set where test i holds)."""
    key = (path, tests, copies, base)
    subject = _SUBJECTS.get(key)
    if subject is not None:
        return subject
    masks = [base] * (len(path) + 1)
    for index, test in enumerate(tests):
        bit = 1 << (BLOCK_BITS - 1 - index)  # as `LinearPattern` numbers them
        for found in test.finditer(path):
            masks[found.start()] |= bit
    marks = [chr(mask) * copies for mask in masks]
    text = "".join([mark + ch for mark, ch in zip(marks, path, strict=False)] + [marks[-1]])
    subject = text.encode("utf-8", "surrogatepass")
    if len(_SUBJECTS) >= _MAX_SUBJECTS:
        _SUBJECTS.clear()
    _SUBJECTS[key] = subject
    return subject
