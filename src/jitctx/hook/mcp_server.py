"""`jitctx mcp`: context_for_paths, explain and stats as MCP tools over stdio.

Two layers. `McpTools` (`mcp_tools`) answers each tool call with plain data and never raises. This module
hands those answers to the MCP SDK, which is imported only here (the extra `jitctx[mcp]`). SDK 2.x
(`mcp.server.mcpserver.MCPServer`) and 1.x (`mcp.server.fastmcp.FastMCP`) share the calls used here: the
constructor's name and `instructions`, the `tool(name=, description=)` decorator, tools returning a
`CallToolResult` as is, and `run(transport="stdio")`.

No `from __future__ import annotations` here: the SDK reads the tool functions' annotations at
registration, and the return type `CallToolResult` is a local import it could not resolve from a string.
"""

from typing import Any

from jitctx.errors import UsageError
from jitctx.hook.mcp_tools import TOOLS, McpTools, ToolAnswer
from jitctx.hook.mcp_wire import clean_stdin

# `jitctx mcp` takes the tools from here, with the server that serves them.
__all__ = ["INSTRUCTIONS", "TOOLS", "McpTools", "ToolAnswer", "build_server", "load_sdk", "serve"]

EXTRA_HINT = "install the extra: pip install 'jitctx[mcp]'"
MIN_SDK = (1, 19)  # the first SDK that passes a tool's own CallToolResult through unchanged


def load_sdk() -> Any:
    """The SDK's high-level server class; UsageError (exit 2) naming the extra when it is missing."""
    import importlib
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("mcp")
    except PackageNotFoundError:
        raise UsageError(f"the MCP SDK (package 'mcp') is not installed; {EXTRA_HINT}") from None
    if tuple(int(part) for part in found.split(".")[:2] if part.isdigit()) < MIN_SDK:
        wanted = ".".join(map(str, MIN_SDK))
        raise UsageError(f"the MCP SDK (package 'mcp') is {found}, older than {wanted}; {EXTRA_HINT}")
    try:
        return importlib.import_module("mcp.server.mcpserver").MCPServer  # SDK 2.x
    except ImportError as newer:
        try:
            return importlib.import_module("mcp.server.fastmcp").FastMCP  # SDK 1.x
        except ImportError:
            raise UsageError(f"the MCP SDK is not importable ({newer}); {EXTRA_HINT}") from None


INSTRUCTIONS = (
    "Before reading or editing files, call context_for_paths with their paths and a session_id that "
    "stays the same for the whole conversation; follow the instruction files it returns."
)


def build_server(tools: McpTools) -> Any:
    """An MCP server object with the three tools registered; `serve` runs it."""
    import inspect

    server_class = load_sdk()
    from mcp.types import CallToolResult

    # WARNING: at INFO the SDK logs every request on stderr, which clients show as the server's log.
    options: dict[str, Any] = {"instructions": INSTRUCTIONS, "log_level": "WARNING"}
    if "version" in inspect.signature(server_class.__init__).parameters:  # 2.x names it; 1.x does not
        from jitctx import __version__

        options["version"] = __version__
    server = server_class("jitctx", **options)
    described = {spec.name: spec.description for spec in TOOLS}

    def reply(answer: ToolAnswer) -> CallToolResult:
        from jitctx.hook.context import readable

        # camelCase keys validate on both SDK majors (2.x keeps them as aliases of snake_case fields).
        # `readable`: a file name that is not UTF-8 would make the reply impossible to serialize, and the
        # SDK would send nothing at all.
        return CallToolResult.model_validate(
            {
                "content": [{"type": "text", "text": readable(answer.text)}],
                "structuredContent": readable(answer.document),
                "isError": answer.error,
            }
        )

    def context_for_paths(
        paths: list[str], cwd: str | None = None, session_id: str | None = None
    ) -> CallToolResult:
        return reply(tools.context_for_paths(paths, cwd, session_id))

    def explain(path: str, cwd: str | None = None) -> CallToolResult:
        return reply(tools.explain(path, cwd))

    def stats(session: str | None = None, since: str | None = None) -> CallToolResult:
        return reply(tools.stats(session, since))

    async def hook_event(
        hook_event_name: str = "",
        session_id: str = "",
        transcript_path: str = "",
        cwd: str = "",
        prompt: str = "",
        prompt_id: str = "",
        agent_id: str = "",
        agent_type: str = "",
        tool_name: str = "",
        tool_use_id: str = "",
        tool_input: str = "",
        tool_calls: str = "",
    ) -> CallToolResult:
        # Named parameters, not **kwargs: the SDK builds the tool's input schema from this signature.
        # A coroutine, so that the SDK runs it on the event loop's thread, the main one (`hook_event`).
        fields = dict(locals())
        answer = tools.hook_event(fields)
        from jitctx.hook.context import readable

        return CallToolResult.model_validate({"content": [{"type": "text", "text": readable(answer.text)}]})

    for function in (context_for_paths, explain, stats, hook_event):
        server.add_tool(function, name=function.__name__, description=described[function.__name__])
    return server


def serve(tools: McpTools) -> None:
    """Answer MCP requests on stdin/stdout until the client closes the connection."""
    server = build_server(tools)
    clean_stdin()
    server.run(transport="stdio")
