"""Evidence over prediction: what a Claude Code transcript shows reached the model is not sent again.

The records are shaped as Claude Code 2.1.197 and 2.1.332 write them (`attachment` records of type
`nested_memory`, `instructions` and `hook_additional_context`)."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from jitctx.clients import all_clients
from jitctx.clients.claude_code.evidence import delivered
from jitctx.hook.pipeline import respond

CLAUDE = all_clients.get("claude-code")


def attachment(kind: str, version: str = "2.1.197", **fields: Any) -> str:
    record = {"type": "attachment", "version": version, "sessionId": "e1", "isSidechain": False,
              "attachment": {"type": kind, **fields}}  # fmt: skip
    return json.dumps(record) + "\n"


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for rel, text in {"CLAUDE.md": "root\n", "src/ui/CLAUDE.md": "ui rules\n", "src/ui/Footer.tsx": "x\n",
                      "src/api/AGENTS.md": "api rules\n", "src/api/users.ts": "y\n"}.items():  # fmt: skip
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / ".git").mkdir()
    return root


def hook(tmp_path: Path, root: Path, transcript: Path, **fields: Any) -> str:
    payload = {"session_id": "e1", "transcript_path": str(transcript), "cwd": str(root), **fields}
    answer = respond(CLAUDE, json.dumps(payload), state_dir=str(tmp_path / "state"), use_git=False)
    return str(answer["hookSpecificOutput"]["additionalContext"]) if answer else ""


def shell(root: Path, command: str) -> dict[str, Any]:
    return {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": command}}


def test_the_records_read(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        '{"type":"user","version":"2.1.332"}\n'
        + attachment("nested_memory", path="/p/src/ui/CLAUDE.md", content={"content": "ui rules\n"})
        + attachment("instructions", files=[{"path": "/p/CLAUDE.md", "type": "Project", "content": "root"}])
        + attachment(
            "hook_additional_context", content=["Contents of /p/AGENTS.md:\n\nagents\n"], hookName="tool.call"
        )
        + attachment("hook_additional_context", content=["Contents of src/x.md (applies here):\n\nx body"])
        + '{"type": "attachment", "half written'
    )
    seen = delivered(str(transcript))
    assert seen is not None
    assert seen.holds("/p/src/ui/CLAUDE.md", "src/ui/CLAUDE.md", "ui rules")
    assert not seen.holds("/p/src/ui/CLAUDE.md", "src/ui/CLAUDE.md", "ui rules, version 2")  # a new version
    assert seen.holds("/p/CLAUDE.md", "CLAUDE.md", "root") and seen.holds(
        "/p/AGENTS.md", "AGENTS.md", "agents"
    )
    assert seen.holds("/p/src/x.md", "src/x.md", "x body") and not seen.holds(
        "/p/src/y.md", "src/y.md", "x body"
    )
    assert delivered(str(tmp_path / "missing.jsonl")) is None and delivered("relative.jsonl") is None


def test_nothing_before_the_last_compaction_counts(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        attachment("nested_memory", path="/p/a/CLAUDE.md", content={"content": "a"})
        + '{"type":"system","subtype":"compact_boundary"}\n'
        + attachment("nested_memory", path="/p/b/CLAUDE.md", content={"content": "b"})
    )
    seen = delivered(str(transcript))
    assert seen is not None and not seen.holds("/p/a/CLAUDE.md", "a/CLAUDE.md", "a")
    assert seen.holds("/p/b/CLAUDE.md", "b/CLAUDE.md", "b")


def test_an_answer_whose_state_was_never_saved_is_not_sent_twice(tmp_path: Path) -> None:
    """A hook (or the warm daemon) killed after it answered and before it saved the session: the next
    event finds the file in jitctx's own block in the transcript, and does not send it again."""
    root = project(tmp_path)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"type":"user","version":"2.1.197"}\n')
    hook(tmp_path, root, transcript, hook_event_name="SessionStart", source="startup")
    saved = tmp_path / "saved"
    shutil.copytree(tmp_path / "state", saved)
    text = hook(tmp_path, root, transcript, **shell(root, f"cat {root / 'src/api/users.ts'}"))
    assert "api rules" in text
    shutil.rmtree(tmp_path / "state")
    shutil.copytree(saved, tmp_path / "state")  # as if the state had not been saved after that answer
    with transcript.open("a") as log:
        log.write(attachment("hook_additional_context", content=[text], hookName="PostToolUse:Bash"))
    assert "api rules" not in hook(
        tmp_path, root, transcript, **shell(root, f"cat {root / 'src/api/users.ts'}")
    )


def test_a_load_the_client_made_without_telling_is_not_sent_again(tmp_path: Path) -> None:
    root = project(tmp_path)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        '{"type":"user","version":"2.1.197"}\n'
        + attachment("nested_memory", path=str(root / "src/ui/CLAUDE.md"), content={"content": "ui rules\n"})
    )
    hook(tmp_path, root, transcript, hook_event_name="SessionStart", source="startup")
    # 2.1.197 follows no shell read: the prediction says send it, the transcript says it is there.
    assert "ui rules" not in hook(
        tmp_path, root, transcript, **shell(root, f"cat {root / 'src/ui/Footer.tsx'}")
    )
    (root / "src/ui/CLAUDE.md").write_text("ui rules, version 2\n")
    updated = hook(tmp_path, root, transcript, **shell(root, f"cat {root / 'src/ui/Footer.tsx'}"))
    assert "version 2" in updated  # a new version is not in the transcript: it goes out


def test_a_sub_agent_gets_what_the_main_thread_was_shown(tmp_path: Path) -> None:
    """The transcript is the main thread's: a block there reached the main model, not a sub-agent's."""
    root = project(tmp_path)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        '{"type":"user","version":"2.1.197"}\n'
        + attachment("hook_additional_context", content=["Contents of src/api/AGENTS.md (x):\n\napi rules"])
    )
    hook(tmp_path, root, transcript, hook_event_name="SessionStart", source="startup")
    hook(tmp_path, root, transcript, hook_event_name="SubagentStart", agent_id="sub-1", agent_type="x")
    event = {**shell(root, f"cat {root / 'src/api/users.ts'}"), "agent_id": "sub-1"}
    assert "api rules" in hook(tmp_path, root, transcript, **event)
    assert "api rules" not in hook(
        tmp_path, root, transcript, **shell(root, f"cat {root / 'src/api/users.ts'}")
    )


def test_an_edit_that_removes_text_goes_out_though_the_old_version_holds_it(tmp_path: Path) -> None:
    """Only the exact text counts: a rule file whose edit drops a rule is a new version, not one the
    transcript holds (its old block contains the new text as a substring)."""
    root = project(tmp_path)
    (root / "src/api/AGENTS.md").write_text("Rule A: use tabs.\n\nRule B: never call the legacy API.\n")
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"type":"user","version":"2.1.332"}\n')
    hook(tmp_path, root, transcript, hook_event_name="SessionStart", source="startup")
    read = {
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(root / "src/api/users.ts")},
    }
    first = hook(tmp_path, root, transcript, **read)
    assert "Rule B" in first
    with transcript.open("a") as log:
        log.write(attachment("hook_additional_context", content=[first], hookName="PostToolUse:Read"))
    (root / "src/api/AGENTS.md").write_text("Rule A: use tabs.\n")
    os.utime(root / "src/api/AGENTS.md", (time.time() + 5, time.time() + 5))
    again = hook(tmp_path, root, transcript, **read)
    assert "Updated contents of src/api/AGENTS.md" in again and "Rule B" not in again


def test_an_updated_block_already_sent_is_not_sent_twice(tmp_path: Path) -> None:
    seen = tmp_path / "t.jsonl"
    seen.write_text(
        attachment("hook_additional_context", content=["Updated contents of src/a.md (it changed):\n\nv2"])
        + attachment("nested_memory", path="/p/b.md", content={"content": "one\n\ntwo"})
    )
    found = delivered(str(seen))
    assert found is not None and found.holds("/p/src/a.md", "src/a.md", "v2\n")
    assert not found.holds("/p/b.md", "b.md", "one")  # a part of what the client holds is no version of it
    assert found.holds("/p/b.md", "b.md", "one\n\ntwo\n")
