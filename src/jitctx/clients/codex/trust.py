"""Codex's trust of hooks and folders, read from its config.toml.

Codex records the trust of a hook in its config.toml (`~/.codex/config.toml`, `$CODEX_HOME/config.toml`):

    [hooks.state."/abs/path/hooks.json:post_tool_use:0:0"]
    trusted_hash = "sha256:<hex>"

The key is the hooks.json path, the event in snake case, the matcher group's index and the handler's
index in it. The hash is sha256 over the compact, key-sorted JSON of `{"event_name", "matcher" (left out
when there is none), "hooks": [{"async", "command", "timeout", "type"}]}`, as Codex 0.171's `hooks/list`
reports it (`currentHash`); a hook whose recorded hash differs is "modified since last trusted" and does
not run. Codex reads a project's `.codex/` only when the folder is trusted: `[projects."/abs/root"]
trust_level = "trusted"`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jitctx.clients.kit.checks import Handler, snake


def codex_key(hooks_json: str, handler: Handler) -> str:
    return f"{hooks_json}:{snake(handler.event)}:{handler.group}:{handler.index}"


def codex_hash(handler: Handler) -> str | None:
    """The hash Codex records when the handler is trusted; None for a handler with fields whose place in
    the hash is not known (then only the presence of a trust record can be told)."""
    if set(handler.fields) - {"type", "command", "timeout", "async"} or "timeout" not in handler.fields:
        return None
    body: dict[str, Any] = {
        "event_name": snake(handler.event),
        "hooks": [
            {
                "async": bool(handler.fields.get("async", False)),
                "command": handler.command,
                "timeout": handler.fields["timeout"],
                "type": "command",
            }
        ],
    }
    if handler.matcher is not None:
        body["matcher"] = handler.matcher
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def codex_trust(config: Mapping[str, Any], hooks_json: Path, handler: Handler) -> str:
    """ "trusted", "modified" (trusted once, changed since), "disabled", "untrusted" or "recorded" (a trust
    record whose hash cannot be checked)."""
    hooks = config.get("hooks")
    states = hooks.get("state") if isinstance(hooks, dict) else None
    if not isinstance(states, dict):
        return "untrusted"
    record = None
    for path in dict.fromkeys((os.path.abspath(hooks_json), os.path.realpath(hooks_json))):
        candidate = states.get(codex_key(path, handler))
        if isinstance(candidate, dict):
            record = candidate
            break
    if record is None:
        return "untrusted"
    if record.get("enabled") is False:
        return "disabled"
    recorded = record.get("trusted_hash")
    if not isinstance(recorded, str):
        return "untrusted"
    wanted = codex_hash(handler)
    if wanted is None:
        return "recorded"
    return "trusted" if recorded == wanted else "modified"


def codex_project_trusted(config: Mapping[str, Any], root: str) -> bool | None:
    """Is the project folder trusted by Codex (it reads `.codex/` there only then)? None: never asked."""
    projects = config.get("projects")
    if not isinstance(projects, dict):
        return None
    for path in dict.fromkeys((root, os.path.realpath(root))):
        entry = projects.get(path)
        if isinstance(entry, dict) and isinstance(entry.get("trust_level"), str):
            return bool(entry["trust_level"] == "trusted")
    return None


def codex_hooks_disabled(config: Mapping[str, Any]) -> bool:
    features = config.get("features")
    return isinstance(features, dict) and features.get("hooks") is False
