"""A hook call whose work runs past its deadline answers `{}`, logs why, exits 0, and leaves the session
as it was: what it would have sent goes out on a later call."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from jitctx.discovery.session import Session
from jitctx.hook.deadline import Deadline, DeadlinePassed
from jitctx.hook.pipeline import respond


@pytest.fixture
def services(tree: Any) -> Path:
    root: Path = tree({".git/HEAD": "x\n", "AGENTS.md": "# Root\n", "svc/a/AGENTS.md": "# Service A\n"})
    return root


def codex_event(root: Path, name: str, **fields: Any) -> bytes:
    event = {"session_id": "late", "transcript_path": None, "cwd": str(root), "hook_event_name": name,
             "model": "gpt-5-codex", "permission_mode": "default", **fields}  # fmt: skip
    return json.dumps(event).encode()


def touch(root: Path, rel: str) -> bytes:
    return codex_event(root, "PostToolUse", tool_name="Bash", tool_input={"command": f"touch {rel}"})


def answer(
    raw: bytes, state: Path, delivered: list[dict[str, Any]], deadline_s: float | None
) -> dict[str, Any]:
    return respond(
        "codex", raw, state_dir=str(state), home=str(state.parent / "home"), use_git=False,
        deliver=delivered.append, deadline_s=deadline_s,
    )  # fmt: skip


def state_files(state: Path) -> dict[str, bytes]:
    return {str(p.relative_to(state)): p.read_bytes() for p in (state / "sessions").rglob("*") if p.is_file()}


def records(state: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for log in (state / "events").glob("*.jsonl")
        for line in log.read_text().splitlines()
    ]


def test_work_past_the_deadline_answers_empty_and_keeps_the_state(
    services: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answers: Any
) -> None:
    state = tmp_path / "state"
    delivered: list[dict[str, Any]] = []
    answer(codex_event(services, "SessionStart", source="startup"), state, delivered, 0.5)
    before, logged = state_files(state), len(records(state))

    def stuck(self: Session, *args: Any, **kwargs: Any) -> Any:
        time.sleep(60)  # a discovery that never ends, as a hostile repository could make one

    with monkeypatch.context() as patched:
        patched.setattr(Session, "discover_many", stuck)
        started = time.monotonic()
        late = answer(touch(services, "svc/a/x.py"), state, delivered, 0.5)
        assert time.monotonic() - started < 30  # cut short, not slept through
    assert late == {} and delivered[-1] == {}
    log = (state / "hook.log").read_text("utf-8")
    assert (
        "ran past its 0.5 s deadline" in log and "PostToolUse" in log and "session state is as it was" in log
    )
    assert state_files(state) == before  # nothing recorded as sent
    assert len(records(state)) == logged  # and no record of a discovery that did not end

    # Not lost: the next call sends it.
    assert answers.sent(answer(touch(services, "svc/a/x.py"), state, delivered, 0.5)) == ["svc/a/AGENTS.md"]


def test_the_deadline_stops_once_the_answer_is_handed_over(
    services: Path, tmp_path: Path, answers: Any
) -> None:
    """Writing the answer is not cut short: a slow reader still gets it, and the state records it."""
    state = tmp_path / "state"
    delivered: list[dict[str, Any]] = []
    answer(codex_event(services, "SessionStart", source="startup"), state, delivered, 0.3)

    def slow_reader(result: dict[str, Any]) -> None:
        time.sleep(0.8)
        delivered.append(result)

    sent = respond(
        "codex", touch(services, "svc/a/x.py"), state_dir=str(state), home=str(tmp_path / "home"),
        use_git=False, deliver=slow_reader, deadline_s=0.3,
    )  # fmt: skip
    assert answers.sent(sent) == answers.sent(delivered[-1]) == ["svc/a/AGENTS.md"]
    assert not (state / "hook.log").exists()
    assert answers.sent(answer(touch(services, "svc/a/y.py"), state, delivered, 0.3)) == []  # it is held


def test_the_hook_process_answers_empty_at_its_deadline(services: Path, hook_env: dict[str, str]) -> None:
    """The real `jitctx hook` entry, with a discovery that never ends patched in."""
    script = (
        "import sys, time\n"
        "from jitctx.discovery.session import Session\n"
        "Session.discover_many = lambda self, *a, **k: time.sleep(60)\n"
        "from jitctx.cli.cmd_hook import fast_main\n"
        "sys.exit(fast_main(['codex', '--no-git']))\n"
    )
    env = {**os.environ, **hook_env}
    run = [sys.executable, "-c", script]
    subprocess.run(run, input=codex_event(services, "SessionStart", source="startup"), env=env, timeout=60)
    done = subprocess.run(run, input=touch(services, "svc/a/x.py"), capture_output=True, env=env, timeout=30)
    assert (done.returncode, done.stdout) == (0, b"{}\n")
    assert b"deadline" in done.stderr
    log = (Path(hook_env["JITCTX_STATE_DIR"]) / "hook.log").read_text("utf-8")
    assert "ran past its 1 s deadline (PostToolUse, in " in log


# -- the timer itself ------------------------------------------------------------------------------------


def test_a_deadline_rings_once_in_the_block() -> None:
    with pytest.raises(DeadlinePassed), Deadline(0.05):
        time.sleep(5)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_stopped_deadline_never_rings() -> None:
    with Deadline(0.05) as deadline:
        deadline.stop()
        time.sleep(0.2)


def test_a_timer_armed_before_is_set_going_again() -> None:
    rang: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda number, frame: rang.append(number))
    try:
        signal.setitimer(signal.ITIMER_REAL, 30)
        with Deadline(5):
            pass
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 20 < remaining <= 30
        assert signal.getsignal(signal.SIGALRM) is not None and not rang
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_off_the_main_thread_there_is_no_deadline() -> None:
    outcome: list[bool] = []

    def work() -> None:
        with Deadline(0.01) as deadline:
            time.sleep(0.1)
            outcome.append(deadline.armed)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert outcome == [False]
