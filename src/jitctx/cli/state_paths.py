"""The state dir a command was given (`--state-dir`, else `cli.state`'s default), and the event log's
folders under it, as paths."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from jitctx.cli.state import state_dir_path
from jitctx.errors import UsageError

if TYPE_CHECKING:
    import argparse


def default_state_dir() -> Path:
    return Path(state_dir_path())


def state_dir(args: argparse.Namespace) -> Path:
    chosen: str | os.PathLike[str] | None = getattr(args, "state_dir", None)
    return Path(os.path.abspath(Path(chosen).expanduser())) if chosen else default_state_dir()


def events_dir(args: argparse.Namespace) -> Path:
    return state_dir(args) / "events"


def readable_events_dir(args: argparse.Namespace) -> Path:
    """The event log's directory for reading; a state dir or events dir that is not a directory is a
    usage error (rather than an empty log)."""
    directory = events_dir(args)
    for path in (directory.parent, directory):
        if path.exists() and not path.is_dir():
            raise UsageError(f"{path} is not a directory; --state-dir names a directory holding events/")
    return directory


def writable_events_dir(args: argparse.Namespace) -> Path:
    """The event log's directory, created if need be; a usage error when it cannot be."""
    directory = readable_events_dir(args)
    try:
        # The state dir too is private: it holds what every session read.
        directory.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        directory.mkdir(exist_ok=True, mode=0o700)
    except OSError as exc:
        raise UsageError(f"cannot create the event log directory {directory}: {exc.strerror}") from exc
    if not os.access(directory, os.W_OK):
        raise UsageError(f"the event log directory {directory} is not writable")
    return directory
