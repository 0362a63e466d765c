"""YAML frontmatter of rule files, and the scope it declares (pure).

Accepted scope shapes: a YAML list, a flow list, a `|` block (one glob per line) and a comma-separated
string. An unquoted glob (`paths: **/*.ts`) is invalid YAML; it is recovered line by line and flagged so
`lint` can ask for quotes. Frontmatter that cannot be read at all leaves the rule conditional on nothing.
"""

from __future__ import annotations

import json
import re
import reprlib
from dataclasses import dataclass
from typing import Any

_FENCE = re.compile(r"^(?:---|\.\.\.)[ \t]*$")
_KEY_LINE = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)$")
_ITEM_LINE = re.compile(r"^[ \t]+-[ \t]*(.*)$|^-[ \t]+(.*)$")


@dataclass(frozen=True)
class Frontmatter:
    """The frontmatter block of a Markdown file, split from its body."""

    data: dict[str, Any] | None  # None when there is no frontmatter or it could not be read
    body: str
    present: bool  # a frontmatter block was opened
    error: str | None = None  # why `data` could not be read
    recovered: bool = False  # data came from the line-based fallback
    body_line: int = 1  # 1-based line where the body starts


@dataclass(frozen=True)
class ScopeSpec:
    """The scope a file declares: the key it used and the globs, or an error."""

    key: str | None
    patterns: tuple[str, ...]
    error: str | None = None


def split_frontmatter(text: str) -> Frontmatter:
    """Split `---` frontmatter from `text` (already without BOM, with `\\n` line ends)."""
    if not text.startswith("---"):
        return Frontmatter(None, text, present=False)
    lines = text.split("\n")
    if not re.fullmatch(r"---[ \t]*", lines[0]):
        return Frontmatter(None, text, present=False)
    for index in range(1, len(lines)):
        if _FENCE.match(lines[index]):
            raw = "\n".join(lines[1:index])
            body = "\n".join(lines[index + 1 :])
            data, error, recovered = _parse_yaml(raw)
            return Frontmatter(data, body, True, error, recovered, body_line=index + 2)
    return Frontmatter(
        None,
        text,
        present=True,
        error="frontmatter opened by '---' on line 1 never closes; add a closing '---' line",
    )


_NOT_LOADED = object()
_PLAIN = re.compile(r"[\t\n\x20-\x7e]*")


def _fast_load(yaml: Any, raw: str) -> object:
    """libyaml's safe loader, 5-8x faster, which a thousand rules read at startup feel; only on plain
    ASCII text that it reads without error. Anything else (an error to report with its line, other
    characters the two parsers may treat differently) is left to the pure-Python loader."""
    loader = getattr(yaml, "CSafeLoader", None)
    if loader is None or not _PLAIN.fullmatch(raw):
        return _NOT_LOADED
    try:
        return _load(loader, raw)  # CSafeLoader: the safe loader, in C
    except yaml.YAMLError:
        return _NOT_LOADED


# YAML aliases share one node: `b: &b [*a, *a, ...]` nine times over nine levels is 9^9 values once
# built into lists, from a few lines of text (a "billion laughs"), and whatever walks them (flattening a
# scope, writing an error message) takes seconds to minutes. So the values aliases add, counted on the
# parsed nodes before anything is built, are bounded: past the bound the frontmatter is not read.
MAX_ALIAS_VALUES = 10_000
ALIAS_PROBLEM = "YAML alias"  # in the message of each such error (lint gives its own fix)


class AliasBomb(Exception):
    """Frontmatter whose aliases expand past MAX_ALIAS_VALUES values, or refer to themselves."""


def _load(loader_class: Any, raw: str) -> object:
    """What `yaml.load(raw, Loader=loader_class)` gives, once the aliases are known to stay in bounds."""
    loader = loader_class(raw)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_aliases(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _check_aliases(root: Any) -> None:
    """Raise AliasBomb when the nodes under `root`, each alias counted as a copy of what it names, are
    more than MAX_ALIAS_VALUES beyond the distinct nodes (or an alias sits inside what it names)."""
    sizes: dict[int, int] = {}  # id(node) -> values it builds into
    open_nodes: set[int] = set()  # the nodes on the way down to the one being counted
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, counted = stack.pop()
        if counted:
            open_nodes.discard(id(node))
            total = 1 + sum(sizes[id(child)] for child in _children(node))
            sizes[id(node)] = min(total, 1 << 62)  # past any bound; keeps the sums small numbers
            continue
        if id(node) in sizes:
            continue
        open_nodes.add(id(node))
        stack.append((node, True))
        for child in _children(node):
            if id(child) in open_nodes:
                raise AliasBomb(
                    f"a YAML alias refers to itself at frontmatter line {child.start_mark.line + 1}"
                )
            if id(child) not in sizes:
                stack.append((child, False))
    if sizes[id(root)] - len(sizes) <= MAX_ALIAS_VALUES:
        return
    line = root.start_mark.line + 1
    if isinstance(root.value, list):
        for entry in root.value:
            value = entry[1] if isinstance(entry, tuple) else entry
            if sizes[id(value)] > MAX_ALIAS_VALUES:
                line = (entry[0] if isinstance(entry, tuple) else value).start_mark.line + 1
                break
    raise AliasBomb(
        f"{ALIAS_PROBLEM}es expand to more than {MAX_ALIAS_VALUES:,} values at frontmatter line {line}; "
        "write the values out instead of nesting aliases"
    )


def _children(node: Any) -> list[Any]:
    value = node.value
    if not isinstance(value, list):
        return []  # a scalar
    return [part for entry in value for part in (entry if isinstance(entry, tuple) else (entry,))]


# One `key: VALUE` line whose VALUE is a JSON string, a JSON array or a JSON boolean, in printable ASCII
# with no backslash: what nearly every rule's frontmatter is (`paths: ["src/**"]`). YAML reads such a
# line exactly as JSON does, so json, in C, reads it without YAML (and 20x faster than even libyaml's
# loader, which a thousand rules at startup feel). Keys YAML 1.1 reads as something other than a string
# (`on`, `no`, `null` ...) are left to YAML, and so are keys past YAML's 1,024 characters
# for a simple key, and every other line.
_JSON_LINE = re.compile(r'([A-Za-z_][\w-]{0,999}): +("[ !#-\[\]-~]*"|\[[ -\[\]-~]*\]|true|false) *', re.ASCII)
_NOT_STRING_KEYS = frozenset(["y", "n", "yes", "no", "true", "false", "on", "off", "null"])


def _json_lines(raw: str) -> dict[str, Any] | None:
    """The frontmatter when each of its lines is a simple `key: VALUE` line (see above); else None."""
    data: dict[str, Any] = {}
    for line in raw.split("\n"):
        if not line.strip(" "):
            continue  # only spaces: YAML skips such a line too (a tab or a form feed it does not)
        match = _JSON_LINE.fullmatch(line)
        if match is None or match.group(1).lower() in _NOT_STRING_KEYS:
            return None
        try:
            value = json.loads(match.group(2))
        except ValueError:
            return None
        if isinstance(value, list) and not all(isinstance(item, str) for item in value):
            return None  # numbers and nested lists are read differently by the two
        data[match.group(1)] = value
    return data


def _parse_yaml(raw: str) -> tuple[dict[str, Any] | None, str | None, bool]:
    if not raw.strip():
        return {}, None, False
    simple = _json_lines(raw)
    if simple is not None:
        return simple, None, False
    import yaml  # a heavy parser, imported on first use: most frontmatter is read as JSON lines above

    try:
        data = _fast_load(yaml, raw)
        if data is _NOT_LOADED:
            data = _load(yaml.SafeLoader, raw)
    except AliasBomb as exc:
        return None, f"frontmatter is not read: {exc}", False  # not for the line fallback: it is YAML
    except yaml.YAMLError as exc:
        recovered = _line_fallback(raw)
        if recovered:
            return recovered, None, True
        mark = getattr(exc, "problem_mark", None)
        where = f" at frontmatter line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return None, f"frontmatter is not valid YAML{where}: {problem}", False
    if data is None:
        return {}, None, False
    if not isinstance(data, dict):
        return None, f"frontmatter must be a mapping of keys, found {type(data).__name__}", False
    return {str(k): v for k, v in data.items()}, None, False


def _line_fallback(raw: str) -> dict[str, Any] | None:
    """Read `key: value` and `- item` lines without YAML, for unquoted globs like `paths: **/*.ts`.

    Only a recovery for that one mistake: every line must have one of the simple shapes, and some value
    must hold a `*` (what YAML choked on); anything else stays an error.
    """
    data: dict[str, Any] = {}
    current: str | None = None
    block = False  # inside a `key: |` block, continuation lines are values
    for line in raw.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _ITEM_LINE.match(line)
        if item and current is not None and not block:
            value = _unquote((item.group(1) or item.group(2) or "").strip())
            existing = data.get(current)
            data[current] = [*existing, value] if isinstance(existing, list) else [value]
            continue
        if block and current is not None and line[:1] in " \t":
            existing = data.get(current)
            data[current] = f"{existing}\n{line.strip()}" if existing else line.strip()
            continue
        key = _KEY_LINE.match(line)
        if key is None:
            return None
        current = key.group(1)
        value = key.group(2).strip()
        block = value in ("|", "|-", ">", ">-")
        scalar = _fallback_scalar(value)
        if scalar is None:
            return None
        data[current] = scalar
    if not data or "*" not in repr(data):
        return None
    return data


def _fallback_scalar(value: str) -> Any:
    """A scalar, flow list or boolean; None for shapes the fallback does not trust."""
    if value in ("", "|", "|-", ">", ">-"):
        return ""
    if value.startswith("["):
        if not value.endswith("]"):
            return None
        return [_unquote(v.strip()) for v in _split_commas(value[1:-1]) if v.strip()]
    if value[:1] in "'\"" and (len(value) < 2 or value[-1] != value[0]):
        return None
    lowered = value.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    return _unquote(value)


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _split_commas(value: str) -> list[str]:
    """Split on commas outside braces, so `src/{a,b}/*.ts, docs/**` gives two globs."""
    parts: list[str] = []
    depth = 0
    start = 0
    for index, ch in enumerate(value):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            parts.append(value[start:index])
            start = index + 1
    parts.append(value[start:])
    return parts


def scope_of(data: dict[str, Any], keys: tuple[str, ...]) -> ScopeSpec:
    """The scope declared under the first of `keys` present in `data`."""
    for key in keys:
        if key not in data:
            continue
        value = data[key]
        if value is None or value == "" or value == []:
            return ScopeSpec(key, ())
        if isinstance(value, str):
            if "\n" in value:
                items = [line.strip() for line in value.split("\n")]
            else:
                items = [v.strip() for v in _split_commas(value)]
            return ScopeSpec(key, tuple(_unquote(i) for i in items if i))
        if isinstance(value, list):
            bad = [v for v in value if not isinstance(v, str)]
            if bad:
                found = reprlib.repr(bad[0])  # bounded: the item may be a large nested list
                return ScopeSpec(key, (), f"'{key}' items must be strings, found {found}; quote each glob")
            return ScopeSpec(key, tuple(v.strip() for v in value if v.strip()))
        return ScopeSpec(
            key, (), f"'{key}' must be a list of globs or a string, found {type(value).__name__}"
        )
    return ScopeSpec(None, ())
