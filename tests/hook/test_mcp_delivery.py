"""An MCP answer counts as sent only once it was written to the client, as the process hook's does: a
client gone mid-call leaves its files unsent, and the next call of the session (on a new server, after a
reconnect) sends them. In process with a `deliver` that raises, on the wire with a closed pipe, and with
a real `jitctx mcp` whose client closes its end mid-call."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from jitctx.hook.transports.mcp.tools import McpTools, ToolAnswer
from jitctx.hook.transports.mcp.wire import Deliveries, _Wire
from jitctx.project import Project


def make_tools(root: Path, state: Path) -> McpTools:
    return McpTools(
        Project(root, home=str(state.parent / "home")), cwd=str(root), state_dir=state, use_git=False
    )


def sent(answer: ToolAnswer) -> list[str]:
    assert not answer.error, answer.text
    return [f["path"] for f in answer.document["files"] if f["reason"] != "include"]


def broken(_: ToolAnswer) -> None:
    raise BrokenPipeError("the client closed the pipe")


def test_files_of_an_answer_that_was_not_delivered_come_on_the_next_call(
    example_copy: Path, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    tools = make_tools(example_copy, state)
    tools.context_for_paths(["src/ui/README.md"], session_id="s", deliver=broken)
    # A new server (the client reconnected) on the same state dir and session.
    written: list[ToolAnswer] = []
    first = make_tools(example_copy, state).context_for_paths(
        ["src/ui/README.md"], session_id="s", deliver=written.append
    )
    assert sent(first) == ["CLAUDE.md", "AGENTS.md", "src/ui/CLAUDE.md"]
    assert written == [first]  # handed over once, before the session was saved
    again = make_tools(example_copy, state).context_for_paths(["src/ui/README.md"], session_id="s")
    assert sent(again) == []  # delivered: sent once


def test_the_session_without_an_id_goes_back_to_what_it_held(example_copy: Path, tmp_path: Path) -> None:
    tools = make_tools(example_copy, tmp_path / "state")
    undelivered = tools.context_for_paths(["tools/gen.py"], deliver=broken)
    assert undelivered.error  # deliver raised: the call ends in error, and the transport knows
    assert sent(tools.context_for_paths(["tools/gen.py"]))[:2] == ["CLAUDE.md", "AGENTS.md"]  # startup again
    tools.context_for_paths(["src/ui/Footer.tsx"], deliver=broken)
    assert sent(tools.context_for_paths(["src/ui/Footer.tsx"])) == [
        "src/ui/CLAUDE.md",
        ".claude/rules/components.md",
    ]
    assert sent(tools.context_for_paths(["src/ui/Footer.tsx", "tools/gen.py"])) == []


def test_a_hook_event_whose_answer_was_not_delivered_is_sent_again(
    example_copy: Path, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    calls = [{"tool_name": "Bash", "tool_input": {"command": "nl -ba src/api/users.ts"}, "tool_use_id": "t1"}]
    fields = {"hook_event_name": "PostToolBatch", "session_id": "h", "cwd": str(example_copy),
              "tool_calls": json.dumps(calls)}  # fmt: skip
    handed: list[ToolAnswer] = []

    def breaks(answer: ToolAnswer) -> None:
        handed.append(answer)
        raise BrokenPipeError("the client closed the pipe")

    make_tools(example_copy, state).hook_event(fields, deliver=breaks)
    assert "src/api/AGENTS.md" in handed[0].text  # the answer was ready; it did not arrive
    again = make_tools(example_copy, state).hook_event(fields)
    assert "src/api/AGENTS.md" in json.loads(again.text)["hookSpecificOutput"]["additionalContext"]


def response(request_id: object, *, error: bool = False) -> bytes:
    outcome = {"error": {"code": -1, "message": "x"}} if error else {"result": {"content": []}}
    return json.dumps({"jsonrpc": "2.0", "id": request_id, **outcome}).encode() + b"\n"


def test_an_answer_is_delivered_by_the_line_of_its_response_written_whole() -> None:
    deliveries = Deliveries()
    read, write = os.pipe()
    wire = _Wire(write, deliveries)
    one, text_one, failed, other, last = (deliveries.expect(i) for i in (1, "1", 2, 3, 4))
    half = response(1)
    wire.write(half[:10])
    assert not one.wait(0)  # not yet whole
    wire.write(half[10:] + response(2, error=True))
    wire.write(b'{"jsonrpc": "2.0", "method": "notifications/message"}\n')
    wire.write(b'{"jsonrpc": "2.0", "id": 3, "method": "roots/list"}\n')  # the server's own request 3
    assert one.wait(0)
    assert not failed.wait(0)  # an error response delivers no answer
    # Settled once, for good: a later response would not change an answer settled as undelivered, so
    # these show that "1" (another id than 1) and 3 (only a request of the server's) were still waiting.
    wire.write(response("1") + response(3))
    assert text_one.wait(0) and other.wait(0)
    assert os.read(read, 1 << 16).count(b"\n") == 6
    deliveries.close()
    assert not last.wait(0) and not deliveries.expect(5).wait(0)  # the wire is gone
    os.close(read)
    os.close(write)


def test_a_write_to_a_client_that_has_gone_delivers_nothing() -> None:
    deliveries = Deliveries()
    read, write = os.pipe()
    os.close(read)  # the client went away
    waiter = deliveries.expect(7)
    wire = _Wire(write, deliveries)
    with pytest.raises(BrokenPipeError):
        wire.write(response(7))
    assert not waiter.wait(0)
    assert wire.write(response(8)) > 0  # once gone, later lines go nowhere, without an error each time
    assert not deliveries.expect(8).wait(0)
    os.close(write)


MCP = pytest.importorskip("mcp")


def start_server(root: Path, state: Path, home: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "JITCTX_HOME": str(home)}
    process = subprocess.Popen(
        [sys.executable, "-m", "jitctx", "mcp", "--root", str(root), "--state-dir", str(state), "--no-git"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    send(process, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello})
    assert process.stdout is not None and json.loads(process.stdout.readline())["id"] == 0
    send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    return process


def send(process: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert process.stdin is not None
    process.stdin.write(json.dumps(message).encode() + b"\n")
    process.stdin.flush()


def call(request_id: int, session: str, path: str) -> dict[str, Any]:
    arguments = {"paths": [path], "session_id": session}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": "context_for_paths", "arguments": arguments}}  # fmt: skip


def wait_for_discovery(events: Path, path: str) -> None:
    """Until the server has recorded the call's discovery: its answer is ready by then."""
    deadline = time.monotonic() + 120  # a bound against hanging, not a measurement
    while time.monotonic() < deadline:
        if any(path in log.read_text(encoding="utf-8") for log in events.glob("*.jsonl")):
            return
        time.sleep(0.05)
    pytest.fail(f"the server recorded no discovery of {path}")


def test_a_client_gone_mid_call_gets_the_files_after_it_reconnects(
    example_copy: Path, tmp_path: Path
) -> None:
    state, home = tmp_path / "state", tmp_path / "home"
    home.mkdir()
    gone = start_server(example_copy, state, home)
    assert gone.stdout is not None and gone.stdin is not None
    gone.stdout.close()  # the client's end of the server's stdout: nothing written now arrives
    send(gone, call(1, "s", "src/ui/Footer.tsx"))
    wait_for_discovery(state / "events", "src/ui/Footer.tsx")
    gone.stdin.close()
    assert gone.wait(timeout=120) == 0  # a client that went away ends the conversation, not an error
    assert gone.stderr is not None and b"Traceback" not in gone.stderr.read()

    again = start_server(example_copy, state, home)  # the client reconnects, same session
    assert again.stdout is not None and again.stdin is not None
    send(again, call(2, "s", "src/ui/Footer.tsx"))
    reply = json.loads(again.stdout.readline())
    files = [f["path"] for f in reply["result"]["structuredContent"]["files"] if f["reason"] != "include"]
    assert files == ["CLAUDE.md", "AGENTS.md", "src/ui/CLAUDE.md", ".claude/rules/components.md"]
    send(again, call(3, "s", "src/ui/Footer.tsx"))
    assert (
        json.loads(again.stdout.readline())["result"]["structuredContent"]["files"] == []
    )  # delivered: once
    again.stdin.close()
    assert again.wait(timeout=120) == 0
