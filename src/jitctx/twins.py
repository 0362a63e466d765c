"""Twins: instruction files that carry the same text under different names (pure).

Repositories that serve several agents often keep one rule twice, `.claude/rules/api.md` for Claude Code
and `.cursor/rules/api.mdc` for Cursor, differing only in the frontmatter each agent reads its scope
from. An agent that already holds one of them gains nothing from the other.

What counts as the same text: the *body* (what follows the YAML frontmatter, which is what reaches an
agent), compared after
- line ends are made `\\n` (CRLF and CR files equal LF ones),
- trailing spaces and tabs are cut from every line,
- blank lines before the first and after the last line of text are dropped.
Everything else counts: indentation, blank lines between paragraphs, letter case, a single character. A
body with no text at all is nobody's twin (two empty rules say nothing twice).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from jitctx.frontmatter import split_frontmatter
from jitctx.safe_open import read_regular
from jitctx.text import decode_markdown

# Instruction files past this size are skipped everywhere (DESIGN 2.1): they have no twins.
MAX_FILE_BYTES = 4 * 1024 * 1024


def normalized_body(body: str) -> str:
    """`body` as twins are compared (see the module docstring); "" when it holds no text."""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip(" \t") for line in lines).strip("\n")


def body_of_text(text: str) -> str:
    """The body of a whole file's text: what follows its frontmatter (the text itself without one)."""
    return split_frontmatter(text.replace("\r\n", "\n").replace("\r", "\n")).body


def read_body(path: str) -> str | None:
    """The body of the file at `path`, read from disk; None when it cannot be read. A ready-made
    `body_of` for `twin_groups`."""
    data = read_regular(path, MAX_FILE_BYTES)  # a regular file only: a FIFO there would block
    return body_of_text(decode_markdown(data)[0]) if data is not None else None


def twin_groups(paths: Iterable[str], body_of: Callable[[str], str | None]) -> dict[str, tuple[str, ...]]:
    """Each file of `paths` that has twins, mapped to its twins (the other files with the same body, in
    the order of `paths`). `body_of(path)` gives a file's body without frontmatter (`read_body`, or the
    `text` of an already read InstructionFile), None when it is unreadable: such a file has no twins.
    Bodies are grouped by their normalised text itself, not by a digest, so no two different bodies ever
    meet."""
    groups: dict[str, list[str]] = {}
    for path in dict.fromkeys(paths):  # a path listed twice is one file, not its own twin
        body = body_of(path)
        if body is None:
            continue
        normal = normalized_body(body)
        if normal:
            groups.setdefault(normal, []).append(path)
    twins: dict[str, tuple[str, ...]] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        for member in members:
            twins[member] = tuple(other for other in members if other != member)
    return twins
