"""`jitctx doctor` against the real Codex: the trust key and hash doctor computes are the ones Codex
reports (app-server `hooks/list`), and once Codex records the trust, doctor says so."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clients as cl
from tests.e2e.harness import jitctx

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def codex() -> Path:
    found = cl.install_clients()
    if isinstance(found, str):
        pytest.skip(f"e2e: {found}")
    return found.codex


class AppServer:
    """`codex app-server` over stdio JSON-RPC: one request at a time, notifications skipped."""

    def __init__(self, codex: Path, env: dict[str, str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            [str(codex), "app-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=cwd,
            text=True,
        )
        self.next_id = 0
        self.call("initialize", {"clientInfo": {"name": "jitctx-tests", "version": "1"}})
        self._send({"method": "initialized"})

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self._send({"id": self.next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            assert line, f"codex app-server closed its output during {method}"
            message = json.loads(line)
            if message.get("id") == self.next_id:
                assert "error" not in message, message
                result: dict[str, Any] = message["result"]
                return result

    def close(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)


def doctor(env: dict[str, str], cwd: Path) -> dict[str, Any]:
    done = jitctx(env, "doctor", "--json", cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_doctor_reads_the_trust_codex_records(codex: Path, tmp_path: Path) -> None:
    home, root = tmp_path / "home", tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    home.mkdir()
    env = cl.codex_env(home, tmp_path / "state")  # the venv's bin first on PATH: this checkout's jitctx
    installed = jitctx(env, "install", "codex", "--scope", "user", "--json", cwd=root)
    assert installed.returncode == 0, installed.stderr
    hooks_json = Path(json.loads(installed.stdout)["settings_path"])

    def trust_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
        return [c for c in report["checks"] if c["check"] == "trust (user)"]

    assert [c["status"] for c in trust_rows(doctor(env, root))] == ["problem"]

    from jitctx.clients.codex.trust import codex_hash, codex_key
    from jitctx.clients.kit.checks import our_handlers

    ours = {
        codex_key(str(hooks_json), h): codex_hash(h)
        for h in our_handlers(json.loads(hooks_json.read_text()), "codex")
    }
    server = AppServer(codex, env, root)
    try:
        listed = server.call("hooks/list", {"cwds": [str(root)]})["data"][0]["hooks"]
        theirs = {h["key"]: h["currentHash"] for h in listed if "jitctx hook codex" in h["command"]}
        assert theirs == ours, f"Codex's keys and hashes differ from doctor's: {theirs} vs {ours}"
        assert {h["trustStatus"] for h in listed if h["key"] in ours} == {"untrusted"}
        # Record the trust as Codex's /hooks does: hooks.state.<key>.trusted_hash in the user config.
        states = {key: {"trusted_hash": digest} for key, digest in theirs.items()}
        server.call(
            "config/value/write", {"keyPath": "hooks.state", "value": states, "mergeStrategy": "upsert"}
        )
        listed = server.call("hooks/list", {"cwds": [str(root)]})["data"][0]["hooks"]
        assert {h["trustStatus"] for h in listed if h["key"] in ours} == {"trusted"}
    finally:
        server.close()
    assert [c["status"] for c in trust_rows(doctor(env, root))] == ["ok"]
