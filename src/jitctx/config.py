"""Project configuration: `.jitctx.toml` at the root, or `[tool.jitctx]` in `pyproject.toml`; and the
user's own config, the only place for settings that widen what jitctx reads.

Every key is validated against a schema; a wrong type is an error naming the key and the fix, an unknown
key is a warning (a typo should not stop an agent from working).

A repository is not trusted to widen what is read: a cloned repo whose config said
`[imports] allow_outside = true` would let its AGENTS.md import any Markdown file on disk
(`@~/notes.md`). So that key is read only from the user config (`~/.config/jitctx/config.toml`, or the path
the edge passes in); in a project config it is ignored with a warning that says where to set it.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jitctx.errors import ConfigError
from jitctx.profiles import PROFILES
from jitctx.safe_open import NotRegular, open_regular

CONFIG_FILE = ".jitctx.toml"
CONFIG_FILES = (CONFIG_FILE, "pyproject.toml")  # where a config may be, in the order they are tried
# The user config below a home directory; the CLI may name another place ($XDG_CONFIG_HOME).
USER_CONFIG = ".config/jitctx/config.toml"
# A config holds a few keys; parsing a 50 MB file would cost seconds on every hook call.
MAX_CONFIG_BYTES = 1024 * 1024


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
    # [send.AGENT] skip = [globs]: files (root-relative paths) a hook never sends to that agent
    send_skip: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # [hold] writes = BOOL, [hold.AGENT] writes = BOOL: hold back a write whose rules the model has not
    # seen (a deny on the client's pre-tool event, once), for every agent and per agent
    hold_writes: bool = True
    hold_writes_for: tuple[tuple[str, bool], ...] = ()
    # [pin] paths = [...]: files (root-relative) that stay in every agent's context: sent at every start,
    # again after every compaction, and to every sub-agent, whatever their scope
    pinned: tuple[str, ...] = ()
    warnings: tuple[str, ...] = field(default=())

    def skipped_for(self, agent: str) -> tuple[str, ...]:
        """The globs of files a hook must not send to `agent` (`[send.AGENT] skip`)."""
        return next((globs for name, globs in self.send_skip if name == agent), ())

    def holds_writes(self, agent: str) -> bool:
        """Does the hook hold back a write of `agent` whose rules are not in its context yet?"""
        return next((on for name, on in self.hold_writes_for if name == agent), self.hold_writes)


@dataclass(frozen=True)
class UserConfig:
    """What only the user may set. `path` is where it is looked for (None: no user config at all)."""

    path: str | None = None
    allow_outside_imports: bool = False
    warnings: tuple[str, ...] = ()
    telemetry: TelemetryConfig | None = None  # [telemetry]: where `jitctx export` sends events


@dataclass(frozen=True)
class TelemetryConfig:
    """The user config's `[telemetry]` table. It lives there, not in the environment: Claude Code strips
    OTEL_* variables from the hooks it runs, and a repository must not choose where events go."""

    endpoint: str | None = None  # OTLP/HTTP base URL, e.g. http://collector:4318
    headers: tuple[tuple[str, str], ...] = ()
    timeout: float = 10.0  # seconds per request, retries included
    resource: tuple[tuple[str, str], ...] = ()  # extra resource attributes, e.g. team = "payments"


# key -> (expected type, what to write instead)
_TOP_KEYS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "jitContext": (bool, "jitContext = false"),
    "agent": (str, 'agent = "claude-code"'),
    "max_bytes": (int, "max_bytes = 65536"),
    "imports": (dict, "[imports]"),
    "layers": (dict, "[layers.L0]"),
    "budgets": (list, '[[budgets]] layers = ["L0", "L1"]  max_bytes = 57344'),
    "routes": (list, '[[routes]] triggers = ["release"]  file = "docs/release.md"'),
    "send": (dict, '[send.claude-code] skip = [".cursor/rules/**"]'),
    "hold": (dict, "[hold] writes = false"),
    "pin": (dict, '[pin] paths = ["docs/conventions.md"]'),
}
_IMPORT_KEYS: dict[str, tuple[type, str]] = {
    "allow_outside": (bool, "allow_outside = true"),
    "max_depth": (int, "max_depth = 5"),
}


_USER_KEYS = "[imports] allow_outside and [telemetry]"


def load_user_config(path: str | os.PathLike[str] | None) -> UserConfig:
    """Read the user config at `path`; no file (or no path) gives the defaults."""
    if path is None:
        return UserConfig()
    where = str(path)
    if not os.path.isfile(where):
        return UserConfig(where)
    data = _read_toml(Path(where))
    warnings: list[str] = []
    imports = data.get("imports", {})
    _check(where, "imports", imports, dict, "[imports]")
    for key in data:
        if key not in ("imports", "telemetry"):
            warnings.append(f"{where}: key '{key}' ignored; a user config holds only {_USER_KEYS}")
    for key in imports:
        if key != "allow_outside":
            warnings.append(f"{where}: key 'imports.{key}' ignored; a user config holds only {_USER_KEYS}")
    allow = imports.get("allow_outside", False)
    _check(where, "imports.allow_outside", allow, bool, "allow_outside = true")
    telemetry = _telemetry(where, data["telemetry"], warnings) if "telemetry" in data else None
    return UserConfig(where, allow, tuple(warnings), telemetry)


_TELEMETRY_KEYS = ("endpoint", "headers", "timeout", "resource")


def _telemetry(where: str, table: Any, warnings: list[str]) -> TelemetryConfig:
    """The `[telemetry]` table, checked key by key."""
    _check(where, "telemetry", table, dict, '[telemetry] endpoint = "http://localhost:4318"')
    for key in table:
        if key not in _TELEMETRY_KEYS:
            warnings.append(
                f"{where}: unknown key 'telemetry.{key}' ignored; known: {', '.join(_TELEMETRY_KEYS)}"
            )
    endpoint = table.get("endpoint")
    if endpoint is not None:
        _check(where, "telemetry.endpoint", endpoint, str, 'endpoint = "http://localhost:4318"')
    timeout = table.get("timeout", 10.0)
    _check(where, "telemetry.timeout", timeout, (int, float), "timeout = 10")
    if isinstance(timeout, bool) or timeout <= 0:
        raise ConfigError(
            f"{where}: 'telemetry.timeout' must be a positive number of seconds; write e.g. timeout = 10"
        )
    pairs: dict[str, tuple[tuple[str, str], ...]] = {}
    for name, example in (
        ("headers", 'headers = { authorization = "Bearer ..." }'),
        ("resource", 'resource = { team = "payments" }'),
    ):
        value = table.get(name, {})
        _check(where, f"telemetry.{name}", value, dict, example)
        for key, item in value.items():
            _check(where, f"telemetry.{name}.{key}", item, str, example)
        pairs[name] = tuple(sorted(value.items()))
    return TelemetryConfig(endpoint or None, pairs["headers"], float(timeout), pairs["resource"])


def load_config(root: Path, user: UserConfig | None = None) -> Config:
    """Read the project's config, with what the user config allows; no file gives the defaults."""
    path = root / CONFIG_FILE
    if path.is_file():
        return parse_config(_read_toml(path), str(path), user)
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        try:
            table = _read_toml(pyproject).get("tool", {}).get("jitctx")
        except ConfigError as exc:
            # A broken pyproject.toml is somebody else's problem unless it configures us; one too large to
            # read is said, since it may.
            too_large = (f"{exc}; its [tool.jitctx] table is not read",) if "larger than" in str(exc) else ()
            return _defaults(user, too_large)
        if isinstance(table, dict):
            return parse_config(table, f"{pyproject} [tool.jitctx]", user)
    return _defaults(user)


def _defaults(user: UserConfig | None, notes: tuple[str, ...] = ()) -> Config:
    """The config of a project without one."""
    user = user or UserConfig()
    return Config(allow_outside_imports=user.allow_outside_imports, warnings=(*notes, *user.warnings))


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        # Without blocking, so that a FIFO named like a config cannot stop every hook call.
        with os.fdopen(open_regular(path), "rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
    except NotRegular:
        raise ConfigError(f"{path}: not a regular file; remove it") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from exc
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(
            f"{path}: larger than {MAX_CONFIG_BYTES // 1024} KiB, too large for a config file (jitctx reads "
            "a few keys); shorten it"
        )
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}; fix the syntax or remove the file") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from exc


def _check(where: str, key: str, value: Any, expected: type | tuple[type, ...], example: str) -> None:
    # bool is an int in Python; a budget of `true` is a mistake, not 1 byte.
    ok = isinstance(value, expected) and not (expected is int and isinstance(value, bool))
    if not ok:
        names = expected.__name__ if isinstance(expected, type) else "/".join(t.__name__ for t in expected)
        raise ConfigError(
            f"{where}: '{key}' must be {names}, found {type(value).__name__} {value!r}; write e.g. {example}"
        )


def parse_config(data: dict[str, Any], source: str, user: UserConfig | None = None) -> Config:
    """The config of `data` read from `source`, with what `user` allows."""
    user = user or UserConfig()
    warnings: list[str] = list(user.warnings)
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
    if "allow_outside" in imports:
        where = user.path or f"~/{USER_CONFIG}"
        warnings.append(
            f"{source}: 'imports.allow_outside' ignored: a repository may not widen what jitctx reads; "
            f"set it in your user config, {where}"
        )
    agent = data.get("agent")
    if agent is not None:
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
        allow_outside_imports=user.allow_outside_imports,
        import_depth=depth,
        layers=_parse_layers(data.get("layers", {}), source, warnings),
        combined_budgets=_parse_budgets(data.get("budgets", []), source),
        routes=_parse_routes(data.get("routes", []), source),
        send_skip=_parse_send(data.get("send", {}), source, warnings),
        **_parse_hold(data.get("hold", {}), source, warnings),
        pinned=_parse_pin(data.get("pin", {}), source, warnings),
        warnings=tuple(warnings),
    )


def _parse_hold(table: dict[str, Any], source: str, warnings: list[str]) -> dict[str, Any]:
    """`[hold] writes = BOOL` and `[hold.AGENT] writes = BOOL` (a profile name): whether a write whose
    rules the model has not seen is held back once."""
    every = table.get("writes", True)
    _check(source, "hold.writes", every, bool, "[hold] writes = false")
    per_agent: list[tuple[str, bool]] = []
    for key, entry in table.items():
        if key == "writes":
            continue
        where = f"hold.{key}"
        if not isinstance(entry, dict):
            warnings.append(f"{source}: unknown key '{where}' ignored; known: writes, [hold.AGENT] writes")
            continue
        unknown = sorted(set(entry) - {"writes"})
        if unknown:
            warnings.append(f"{source}: unknown key '{where}.{unknown[0]}' ignored; known: writes")
        on = entry.get("writes", every)
        _check(source, f"{where}.writes", on, bool, f"[{where}] writes = false")
        if key not in PROFILES:
            warnings.append(f"{source}: '{where}' names no profile; choose one of: {', '.join(PROFILES)}")
            continue
        per_agent.append((PROFILES.aliases().get(key, key), on))
    return {"hold_writes": every, "hold_writes_for": tuple(per_agent)}


def _parse_pin(table: dict[str, Any], source: str, warnings: list[str]) -> tuple[str, ...]:
    """`[pin] paths = [...]`: root-relative files that stay in context (no globs: a pin names a file)."""
    unknown = sorted(set(table) - {"paths"})
    if unknown:
        warnings.append(f"{source}: unknown key 'pin.{unknown[0]}' ignored; known: paths")
    paths = table.get("paths", [])
    example = '[pin] paths = ["docs/conventions.md"]'
    if not isinstance(paths, list) or not all(isinstance(p, str) and p.strip() for p in paths):
        warnings.append(f"{source}: 'pin.paths' ignored: it must be a list of file paths, e.g. {example}")
        return ()
    kept: list[str] = []
    for path in paths:
        posix = path.strip().replace("\\", "/")
        parts = [part for part in posix.split("/") if part not in ("", ".")]
        if posix.startswith(("/", "~")) or ".." in parts or not parts or "\0" in posix:
            warnings.append(
                f"{source}: pin path {path!r} ignored: name a file inside the project, relative to its root"
            )
            continue
        kept.append("/".join(parts))
    return tuple(dict.fromkeys(kept))


def _parse_send(
    table: dict[str, Any], source: str, warnings: list[str]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`[send.AGENT] skip = [...]`: per agent (a profile name), the globs of files its hook leaves out,
    such as the Cursor copies of rules an agent reads from `.claude/rules`."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for agent, entry in table.items():
        where = f"send.{agent}"
        if not isinstance(entry, dict):
            raise ConfigError(
                f"{source}: '{where}' must be a table, e.g. [{where}] skip = [\".cursor/rules/**\"]"
            )
        unknown = sorted(set(entry) - {"skip"})
        if unknown:
            warnings.append(f"{source}: unknown key '{where}.{unknown[0]}' ignored; known: skip")
        skip = entry.get("skip", [])
        if not isinstance(skip, list) or not all(isinstance(g, str) and g for g in skip):
            raise ConfigError(
                f"{source}: '{where}.skip' must be a list of globs, e.g. skip = [\".cursor/rules/**\"]"
            )
        if agent not in PROFILES:
            warnings.append(f"{source}: '{where}' names no profile; choose one of: {', '.join(PROFILES)}")
            continue
        found.append((agent, tuple(skip)))
    return tuple(found)


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
