"""The fast lane never disagrees with the engine: wherever it answers, the engine would answer the same.

Random trees (nested CLAUDE.md and AGENTS.md, scoped and unscoped rules), random edits between calls
(rules rescoped in place, files added, instruction files created and deleted) and random touch sequences
(Read, a shell read, a Write). Before each touch the session state is copied: the fast lane answers
from one copy, the engine alone (no fast lane) from the other. Where the fast lane answered, the engine's
answer must be `{}` too, and the record each wrote must be the same, field for field (but the time stamp
and the elapsed time). The session then goes on from the engine's state.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jitctx.clients import all_clients
from jitctx.hook.engine import Engine, HookEnv
from jitctx.hook.event import parse_raw as parse
from jitctx.hook.fast_lane import try_quick
from jitctx.hook.pipeline import respond
from tests.conftest import settle

CLIENT = all_clients.get("claude-code")  # the engine's: the whole client
DIALECT = all_clients.dialect("claude-code")  # the fast lane's, as the pipeline hands it over
DIRS = ["src", "src/ui", "pkg/a"]
NAMES = ["x.ts", "y.py"]
GLOBS = ["**/*.ts", "src/**", "src/ui/*.ts", "pkg/**/*.py", "**/y.py", "src/{ui,api}/*.ts", "docs/**"]
TOOLS = ["Read", "Bash", "Write"]

touch = st.tuples(st.just("touch"), st.sampled_from(TOOLS), st.sampled_from(DIRS), st.sampled_from(NAMES))
rescope = st.tuples(st.just("rescope"), st.integers(0, 3), st.sampled_from([*GLOBS, None]))
add_file = st.tuples(st.just("add"), st.sampled_from(DIRS), st.sampled_from(["n.ts", "n.py"]))
add_md = st.tuples(st.just("add_md"), st.sampled_from(DIRS), st.sampled_from(["CLAUDE.md", "AGENTS.md"]))
drop_md = st.tuples(st.just("drop_md"), st.sampled_from(DIRS), st.sampled_from(["CLAUDE.md", "AGENTS.md"]))
edit = st.one_of(rescope, add_file, add_md, drop_md)
# Mostly touches, so that a directory is touched again once scanned (where the fast lane may answer).
steps = st.lists(st.one_of(touch, touch, touch, touch, touch, edit), min_size=6, max_size=24)
trees = st.fixed_dictionaries(
    {
        "rules": st.lists(st.sampled_from([*GLOBS, None]), min_size=1, max_size=4),
        "claude": st.sets(st.sampled_from(DIRS)),
        "agents": st.sets(st.sampled_from(DIRS)),
    }
)


def backdate(path: Path, tick: int) -> None:
    """Date a file (or a directory) half a minute back, a distinct nanosecond per edit: a file changed
    within the last two seconds is never trusted by the fast lane (its clock may be coarse), so without
    this it would never answer, and the property would hold vacuously."""
    when = BASE_NS + tick
    os.utime(path, ns=(when, when), follow_symlinks=False)


BASE_NS = 0  # set per example


def rule_text(index: int, glob: str | None) -> str:
    scope = f'---\npaths: ["{glob}"]\n---\n' if glob is not None else ""
    return f"{scope}rule {index} body\n"


def build(root: Path, tree: dict[str, Any]) -> None:
    (root / ".git").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("root rules\n")
    for directory in DIRS:
        (root / directory).mkdir(parents=True, exist_ok=True)
        for name in NAMES:
            (root / directory / name).write_text(f"{directory}/{name}\n")
    for directory in tree["claude"]:
        (root / directory / "CLAUDE.md").write_text(f"claude {directory}\n")
    for directory in tree["agents"]:
        (root / directory / "AGENTS.md").write_text(f"agents {directory}\n")
    rules = root / ".claude" / "rules"
    rules.mkdir(parents=True)
    for index, glob in enumerate(tree["rules"]):
        (rules / f"r{index}.md").write_text(rule_text(index, glob))
    for current, _, files in os.walk(root):
        for name in files:
            backdate(Path(current) / name, 0)
    settle(root)


def payload(root: Path, tool: str, rel: str) -> dict[str, Any]:
    path = str(root / rel)
    tool_input = {"command": f"cat {path}"} if tool == "Bash" else {"file_path": path}
    if tool == "Write":
        tool_input["content"] = "new\n"
    return {
        "session_id": "diff",
        "transcript_path": str(root / "missing-transcript.jsonl"),  # unknown release: the newest
        "cwd": str(root),
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_response": {},
    }


def last_record(state: Path) -> dict[str, Any] | None:
    lines = [
        line for path in sorted((state / "events").glob("*.jsonl")) for line in path.read_text().splitlines()
    ]
    if not lines:
        return None
    record: dict[str, Any] = json.loads(lines[-1])
    return {key: value for key, value in record.items() if key not in ("ts", "elapsed_ms")}


def engine_answer(raw: str, state: Path) -> dict[str, Any]:
    """The engine alone, as the pipeline runs it when the fast lane passes."""
    return Engine(CLIENT, HookEnv(state_dir=state, home=None, use_git=False)).answer(parse(CLIENT, raw))


def apply(root: Path, step: tuple[Any, ...], tree: dict[str, Any], tick: int) -> None:
    kind = step[0]
    if kind == "rescope":
        index = step[1] % len(tree["rules"])
        path = root / ".claude/rules" / f"r{index}.md"
        path.write_text(rule_text(index, step[2]))
    elif kind == "add":
        path = root / step[1] / step[2]
        path.write_text("added\n")
    elif kind == "add_md":
        path = root / step[1] / step[2]
        path.write_text(f"new {step[2]} in {step[1]}\n")
    else:
        path = root / step[1] / step[2]
        path.unlink(missing_ok=True)
    if path.exists():
        backdate(path, tick)
    backdate(path.parent, tick)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=trees, sequence=steps)
def test_the_fast_lane_answers_only_where_the_engine_answers_the_same(
    tree: dict[str, Any], sequence: list[tuple[Any, ...]]
) -> None:
    global BASE_NS
    BASE_NS = time.time_ns() - 30 * 10**9
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        root, state = base / "repo", base / "state"
        build(root, tree)
        start = {
            "session_id": "diff",
            "cwd": str(root),
            "hook_event_name": "SessionStart",
            "source": "startup",
        }
        respond(CLIENT, json.dumps(start), state_dir=str(state), use_git=False)
        answered_quickly = 0
        for tick, step in enumerate(sequence, start=1):
            if step[0] != "touch":
                apply(root, step, tree, tick * 1000)
                continue
            _, tool, directory, name = step
            raw = json.dumps(payload(root, tool, f"{directory}/{name}"))
            twin = base / "twin"
            shutil.rmtree(twin, ignore_errors=True)
            shutil.copytree(state, twin, symlinks=True)
            if try_quick(DIALECT, raw.encode(), str(state)):
                answered_quickly += 1
                quick_record = last_record(state)
                assert engine_answer(raw, twin) == {}, (step, "the fast lane said nothing loads")
                assert last_record(twin) == quick_record, step
                shutil.rmtree(state)
                os.rename(twin, state)  # go on from the engine's state
            else:
                engine_answer(raw, state)
        assert answered_quickly <= len(sequence)


def test_the_differential_test_sees_the_fast_lane_answer(tmp_path: Path) -> None:
    """The property above is not vacuous: on a warm tree the fast lane does answer, and its record is
    the engine's."""
    global BASE_NS
    BASE_NS = time.time_ns() - 30 * 10**9
    root, state = tmp_path / "repo", tmp_path / "state"
    build(root, {"rules": ["**/*.ts"], "claude": {"src"}, "agents": set()})
    start = {"session_id": "diff", "cwd": str(root), "hook_event_name": "SessionStart", "source": "startup"}
    respond(CLIENT, json.dumps(start), state_dir=str(state), use_git=False)
    raw = json.dumps(payload(root, "Bash", "src/y.py"))
    engine_answer(raw, state)  # the first touch scans src/
    twin = tmp_path / "twin"
    shutil.copytree(state, twin)
    assert try_quick(DIALECT, raw.encode(), str(state))
    assert try_quick("claude-code", raw.encode(), str(twin.parent / "other")) is False  # no session there
    quick = last_record(state)
    assert engine_answer(raw, twin) == {} and last_record(twin) == quick
