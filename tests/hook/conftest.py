"""Helpers for the hook and install tests: golden payloads, an isolated state dir, the hook as a process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

PAYLOADS = Path(__file__).resolve().parent / "payloads"

Payload = Callable[..., dict[str, Any]]
RunHook = Callable[..., tuple[int, dict[str, Any], str]]


def _substitute(value: Any, values: dict[str, str]) -> Any:
    if isinstance(value, str):
        for key, replacement in values.items():
            value = value.replace(key, replacement)
        return value
    if isinstance(value, list):
        return [_substitute(item, values) for item in value]
    if isinstance(value, dict):
        return {key: _substitute(item, values) for key, item in value.items()}
    return value


@pytest.fixture
def payload() -> Payload:
    """A golden payload with $ROOT, $SESSION and $HOME filled in; keyword arguments override fields."""

    def load(name: str, root: Path, session: str = "s-golden", **fields: Any) -> dict[str, Any]:
        raw = json.loads((PAYLOADS / f"{name}.json").read_text(encoding="utf-8"))
        values = {"$ROOT": str(root), "$SESSION": session, "$HOME": "/home/dev"}
        data: dict[str, Any] = _substitute(raw, values)
        data.update(fields)
        return data

    return load


@pytest.fixture
def hook_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """State and home in the test's temp dir, for in-process calls and for child processes alike."""
    env = {"JITCTX_STATE_DIR": str(tmp_path / "state"), "JITCTX_HOME": str(tmp_path / "home")}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


@pytest.fixture
def run_hook_process(hook_env: dict[str, str]) -> RunHook:
    """`python -m jitctx hook AGENT` as a real process: (exit code, parsed stdout, stderr)."""

    def run(agent: str, stdin: bytes | str | dict[str, Any], *extra: str) -> tuple[int, dict[str, Any], str]:
        data = json.dumps(stdin).encode() if isinstance(stdin, dict) else stdin
        data = data.encode() if isinstance(data, str) else data
        done = subprocess.run(
            [sys.executable, "-m", "jitctx", "hook", agent, *extra],
            input=data,
            capture_output=True,
            env={**os.environ, **hook_env},
            timeout=60,
            check=False,
        )
        answer: dict[str, Any] = json.loads(done.stdout)
        return done.returncode, answer, done.stderr.decode()

    return run


class Answers:
    """Reading answers (test modules cannot import from conftest under --import-mode=importlib)."""

    @staticmethod
    def context(answer: dict[str, Any]) -> str:
        """The additionalContext of an answer, "" for `{}`."""
        if not answer:
            return ""
        assert set(answer) == {"hookSpecificOutput"}
        output = answer["hookSpecificOutput"]
        assert set(output) == {"hookEventName", "additionalContext"}
        text: str = output["additionalContext"]
        return text

    @classmethod
    def sent(cls, answer: dict[str, Any]) -> list[str]:
        """Display paths of the blocks in an answer, in order."""
        heads = ("Contents of ", "Updated contents of ")
        return [
            line.split(" of ", 1)[1].split(" (", 1)[0]
            for line in cls.context(answer).splitlines()
            if line.startswith(heads)
        ]


@pytest.fixture
def answers() -> type[Answers]:
    return Answers


@pytest.fixture
def call_hook(hook_env: dict[str, str], tmp_path: Path) -> Callable[..., dict[str, Any]]:
    """The hook in-process: `call_hook("claude-code", payload_dict)` -> answer."""
    from jitctx.hook.engine import HookEnv
    from jitctx.hook.pipeline import run_hook

    def call(agent: str, event: dict[str, Any] | str, **env: Any) -> dict[str, Any]:
        host = agent
        settings = {"state_dir": tmp_path / "state", "home": str(tmp_path / "home"), **env}
        raw = event if isinstance(event, str) else json.dumps(event)
        return run_hook(host, raw, HookEnv(**settings))

    return call


# Claude Code releases whose own nested loading differs (jitctx.clients.claude_code.release): the older loads
# nested files and scoped rules only after its Read tool, the newer also after Write, Edit, `@path` and
# one-file shell reads.
OLD_RELEASE = "2.1.197"
WIDE_RELEASE = "2.1.332"


@pytest.fixture(params=[OLD_RELEASE, WIDE_RELEASE])
def release(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, bool]:
    """A transcript written by a Claude Code release (path, does it load nested files beyond Read?);
    each test that takes it runs once per release."""
    version: str = request.param
    path = tmp_path / f"transcript-{version}.jsonl"
    record = {"type": "user", "sessionId": "x", "version": version, "cwd": str(tmp_path)}
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return str(path), version == WIDE_RELEASE


@pytest.fixture
def install_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project to install into, as the cwd: its own home and state dir, no active virtualenv, and this
    interpreter's `jitctx` first on PATH."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    return root
