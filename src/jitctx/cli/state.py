"""Where jitctx keeps state between runs (the event log, saved sessions): `--state-dir`, else
$JITCTX_STATE_DIR, else $XDG_STATE_HOME/jitctx, else ~/.local/state/jitctx. Only the CLI reads these.

Imports os only: the hook's fast lane resolves the state dir on every tool call.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from pathlib import Path


def state_dir_path() -> str:
    explicit = os.environ.get("JITCTX_STATE_DIR")
    if explicit:
        return os.path.expanduser(explicit)
    xdg = os.environ.get("XDG_STATE_HOME")
    # The XDG spec says a relative value is invalid and must be ignored.
    if xdg and os.path.isabs(xdg):
        return os.path.join(xdg, "jitctx")
    return os.path.join(os.path.expanduser("~"), ".local", "state", "jitctx")


def default_state_dir() -> Path:
    from pathlib import Path

    return Path(state_dir_path())


def add_state_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help="where jitctx keeps its state; sessions in DIR/sessions/, events in DIR/events/ (default: "
        "$JITCTX_STATE_DIR, else $XDG_STATE_HOME/jitctx, else ~/.local/state/jitctx)",
    )


def state_dir(args: argparse.Namespace) -> Path:
    from pathlib import Path

    chosen: str | os.PathLike[str] | None = getattr(args, "state_dir", None)
    return Path(chosen).expanduser() if chosen else default_state_dir()


def events_dir(args: argparse.Namespace) -> Path:
    return state_dir(args) / "events"


def readable_events_dir(args: argparse.Namespace) -> Path:
    """The event log's directory for reading; a state dir or events dir that is not a directory is a
    usage error (rather than an empty log)."""
    from jitctx.errors import UsageError

    directory = events_dir(args)
    for path in (directory.parent, directory):
        if path.exists() and not path.is_dir():
            raise UsageError(f"{path} is not a directory; --state-dir names a directory holding events/")
    return directory


def writable_events_dir(args: argparse.Namespace) -> Path:
    """The event log's directory, created if need be; a usage error when it cannot be."""
    from jitctx.errors import UsageError

    directory = readable_events_dir(args)
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise UsageError(f"cannot create the event log directory {directory}: {exc.strerror}") from exc
    if not os.access(directory, os.W_OK):
        raise UsageError(f"the event log directory {directory} is not writable")
    return directory
