"""jitctx: the right instruction files in a coding agent's context at the right moment.

The names below are imported on first use, so `import jitctx` stays cheap on the hook path.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs every hook call milliseconds

__version__ = "0.1.0"

__all__ = [
    "Config",
    "Discovery",
    "JitctxError",
    "Project",
    "PromptAssembler",
    "Session",
    "Startup",
    "__version__",
]

_LAZY = {
    "Project": "jitctx.project",
    "Session": "jitctx.discovery.session",
    "Config": "jitctx.config",
    "Discovery": "jitctx.model",
    "Startup": "jitctx.model",
    "JitctxError": "jitctx.errors",
    "PromptAssembler": "jitctx.assemble",
}

if TYPE_CHECKING:
    from jitctx.assemble import PromptAssembler
    from jitctx.config import Config
    from jitctx.discovery.session import Session
    from jitctx.errors import JitctxError
    from jitctx.model import Discovery, Startup
    from jitctx.project import Project


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'jitctx' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
