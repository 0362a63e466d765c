"""Which regexes read back from the state dir the fast lane may run (`safe_regex`).

Imports nothing: the fast lane uses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

# -- regexes from the index ------------------------------------------------------------------------------

# The scopes our glob compilers (wcmatch, pathspec) emit use a small part of the regex language: literals,
# escapes of punctuation, classes, `.`, anchors, groups, lookarounds, and repeats of single characters. A
# regex read from the state dir is matched only if it keeps to that part and, above all, repeats nothing
# that can match in more than one way (`(a+)+`, `(a|aa)*`): those backtrack exponentially and would spin
# the hook at 100% CPU. A group may be made optional (`(?:.+/)?`); anything else is left to the engine.
_MAX_REGEX = 64 * 1024
_MAX_REPEATS = 256
_GROUP_OPENERS = (("(?:", "group"), ("(?s:", "group"), ("(?=", "look"), ("(?!", "look"), ("(?<=", "look"),
                  ("(?<!", "look"), ("(", "group"))  # fmt: skip


def safe_regex(source: object) -> bool:
    """Whether `source` is a regex of the restricted grammar our scopes are compiled to (see above)."""
    if not isinstance(source, str) or len(source) > _MAX_REGEX:
        return False
    try:
        return _check_regex(source)
    except IndexError:  # ran off the end: an unterminated class, group or repeat
        return False


def _check_regex(source: str) -> bool:
    # One frame per open group: [kind, consuming items, all of width one, has `|`]. The last item of the
    # current group: None, "zero" (an anchor or lookaround), "one" (one character), "many" (any other).
    frames: list[list[Any]] = [["group", 0, True, False]]
    last: str | None = None
    repeats = 0
    i, end = 0, len(source)
    while i < end:
        char = source[i]
        if char == "\\":
            if source[i + 1].isascii() and source[i + 1].isalnum():
                return False  # \d, \b, \1 (a backreference), \A...: not in our grammar
            i, last = i + 2, "one"
        elif char == "[":
            i, last = _class_end(source, i), "one"
        elif char == "(":
            opener, kind = next(pair for pair in _GROUP_OPENERS if source.startswith(pair[0], i))
            if opener == "(" and source[i + 1] == "?":
                return False  # named, conditional, atomic, comment or inline-flag groups
            frames.append([kind, 0, True, False])
            i, last = i + len(opener), None
        elif char == ")":
            if len(frames) == 1:
                return False
            kind, count, ones, alternation = frames.pop()
            last = (
                "zero" if kind == "look" else "one" if (count == 1 and ones and not alternation) else "many"
            )
            i += 1
        elif char == "|":
            frames[-1][3] = True
            i, last = i + 1, None
        elif char in "^$":
            i, last = i + 1, "zero"
        elif char in "*+?{":
            if last is None or last == "zero":
                return False  # a repeat of nothing, of an anchor or lookaround, or of a repeat
            i, bounded = _repeat_end(source, i)
            if i < 0:
                return False
            if not bounded:
                if last != "one":
                    return False  # a repeated group that can match in several ways
                repeats += 1
            frames[-1][2] = False  # the item now varies in width
            last = None  # a repeat may not follow
            continue
        else:
            i, last = i + 1, "one"
        if last in ("one", "many") and char not in "*+?{":
            frames[-1][1] += 1
            frames[-1][2] = frames[-1][2] and last == "one"
    return len(frames) == 1 and repeats <= _MAX_REPEATS


def _class_end(source: str, start: int) -> int:
    """The index after the `]` that closes the class opened at `start`."""
    i = start + 1
    if source[i] == "^":
        i += 1
    if source[i] == "]":
        i += 1  # a `]` first is a literal
    while source[i] != "]":
        i += 2 if source[i] == "\\" else 1
    return i + 1


def _repeat_end(source: str, start: int) -> tuple[int, bool]:
    """(index after the repeat at `start`, whether it repeats at most once); (-1, False) when malformed."""
    char = source[start]
    if char == "{":
        close = source.index("}", start)
        low, comma, high = source[start + 1 : close].partition(",")
        if not low.isdigit() or (high and not high.isdigit()) or (not comma and high):
            return -1, False
        top = int(high) if high else (None if comma else int(low))
        if top is not None and top > 1000:
            return -1, False
        i, bounded = close + 1, top is not None and top <= 1
    else:
        i, bounded = start + 1, char == "?"
    if i < len(source) and source[i] == "?":
        i += 1  # lazy
    if i < len(source) and source[i] in "*+?{":
        return -1, False  # possessive, or a repeat of a repeat
    return i, bounded
