"""Where jitctx keeps state between runs (the event log, saved sessions): `--state-dir`, else
$JITCTX_STATE_DIR, else $XDG_STATE_HOME/jitctx, else ~/.local/state/jitctx; and where the user's own
config lives. Only the CLI reads these variables; the engine is handed the paths.

A state dir is never relative: with no home at all (no HOME, no passwd entry) `~` would stay `~` and the
state would land in `./~/.local/state` inside whatever repository the agent runs in. Then the state goes to
$XDG_RUNTIME_DIR/jitctx, else to a directory of this user's own in the temp dir.

The paths a command works in under the state dir are `cli.state_paths`.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from jitctx.errors import JitctxError

if TYPE_CHECKING:
    import argparse

USER_CONFIG = os.path.join("jitctx", "config.toml")  # under $XDG_CONFIG_HOME, else ~/.config


def _home() -> str | None:
    """The user's home directory; None when there is none (expanduser leaves `~` as it is then)."""
    home = os.path.expanduser("~")
    return home if os.path.isabs(home) else None


def user_home() -> str | None:
    """Where user-level files live: $JITCTX_HOME, else the home directory; None when there is none."""
    return os.environ.get("JITCTX_HOME") or _home()


def user_config_path() -> str | None:
    """The user's own jitctx config: the only place for settings that widen what jitctx reads.

    $JITCTX_HOME/.config/jitctx/config.toml when JITCTX_HOME is set (it stands for the home in every
    user-level path), else $XDG_CONFIG_HOME/jitctx/config.toml, else ~/.config/jitctx/config.toml.
    """
    explicit = os.environ.get("JITCTX_HOME")
    if explicit:
        return os.path.join(explicit, ".config", USER_CONFIG)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg and os.path.isabs(xdg):  # the XDG spec: a relative value is invalid and ignored
        return os.path.join(xdg, USER_CONFIG)
    home = _home()
    return os.path.join(home, ".config", USER_CONFIG) if home is not None else None


def state_dir_path() -> str:
    """The default state dir, always absolute; StateDirError when no private place can be found."""
    explicit = os.environ.get("JITCTX_STATE_DIR")
    if explicit:
        chosen = os.path.expanduser(explicit)
        if not chosen.startswith("~"):  # `~/x` with no home to expand it: as if it were unset
            return os.path.abspath(chosen)
    xdg = os.environ.get("XDG_STATE_HOME")
    # The XDG spec says a relative value is invalid and must be ignored.
    if xdg and os.path.isabs(xdg):
        return os.path.join(xdg, "jitctx")
    home = _home()
    if home is not None:
        return os.path.join(home, ".local", "state", "jitctx")
    return private_state_dir()


def private_state_dir() -> str:
    """A state dir for a user without a home: $XDG_RUNTIME_DIR/jitctx (private to the user by the XDG
    spec), else `<temp dir>/jitctx-state-<uid>`, created 0700. A temp-dir path anyone can predict is used
    only when it is a real directory of this user that nobody else can enter: someone who created it first
    could read the state or plant files in it."""
    uid = os.getuid()
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime):
        try:
            info = os.stat(runtime)
        except OSError:
            info = None
        if info is not None and stat.S_ISDIR(info.st_mode) and info.st_uid == uid:
            return os.path.join(runtime, "jitctx")
    # Only a user without a home gets here; tempfile brings shutil, random and the compressors with it.
    import tempfile

    path = os.path.join(tempfile.gettempdir(), f"jitctx-state-{uid}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise _error(f"cannot create the state dir {path}: {exc.strerror or exc}") from None
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid or info.st_mode & 0o077:
        raise _error(
            f"{path} is not a private directory of this user (another user may have created it), so it "
            "cannot hold jitctx state"
        )
    return path


def _error(message: str) -> Exception:
    return JitctxError(
        f"{message}; there is no home directory (HOME unset, no passwd entry): set JITCTX_STATE_DIR to a "
        "directory of your own, or HOME"
    )


def add_state_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help="where jitctx keeps its state; sessions in DIR/sessions/, events in DIR/events/ (default: "
        "$JITCTX_STATE_DIR, else $XDG_STATE_HOME/jitctx, else ~/.local/state/jitctx)",
    )
