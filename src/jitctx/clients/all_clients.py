"""The registry of live clients: one line each, the client's folder. The registry hands out its parts,
each from a module of that folder, imported when first asked for:

* `dialect(name)`: its `dialect` module's `DIALECT`, the events, tools and answers: all the fast lane
  loads of a client;
* `get(name)`: its `client` module's `CLIENT`, the whole client (dialect, own loading, evidence) for the
  engine and the views;
* `setup(name)`: its `setup` module's `SETUP`, where its hooks are registered and what `doctor` checks,
  which no hook process loads.

Everything that iterates over agents — the command line's choices, `profiles`, the warm daemon's preload
— goes through `names()`, `get()` and `every()`; install, uninstall and doctor through `setup()` and
`every_setup()`. Each part is checked when it registers.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from jitctx.touched.samples import SAMPLE_KINDS

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from jitctx.clients.base import Client, HookDialect, Setup
    from jitctx.clients.kit.transcript_drift import SessionDrift

    # `session_drift(session_id, root, host_loaded, home, environ)`: what the client's own transcript of a
    # session shows against jitctx's records of it (files that reached the model more than once, and
    # `host_loaded` files it never showed loading); one without a transcript found when there is none.
    DriftReader = Callable[[str, str, Iterable[str], str | None, Mapping[str, str]], SessionDrift]

CLIENTS = {
    "claude-code": "jitctx.clients.claude_code",
    "codex": "jitctx.clients.codex",
    "gemini-cli": "jitctx.clients.gemini_cli",
    "qwen-code": "jitctx.clients.qwen_code",
    "copilot-cli": "jitctx.clients.copilot_cli",
    "opencode": "jitctx.clients.opencode",
}

_dialects: dict[str, HookDialect] = {}
_loaded: dict[str, Client] = {}


def names() -> tuple[str, ...]:
    return tuple(CLIENTS)


def canonical(name: str) -> str | None:
    """The registry name for `name` or one of a client's aliases (`gemini` for `gemini-cli`), else None."""
    if name in CLIENTS:
        return name
    for known in CLIENTS:
        if name in dialect(known).aliases:
            return known
    return None


def registered(name: str) -> str:
    """The registry name for `name` or an alias of it; KeyError when there is none."""
    known = canonical(name)
    if known is None:
        raise KeyError(name)
    return known


def dialect(name: str) -> HookDialect:
    """The hook dialect of the client called `name` (or an alias of it); KeyError when there is none."""
    name = registered(name)
    found = _dialects.get(name)
    if found is None:
        found = _dialects[name] = _dialect_of(name)
    return found


def _dialect_of(name: str) -> HookDialect:
    loaded: HookDialect = importlib.import_module(f"{CLIENTS[name]}.dialect").DIALECT
    check_dialect(loaded, name)
    return loaded


def get(name: str) -> Client:
    """The client called `name` (or an alias of it); KeyError when there is none."""
    name = registered(name)
    client = _loaded.get(name)
    if client is None:
        client = _loaded[name] = _client_of(name)
    return client


def _client_of(name: str) -> Client:
    loaded: Client = importlib.import_module(f"{CLIENTS[name]}.client").CLIENT
    check(loaded, name)
    return loaded


def check_dialect(found: HookDialect, name: str) -> None:
    """A hook dialect registers only well formed: its name as the registry's, an event to answer, a tool
    table whose write tools are its own. TypeError (a bug in jitctx) otherwise. Cheap: it runs in every
    hook process."""
    if found.name != name:
        raise TypeError(f"{found!r}: registered as {name!r}")
    if not found.events:
        raise TypeError(f"{found!r}: its hook dialect names no event")
    check_tools(found)


def check(client: Client, name: str) -> None:
    """A client registers only whole: its identity, and the dialect of its folder, well formed
    (`check_dialect`). TypeError (a bug in jitctx) otherwise. What needs the client's profile read is
    checked by `check_parts` when the registry is listed (`every`)."""
    if client.name != name or not client.title or not client.program:
        raise TypeError(f"{client!r}: registered as {name!r}; a client needs its name, title and program")
    own = dialect(name) if name in CLIENTS else None
    if own is not None and not isinstance(client, type(own)):
        raise TypeError(f"{client!r}: does not speak its folder's dialect {type(own).__name__}")
    # The fast lane answers with the dialect alone, the engine with the whole client: they must read
    # and answer events alike, so the client's class changes nothing of its dialect.
    redone = sorted(n for n in vars(type(client)) if not n.startswith("__") and hasattr(own, n))
    if redone:
        raise TypeError(f"{client!r}: changes its dialect's {', '.join(redone)}; change them in its dialect")
    check_dialect(client, name)


def check_tools(client: HookDialect) -> None:
    """A well-formed tool table: a callable declaration for every name, and every write tool in it."""
    tools = client.tools()
    broken = sorted(repr(name) for name, declaration in tools.items() if not callable(declaration))
    if broken:
        raise TypeError(f"{client!r}: tools {', '.join(broken)} have no callable declaration")
    unknown = sorted(client.writes() - set(tools))
    if unknown:
        raise TypeError(f"{client!r}: write tools {', '.join(map(repr, unknown))} are not in its tool table")


def check_samples(client: Client) -> None:
    """The calls a preview plays (`sample_call`) are of the client's own tools, a write or an edit one of
    its write tools."""

    tools = client.tools()
    for kind in SAMPLE_KINDS:
        call = client.sample_call(kind, "/project/sample.txt")
        if call is not None and call[0] not in tools:
            raise TypeError(f"{client!r}: its {kind} sample calls {call[0]!r}, not in its tool table")
        if call is not None and kind in ("write", "edit") and call[0] not in client.writes():
            raise TypeError(f"{client!r}: its {kind} sample calls {call[0]!r}, not one of its write tools")


def check_parts(client: Client) -> None:
    """The parts a hook process does not need: the samples previews play, and its own loading (a profile
    of its own, named as the client)."""
    check_samples(client)
    profile = client.profile()
    if profile.name != client.name:
        raise TypeError(f"{client!r}: its profile is called {profile.name!r}")


def check_setup(setup: Setup, client: Client) -> None:
    """A setup registers only on its own client, and installs no hook for an event the client's dialect
    does not read."""
    if setup.client is not client:
        raise TypeError(f"{setup!r}: registered for {client!r}")
    if setup.hooks_file:  # a plugin's hooks are its file's (`install_file`), not settings entries
        return
    for transport in setup.transports:
        unknown = sorted({entry.event for entry in setup.entries(transport)} - client.events)
        if unknown:
            raise TypeError(
                f"{setup!r}: install registers {', '.join(unknown)}, which its dialect does not read"
            )


_parts_checked: set[str] = set()


def every() -> list[Client]:
    clients = [get(name) for name in CLIENTS]
    for client in clients:
        if client.name not in _parts_checked:  # once per process: the registry is listed often
            check_parts(client)
            _parts_checked.add(client.name)
    return clients


_setups: dict[str, Setup] = {}


def setup(name: str) -> Setup:
    """The setup of the client called `name` (or an alias of it); KeyError when there is none."""
    client = get(name)
    found = _setups.get(client.name)
    if found is None:
        found = importlib.import_module(f"{CLIENTS[client.name]}.setup").SETUP
        check_setup(found, client)
        _setups[client.name] = found
    return found


def every_setup() -> list[Setup]:
    return [setup(client.name) for client in every()]


def drift(name: str) -> DriftReader | None:
    """The drift reader of the client called `name` (or an alias): its folder's `drift` module's
    `session_drift`, for `stats --drift`; None for a client that keeps no transcript jitctx reads."""
    module_name = f"{CLIENTS[registered(name)]}.drift"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return None
    reader: DriftReader = module.session_drift
    return reader


def choices() -> list[str]:
    """Every name the command line accepts for a client: registry names, then aliases."""
    return [*CLIENTS, *(alias for name in CLIENTS for alias in dialect(name).aliases)]


def mcp_hook_client() -> Client:
    """The client whose hooks can call the `jitctx mcp` server's `hook_event` tool (`--transport mcp`)."""
    for name in CLIENTS:
        if "mcp" in dialect(name).transports:
            return get(name)
    raise LookupError("no client has an mcp transport")  # pragma: no cover - the registry has one
