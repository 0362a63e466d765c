"""Before the write (DESIGN §2.11): a write into a scope whose rules the model has not seen is held back
once, on the client's pre-tool event, with the rules in the deny's reason; the repeated write passes,
and the rules are not sent a second time. Anything else passes at once with `{}`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.hook import pipeline
from jitctx.hook.engine import Engine
from tests.hook import holds
from tests.hook.holds import event


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return holds.project(tmp_path)


def write(root: Path, path: str, tool: str = "Write") -> dict[str, Any]:
    return event(
        root, "PreToolUse", tool_name=tool, tool_input={"file_path": str(root / path), "content": "x"}
    )


def reason(answer: dict[str, Any]) -> str:
    output = answer["hookSpecificOutput"]
    assert output["permissionDecision"] == "deny"
    text: str = output["permissionDecisionReason"]
    return text


CLAUDE = holds.Hold(
    "claude-code",
    lambda root: event(root, "SessionStart", source="startup"),
    lambda root: write(root, "src/ui/New.tsx"),
    reason,
)


def start(call_hook: Any, root: Path) -> None:
    assert CLAUDE.start(call_hook, root) is not None


def batch(root: Path, *calls: dict[str, Any]) -> dict[str, Any]:
    """The event after the calls of one turn ran."""
    return event(root, "PostToolBatch", tool_calls=list(calls))


def wrote(root: Path, path: str) -> dict[str, Any]:
    """A Write of `path`, as a call of a batch."""
    return {"tool_name": "Write", "tool_input": {"file_path": str(root / path)}}


def cat(root: Path, path: str) -> dict[str, Any]:
    """A shell read of `path`, as a call of a batch."""
    return {"tool_name": "Bash", "tool_input": {"command": f"cat {root / path}"}}


def records(tmp_path: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for f in (tmp_path / "state" / "events").glob("*.jsonl")
        for line in f.read_text().splitlines()
    ]


def test_a_first_write_into_a_scope_is_held_once_with_its_rules(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    CLAUDE.held_once(call_hook, root)
    # After the repeated write lands, nothing is sent again.
    (root / "src/ui/New.tsx").write_text("x\n")
    assert call_hook("claude-code", batch(root, wrote(root, "src/ui/New.tsx")), use_git=False) == {}


def test_the_same_write_is_never_held_twice_even_when_a_new_rule_appears(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    assert call_hook("claude-code", write(root, "src/ui/New.tsx"), use_git=False)
    (root / ".claude/rules/more.md").write_text('---\npaths: ["src/ui/*.tsx"]\n---\nMore.\n')
    assert call_hook("claude-code", write(root, "src/ui/New.tsx"), use_git=False) == {}


def test_a_write_whose_rules_are_in_context_passes_untouched(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    read = batch(root, cat(root, "src/ui/Old.tsx"))
    assert "Use design tokens." in json.dumps(call_hook("claude-code", read, use_git=False))
    assert call_hook("claude-code", write(root, "src/ui/New.tsx"), use_git=False) == {}


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("Read", {"file_path": "src/ui/Old.tsx"}),  # a read is never held
        ("Bash", {"command": "cat src/ui/Old.tsx"}),  # nor a shell read
        ("Bash", {"command": "rm src/ui/Old.tsx"}),  # jitctx does not place rm (DESIGN §2.5)
        ("mcp__fs__write", {"path": "src/ui/New.tsx"}),  # nor a tool it cannot place
        ("Write", {"file_path": "docs/notes.txt"}),  # a write no rule governs
    ],
)
def test_anything_else_passes_at_once(
    root: Path, call_hook: Any, tool: str, tool_input: dict[str, Any]
) -> None:
    start(call_hook, root)
    called = event(root, "PreToolUse", tool_name=tool, tool_input=tool_input)
    assert call_hook("claude-code", called, use_git=False) == {}


def test_a_shell_write_is_held_too(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    called = event(
        root, "PreToolUse", tool_name="Bash", tool_input={"command": "printf 'x' > src/ui/New.tsx"}
    )
    assert "Components are functions." in reason(call_hook("claude-code", called, use_git=False))


def test_holding_can_be_turned_off_per_agent(root: Path, call_hook: Any) -> None:
    (root / ".jitctx.toml").write_text("[hold.claude-code]\nwrites = false\n")
    start(call_hook, root)
    assert call_hook("claude-code", write(root, "src/ui/New.tsx"), use_git=False) == {}
    # Off for this agent only: the rules then come after the write, as before.
    (root / "src/ui/New.tsx").write_text("x\n")
    done = batch(root, wrote(root, "src/ui/New.tsx"))
    assert "Components are functions." in json.dumps(call_hook("claude-code", done, use_git=False))


def test_holding_can_be_turned_off_for_every_agent(root: Path, call_hook: Any) -> None:
    (root / ".jitctx.toml").write_text("[hold]\nwrites = false\n")
    start(call_hook, root)
    assert call_hook("claude-code", write(root, "src/ui/New.tsx"), use_git=False) == {}


def test_a_failing_hook_lets_the_write_through(
    root: Path, call_hook: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    start(call_hook, root)

    def broken(self: Engine, event: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Engine, "_before_tool", broken)
    assert call_hook("claude-code", write(root, "src/ui/New.tsx"), use_git=False) == {}
    assert "a bug" in (tmp_path / "state" / "hook.log").read_text()


def test_a_session_not_started_passes(root: Path, call_hook: Any) -> None:
    """Nothing is known yet of what its context holds: the answer after the call decides."""
    assert call_hook("claude-code", write(root, "src/ui/New.tsx"), use_git=False) == {}


def test_every_write_record_says_whether_its_rules_came_before(
    root: Path, call_hook: Any, tmp_path: Path
) -> None:
    (root / ".jitctx.toml").write_text("[hold]\nwrites = false\n")
    start(call_hook, root)
    (root / "src/ui/New.tsx").write_text("x\n")
    call_hook("claude-code", batch(root, wrote(root, "src/ui/New.tsx")), use_git=False)
    (root / "docs/more.txt").write_text("x\n")
    call_hook("claude-code", batch(root, wrote(root, "docs/more.txt")), use_git=False)
    writes = [w for r in records(tmp_path) for w in r.get("writes", [])]
    assert {w["path"]: w["rules_before"] for w in writes} == {"src/ui/New.tsx": False, "docs/more.txt": True}
    late = next(w for w in writes if w["path"] == "src/ui/New.tsx")["late"]
    assert set(late) == {"src/ui/CLAUDE.md", ".claude/rules/ui.md"}


def test_the_hold_as_a_process(root: Path, run_hook_process: Any) -> None:
    CLAUDE.as_a_process(run_hook_process, root)


def test_pipeline_never_raises_on_a_malformed_pre_tool_event(tmp_path: Path) -> None:
    answer = pipeline.respond("claude-code", b'{"hook_event_name": "PreToolUse"}', state_dir=str(tmp_path))
    assert answer == {}


def test_the_fast_lane_passes_a_write_only_where_the_engine_would(
    root: Path, call_hook: Any, tmp_path: Path
) -> None:
    """A write into a settled folder (its rules in context) passes without the engine; a new file there
    too. A folder never touched goes to the engine, which holds the write."""
    from jitctx.hook.fast_lane import try_quick
    from tests.conftest import settle

    settle(root)
    start(call_hook, root)
    read = batch(root, cat(root, "src/ui/Old.tsx"))
    call_hook("claude-code", read, use_git=False)
    state = str(tmp_path / "state")
    assert try_quick("claude-code", json.dumps(write(root, "src/ui/New.tsx")).encode(), state)
    assert call_hook("claude-code", write(root, "src/ui/New.tsx"), use_git=False) == {}
    (root / "lib").mkdir()
    (root / "lib/CLAUDE.md").write_text("# Lib\n")
    settle(root)
    assert not try_quick("claude-code", json.dumps(write(root, "lib/new.py")).encode(), state)
    assert "# Lib" in reason(call_hook("claude-code", write(root, "lib/new.py"), use_git=False))


def test_a_held_call_reported_after_the_fact_is_no_write(root: Path, call_hook: Any, tmp_path: Path) -> None:
    """Claude Code fires PostToolBatch for the denied Write too, the deny's reason as its result: it
    wrote nothing, sends nothing, and is no write in the records."""
    start(call_hook, root)
    held = reason(call_hook("claude-code", write(root, "src/ui/New.tsx"), use_git=False))
    denied = {
        "tool_name": "Write",
        "tool_input": {"file_path": str(root / "src/ui/New.tsx")},
        "tool_response": f"PreToolUse:Write hook error: {held}",
    }
    assert call_hook("claude-code", batch(root, denied), use_git=False) == {}
    logged = records(tmp_path)
    assert [w for r in logged for w in r.get("writes", [])] == []
    assert sum(1 for r in logged if r.get("held")) == 1


def test_a_write_batched_with_a_read_of_its_folder_still_came_before_its_rules(
    root: Path, call_hook: Any, tmp_path: Path
) -> None:
    """A read and a write of one folder in one batch: the rules arrive with the batch's results, after
    the write, whichever call found them."""
    (root / ".jitctx.toml").write_text("[hold]\nwrites = false\n")
    start(call_hook, root)
    (root / "src/ui/New.tsx").write_text("x\n")
    both = batch(root, cat(root, "src/ui/Old.tsx"), wrote(root, "src/ui/New.tsx"))
    call_hook("claude-code", both, use_git=False)
    [written] = [w for r in records(tmp_path) for w in r.get("writes", [])]
    assert written["rules_before"] is False
    assert set(written["late"]) == {"src/ui/CLAUDE.md", ".claude/rules/ui.md"}


def test_a_second_write_of_the_same_batch_is_held_too(root: Path, call_hook: Any) -> None:
    """Two writes into src/ui/ in one turn: the rules in the first hold's reason reach the model only with
    the batch's results, so the second write is held as well; after the batch, both repeats pass and
    nothing is sent again."""
    start(call_hook, root)
    first = reason(call_hook("claude-code", write(root, "src/ui/A.tsx"), use_git=False))
    second = reason(call_hook("claude-code", write(root, "src/ui/B.tsx"), use_git=False))
    assert "Use design tokens." in first and "Use design tokens." in second
    denied = [
        {
            "tool_name": "Write",
            "tool_input": {"file_path": str(root / f"src/ui/{n}.tsx")},
            "tool_response": f"hook error: {text}",
        }
        for n, text in (("A", first), ("B", second))
    ]
    assert call_hook("claude-code", batch(root, *denied), use_git=False) == {}
    assert call_hook("claude-code", write(root, "src/ui/A.tsx"), use_git=False) == {}
    assert call_hook("claude-code", write(root, "src/ui/B.tsx"), use_git=False) == {}
    assert call_hook("claude-code", write(root, "src/ui/C.tsx"), use_git=False) == {}  # a later turn
    for name in "ABC":
        (root / f"src/ui/{name}.tsx").write_text("x\n")
    calls = [wrote(root, f"src/ui/{n}.tsx") for n in "ABC"]
    assert call_hook("claude-code", batch(root, *calls), use_git=False) == {}


def test_a_second_write_elsewhere_in_the_batch_is_not_held_for_the_first_ones_rules(
    root: Path, call_hook: Any
) -> None:
    start(call_hook, root)
    assert call_hook("claude-code", write(root, "src/ui/A.tsx"), use_git=False)
    assert call_hook("claude-code", write(root, "docs/more.txt"), use_git=False) == {}
