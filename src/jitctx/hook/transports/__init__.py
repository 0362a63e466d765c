"""The hook's transports: how one event reaches the one pipeline (`hook.pipeline.respond`) and how its
answer goes back. `process` reads an event on stdin and writes the answer on stdout (one process per
event); `warm` hands the event to a daemon of the user's that keeps the engine loaded; `mcp` answers it
inside a `jitctx mcp` server the client keeps. None decides anything: each is thin around `respond`."""

from __future__ import annotations

from typing import Any


def readable(value: Any) -> Any:
    """`value` (a JSON document) with every lone surrogate in its strings written as a backslash escape.

    A file name that is not UTF-8 (`caf\\xe9.tsx` on Linux) reaches Python as a str holding a lone surrogate,
    which cannot be written as UTF-8: the answer would be lost. The agent reads `caf\\udce9.tsx` instead:
    plain text, where a JSON `\\udce9` escape would hand it a lone surrogate that strict parsers refuse.
    """
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {readable(key): readable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [readable(item) for item in value]
    return value
