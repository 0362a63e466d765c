"""The registry of live clients: one line each, the module whose `CLIENT` is that client.

A client's module is imported when it is first asked for (a hook process loads one). Everything that
iterates over agents — the command line's choices, install, uninstall, doctor, `profiles`, the warm
daemon's preload — goes through `names()`, `get()` and `every()`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs every hook call milliseconds
if TYPE_CHECKING:
    from jitctx.clients.base import Client

CLIENTS = {
    "claude-code": "jitctx.clients.claude_code",
    "codex": "jitctx.clients.codex",
    "gemini-cli": "jitctx.clients.gemini_cli",
    "qwen-code": "jitctx.clients.qwen_code",
    "copilot-cli": "jitctx.clients.copilot_cli",
    "opencode": "jitctx.clients.opencode",
}

_loaded: dict[str, Client] = {}


def names() -> tuple[str, ...]:
    return tuple(CLIENTS)


def canonical(name: str) -> str | None:
    """The registry name for `name` or one of a client's aliases (`gemini` for `gemini-cli`), else None."""
    if name in CLIENTS:
        return name
    for known in CLIENTS:
        if name in get(known).aliases:
            return known
    return None


def get(name: str) -> Client:
    """The client called `name` (or an alias of it); KeyError when there is none."""
    client = _loaded.get(name)
    if client is not None:
        return client
    module_name = CLIENTS.get(name)
    if module_name is None:
        known = canonical(name)
        if known is None:
            raise KeyError(name)
        return get(known)
    import importlib

    loaded: Client = importlib.import_module(module_name).CLIENT
    _loaded[name] = loaded
    return loaded


def every() -> list[Client]:
    return [get(name) for name in CLIENTS]


def choices() -> list[str]:
    """Every name the command line accepts for a client: registry names, then aliases."""
    return [*CLIENTS, *(alias for client in every() for alias in client.aliases)]


def mcp_hook_client() -> Client:
    """The client whose hooks can call the `jitctx mcp` server's `hook_event` tool (`--transport mcp`)."""
    for client in every():
        if "mcp" in client.transports:
            return client
    raise LookupError("no client has an mcp transport")  # pragma: no cover - the registry has one
