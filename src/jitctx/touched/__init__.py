"""What a tool call touched: the paths that JIT discovery should look at after it (DESIGN §2.5).

>>> affected_paths("Read", {"file_path": "src/ui/Footer.tsx"})
('src/ui/Footer.tsx',)
>>> affected_paths("Bash", {"command": "echo hi | tee -a src/api/log.txt"})
('src/api/log.txt',)
>>> affected_paths("web_fetch", {"url": "https://example.com"})
()
"""

from __future__ import annotations

from collections.abc import Mapping

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs the hook milliseconds
if TYPE_CHECKING:
    from typing import Any

__all__ = ["affected_paths", "shell_writes"]


def affected_paths(tool_name: str, tool_input: Mapping[str, Any]) -> tuple[str, ...]:
    """Paths the call touched, as the tool gave them (relative or absolute, not resolved).

    Unknown tools and malformed input give `()`; this never raises, because it runs inside an agent's
    tool loop, where an exception would break the user's session over a missed optimisation.
    """
    from jitctx.touched.tools import REGISTRY

    if not isinstance(tool_name, str) or not isinstance(tool_input, Mapping):
        return ()
    declaration = REGISTRY.get(tool_name)
    if declaration is None:
        return ()
    try:
        paths = declaration(tool_input)
    except Exception:  # a declaration bug must not break the agent; its own tests catch it
        return ()
    return tuple(p for p in paths if isinstance(p, str) and p)


def shell_writes(tool_name: str, tool_input: Mapping[str, Any]) -> tuple[str, ...]:
    """The paths a shell tool's call certainly wrote (as `affected_paths` gives them); () for any other
    tool. A file a shell wrote is one the client knows nothing of (no read, no edit of its own).

    >>> shell_writes("Bash", {"command": "printf 'x' > src/x/CLAUDE.md && cat src/x/a.py"})
    ('src/x/CLAUDE.md',)
    >>> shell_writes("Write", {"file_path": "src/x/CLAUDE.md"})
    ()
    """
    from jitctx.touched.tools import REGISTRY, ShellTool

    if not isinstance(tool_name, str) or not isinstance(tool_input, Mapping):
        return ()
    declaration = REGISTRY.get(tool_name)
    if not isinstance(declaration, ShellTool):
        return ()
    try:
        paths = declaration.writes(tool_input)
    except Exception:  # as in affected_paths: never break the agent over this
        return ()
    return tuple(p for p in paths if isinstance(p, str) and p)
