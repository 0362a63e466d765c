# CJK punctuation is the subject here, not a typo for its ASCII look-alike.
# ruff: noqa: RUF001, RUF002
"""Finding `@path` imports in Markdown text (pure).

Markdown decides where prose is (`jitctx.imports.markdown`: fenced and indented code, code spans, HTML
tags and comments are not). Tokens are scanned on the raw text of the prose, so every import keeps the
line and column where it is written.

A token starts with `@` at the start of a line, after whitespace, after CJK punctuation (`见「@NOTE.md」`) or
after `*` (`**@NOTE.md**`), never after a word character (`user@example.com`). It runs until whitespace, CJK
punctuation or a backslash that does not escape a space, so `见 @NOTE.md，然后继续` stops at `，`.
"""

from __future__ import annotations

import bisect
import re
import string
import threading
from collections import OrderedDict
from dataclasses import dataclass

from jitctx.imports.markdown import prose_blocks

CJK_PUNCTUATION = "，。、；：！？（）【】「」『』〈〉《》〔〕“”‘’…—～·"

_TOKEN = re.compile(
    rf"(?:^|(?<=[\s{CJK_PUNCTUATION}*]))@((?:[^\s\\{CJK_PUNCTUATION}]++|\\ )++)",
    re.MULTILINE,
)
# Closing brackets are stripped only when unbalanced, so `@notes(v2).md)` keeps its own parentheses.
_TRAILING = frozenset(string.punctuation) - {"/"}
_CLOSERS = {")": "(", "]": "[", "}": "{"}


@dataclass(frozen=True, slots=True)
class Import:
    """One `@token` found in prose.

    `line` and `column` are 1-based positions of the `@` in the text given to `extract` (the column in
    characters, not bytes), the line shifted by `first_line - 1` so a caller passing a body without its
    frontmatter still gets the line on disk.
    """

    line: int
    column: int | None  # None only if the token could not be located in its source line
    token: str  # as written after `@`, e.g. `NOTE.md#标题` or `my\\ notes.md`
    path: str  # the token cleaned: escaped spaces unescaped, `#fragment` cut, trailing punctuation stripped


def clean_token(token: str) -> str:
    """The path a token names: `\\ ` -> space, `#fragment` cut, trailing ASCII punctuation stripped."""
    path = token.replace("\\ ", " ")
    fragment = path.find("#")
    if fragment >= 0:
        path = path[:fragment]
    end = len(path)
    while end > 0:
        char = path[end - 1]
        if char.isspace():
            end -= 1
        elif char in _CLOSERS:
            body = path[:end]
            if body.count(_CLOSERS[char]) >= body.count(char):
                break
            end -= 1
        elif char in _TRAILING:
            end -= 1
        else:
            break
    return path[:end]


def looks_like_path(path: str) -> bool:
    """Could this cleaned token be a file path? `@Component`, `@media`, `@jrichman` could not.

    A path has a `/` or a `.` (or is under `~`) and is not a URL. Tokens failing this are still looked up
    (a file named `Makefile` exists in many repos); only when no such file exists are they `not_a_path`
    instead of `missing`. `lint` uses the same rule for "@ tokens that are not paths".
    """
    if not path or "://" in path:
        return False
    return "/" in path or "." in path or path.startswith("~")


# An npm package name, `@scope/name` with optional subpath and version (`@vscode/prompt-tsx`,
# `@testing-library/jest-dom/vitest`, `@types/node@20`): npm allows only these lowercase characters.
_PACKAGE = re.compile(r"[a-z0-9][a-z0-9._~-]*(?:/[a-z0-9][a-z0-9._~-]*)+(?:@[\w.^~<>=*-]+)?")
_DOC_SUFFIXES = (".md", ".mdc", ".markdown", ".txt")
# First folders of real absolute paths; `@/anything-else` is the bundlers' alias for the source folder.
_SYSTEM_ROOTS = frozenset("Users Volumes dev etc home mnt opt private proc root srv sys tmp usr var".split())


def is_import_candidate(path: str) -> bool:
    """Is a cleaned token an import at all? Two common spellings in prose are not, and are left alone:

    - npm package names (`@vscode/prompt-tsx`, `@scope/pkg`): lowercase, no document suffix;
    - the bundlers' `@/` alias (`@/mocks`, `@/components/Button`), never read as `/mocks`: an absolute
      import names a document (`@/abs/notes.md`) or starts at a system folder (`@/home/...`, `@/dev/...`).
    """
    if path.startswith("/") and not path.startswith("//"):
        first = path[1:].split("/", 1)[0]
        return first in _SYSTEM_ROOTS or path.lower().endswith(_DOC_SUFFIXES)
    if _PACKAGE.fullmatch(path):
        return path.lower().endswith(_DOC_SUFFIXES)
    return True


def extract(text: str, *, first_line: int = 1) -> tuple[Import, ...]:
    """Every `@import` in the prose of `text`, in document order.

    Pass the body of a file (after `jitctx.frontmatter.split_frontmatter`) with `first_line` set to the
    frontmatter's `body_line`, so lines match the file on disk; frontmatter is not Markdown and would be
    scanned as prose otherwise. Results are cached on the text, so repeated calls cost a dict lookup.
    """
    if "@" not in text:
        return ()
    key = (text, first_line)
    cached = _CACHE.get(key)
    if cached is None:
        cached = _extract(text, first_line)
        _CACHE.put(key, cached)
    return cached


class _ExtractionCache:
    """Least recently used results, bounded by entries and by the characters of the texts it keeps alive."""

    def __init__(self, max_chars: int, max_entries: int) -> None:
        self.max_chars = max_chars
        self.max_entries = max_entries
        self.entries: OrderedDict[tuple[str, int], tuple[Import, ...]] = OrderedDict()
        self.chars = 0
        self.lock = threading.Lock()

    def get(self, key: tuple[str, int]) -> tuple[Import, ...] | None:
        with self.lock:
            found = self.entries.get(key)
            if found is not None:
                self.entries.move_to_end(key)
            return found

    def put(self, key: tuple[str, int], found: tuple[Import, ...]) -> None:
        if len(key[0]) > self.max_chars // 4:
            return  # a huge text would push out everything else
        with self.lock:
            if key in self.entries:
                return
            self.entries[key] = found
            self.chars += len(key[0])
            while self.chars > self.max_chars or len(self.entries) > self.max_entries:
                old, _ = self.entries.popitem(last=False)
                self.chars -= len(old[0])

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.chars = 0


_CACHE = _ExtractionCache(max_chars=8 * 1024 * 1024, max_entries=512)


def clear_extraction_cache() -> None:
    _CACHE.clear()


def _extract(text: str, first_line: int) -> tuple[Import, ...]:
    # markdown-it normalises line ends and NUL the same way; doing it first keeps offsets aligned.
    source = text.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "\ufffd")
    locator = _Locator(source.split("\n"), first_line)
    for start, content, spans in prose_blocks(source):
        locator.scan(content, start, spans)
    return tuple(locator.found)


class _Locator:
    """Scans prose for tokens and maps each one back to its line and column in the source."""

    def __init__(self, lines: list[str], first_line: int) -> None:
        self.lines = lines
        self.offset = first_line - 1
        self.found: list[Import] = []
        self.last_column: dict[int, int] = {}  # source row -> 0-based column of the last `@` placed on it
        self.stripped: dict[int, str] = {}

    def scan(self, content: str, start_line: int, spans: list[tuple[int, int]]) -> None:
        starts = [s for s, _ in spans]
        line_starts = _line_starts(content)
        bases: dict[int, int | None] = {}
        for match in _TOKEN.finditer(content):
            at = match.start()
            following = bisect.bisect_right(starts, at)
            if following > 0 and at < spans[following - 1][1]:
                continue  # inside a code span, tag or comment
            token = match.group(1)
            if following < len(starts) and starts[following] < match.end():
                token = token[: starts[following] - at - 1]
                if not token:
                    continue
            row = bisect.bisect_right(line_starts, at) - 1
            if row not in bases:
                bases[row] = self._base(start_line + row, content, line_starts, row)
            path = clean_token(token)
            if not is_import_candidate(path):
                continue
            column = self._column(start_line + row, bases[row], at - line_starts[row], token)
            self.found.append(Import(start_line + row + 1 + self.offset, column, token, path))

    def _base(self, source_row: int, content: str, line_starts: list[int], row: int) -> int | None:
        """Where content line `row` starts in its source line: block prefixes (`> `, `- `) are not in it."""
        if source_row >= len(self.lines):
            return None
        end = line_starts[row + 1] - 1 if row + 1 < len(line_starts) else len(content)
        part = content[line_starts[row] : end]
        line = self.lines[source_row]
        if line.endswith(part):
            return len(line) - len(part)
        stripped = self.stripped.get(source_row)
        if stripped is None:
            stripped = self.stripped[source_row] = line.rstrip()
        if stripped.endswith(part):
            return len(stripped) - len(part)
        return None  # a table cell: found by searching the row

    def _column(self, source_row: int, base: int | None, offset: int, token: str) -> int | None:
        if source_row >= len(self.lines):
            return None
        line = self.lines[source_row]
        needle = "@" + token
        guess = base + offset if base is not None else -1
        if guess < 0 or not line.startswith(needle, guess):
            guess = line.find(needle, self.last_column.get(source_row, -1) + 1)
        if guess < 0:
            return None
        self.last_column[source_row] = guess
        return guess + 1


def _line_starts(content: str) -> list[int]:
    starts = [0]
    position = content.find("\n")
    while position >= 0:
        starts.append(position + 1)
        position = content.find("\n", position + 1)
    return starts
