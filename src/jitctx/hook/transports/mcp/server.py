"""`jitctx mcp`: context_for_paths, explain and stats as MCP tools over stdio.

Two layers. `McpTools` (`mcp_tools`) answers each tool call with plain data and never raises. This module
hands those answers to the MCP SDK, which is imported only here (the extra `jitctx[mcp]`). SDK 2.x
(`mcp.server.mcpserver.MCPServer`) and 1.x (`mcp.server.fastmcp.FastMCP`) share the calls used here: the
constructor's name and `instructions`, `add_tool(function, name=, description=)`, a parameter annotated
with the package's `Context` receiving the request's context, tools returning a `CallToolResult` as is,
and `run(transport="stdio")`, which reads `sys.stdin` and writes `sys.stdout` (`mcp_wire` sets both).

A file counts as sent only once its answer reached the client, as with the process hook. So each call
runs on a thread of its own, with the session held: the answer goes back to the event loop, the SDK
writes it, the wire reports the line written (`mcp_wire.Deliveries`), and only then is the session saved.
An answer that was not written (the client went away mid-call, the call was cancelled, the write failed)
leaves the session as it was, and the next call of the session sends the files again. The event loop
itself never waits for a session: it has the answers to write.

No `from __future__ import annotations` here: the SDK reads the tool functions' annotations at
registration, and the return type `CallToolResult` is a local import it could not resolve from a string.
"""

import asyncio
import importlib
import inspect
import threading
import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType
from typing import Any

from jitctx import __version__
from jitctx.errors import UsageError
from jitctx.hook.transports import readable
from jitctx.hook.transports.mcp.tools import TOOLS, Deliver, McpTools, ToolAnswer
from jitctx.hook.transports.mcp.wire import Deliveries, clean_stdin, reported_stdout

# `jitctx mcp` takes the tools from here, with the server that serves them.
__all__ = ["INSTRUCTIONS", "TOOLS", "McpTools", "ToolAnswer", "build_server", "load_sdk", "serve"]

EXTRA_HINT = "install the extra: pip install 'jitctx[mcp]'"
MIN_SDK = (1, 19)  # the first SDK that passes a tool's own CallToolResult through unchanged
# An answer not written this long after it was ready counts as lost (sent again next time); until then
# its session stays held, and the calls after it wait.
WRITE_WAIT_S = 10.0
# How long the server, once the client is gone, lets calls still running finish saving what was delivered.
FINISH_S = 5.0


def load_sdk() -> Any:
    """The SDK's high-level server class; UsageError (exit 2) naming the extra when it is missing."""
    return _server_class(_sdk_package())


def _server_class(package: ModuleType) -> Any:
    return package.MCPServer if hasattr(package, "MCPServer") else package.FastMCP


def _sdk_package() -> ModuleType:
    """The package of the SDK's high-level server (2.x `mcpserver`, 1.x `fastmcp`), checked."""
    try:
        found = version("mcp")
    except PackageNotFoundError:
        raise UsageError(f"the MCP SDK (package 'mcp') is not installed; {EXTRA_HINT}") from None
    if tuple(int(part) for part in found.split(".")[:2] if part.isdigit()) < MIN_SDK:
        wanted = ".".join(map(str, MIN_SDK))
        raise UsageError(f"the MCP SDK (package 'mcp') is {found}, older than {wanted}; {EXTRA_HINT}")
    try:
        return importlib.import_module("mcp.server.mcpserver")  # SDK 2.x
    except ImportError as newer:
        try:
            return importlib.import_module("mcp.server.fastmcp")  # SDK 1.x
        except ImportError:
            raise UsageError(f"the MCP SDK is not importable ({newer}); {EXTRA_HINT}") from None


INSTRUCTIONS = (
    "Before reading or editing files, call context_for_paths with their paths and a session_id that "
    "stays the same for the whole conversation; follow the instruction files it returns."
)


class Calls:
    """Tool calls, each on a thread of its own (a call may wait for a session, or for its answer to be
    written, and the event loop must not), their answers handed back to the event loop."""

    def __init__(self, deliveries: Deliveries | None) -> None:
        self.deliveries = deliveries
        self._threads: set[threading.Thread] = set()
        self._lock = threading.Lock()

    async def run(self, work: Callable[[Deliver], ToolAnswer], ctx: Any = None) -> ToolAnswer:
        """`work(deliver)`'s answer. With a request context and the wire's deliveries, `deliver` hands the
        answer over and returns once it was written to the client, or raises when it was not."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[ToolAnswer] = loop.create_future()
        waiter = None
        if ctx is not None and self.deliveries is not None:
            waiter = self.deliveries.expect(ctx.request_context.request_id)

        def hand(result: ToolAnswer | BaseException) -> None:  # on the event loop's thread
            if ready.done():  # cancelled, or the answer was handed over already
                return
            if isinstance(result, BaseException):
                ready.set_exception(result)
            else:
                ready.set_result(result)

        def deliver(answer: ToolAnswer) -> None:
            try:
                loop.call_soon_threadsafe(hand, answer)
            except RuntimeError:  # the event loop is gone, and with it the client
                raise BrokenPipeError("the server stopped before the answer was written") from None
            if waiter is not None and not waiter.wait(WRITE_WAIT_S):
                raise BrokenPipeError("the answer was not written to the client")

        def thread() -> None:
            try:
                result: ToolAnswer | BaseException = work(deliver)
            except BaseException as exc:  # `McpTools` never raises: this is a bug, shown as one by the SDK
                result = exc
            try:
                loop.call_soon_threadsafe(hand, result)
            except RuntimeError:
                pass  # the event loop is gone: nobody waits for this answer
            finally:
                with self._lock:
                    self._threads.discard(threading.current_thread())

        started = threading.Thread(target=thread, name="jitctx-mcp-call", daemon=True)
        with self._lock:
            self._threads.add(started)
        started.start()
        try:
            return await ready
        except BaseException:  # cancelled (the client gave up the call, or went away): not delivered
            if waiter is not None:
                waiter.settle(False)
            raise

    def finish(self, timeout: float) -> None:
        """The client is gone: no answer is delivered any more; wait up to `timeout` for the calls still
        running (one whose answer was delivered saves its session)."""
        if self.deliveries is not None:
            self.deliveries.close()
        with self._lock:
            running = list(self._threads)
        deadline = time.monotonic() + timeout
        for thread in running:
            thread.join(max(0.0, deadline - time.monotonic()))


def build_server(tools: McpTools, calls: Calls | None = None) -> Any:
    """An MCP server object with the tools registered, their calls run by `calls`; `serve` runs it."""
    package = _sdk_package()
    server_class = _server_class(package)
    from mcp.types import CallToolResult  # the optional extra `jitctx[mcp]`, checked just above

    # WARNING: at INFO the SDK logs every request on stderr, which clients show as the server's log.
    options: dict[str, Any] = {"instructions": INSTRUCTIONS, "log_level": "WARNING"}
    if "version" in inspect.signature(server_class.__init__).parameters:  # 2.x names it; 1.x does not
        options["version"] = __version__
    server = server_class("jitctx", **options)
    described = {spec.name: spec.description for spec in TOOLS}
    calls = calls or Calls(None)

    def reply(answer: ToolAnswer) -> CallToolResult:
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

    async def context_for_paths(
        paths: list[str], ctx: Any, cwd: str | None = None, session_id: str | None = None
    ) -> CallToolResult:
        return reply(
            await calls.run(lambda deliver: tools.context_for_paths(paths, cwd, session_id, deliver), ctx)
        )

    async def explain(path: str, cwd: str | None = None) -> CallToolResult:
        return reply(await calls.run(lambda deliver: tools.explain(path, cwd)))

    async def stats(session: str | None = None, since: str | None = None) -> CallToolResult:
        return reply(await calls.run(lambda deliver: tools.stats(session, since)))

    async def hook_event(
        ctx: Any,
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
        fields = {name: value for name, value in locals().items() if name != "ctx"}
        # Most tool events load nothing, and the fast lane proves it here on the main thread (its alarm
        # needs it), without the session; the others go to a thread, and wait for their delivery there.
        answer = tools.quick_hook_event(fields)
        if answer is None:
            answer = await calls.run(lambda deliver: tools.hook_event(fields, deliver), ctx)
        return CallToolResult.model_validate({"content": [{"type": "text", "text": readable(answer.text)}]})

    # The SDK hands the request's context to the parameter annotated with its `Context` (and leaves it out
    # of the tool's input schema): its request id names the response that delivers the answer.
    context_for_paths.__annotations__["ctx"] = hook_event.__annotations__["ctx"] = package.Context
    for tool in (context_for_paths, explain, stats, hook_event):
        server.add_tool(tool, name=tool.__name__, description=described[tool.__name__])
    return server


def serve(tools: McpTools) -> None:
    """Answer MCP requests on stdin/stdout until the client closes the connection."""
    deliveries = Deliveries()
    calls = Calls(deliveries)
    server = build_server(tools, calls)
    clean_stdin()
    reported_stdout(deliveries)
    try:
        server.run(transport="stdio")
    except* (BrokenPipeError, ConnectionResetError):
        pass  # the client went away without closing stdin first: the end of the conversation all the same
    finally:
        calls.finish(FINISH_S)
