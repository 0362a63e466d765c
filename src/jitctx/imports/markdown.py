"""Where the prose of a Markdown text is, as markdown-it-py sees it (CommonMark plus tables, like Marked).

`prose_blocks` yields each block of prose holding an `@` with the source line it starts on and the ranges
inside it that are not prose: code spans, HTML tags and comments. Fenced and indented code never appear,
nor do raw HTML blocks that hold code (`<pre>`, `<script>`, `<style>`, `<textarea>`).

markdown-it's inline parser is fast on prose but slow on walls of punctuation (about 20 µs per character
of `[[[[` or `*_*_`), so a block of prose longer than `INLINE_PARSE_LIMIT` characters is scanned by
`fallback_spans` instead, and so is everything past `INLINE_PARSE_BUDGET` characters of one text: the
CommonMark backtick rule plus markdown-it's own HTML tag pattern. The tests check that both agree on every
paragraph of the corpus. A block without a backtick or `<` has nothing to find and is not parsed at all.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_inline import StateInline

Span = tuple[int, int]
_Patterns = tuple["re.Pattern[str]", "re.Pattern[str]", "re.Pattern[str]"]

INLINE_PARSE_LIMIT = 20_000  # characters of one block
INLINE_PARSE_BUDGET = 200_000  # characters of one text, over all its blocks (a table of 100,000 cells)
_PARSE_COST = 200  # a parse costs this many characters on top of its length: each call has overhead

_RAW_HTML = re.compile(r"<(?:pre|script|style|textarea)\b", re.IGNORECASE)
_HTML_MARKUP = re.compile(r"<!--.*?(?:-->|\Z)|<[A-Za-z/!?][^>]*>?", re.DOTALL)
_BACKTICKS = re.compile(r"`+")
_TAG_WINDOW = 4096
_SPANS = "jitctx_import_skip_spans"
_MD: MarkdownIt | None = None


def prose_blocks(source: str) -> Iterator[tuple[int, str, list[Span]]]:
    """(0-based first line, text, sorted non-prose spans) for each prose block of `source` with an `@`.

    The text of block line k is a suffix of source line `first + k` (block prefixes such as `> ` or
    `- ` removed), except table cells, which are one cell of the row.
    """
    md = _markdown()
    env: dict[str, Any] = {}
    budget = INLINE_PARSE_BUDGET
    for block in md.parse(source, env):
        if block.map is None or "@" not in block.content:
            continue
        if block.type == "inline":
            content = block.content
            if "`" not in content and "<" not in content:
                spans: list[Span] = []  # nothing for the inline parser to find
            elif len(content) + _PARSE_COST > min(budget, INLINE_PARSE_LIMIT):
                spans = fallback_spans(content)
            else:
                budget -= len(content) + _PARSE_COST
                spans = inline_spans(content, md, env)
            yield block.map[0], content, spans
        elif block.type == "html_block" and not _RAW_HTML.match(block.content.lstrip()):
            # Raw HTML is not parsed further: its tags and comments are skipped like inline HTML.
            markup = [(m.start(), m.end()) for m in _HTML_MARKUP.finditer(block.content)]
            yield block.map[0], block.content, markup


def inline_spans(content: str, md: MarkdownIt | None = None, env: dict[str, Any] | None = None) -> list[Span]:
    """Ranges of `content` that are code spans or inline HTML (tags, comments), as markdown-it parses it."""
    md = md or _markdown()
    env = env if env is not None else {}
    spans: list[Span] = []
    env[_SPANS] = spans
    md.inline.parse(content, md, env, [])
    return sorted(spans)


def fallback_spans(content: str) -> list[Span]:
    """Code spans and HTML tags of `content` in linear time, without the rest of the inline grammar.

    A backtick run opens a code span closed by the next run of the same length (an opener's first
    backtick can be escaped, a closer's cannot); an unmatched run is text. Whichever of a run, an autolink
    and a tag comes first wins, as in markdown-it's left-to-right scan. Not modelled: backticks inside a
    link destination (`[a](`x`)`), which markdown-it leaves to the link; they read as a code span here.
    """
    # markdown-it is heavy: imported on first use, by a file that holds an `@` (most hold none).
    from markdown_it.common.html_re import HTML_TAG_RE
    from markdown_it.rules_inline.autolink import AUTOLINK_RE, EMAIL_RE

    patterns = (HTML_TAG_RE, AUTOLINK_RE, EMAIL_RE)
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(content)]
    starts_by_length: dict[int, list[int]] = {}
    for start, end in runs:
        starts_by_length.setdefault(end - start, []).append(start)
    spans: list[Span] = []
    position = 0
    index = 0
    while True:
        while index < len(runs) and runs[index][0] < position:
            index += 1
        stop = runs[index][0] if index < len(runs) else len(content)
        tag = _next_tag(content, position, stop, patterns)
        if tag is not None:
            if tag[2]:
                spans.append((tag[0], tag[1]))
            position = tag[1]
            continue
        if index == len(runs):
            return spans
        start, end = runs[index]
        index += 1
        position = end
        if _escaped(content, start):
            start += 1
        length = end - start
        if length == 0:
            continue
        candidates = starts_by_length.get(length, [])
        after = bisect.bisect_left(candidates, end)
        if after < len(candidates):
            position = candidates[after] + length
            spans.append((start, position))


def _next_tag(content: str, start: int, stop: int, patterns: _Patterns) -> tuple[int, int, bool] | None:
    """The next autolink or HTML tag starting in [start, stop): (start, end, is it a tag to skip)."""
    tag, autolink, email = patterns
    position = content.find("<", start, stop)
    while position >= 0:
        following = content.find("<", position + 1)
        if not _escaped(content, position):
            # Bounded searches keep a wall of `<` linear: an autolink holds no `<`, a tag is short.
            close = content.find(">", position, following if following >= 0 else len(content))
            inner = content[position + 1 : close] if close > 0 else ""
            if close > 0 and (autolink.match(inner) or email.match(inner)):
                return position, close + 1, False
            match = tag.match(content, position, min(len(content), position + _TAG_WINDOW))
            if match is not None:
                return position, match.end(), True
        position = following if 0 <= following < stop else -1
    return None


def _escaped(content: str, position: int) -> bool:
    slashes = 0
    while position - slashes > 0 and content[position - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


def _markdown() -> MarkdownIt:
    """One parser per process; inline parsing is left to `inline_spans`, for blocks holding an `@` only."""
    global _MD
    if _MD is None:
        from markdown_it import MarkdownIt  # heavy: see fallback_spans
        from markdown_it.rules_inline import backtick, html_inline

        md = MarkdownIt("commonmark").enable("table")
        md.disable(["inline", "text_join"])
        md.inline.ruler.at("backticks", _recording(backtick, "code_inline"))
        md.inline.ruler.at("html_inline", _recording(html_inline, "html_inline"))
        _MD = md
    return _MD


def _recording(rule: Callable[[StateInline, bool], bool], kind: str) -> Callable[[StateInline, bool], bool]:
    """Wrap an inline rule so the source range of every token of `kind` it produces is remembered."""

    def wrapped(state: StateInline, silent: bool) -> bool:
        start = state.pos
        count = len(state.tokens)
        matched = rule(state, silent)
        if matched and not silent and len(state.tokens) > count and state.tokens[-1].type == kind:
            spans = state.env.get(_SPANS)
            if spans is not None:
                spans.append((start, state.pos))
        return matched

    return wrapped
