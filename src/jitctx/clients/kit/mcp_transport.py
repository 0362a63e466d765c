"""Hooks answered by the running `jitctx mcp` server (`type: "mcp_tool"`), instead of a new `jitctx hook
AGENT` process per event: the transport `install --transport mcp` writes for a client that has it
(`"mcp" in HookDialect.transports`; today Claude Code).

What Claude Code 2.1.332 does with such a hook (its bundled code, and live against a scripted model):
`{"type": "mcp_tool", "server": S, "tool": T, "input": {...}, "timeout": N}` calls tool T of the MCP
server S that this session already runs, with `input` after substitution: `${field.path}` in string values
becomes that field of the hook input (an object as its JSON text, a missing one as ""); there is no token
for the whole input, so each field is an argument of its own. The tool's text is parsed as a hook's JSON
output, so `additionalContext` reaches the model; plain text is dropped. It works on UserPromptSubmit,
PostToolUse, PostToolBatch and SubagentStart; on SessionStart it fails ("no MCP client context"), and
InstructionsLoaded output is discarded, so those two stay command hooks. A server that is still
connecting is waited for (not on SubagentStart).

The server is a stdio child of Claude Code: no port, nothing another local user can reach.
"""

from __future__ import annotations

import json
import os
import shlex
from typing import Any

from jitctx.clients.kit.hook_command import unguard

MCP_SERVER = "jitctx"  # the name `install --transport mcp` registers the server under
MCP_HOOK_TOOL = "hook_event"

# The hook input fields an mcp_tool hook passes, one argument each (Claude Code substitutes `${field}` in
# string values only, an object as its JSON text, a missing field as ""; it has no token for the whole
# input). JSON_FIELDS arrive as JSON text and are decoded back.
HOOK_FIELDS = (
    "hook_event_name",
    "session_id",
    "transcript_path",
    "cwd",
    "prompt",
    "prompt_id",
    "agent_id",
    "agent_type",
    "tool_name",
    "tool_use_id",
    "tool_input",
    "tool_calls",
)
JSON_FIELDS = frozenset({"tool_input", "tool_calls"})

# The events install answers through the server: an mcp_tool hook works on these (and on PostToolUse,
# which install no longer registers); SessionStart and InstructionsLoaded stay commands.
MCP_EVENTS = frozenset({"UserPromptSubmit", "PostToolBatch", "SubagentStart"})


def mcp_handler(timeout: int) -> dict[str, Any]:
    """The hook handler that asks the running server."""
    return {
        "type": "mcp_tool",
        "server": MCP_SERVER,
        "tool": MCP_HOOK_TOOL,
        "input": {field: "${" + field + "}" for field in HOOK_FIELDS},
        "timeout": timeout,
    }


def is_jitctx_mcp_handler(handler: object) -> bool:
    """Is this a hook handler of ours that asks the server (whatever its input or timeout)?"""
    return (
        isinstance(handler, dict)
        and handler.get("type") == "mcp_tool"
        and handler.get("server") == MCP_SERVER
        and handler.get("tool") == MCP_HOOK_TOOL
    )


def hook_payload(fields: dict[str, Any]) -> dict[str, Any]:
    """The hook input an mcp_tool hook's arguments stand for: empty strings (fields the event does not
    have) left out, JSON_FIELDS decoded. ValueError when one is not JSON."""
    payload: dict[str, Any] = {}
    for key in HOOK_FIELDS:
        value = fields.get(key)
        if value is None or value == "":
            continue
        if key in JSON_FIELDS and isinstance(value, str):
            try:
                value = json.loads(value)
            except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
                raise ValueError(f"argument {key} is not JSON text") from None
        payload[key] = value
    return payload


# -- registering the server ------------------------------------------------------------------------------
# Claude Code reads MCP servers from `<root>/.mcp.json` (a project's, run once approved; a settings file's
# `enabledMcpjsonServers` approves by name) and from `~/.claude.json` (the user's, every project).


def server_file(scope: str, root: str, home: str) -> str:
    """Where Claude Code reads a server of this scope: the project's `.mcp.json`, or `~/.claude.json`."""
    return os.path.join(home, ".claude.json") if scope == "user" else os.path.join(root, ".mcp.json")


def server_spec(hook_command: str, agent: str) -> dict[str, Any]:
    """The server entry for the program of a hook command: `jitctx hook AGENT` -> `jitctx mcp`
    (`python -m jitctx hook AGENT` -> `python -m jitctx mcp`; a guarded command's own)."""
    words = shlex.split(unguard(hook_command))
    if words[-2:] != ["hook", agent]:
        raise ValueError(f"not a hook command of jitctx: {hook_command!r}")
    return {"type": "stdio", "command": words[0], "args": [*words[1:-2], "mcp"]}


def is_jitctx_server(entry: object) -> bool:
    """Is this server entry the one `server_spec` writes (whatever the program's path)?"""
    if not isinstance(entry, dict):
        return False
    command, args = entry.get("command"), entry.get("args")
    if not isinstance(command, str) or not isinstance(args, list) or not args or args[-1] != "mcp":
        return False
    if not all(isinstance(arg, str) for arg in args):
        return False
    names = [os.path.basename(word) for word in (command, *args[:-1])]
    return names[-1:] == ["jitctx"] or names[-2:] == ["-m", "jitctx"]


def add_server(data: dict[str, Any], spec: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """`data` (an .mcp.json or ~/.claude.json) with `mcpServers.jitctx` set to `spec`; whether it changed.
    Another server of that name that is not jitctx's is a ValueError: it is not ours to replace."""
    servers = data.get("mcpServers")
    if servers is not None and not isinstance(servers, dict):
        raise ValueError("'mcpServers' is not a JSON object")
    current = (servers or {}).get(MCP_SERVER)
    if current == spec:
        return data, False
    if current is not None and not is_jitctx_server(current):
        raise ValueError(f"an MCP server named {MCP_SERVER!r} is there already and it does not run jitctx")
    return {**data, "mcpServers": {**(servers or {}), MCP_SERVER: spec}}, True


def remove_server(data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """`data` without jitctx's server entry (an empty `mcpServers` goes too); whether it changed."""
    servers = data.get("mcpServers")
    if not isinstance(servers, dict) or not is_jitctx_server(servers.get(MCP_SERVER)):
        return data, False
    rest = {name: entry for name, entry in servers.items() if name != MCP_SERVER}
    result = {key: value for key, value in data.items() if key != "mcpServers"}
    if rest:
        result["mcpServers"] = rest
    return result, True


APPROVALS = "enabledMcpjsonServers"  # the settings key that approves .mcp.json servers by name


def approve(settings: dict[str, Any]) -> dict[str, Any]:
    """Settings that approve the project's `jitctx` server (so that it starts without a prompt); a
    ValueError when the key holds something other than a list, which is not ours to replace."""
    names = settings.get(APPROVALS, [])
    if not isinstance(names, list):
        raise ValueError(f"{APPROVALS!r} is not a list")
    return settings if MCP_SERVER in names else {**settings, APPROVALS: [*names, MCP_SERVER]}


def withdraw(settings: dict[str, Any]) -> dict[str, Any]:
    names = settings.get(APPROVALS)
    if not isinstance(names, list) or MCP_SERVER not in names:
        return settings
    rest = [name for name in names if name != MCP_SERVER]
    result = {key: value for key, value in settings.items() if key != APPROVALS}
    if rest:
        result[APPROVALS] = rest
    return result
