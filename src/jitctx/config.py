"""Project configuration: `.jitctx.toml` at the root, or `[tool.jitctx]` in `pyproject.toml`.

Every key is validated against a schema; a wrong type is an error naming the key and the fix, an unknown
key is a warning (a typo should not stop an agent from working).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jitctx.errors import ConfigError

CONFIG_FILE = ".jitctx.toml"
CONFIG_FILES = (CONFIG_FILE, "pyproject.toml")  # where a config may be, in the order they are tried


@dataclass(frozen=True)
class Layer:
    name: str
    globs: tuple[str, ...]
    max_bytes: int | None
    inject: bool = True  # false for layers an agent reads on demand (task material, history)


@dataclass(frozen=True)
class Route:
    triggers: tuple[str, ...]
    file: str


@dataclass(frozen=True)
class Config:
    source: str | None = None  # the file the config came from
    jit_context: bool = True
    agent: str | None = None
    max_bytes: int | None = None  # overrides the profile's budget
    allow_outside_imports: bool = False
    import_depth: int = 5
    layers: tuple[Layer, ...] = ()
    combined_budgets: tuple[tuple[tuple[str, ...], int], ...] = ()
    routes: tuple[Route, ...] = ()
    warnings: tuple[str, ...] = field(default=())


# key -> (expected type, what to write instead)
_TOP_KEYS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "jitContext": (bool, "jitContext = false"),
    "agent": (str, 'agent = "claude-code"'),
    "max_bytes": (int, "max_bytes = 65536"),
    "imports": (dict, "[imports]"),
    "layers": (dict, "[layers.L0]"),
    "budgets": (list, '[[budgets]] layers = ["L0", "L1"]  max_bytes = 57344'),
    "routes": (list, '[[routes]] triggers = ["release"]  file = "docs/release.md"'),
}
_IMPORT_KEYS: dict[str, tuple[type, str]] = {
    "allow_outside": (bool, "allow_outside = true"),
    "max_depth": (int, "max_depth = 5"),
}


def load_config(root: Path) -> Config:
    """Read the project's config; no file gives the defaults."""
    path = root / CONFIG_FILE
    if path.is_file():
        return parse_config(_read_toml(path), str(path))
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        try:
            table = _read_toml(pyproject).get("tool", {}).get("jitctx")
        except ConfigError:
            # A broken pyproject.toml is somebody else's problem unless it configures us.
            return Config()
        if isinstance(table, dict):
            return parse_config(table, f"{pyproject} [tool.jitctx]")
    return Config()


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}; fix the syntax or remove the file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from exc


def _check(where: str, key: str, value: Any, expected: type | tuple[type, ...], example: str) -> None:
    # bool is an int in Python; a budget of `true` is a mistake, not 1 byte.
    ok = isinstance(value, expected) and not (expected is int and isinstance(value, bool))
    if not ok:
        names = expected.__name__ if isinstance(expected, type) else "/".join(t.__name__ for t in expected)
        raise ConfigError(
            f"{where}: '{key}' must be {names}, found {type(value).__name__} {value!r}; write e.g. {example}"
        )


def parse_config(data: dict[str, Any], source: str) -> Config:
    warnings: list[str] = []
    for key, value in data.items():
        if key not in _TOP_KEYS:
            warnings.append(f"{source}: unknown key '{key}' ignored; known keys: {', '.join(_TOP_KEYS)}")
            continue
        expected, example = _TOP_KEYS[key]
        _check(source, key, value, expected, example)

    imports = data.get("imports", {})
    for key, value in imports.items():
        if key not in _IMPORT_KEYS:
            warnings.append(
                f"{source}: unknown key 'imports.{key}' ignored; known: {', '.join(_IMPORT_KEYS)}"
            )
            continue
        _check(source, f"imports.{key}", value, *_IMPORT_KEYS[key])
    agent = data.get("agent")
    if agent is not None:
        from jitctx.profiles import PROFILES

        if agent not in PROFILES:
            raise ConfigError(
                f"{source}: 'agent' is {agent!r}, not a profile; choose one of: {', '.join(PROFILES)}"
            )
    max_bytes = data.get("max_bytes")
    if max_bytes is not None and max_bytes < 0:
        raise ConfigError(f"{source}: 'max_bytes' must be 0 or more, found {max_bytes}")
    depth = imports.get("max_depth", 5)
    if not 0 <= depth <= 20:
        raise ConfigError(f"{source}: 'imports.max_depth' must be between 0 and 20, found {depth}")

    return Config(
        source=source,
        jit_context=data.get("jitContext", True),
        agent=data.get("agent"),
        max_bytes=max_bytes,
        allow_outside_imports=imports.get("allow_outside", False),
        import_depth=depth,
        layers=_parse_layers(data.get("layers", {}), source, warnings),
        combined_budgets=_parse_budgets(data.get("budgets", []), source),
        routes=_parse_routes(data.get("routes", []), source),
        warnings=tuple(warnings),
    )


def _parse_layers(table: dict[str, Any], source: str, warnings: list[str]) -> tuple[Layer, ...]:
    layers: list[Layer] = []
    for name, spec in table.items():
        where = f"layers.{name}"
        _check(source, where, spec, dict, f'[layers.{name}] globs = ["AGENTS.md"]  max_bytes = 16384')
        for key in spec:
            if key not in ("globs", "max_bytes", "inject", "description"):
                warnings.append(
                    f"{source}: unknown key '{where}.{key}' ignored; "
                    "known: globs, max_bytes, inject, description"
                )
        inject = spec.get("inject", True)
        _check(source, f"{where}.inject", inject, bool, f"{where}.inject = false")
        globs = spec.get("globs", [])
        _check(source, f"{where}.globs", globs, list, f'{where}.globs = ["AGENTS.md"]')
        for glob in globs:
            _check(source, f"{where}.globs", glob, str, f'{where}.globs = ["AGENTS.md"]')
        limit = spec.get("max_bytes")
        if limit is not None:
            _check(source, f"{where}.max_bytes", limit, int, f"{where}.max_bytes = 16384")
            if limit < 0:
                raise ConfigError(f"{source}: '{where}.max_bytes' must be 0 or more, found {limit}")
        layers.append(Layer(name, tuple(globs), limit, inject))
    return tuple(layers)


def _parse_budgets(items: list[Any], source: str) -> tuple[tuple[tuple[str, ...], int], ...]:
    budgets: list[tuple[tuple[str, ...], int]] = []
    for index, item in enumerate(items):
        where = f"budgets[{index}]"
        _check(source, where, item, dict, '[[budgets]] layers = ["L0", "L1"]  max_bytes = 57344')
        layers = item.get("layers")
        _check(source, f"{where}.layers", layers, list, f'{where}.layers = ["L0", "L1"]')
        limit = item.get("max_bytes")
        _check(source, f"{where}.max_bytes", limit, int, f"{where}.max_bytes = 57344")
        budgets.append((tuple(str(x) for x in layers), limit))
    return tuple(budgets)


def _parse_routes(items: list[Any], source: str) -> tuple[Route, ...]:
    routes: list[Route] = []
    for index, item in enumerate(items):
        where = f"routes[{index}]"
        _check(source, where, item, dict, '[[routes]] triggers = ["release"]  file = "docs/release.md"')
        triggers = item.get("triggers")
        _check(source, f"{where}.triggers", triggers, list, f'{where}.triggers = ["release", "tag"]')
        target = item.get("file")
        _check(source, f"{where}.file", target, str, f'{where}.file = "docs/release.md"')
        routes.append(Route(tuple(str(t) for t in triggers), target))
    return tuple(routes)
