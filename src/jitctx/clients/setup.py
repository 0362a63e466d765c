"""What `install`, `uninstall` and `doctor` must know of one live client: its `Setup`, in two parts.

* `Installer`: where its hooks are registered and how install writes them;
* `DoctorChecks`: the checks `jitctx doctor` runs for it.

Each client folder has a `setup` module whose `SETUP` is its setup, built on the folder's `CLIENT` (the
hook's view of the same agent, `jitctx.clients.base`): its name, title, program and events are the
client's. The registry hands it out (`all_clients.setup`) to the commands that change or check an
agent's settings; a hook process never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from jitctx.clients.kit import settings_file
from jitctx.clients.kit.doctor_kit import settings_checks

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path
    from typing import Any

    from jitctx.clients.base import Client
    from jitctx.clients.kit.checks import Check
    from jitctx.clients.kit.settings_file import HookEntry


class Installer:
    """Where the client's hooks are registered, and how `install` writes and `uninstall` removes them."""

    client: Client  # the client it installs, whose name its entries' commands carry

    # The settings scopes, lowest priority first; the transports `install --transport` takes.
    scopes: tuple[str, ...] = ("project", "user")
    transports: tuple[str, ...] = ("command",)
    # Does the client read project settings only in the folder it starts in (not the root's when started
    # in a subfolder)? install and doctor say so.
    settings_where_started: bool = False
    # Said after `install` (the trust step the client needs before it runs a hook), or "".
    install_note: str = ""
    # Are the client's hooks a file of jitctx's own that the client loads (a plugin), at `settings_path`,
    # rather than entries in a settings file? Then `install_file` writes and removes it.
    hooks_file: bool = False
    # Where the settings file holds the client's status line command, as a path of keys (Claude Code:
    # `("statusLine",)`); () when it has none. `install --statusline` sets it to `jitctx statusline`
    # (clients.kit.status_line).
    status_line_setting: tuple[str, ...] = ()

    def settings_path(self, scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
        raise NotImplementedError

    def user_folder(self, home: str, environ: Mapping[str, str]) -> Path | None:
        """The client's own folder for this user (`~/.claude`, `$CODEX_HOME`), whose presence says the
        client is used on this machine; None without a user scope. By default, the folder of the user
        scope's settings file."""
        if "user" not in self.scopes:
            return None
        return self.settings_path("user", "", home, environ).parent

    def entries(self, transport: str = "command") -> tuple[HookEntry, ...]:
        raise NotImplementedError

    def install_entries(self, data: dict[str, Any], command: str) -> tuple[dict[str, Any], list[Any]]:
        """`data` (the settings file) with this client's hook entries running `command`."""
        return settings_file.install(data, self.entries(), command, self.client.name)

    def install_file(self, path: Path, command: str | None, state: Path, dry_run: bool) -> Any:
        """For a client with `hooks_file`: write its hook file running `command` at `path`, or remove it
        (None). Returns what changed: `changes`, `changed`, `backup`, `diff`, `removed`."""
        raise NotImplementedError


class DoctorChecks:
    """What `jitctx doctor` checks for the client."""

    client: Client

    def doctor(self, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
        """Checks of this client's setup (where its installer says hooks are), and whether jitctx's hooks
        are installed for it anywhere."""
        setup = cast("Setup", self)  # the default checks read the installer part
        places = [(scope, setup.settings_path(scope, root, home or "", environ)) for scope in setup.scopes]
        if home is None:
            places = [(scope, path) for scope, path in places if scope != "user"]
        return settings_checks(setup, places)


class Setup(Installer, DoctorChecks):
    """One live agent's setup: the two parts, on the client it sets up."""

    def __init__(self, client: Client) -> None:
        self.client = client

    # The client's own identity, which install messages, entries' commands and doctor name.
    @property
    def name(self) -> str:
        return self.client.name

    @property
    def title(self) -> str:
        return self.client.title

    @property
    def program(self) -> str:
        return self.client.program

    def __repr__(self) -> str:
        return f"<setup of {self.client.name}>"
