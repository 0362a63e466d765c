"""jitctx's own answers in a client's records, read back: which of their blocks are provably there.

A client's evidence reader finds the contexts of jitctx's hook in the client's own records, as `Answer`s;
this module says which blocks each holds, whatever client recorded it.

jitctx's answer is its blocks (`hook.context.render_block`: `Contents of DISPLAY (why):`, a blank line,
the file's text stripped) joined by blank lines, then its notes. A block's text may hold anything, a
quoted header too, so the blocks are not found by searching for headers: they are walked from the start,
each one exactly as long as its file's text. That text is known only for a file that has not changed
since before the hook ran (its ctime, which no one sets back, is older than the hook's start): a file
changed since, gone, or unreadable ends the walk, and the answer then proves no block at all, as does a
walk that does not account for the whole answer, up to its end or its notes. Its files go out again.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from jitctx.clients.kit.evidence_paths import PathResolver
from jitctx.frontmatter import split_frontmatter
from jitctx.safe_open import open_regular
from jitctx.text import decode_markdown

_HEADS = ("Contents of ", "Updated contents of ")
_NOTES = ("Not included above, ", "note: ")  # what may follow the blocks (hook.context)
MAX_BLOCKS = 256  # per answer; a longer answer proves nothing
MAX_READS = 256  # files read per reading of a transcript
MAX_FILE_BYTES = 4 * 1024 * 1024  # an instruction file over this is never sent (reading.MAX_FILE_BYTES)


class Answer(NamedTuple):
    """One answer of jitctx's hook: its text, the directory the client ran in, and a time before the
    hook started (ns since the epoch; None when the record does not tell)."""

    text: str
    cwd: str | None
    started: int | None


class Block(NamedTuple):
    """One block provably in an answer: its header's display path, the file's real path, its text."""

    display: str
    path: str
    text: str


class FileTexts:
    """Instruction files' texts as jitctx sends them (frontmatter removed, stripped), with the time they
    last changed; each read at most once, at most MAX_READS per reading."""

    def __init__(self) -> None:
        self._texts: dict[str, tuple[int, str] | None] = {}

    def text(self, path: str, unchanged_since: int) -> str | None:
        """The file's text, when it has not changed since `unchanged_since` (ns); None otherwise."""
        if path not in self._texts:
            self._texts[path] = _read(path) if len(self._texts) < MAX_READS else None
        found = self._texts[path]
        return found[1] if found is not None and found[0] < unchanged_since else None


def _read(path: str) -> tuple[int, str] | None:
    """(ctime, text) of an instruction file, read between two looks at its ctime that agree."""
    try:
        fd = open_regular(path)
    except (OSError, ValueError):
        return None
    try:
        before = os.fstat(fd).st_ctime_ns
        data = os.read(fd, MAX_FILE_BYTES + 1)
        if os.fstat(fd).st_ctime_ns != before or len(data) > MAX_FILE_BYTES or b"\0" in data[:8192]:
            return None
    except OSError:
        return None
    finally:
        os.close(fd)
    return before, split_frontmatter(decode_markdown(data)[0]).body.strip()


def root_of(path: str, display: str) -> str | None:
    """The project root a file's path and display path imply (None for an absolute display)."""
    if display.startswith("/") or not path.endswith("/" + display):
        return None
    return path[: -len(display) - 1] or "/"


def roots_for(answer: Answer, hint: str | None, paths: PathResolver) -> list[str]:
    """Where an answer's relative display paths may start: `hint`, then the client's directory and its
    parents (jitctx's root is one of them)."""
    roots = [hint] if hint else []
    directory = paths.real(answer.cwd)
    while directory:
        roots.append(directory)
        directory = "" if directory == "/" else directory.rpartition("/")[0] or "/"
    return list(dict.fromkeys(roots))


def blocks_in(answer: Answer, roots: Sequence[str], paths: PathResolver, files: FileTexts) -> list[Block]:
    """The blocks of one answer, walked from its start (see the module): all of them, or none."""
    if answer.started is None:
        return []
    text = answer.text
    found: list[Block] = []
    position, root = 0, None
    while len(found) < MAX_BLOCKS:
        step = _block_at(answer, position, roots if root is None else [root], paths, files)
        if step is None:
            return found if found and text.startswith(_NOTES, position) else []
        block, where, stop = step
        root = where or root
        found.append(block)
        if stop == len(text):
            return found
        position = stop + 2
    return []


def _block_at(
    answer: Answer, position: int, roots: Sequence[str], paths: PathResolver, files: FileTexts
) -> tuple[Block, str, int] | None:
    """The block at `position` (with the root its display was read against, and where it ends), when
    its file's text, unchanged since before the hook ran, is there whole, followed by the end or a blank
    line."""
    text, started = answer.text, answer.started or 0
    head = next((head for head in _HEADS if text.startswith(head, position)), None)
    end = text.find(":\n\n", position)
    if head is None or end < 0 or text.find("\n", position, end) >= 0:
        return None
    start = end + 3
    for display, where in _candidates(text[position + len(head) : end], roots):
        real = paths.real(display if not where else where.rstrip("/") + "/" + display)
        body = files.text(real, started) if real is not None else None
        if real is None or body is None or not text.startswith(body, start):
            continue
        stop = start + len(body)
        if stop == len(text) or text.startswith("\n\n", stop):
            return Block(display, real, body), where, stop
    return None


def _candidates(rest: str, roots: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(display, root) pairs a header's `DISPLAY (why)` may mean: a display holding ` (` is told apart by
    the file that has the text; an absolute display needs no root ("")."""
    if not rest.endswith(")"):
        return
    cut = rest.find(" (")
    while cut > 0:
        display = rest[:cut]
        if display.startswith("/"):
            yield display, ""
        else:
            for root in roots:
                yield display, root
        cut = rest.find(" (", cut + 1)
