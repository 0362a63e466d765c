"""The client-side cost of one warm tool call: the `jitctx mcp` server Claude Code keeps running (mcp_tool
hooks, `install claude-code --transport mcp`) against a `jitctx hook claude-code` process, in one run.

    python benchmarks/bench_warm_transport.py [--calls 200]

What Claude Code waits for, per PostToolBatch of a warm session on a copy of examples/monorepo:

* mcp:      one JSON-RPC `tools/call hook_event` to a running `jitctx mcp` over its stdio pipes, the
            arguments as Claude Code substitutes them (objects as JSON text), until the reply is read;
* process:  one `jitctx hook claude-code` process fed the event on stdin (its fast lane answers);
* python:   `python -c pass`, the floor of any process hook.

Two touches alternate: src/ui/Footer.tsx (settled: loads nothing) and, every tenth call, a shell read of a
file in a directory the session has not scanned (the engine walks it; its state is reset so that it stays
new). Calls alternate between the cases so that drift in machine load hits all alike; figures are P50
and P90 of wall time in milliseconds; then the server alone, back to back ("hot"). Target: mcp P50 <= 2 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "monorepo"
FIELDS = ("hook_event_name", "session_id", "transcript_path", "cwd", "prompt", "prompt_id", "agent_id",
          "agent_type", "tool_name", "tool_use_id", "tool_input", "tool_calls")  # fmt: skip


def batch(root: Path, session: str, command: str) -> dict[str, Any]:
    calls = [{"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_b"}]
    return {"hook_event_name": "PostToolBatch", "session_id": session, "cwd": str(root), "tool_calls": calls}


def as_arguments(event: dict[str, Any]) -> dict[str, str]:
    """The mcp_tool hook's input after Claude Code's substitution."""
    return {
        field: (
            json.dumps(event[field])
            if isinstance(event.get(field), dict | list)
            else str(event.get(field, ""))
        )
        for field in FIELDS
    }


class Server:
    """A `jitctx mcp` child over pipes, spoken to in raw JSON-RPC lines as a client does."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        program = Path(sys.executable).with_name("jitctx")
        self.process = subprocess.Popen(
            [str(program), "mcp", "--root", str(root), "--no-git"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "0"}})  # fmt: skip
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        while True:
            reply: dict[str, Any] = json.loads(self.process.stdout.readline())
            if reply.get("id") == self.next_id:
                return reply

    def hook(self, event: dict[str, Any]) -> dict[str, Any]:
        reply = self.request("tools/call", {"name": "hook_event", "arguments": as_arguments(event)})
        answer: dict[str, Any] = json.loads(reply["result"]["content"][0]["text"])
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def timed(work: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    result = work()
    return (time.perf_counter() - started) * 1000, result


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return f"P50 {statistics.median(ordered):7.2f} ms   P90 {p90:7.2f} ms   (n={len(ordered)})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=200, help="calls per case (default 200)")
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="jitctx-warm-"))
    try:
        root = work / "repo"
        shutil.copytree(EXAMPLE, root)
        (root / ".git").mkdir()
        # The unscanned directories exist before the sessions start, and every listing is older than the
        # 2 s within which jitctx does not trust a directory's mtime (as git treats racily clean files).
        for index in range(9, options.calls, 10):
            (root / f"new{index}").mkdir()
            (root / f"new{index}/f.py").write_text("pass\n")
        time.sleep(2.5)
        env = {**os.environ, "JITCTX_STATE_DIR": str(work / "state"), "JITCTX_HOME": str(work / "home")}
        hook = [str(Path(sys.executable).with_name("jitctx")), "hook", "claude-code", "--no-git"]
        server = Server(root, env)
        settled = "cat src/ui/Footer.tsx"
        # Warm both sessions: the settled directory's rules are sent once, before timing.
        server.hook(batch(root, "mcp", settled))
        subprocess.run(hook, input=json.dumps(batch(root, "proc", settled)).encode(), env=env,
                       capture_output=True, check=True)  # fmt: skip
        times: dict[str, list[float]] = {"mcp": [], "process": [], "python": []}
        new_dir: dict[str, list[float]] = {"mcp": [], "process": []}
        for index in range(options.calls):
            fresh = index % 10 == 9
            target = f"new{index}/f.py"
            command = f"nl -ba {target}" if fresh else settled
            elapsed, answer = timed(lambda c=command: server.hook(batch(root, "mcp", c)))
            (new_dir["mcp"] if fresh else times["mcp"]).append(elapsed)
            assert fresh or answer == {}, answer
            event = json.dumps(batch(root, "proc", command)).encode()
            elapsed, done = timed(lambda e=event: subprocess.run(hook, input=e, env=env, capture_output=True))
            assert done.returncode == 0 and (fresh or json.loads(done.stdout) == {}), done.stdout
            (new_dir["process"] if fresh else times["process"]).append(elapsed)
            elapsed, _ = timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True))
            times["python"].append(elapsed)
        # The same server call back to back, nothing in between: the server and its pipes stay hot.
        hot = [timed(lambda: server.hook(batch(root, "mcp", settled)))[0] for _ in range(options.calls)]
        server.close()
        print(f"warm tool call, settled directory ({options.calls} calls, alternating):")
        for case in ("mcp", "process", "python"):
            print(f"  {case:8} {spread(times[case])}")
        print(f"  {'mcp, hot':8} {spread(hot)}   (back to back, no process started in between)")
        print("warm tool call, a directory the session has not scanned:")
        for case in ("mcp", "process"):
            print(f"  {case:8} {spread(new_dir[case])}")
        mcp, process, python = (statistics.median(times[c]) for c in ("mcp", "process", "python"))
        print(f"ratio mcp / process: {mcp / process:.3f}   process / python: {process / python:.2f}")
        hot_p50 = statistics.median(hot)
        print(
            f"target mcp P50 <= 2 ms: alternating {'met' if mcp <= 2 else 'missed'} ({mcp:.2f} ms), "
            f"back to back {'met' if hot_p50 <= 2 else 'missed'} ({hot_p50:.2f} ms)"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
