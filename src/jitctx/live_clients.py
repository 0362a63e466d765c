"""Where the core learns of the live clients without importing them.

The live clients (`jitctx.clients`) are the edge: the core never imports them, by name or otherwise.
Yet a core lookup by an agent's name (`get_profile("codex")`, a tool name a caller gives without a
client) needs what each client declares in its own folder: its profile, its aliases, its tools. The
package facade (`jitctx/__init__.py`, which Python runs before any module of the package) `provide`s a
source of them once; the core asks `every()`. Without a source (nothing provided) the core knows the
format profiles and the generic tool names only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Protocol

    from jitctx.profiles import Profile
    from jitctx.touched.tools import Declaration

    class LiveClient(Protocol):
        """What the core asks of a live client."""

        name: str
        aliases: tuple[str, ...]

        def profile(self) -> Profile: ...

        def tools(self) -> Mapping[str, Declaration]: ...

        def writes(self) -> frozenset[str]: ...


_source: Callable[[], Sequence[LiveClient]] | None = None


def provide(source: Callable[[], Sequence[LiveClient]]) -> None:
    """Name the source of the live clients (called once, by the package facade)."""
    global _source
    _source = source


def every() -> Sequence[LiveClient]:
    """The live clients, in the registry's order; none when no source was provided."""
    return _source() if _source is not None else ()
