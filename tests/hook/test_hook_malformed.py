"""Bad input never blocks the agent: each case runs the real command, which exits 0 and prints `{}`, and the
problem is written to <state dir>/hook.log (and one line on stderr)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def good(root: Path, **fields: Any) -> dict[str, Any]:
    event: dict[str, Any] = {
        "session_id": "bad-input",
        "transcript_path": "/t.jsonl",
        "cwd": str(root),
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": "AGENTS.md"},
    }
    event.update(fields)
    return {k: v for k, v in event.items() if v is not None}


CASES: list[tuple[str, Any, str]] = [
    ("malformed JSON", b'{"hook_event_name": "PostToolUse",', "JSONDecodeError"),
    ("empty stdin", b"", "empty input"),
    ("only whitespace", b" \n\t ", "empty input"),
    ("a JSON array", b"[1, 2]", "a JSON list"),
    ("a JSON string", b'"PostToolUse"', "a JSON str"),
    ("not UTF-8", b'{"cwd": "\xff\xfe"}', "UnicodeDecodeError"),
    ("nested too deeply", b"[" * 100_000 + b"]" * 100_000, "RecursionError"),
    ("unknown event", {"hook_event_name": "Notification"}, "unknown hook event 'Notification'"),
    ("no event name", {"hook_event_name": None}, "no 'hook_event_name'"),
    ("event name not a string", {"hook_event_name": 7}, "no 'hook_event_name' string (got int)"),
    ("no session id", {"session_id": None}, "no 'session_id'"),
    ("no cwd", {"cwd": None}, "no 'cwd'"),
    ("relative cwd", {"cwd": "some/dir"}, "not an existing absolute directory"),
    ("cwd that does not exist", {"cwd": "/nonexistent/jitctx/dir"}, "not an existing absolute directory"),
    ("no tool name", {"tool_name": None}, "no 'tool_name'"),
    ("tool_input a string", {"tool_input": "AGENTS.md"}, "tool_input is a str"),
    ("tool_input a list", {"tool_input": ["AGENTS.md"]}, "tool_input is a list"),
    ("prompt not a string", {"hook_event_name": "UserPromptSubmit", "prompt": ["x"]}, "no 'prompt' string"),
    ("InstructionsLoaded without file_path", {"hook_event_name": "InstructionsLoaded"}, "no 'file_path'"),
]


@pytest.mark.parametrize(("name", "stdin", "logged"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_answers_empty_and_exits_zero(
    name: str, stdin: Any, logged: str, tree: Any, run_hook_process: Any, hook_env: dict[str, str]
) -> None:
    root = tree({".git/HEAD": "x\n", "CLAUDE.md": "# claude\n", "AGENTS.md": "# guide\n"})
    data = good(root, **stdin) if isinstance(stdin, dict) else stdin
    code, answer, stderr = run_hook_process("claude-code", data)
    assert code == 0
    assert answer == {}
    log = (Path(hook_env["JITCTX_STATE_DIR"]) / "hook.log").read_text(encoding="utf-8")
    assert logged in log
    assert len(log.splitlines()) == 1 and " claude-code: " in log
    assert stderr.count("\n") == 1 and "answered {}" in stderr


def test_a_hostile_session_id_stays_inside_the_state_dir(
    tmp_path: Path, tree: Any, run_hook_process: Any, hook_env: dict[str, str], answers: Any
) -> None:
    root = tree({".git/HEAD": "x\n", "CLAUDE.md": "# claude\n", "AGENTS.md": "# guide\n"})
    for hostile in ["../../x", "/etc/passwd", "a/b", "..", "\x00", "é" * 300]:
        code, answer, stderr = run_hook_process("claude-code", good(root, session_id=hostile))
        assert code == 0 and stderr == ""
        assert answers.sent(answer) == ["AGENTS.md"]
    state = Path(hook_env["JITCTX_STATE_DIR"])
    written = {p.relative_to(state).parts[0] for p in state.rglob("*") if p.is_file()}
    assert written == {"sessions", "events"}
    assert all(p.parent == state / "sessions" for p in (state / "sessions").iterdir())
    assert not (tmp_path / "x").exists() and not (state.parent / "x").exists()


def test_an_unwritable_state_dir_still_answers(tree: Any, tmp_path: Path, hook_env: dict[str, str]) -> None:
    root = tree({".git/HEAD": "x\n", "CLAUDE.md": "# claude\n", "AGENTS.md": "# guide\n"})
    blocked = tmp_path / "not-a-dir"
    blocked.write_text("a file where the state dir should be\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "claude-code"],
        input=json.dumps(good(root)).encode(),
        capture_output=True,
        env={**os.environ, **hook_env, "JITCTX_STATE_DIR": str(blocked / "state")},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == {}
    assert b"answered {}" in done.stderr


def test_codex_bad_input_is_answered_the_same_way(tree: Any, run_hook_process: Any) -> None:
    root = tree({".git/HEAD": "x\n", "CLAUDE.md": "# claude\n", "AGENTS.md": "# guide\n"})
    for data in [b"", b"nope", good(root, hook_event_name="InstructionsLoaded"), good(root, tool_input=3)]:
        code, answer, _ = run_hook_process("codex", data)
        assert (code, answer) == (0, {})


def test_a_bad_agent_name_is_a_usage_error(run_hook_process: Any) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "cursor"], input=b"{}", capture_output=True, check=False
    )
    assert done.returncode == 2 and b"invalid choice" in done.stderr


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
EVENTS = st.sampled_from(["SessionStart", "UserPromptSubmit", "PostToolUse", "InstructionsLoaded", "Stop"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    event=EVENTS,
    fields=st.dictionaries(
        st.sampled_from(
            ["session_id", "cwd", "tool_name", "tool_input", "prompt", "source", "agent_id", "file_path"]
        ),
        JSON,
        max_size=6,
    ),
)
def test_any_payload_gets_an_object_back(
    event: str, fields: dict[str, Any], call_hook: Any, tmp_path: Path
) -> None:
    answer = call_hook("claude-code", {"hook_event_name": event, **fields}, use_git=False)
    assert isinstance(answer, dict)
    assert answer == {} or set(answer) == {"hookSpecificOutput"}
