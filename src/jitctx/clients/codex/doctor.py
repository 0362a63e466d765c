"""Codex's own doctor checks: its config.toml (readable, `features.hooks`), the trust it recorded for each
hook and for the project folder, and the jitctx plugin."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jitctx.clients.codex.plugin import codex_plugin_checks
from jitctx.clients.codex.trust import codex_hooks_disabled
from jitctx.clients.codex.trust import codex_project_trusted as project_trusted
from jitctx.clients.codex.trust import codex_trust as hook_trust
from jitctx.clients.kit.checks import OK, PROBLEM, WARN, Check, Handler
from jitctx.clients.kit.doctor_kit import settings_checks

if TYPE_CHECKING:
    from jitctx.clients.base import Setup

NAME = "codex"


def doctor(setup: Setup, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
    codex_home = environ.get("CODEX_HOME") or (os.path.join(home, ".codex") if home else None)
    config, config_check = read_config(codex_home)
    places = [("project", setup.settings_path("project", root, "", environ))]
    if codex_home:
        places.append(("user", Path(codex_home) / "hooks.json"))

    def trust(scope: str, path: Path, handlers: list[Handler]) -> list[Check]:
        return trust_checks(config, scope, path, handlers, root)

    def plugin() -> tuple[list[Check], bool]:
        if not codex_home:
            return [], False
        return codex_plugin_checks(Path(codex_home), config, [e.event for e in setup.entries()])

    last = []
    if config and codex_hooks_disabled(config):
        last.append(
            Check(
                NAME,
                "hooks",
                PROBLEM,
                "features.hooks = false in Codex's config.toml",
                "remove that line (Codex runs no hook at all)",
            )
        )
    first = [config_check] if config_check is not None else []
    return settings_checks(setup, places, first=first, scope_checks=trust, plugin=plugin, last=last)


def read_config(codex_home: str | None) -> tuple[dict[str, Any], Check | None]:
    if not codex_home:
        return {}, None
    path = Path(codex_home) / "config.toml"
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, Check(NAME, "config", PROBLEM, f"{path}: cannot be read ({exc.strerror})")
    try:
        return tomllib.loads(raw.decode("utf-8")), None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return {}, Check(NAME, "config", PROBLEM, f"{path}: not valid TOML ({exc})", f"fix {path}")


def trust_checks(
    config: dict[str, Any], scope: str, path: Path, handlers: list[Any], root: str
) -> list[Check]:
    checks: list[Check] = []
    states = {h.event: hook_trust(config, path, h) for h in handlers}
    waiting = {event: state for event, state in states.items() if state not in ("trusted", "recorded")}
    name = f"trust ({scope})"
    if waiting:
        listed = ", ".join(f"{event} {state}" for event, state in waiting.items())
        checks.append(
            Check(
                NAME,
                name,
                PROBLEM,
                f"{path}: {listed}; Codex does not run these",
                "start Codex, type /hooks and trust the jitctx hooks",
            )
        )
    else:
        checks.append(Check(NAME, name, OK, f"{path}: every jitctx hook trusted"))
    if scope == "project":
        trusted = project_trusted(config, root)
        if trusted is False:
            checks.append(
                Check(
                    NAME,
                    "trust (folder)",
                    PROBLEM,
                    f"{root} is not trusted: Codex ignores its .codex/ (hooks included)",
                    "trust the folder in Codex, or: jitctx install codex --scope user",
                )
            )
        elif trusted is None:
            checks.append(
                Check(
                    NAME,
                    "trust (folder)",
                    WARN,
                    f"Codex has not recorded trust for {root}; it reads .codex/ once you trust the "
                    "folder (Codex asks when started there)",
                )
            )
    return checks
