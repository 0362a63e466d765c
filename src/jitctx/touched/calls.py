"""What one tool call touched, and of that what a shell call certainly wrote: the tool's declaration
(the caller's table, else every name jitctx knows) applied to its input; never raises.

>>> affected_paths("read", {"file_path": "src/ui/Footer.tsx"})
('src/ui/Footer.tsx',)
>>> affected_paths("bash", {"command": "echo hi | tee -a src/api/log.txt"})
('src/api/log.txt',)
>>> affected_paths("web_fetch", {"url": "https://example.com"})
()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jitctx.touched.tools import REGISTRY, Declaration, ShellTool


def affected_paths(
    tool_name: str, tool_input: Mapping[str, Any], tools: Mapping[str, Declaration] | None = None
) -> tuple[str, ...]:
    """Paths the call touched, as the tool gave them (relative or absolute, not resolved).

    Unknown tools and malformed input give `()`; this never raises, because it runs inside an agent's
    tool loop, where an exception would break the user's session over a missed optimisation.
    """
    if not isinstance(tool_input, Mapping):
        return ()
    return _paths_of(_declaration(tool_name, tools), tool_input)


def _paths_of(declaration: Declaration | None, tool_input: Mapping[str, Any]) -> tuple[str, ...]:
    if declaration is None:
        return ()
    try:
        paths = declaration(tool_input)
    except Exception:  # a declaration bug must not break the agent; its own tests catch it
        return ()
    return _strings(paths)


def touched_and_written(
    tool_name: str, tool_input: Mapping[str, Any], tools: Mapping[str, Declaration] | None = None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`affected_paths`, and of those the ones a shell tool's call certainly wrote (() for any other
    tool): a file a shell wrote is one the client knows nothing of (no read, no edit of its own). The
    command is read once for both.

    >>> touched_and_written("bash", {"command": "printf 'x' > src/x/CLAUDE.md && cat src/x/a.py"})
    (('src/x/CLAUDE.md', 'src/x/a.py'), ('src/x/CLAUDE.md',))
    >>> touched_and_written("write", {"file_path": "src/x/CLAUDE.md"})
    (('src/x/CLAUDE.md',), ())
    """
    if not isinstance(tool_input, Mapping):
        return (), ()
    declaration = _declaration(tool_name, tools)  # looked up once for both answers
    if not isinstance(declaration, ShellTool):
        return _paths_of(declaration, tool_input), ()
    try:
        paths, written = declaration.targets(tool_input)
    except Exception:  # as in affected_paths: never break the agent over this
        return (), ()
    return _strings(paths), _strings(written)


def _declaration(tool_name: str, tools: Mapping[str, Declaration] | None) -> Declaration | None:
    if not isinstance(tool_name, str):
        return None
    if tools is None:
        tools = REGISTRY
    try:
        return tools.get(tool_name)
    except Exception:  # a client's table that cannot be read is a missed touch, never a broken agent
        return None


def _strings(paths: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for p in paths if isinstance(p, str) and p)
