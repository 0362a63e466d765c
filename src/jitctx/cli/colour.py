"""Colour for people, never for programs: https://no-color.org, a terminal check, and `--color`.

`auto` (the default) colours a stream only when it is a terminal, TERM is not `dumb` and NO_COLOR is unset
or empty; `--color always` colours even into a pipe (`| less -R`), `--color never` never does. The
command line wins over NO_COLOR, as the convention asks. JSON output is never coloured.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any, TextIO

MODES = ("auto", "always", "never")

_STYLES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
}

_mode = "auto"


def set_mode(mode: str) -> None:
    global _mode
    if mode not in MODES:
        raise ValueError(f"colour mode must be one of {', '.join(MODES)}, not {mode!r}")
    _mode = mode


def wanted(stream: TextIO, mode: str | None = None, environ: Any = None) -> bool:
    """Should text written to `stream` carry colour?"""
    chosen = _mode if mode is None else mode
    if chosen != "auto":
        return chosen == "always"
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):  # set and non-empty, whatever its value
        return False
    if env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def paint(text: str, style: str, stream: TextIO) -> str:
    """`text` in `style` (bold, dim, red, green, yellow) when `stream` wants colour, else unchanged."""
    if not text or not wanted(stream):
        return text
    return f"\033[{_STYLES[style]}m{text}\033[0m"


class _ColourAction(argparse.Action):
    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        set_mode(str(values))
        setattr(namespace, self.dest, values)


def add_colour(parser: argparse.ArgumentParser) -> None:
    set_mode("auto")  # a parser is built once per run; an earlier run in the same process does not leak
    parser.add_argument(
        "--color",
        choices=MODES,
        default="auto",
        action=_ColourAction,
        help="colour in human output: auto (a terminal, unless NO_COLOR is set), always, never",
    )
