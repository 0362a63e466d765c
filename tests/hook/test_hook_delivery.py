"""A file counts as sent only once its answer was written: a broken stdout or a kill between the answer
and the saved state sends it again on the next event, never loses it."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from jitctx.hook.engine import Answer, HookEnv
from jitctx.hook.pipeline import run_hook

PACKAGES = 20
TREE: dict[str, str] = {".git/HEAD": "x\n", "CLAUDE.md": "# root\n"}
for _i in range(PACKAGES):
    TREE[f"pkg{_i}/AGENTS.md"] = f"# package {_i}\n"
    TREE[f"pkg{_i}/a.py"] = ""


@pytest.fixture
def project(tree: Any) -> Path:
    root: Path = tree(TREE)
    return root


def touch(root: Path, session: str, *rels: str) -> dict[str, Any]:
    command = "cat " + " ".join(rels)
    return {"session_id": session, "cwd": str(root), "hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}}  # fmt: skip


def test_an_answer_that_could_not_be_written_is_sent_again(
    project: Path, tmp_path: Path, answers: Any
) -> None:
    env = HookEnv(state_dir=tmp_path / "state", home=None, use_git=False)
    event = json.dumps(touch(project, "s", "pkg1/a.py"))

    def broken(_: Answer) -> None:
        raise BrokenPipeError("the agent closed the pipe")

    run_hook("claude-code", event, env, deliver=broken)
    written: list[Answer] = []
    run_hook("claude-code", event, env, deliver=written.append)
    assert [answers.sent(a) for a in written] == [["pkg1/AGENTS.md"]]
    again: list[Answer] = []
    run_hook("claude-code", event, env, deliver=again.append)
    assert again == [{}]  # delivered once, recorded once


def test_every_answer_goes_through_deliver_once(tmp_path: Path) -> None:
    env = HookEnv(state_dir=tmp_path / "state", home=None, use_git=False)
    seen: list[Answer] = []
    assert run_hook("claude-code", "not json", env, deliver=seen.append) == {}
    assert seen == [{}]


def run_hook_process(event: dict[str, Any], env: dict[str, str], **kwargs: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "jitctx", "hook", "claude-code", "--no-git"],
        stdin=subprocess.PIPE,
        env={**os.environ, **env},
        **kwargs,
    )


@pytest.mark.parametrize(
    "shell",
    [
        "exec 1>&-; {hook}; echo exit=$? >&2",  # started with stdout closed
        "{hook} | true; echo exit=${{PIPESTATUS[0]}} >&2",  # the reader is gone before the answer
    ],
)
def test_a_closed_or_broken_stdout_exits_0_and_loses_nothing(
    shell: str, project: Path, hook_env: dict[str, str], answers: Any
) -> None:
    event = json.dumps(touch(project, "s", "pkg2/a.py")).encode()
    hook = f"{sys.executable} -m jitctx hook claude-code --no-git"
    closed = subprocess.run(
        ["bash", "-c", shell.format(hook=hook)], input=event, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, env={**os.environ, **hook_env}, timeout=60, check=False,
    )  # fmt: skip
    assert b"exit=0" in closed.stderr
    assert b"Traceback" not in closed.stderr and b"Exception ignored" not in closed.stderr
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "claude-code", "--no-git"],
        input=event, capture_output=True, env={**os.environ, **hook_env}, timeout=60, check=True,
    )  # fmt: skip
    assert answers.sent(json.loads(done.stdout)) == ["pkg2/AGENTS.md"]


def test_kill_9_at_random_points_loses_no_file(project: Path, hook_env: dict[str, str], answers: Any) -> None:
    """200 hook processes, each killed with SIGKILL after a random delay spanning its whole run. A file
    whose answer reached the agent in full counts as received; at the end, one more touch of every
    package must bring each file that was not received, so no file is ever lost for the session."""
    rng = random.Random(14)
    received: set[str] = set()
    start = time.perf_counter()
    probe = run_hook_process(touch(project, "probe", "pkg0/a.py"), hook_env, stdout=subprocess.PIPE)
    probe.communicate(json.dumps(touch(project, "probe", "pkg0/a.py")).encode(), timeout=60)
    typical = time.perf_counter() - start
    killed = 0
    for _ in range(200):
        rels = [f"pkg{rng.randrange(PACKAGES)}/a.py" for _ in range(rng.randint(1, 3))]
        event = touch(project, "k", *rels)
        process = run_hook_process(event, hook_env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(event).encode())
        process.stdin.close()
        time.sleep(rng.uniform(0, typical * 1.2))
        process.send_signal(signal.SIGKILL)
        out = process.stdout.read()
        process.wait(timeout=60)
        killed += process.returncode == -signal.SIGKILL
        try:
            answer = json.loads(out)
        except ValueError:
            continue  # nothing, or half an answer: the agent got nothing from this call
        received.update(answers.sent(answer))
    assert 20 < killed < 200  # the kills landed all through the runs, and some runs finished
    every = [f"pkg{i}/a.py" for i in range(PACKAGES)]
    final = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "claude-code", "--no-git"],
        input=json.dumps(touch(project, "k", *every)).encode(),
        capture_output=True, env={**os.environ, **hook_env}, timeout=60, check=True,
    )  # fmt: skip
    received.update(answers.sent(json.loads(final.stdout)))
    assert received >= {f"pkg{i}/AGENTS.md" for i in range(PACKAGES)}
