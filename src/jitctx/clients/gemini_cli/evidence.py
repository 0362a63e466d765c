"""What Gemini CLI shows it loaded: the context files it appends to a file tool's result.

Seen in 0.61.0's bundle (`packages/core/src/tools/jit-context.ts`, `memoryDiscovery.ts`): after its
read_file, write_file, replace, list_directory and read_many_files calls it finds the context files
above the touched path that the session has not loaded yet and appends them to the tool's `llmContent`,
and the AfterTool hook receives that result as `tool_response`:

    <the tool's own output>
    (blank line)
    --- Newly Discovered Project Context ---
    --- Context from: /abs/dir/GEMINI.md ---
    <the file's text, trimmed>
    --- End of Context from: /abs/dir/GEMINI.md ---
    (blank line, the next file, ...)
    --- End Project Context ---

at the very end of a string result; as a part of its own for a result of parts (the last one, or the one
before read_many_files' closing `--- End of content ---`). The path is the directory the client walked
up from the touched path (the touched file's real path for read_file, write_file and replace) joined
with the file's name.

A file the tool read, a shell's output or the model's own text can hold those lines too, so a load counts
only where the client alone can have written it: the whole appended section read back from its end, each
file's body exactly its current text on disk (a rule with `@imports`, which the client expands, is not
proven, and goes out again), each path spelled as the client spells it (normalized, in a real directory,
above the touched path: never through `/proc/self/cwd` or a link), and, for a string result, no such
section in the touched file's own text (read_file's output is that text; write_file's and replace's
quote it; a touched path holding a line break, which the output may echo, proves nothing either).
Anything less proves nothing: the result then shows no load, and jitctx sends what the prediction left
to the client (a possible duplicate, never a lost rule).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from jitctx.clients.kit.evidence_paths import PathResolver
from jitctx.safe_open import read_regular

PREFIX = "\n\n--- Newly Discovered Project Context ---\n"
SUFFIX = "\n--- End Project Context ---"
TERMINATOR = "\n--- End of content ---"  # read_many_files' last part
_OPENING, _CLOSING = "--- Context from: ", "--- End of Context from: "
APPENDING_TOOLS = frozenset({"read_file", "read_many_files", "write_file", "replace", "list_directory"})
# The tools whose string output is (or quotes) the touched file's text.
_QUOTING_TOOLS = frozenset({"read_file", "write_file", "replace"})
MAX_FRAMES = 64  # context files in one result; more prove nothing
MAX_CONTEXT_BYTES = 4 * 1024 * 1024  # a larger context file proves nothing (jitctx's own limit)
MAX_FILE_BYTES = 20 * 1024 * 1024  # the largest file read_file reads (MAX_FILE_SIZE_MB)
# The last line of a section, in each encoding read_file decodes (by the file's byte order mark).
_ENCODINGS = ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
_SECTION_ENDS = tuple(SUFFIX.strip().encode(encoding) for encoding in _ENCODINGS)
# What JavaScript's String.prototype.trim removes.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
    map(chr, range(0x2000, 0x200B))
)


def context_files_shown(call: Mapping[str, Any]) -> frozenset[str] | None:
    """The real paths of the context files the client provably appended to this call's result; None when
    there is no result to read."""
    response = call.get("tool_response")
    if response is None:
        return None
    tool = call.get("tool_name")
    content = response.get("llmContent") if isinstance(response, dict) else None
    if tool not in APPENDING_TOOLS or not isinstance(content, str | list):
        return frozenset()
    cwd, tool_input = call.get("cwd"), call.get("tool_input")
    target = _target(tool_input, cwd) if isinstance(tool_input, Mapping) and isinstance(cwd, str) else None
    paths = PathResolver()
    if isinstance(content, str):
        shown = _section(content, 0, paths)
        if shown and tool in _QUOTING_TOOLS and not _own_text_clean(target):
            return frozenset()
    else:
        shown = _section_part(content, paths)
    if shown is None:
        return frozenset()
    if tool != "read_many_files" and not all(_above(path, target, paths) for path in shown):
        return frozenset()
    return frozenset(real for path in shown if (real := paths.real(path)) is not None)


def _section_part(parts: Sequence[object], paths: PathResolver) -> list[str] | None:
    """The files of the section that is a part of its own: the last part, or the one before
    read_many_files' terminator."""
    texts = [part.get("text") if isinstance(part, dict) else part for part in parts]
    if texts and texts[-1] == TERMINATOR:
        texts = texts[:-1]
    last = texts[-1] if texts else None
    if not isinstance(last, str) or not last.startswith(PREFIX):
        return None
    return _section(last, len(PREFIX), paths, whole=True)


def _section(text: str, floor: int, paths: PathResolver, whole: bool = False) -> list[str] | None:
    """The paths of the frames of the section that ends `text`, read back from its end, each checked
    against its file; [] when `text` ends with no section, None when it ends with one not proven.
    `whole`: the section must start `text` (a part of its own)."""
    if not text.endswith(SUFFIX):
        return []
    end = len(text) - len(SUFFIX)
    shown: list[str] = []
    while len(shown) < MAX_FRAMES:
        line_start = text.rfind("\n", floor, end) + 1
        closing = text[line_start:end]
        if line_start == 0 or not closing.startswith(_CLOSING) or not closing.endswith(" ---"):
            return None
        path = closing[len(_CLOSING) : -len(" ---")]
        body = _context_text(path, paths)
        if body is None:
            return None
        frame = f"{_OPENING}{path} ---\n{body}\n{_CLOSING}{path} ---"
        start = end - len(frame)
        if start < floor or not text.startswith(frame, start):
            return None
        shown.append(path)
        if text.endswith(PREFIX, 0, start) and (not whole or start == len(PREFIX)):
            return shown
        separator = "\n\n" if text.endswith("\n\n", floor, start) else "\n"
        if not text.endswith(separator, floor, start):
            return None
        end = start - len(separator)
    return None


def _context_text(path: str, paths: PathResolver) -> str | None:
    """The text the client shows of a context file at `path` (read now, trimmed as JavaScript trims),
    when `path` is spelled as the client spells one; None otherwise."""
    directory, _, name = path.rpartition("/")
    if not name or not path.startswith("/") or not paths.is_canonical_dir(directory or "/"):
        return None
    data = read_regular(path, MAX_CONTEXT_BYTES)
    if data is None:
        return None
    text = data.decode("utf-8", "replace").strip(_JS_SPACE)
    return text or None  # the client shows no frame for an empty file


def _target(tool_input: Mapping[str, Any], cwd: str) -> str | None:
    """The path the call touched, absolute as the client resolves it against its directory; None for a
    path holding a line break, which the tool's own output may echo (a listing's heading, a binary
    file's notice), so that whole frame lines could come from it."""
    value = tool_input.get("dir_path") if "dir_path" in tool_input else tool_input.get("file_path")
    if not isinstance(value, str) or not value or "\0" in value or "\n" in value or "\n" in cwd:
        return None
    return os.path.normpath(os.path.join(cwd, value))


def _above(path: str, target: str | None, paths: PathResolver) -> bool:
    """Is the context file at `path` one the client finds walking up from the touched path: in the
    touched directory or one above it, spelled from the touched path's real path?"""
    if target is None:
        return False
    real = paths.real(target)
    if real is None or "\n" in real:  # a line break through a link: as in the path itself
        return False
    directory = path.rpartition("/")[0] or "/"
    return real == directory or real.startswith(directory.rstrip("/") + "/")


def _own_text_clean(target: str | None) -> bool:
    """Does the touched file's own text hold no section end, so that a section at the end of the
    result is the client's and not the file's (read_file shows the file's text; write_file and replace
    quote it)? False when it cannot be read (in doubt)."""
    if target is None:
        return False
    data = read_regular(target, MAX_FILE_BYTES)
    return data is not None and not any(end in data for end in _SECTION_ENDS)
