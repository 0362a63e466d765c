"""`jitctx mcp` answers every request with a result or an error, whatever the arguments hold.

A lone surrogate escape (`"\\ud800"`, valid JSON syntax but no Unicode text) made the SDK drop the request
without a reply, and a reply holding a file name that is not UTF-8 could not be serialized: the client
waited forever. This talks JSON-RPC over the real server's stdio, as a client would, byte for byte.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jitctx.discovery.session import Session
from jitctx.hook.transports.mcp.tools import McpTools
from jitctx.hook.transports.mcp.wire import clean_line
from jitctx.project import Project
from tests.conftest import git

pytest.importorskip("mcp")


class Client:
    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.next_id = 1

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text.encode("utf-8") + b"\n")
        self.process.stdin.flush()

    def receive(self, timeout: float = 30) -> dict[str, Any]:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, "no reply"
        line = self.process.stdout.readline()
        reply: dict[str, Any] = json.loads(line.decode("utf-8"))  # valid UTF-8, or this raises
        return reply

    def call(self, arguments_json: str, tool: str = "context_for_paths") -> dict[str, Any]:
        """tools/call with the arguments as raw JSON text (so it may hold escapes Python cannot encode)."""
        self.next_id += 1
        self.send(
            f'{{"jsonrpc":"2.0","id":{self.next_id},"method":"tools/call",'
            f'"params":{{"name":"{tool}","arguments":{arguments_json}}}}}'
        )
        reply = self.receive()
        assert reply["id"] == self.next_id
        return reply


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with a scoped rule and an untracked file whose name is not UTF-8."""
    root = tmp_path / "repo"
    (root / ".claude" / "rules").mkdir(parents=True)
    (root / "src").mkdir()
    (root / ".claude" / "rules" / "src.md").write_text("---\npaths: src/**\n---\nSRC rule\n", "utf-8")
    (root / "CLAUDE.md").write_text("# root\n", "utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "x")
    if sys.platform == "linux":
        (root / "src" / os.fsdecode(b"caf\xe9.tsx")).write_bytes(b"x")
    return root


@pytest.fixture
def client(repo: Path, tmp_path: Path) -> Iterator[Client]:
    env = {**os.environ, "JITCTX_HOME": str(tmp_path / "home")}
    process = subprocess.Popen(
        [sys.executable, "-m", "jitctx", "mcp", "--root", str(repo), "--state-dir", str(tmp_path / "state")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    talk = Client(process)
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    talk.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}))
    assert talk.receive()["id"] == 1
    talk.send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
    yield talk
    process.kill()
    process.wait()


def text_of(reply: dict[str, Any]) -> str:
    return str(reply["result"]["content"][0]["text"])


def test_every_request_gets_a_reply(client: Client) -> None:
    first = client.call('{"paths": ["src/a.ts"]}')
    assert not first["result"]["isError"] and "SRC rule" in text_of(first)
    if sys.platform == "linux":
        triggers = [f.get("trigger") for f in first["result"]["structuredContent"]["files"]]
        assert "src/caf\\udce9.tsx" in triggers  # the startup signal, shown readably

    lone = client.call('{"paths": ["src/\\ud800.ts", "src/b.ts"]}')
    touched = lone["result"]["structuredContent"]["touched"]
    assert "not valid Unicode" in touched[0]["note"]
    assert touched[1]["path"] == "src/b.ts" and "note" in touched[1]  # the other path still answered

    assert client.call('{"paths": ["x"], "session_id": "\\udc80"}')["result"]["isError"]
    assert client.call('{"paths": ["x"], "cwd": "\\ud800"}')["result"]["isError"]
    assert client.call('{"path": "\\ud83d"}', tool="explain")["result"]["isError"]
    # A valid pair is an emoji, not a problem; an escaped backslash before `ud800` is just text.
    pair = client.call('{"paths": ["src/\\ud83d\\ude00.ts", "src/\\\\ud800.ts"]}')
    emoji, backslash = pair["result"]["structuredContent"]["touched"]
    assert emoji["note"].startswith("😀.ts does not exist yet")
    assert backslash["path"] == "src/\\ud800.ts" and "not valid Unicode" not in backslash.get("note", "")
    assert client.call('{"paths": ["src/a.ts"]}')["result"]["isError"] is False  # still serving


@pytest.mark.parametrize(
    ("line", "cleaned"),
    [
        (b'{"a": "x"}\n', b'{"a": "x"}\n'),
        (b'{"a": "\\ud800"}\n', b'{"a": "\\ufffd"}\n'),
        (b'{"a": "\\uDC80x"}\n', b'{"a": "\\ufffdx"}\n'),
        (b'{"a": "\\ud83d\\ude00"}\n', b'{"a": "\\ud83d\\ude00"}\n'),
        (b'{"a": "\\ude00\\ud83d"}\n', b'{"a": "\\ufffd\\ufffd"}\n'),
        (b'{"a": "\\\\ud800"}\n', b'{"a": "\\\\ud800"}\n'),
        (b'{"a": "\\\\\\ud800"}\n', b'{"a": "\\\\\\ufffd"}\n'),
        (b'{"a": "caf\xe9"}\n', b'{"a": "caf\xef\xbf\xbd"}\n'),
    ],
)
def test_clean_line(line: bytes, cleaned: bytes) -> None:
    assert clean_line(line) == cleaned


def test_one_path_that_raises_does_not_cost_the_others(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = McpTools(Project(repo), cwd=str(repo), state_dir=tmp_path / "state", use_git=False)
    real = Session.discover

    def discover(self: Session, path: str, channel: str = "main") -> Any:
        if path.endswith("boom.ts"):
            raise OSError(36, "File name too long")
        return real(self, path, channel)

    monkeypatch.setattr(Session, "discover", discover)
    answer = tools.context_for_paths(["src/boom.ts", "src/fine.ts"])
    assert not answer.error, answer.text
    touched = answer.document["touched"]
    assert "File name too long" in touched[0]["note"] and touched[0]["hit"] is False
    assert touched[1]["path"] == "src/fine.ts"
    assert any(f["path"] == ".claude/rules/src.md" for f in answer.document["files"])
