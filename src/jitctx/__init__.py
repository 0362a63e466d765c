"""jitctx: the right instruction files in a coding agent's context at the right moment.

The supported Python surface is exactly `__all__` below; every other module is internal and may change.
The names are imported on first use (`__getattr__`): Python runs this module before any module of the
package, and the hook's fast lane must not import the engine, the session or the project reader
(tests/hook/test_hook_import_budget.py).

    Project, Config                  a repository as one agent profile sees it, and its settings
    Session                          startup loading and per-tool-call discovery, with its invariants
    PromptAssembler                  a system prompt with a cache boundary that keeps the JIT blocks
    Startup, Discovery, Load,        what a startup or a discovery loaded and why (frozen records)
    InstructionFile, LoadReason, Tier
    affected_paths                   the paths a tool call touches, by tool name and input (and client)
    get_profile, profile_names       what each agent reads (`--agent`)
    hook_answer                      one hook event of a live client in, its answer out (never raises)
    JitctxError                      the one base error
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from jitctx import live_clients

if TYPE_CHECKING:
    from collections.abc import Sequence

    from jitctx.assemble import PromptAssembler
    from jitctx.clients.tool_calls import affected_paths
    from jitctx.config import Config
    from jitctx.discovery.session import Session
    from jitctx.errors import JitctxError
    from jitctx.hook.pipeline import respond as hook_answer
    from jitctx.live_clients import LiveClient
    from jitctx.model import Discovery, InstructionFile, Load, LoadReason, Startup, Tier
    from jitctx.profiles import get_profile, profile_names
    from jitctx.project import Project

__version__ = "0.1.0"

__all__ = [
    "Config",
    "Discovery",
    "InstructionFile",
    "JitctxError",
    "Load",
    "LoadReason",
    "Project",
    "PromptAssembler",
    "Session",
    "Startup",
    "Tier",
    "__version__",
    "affected_paths",
    "get_profile",
    "hook_answer",
    "profile_names",
]

_LAZY = {
    "Project": ("jitctx.project", "Project"),
    "Session": ("jitctx.discovery.session", "Session"),
    "Config": ("jitctx.config", "Config"),
    "Discovery": ("jitctx.model", "Discovery"),
    "Startup": ("jitctx.model", "Startup"),
    "Load": ("jitctx.model", "Load"),
    "InstructionFile": ("jitctx.model", "InstructionFile"),
    "LoadReason": ("jitctx.model", "LoadReason"),
    "Tier": ("jitctx.model", "Tier"),
    "JitctxError": ("jitctx.errors", "JitctxError"),
    "PromptAssembler": ("jitctx.assemble", "PromptAssembler"),
    "affected_paths": ("jitctx.clients.tool_calls", "affected_paths"),
    "get_profile": ("jitctx.profiles", "get_profile"),
    "profile_names": ("jitctx.profiles", "profile_names"),
    "hook_answer": ("jitctx.hook.pipeline", "respond"),
}


def _live_clients() -> Sequence[LiveClient]:
    """The live clients' registry, for the core's lookups by name (`jitctx.live_clients`): the facade
    wires the edge into the core, so that no core module imports it."""
    # Not at the top: `import jitctx`, which runs before any module of the package, imports no client
    # (tests/test_public_api.py, tests/telemetry/test_one_record_writer.py).
    from jitctx.clients import all_clients

    return list(all_clients.every())


live_clients.provide(_live_clients)


def __getattr__(name: str) -> object:
    place = _LAZY.get(name)
    if place is None:
        raise AttributeError(f"module 'jitctx' has no attribute {name!r}")
    value = getattr(importlib.import_module(place[0]), place[1])
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
