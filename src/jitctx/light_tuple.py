"""`NamedTuple` without importing `typing`: the hook's fast lane parses shell commands on every tool call,
and `typing` alone costs it milliseconds to import.

`class Word(NamedTuple): text: str; exact: bool = True` builds the class `collections.namedtuple` makes
for those fields and defaults, with the class body's methods and docstring. Type checkers see
`typing.NamedTuple` instead (`if TYPE_CHECKING:` in the modules that use this), so both agree.
"""

from __future__ import annotations

import collections

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_CLASS_KEYS = frozenset({"__annotations__", "__module__", "__qualname__", "__doc__", "__orig_bases__"})


class _Builder(type):
    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> Any:
        if not bases:  # NamedTuple itself
            return super().__new__(mcls, name, bases, namespace)
        fields = list(namespace.get("__annotations__", {}))
        defaults = [namespace[field] for field in fields if field in namespace]
        if any(field not in namespace for field in fields[len(fields) - len(defaults) :]):
            raise TypeError(f"{name}: a field without a default follows one with a default")
        base = collections.namedtuple(name, fields, defaults=defaults, module=namespace.get("__module__"))  # type: ignore[misc]
        body = {
            key: value for key, value in namespace.items() if key not in _CLASS_KEYS and key not in fields
        }
        body.update(__slots__=(), __doc__=namespace.get("__doc__") or base.__doc__)
        built = type(name, (base,), body)
        built.__qualname__ = namespace.get("__qualname__", name)
        return built


class NamedTuple(metaclass=_Builder):
    """The base to write `class X(NamedTuple):` against (see the module's docstring)."""
