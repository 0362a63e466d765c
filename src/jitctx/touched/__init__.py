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

__all__ = ["affected_paths", "touched_and_written"]


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
    return _strings(paths)


def touched_and_written(
    tool_name: str, tool_input: Mapping[str, Any]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`affected_paths`, and of those the ones a shell tool's call certainly wrote (() for any other
    tool): a file a shell wrote is one the client knows nothing of (no read, no edit of its own). The
    command is read once for both.

    >>> touched_and_written("Bash", {"command": "printf 'x' > src/x/CLAUDE.md && cat src/x/a.py"})
    (('src/x/CLAUDE.md', 'src/x/a.py'), ('src/x/CLAUDE.md',))
    >>> touched_and_written("Write", {"file_path": "src/x/CLAUDE.md"})
    (('src/x/CLAUDE.md',), ())
    """
    from jitctx.touched.tools import REGISTRY, ShellTool

    declaration = REGISTRY.get(tool_name) if isinstance(tool_name, str) else None
    if not isinstance(declaration, ShellTool) or not isinstance(tool_input, Mapping):
        return affected_paths(tool_name, tool_input), ()
    try:
        paths, written = declaration.targets(tool_input)
    except Exception:  # as in affected_paths: never break the agent over this
        return (), ()
    return _strings(paths), _strings(written)


def _strings(paths: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for p in paths if isinstance(p, str) and p)
