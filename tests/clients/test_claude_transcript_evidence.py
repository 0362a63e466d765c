"""Evidence over prediction: what a Claude Code transcript shows reached the model is not sent again.

The records are shaped as Claude Code 2.1.197 and 2.1.332 write them (`attachment` records of type
`nested_memory`, `instructions` and `hook_additional_context`)."""

from __future__ import annotations

import json
import os
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients import all_clients
from jitctx.clients.claude_code.evidence import delivered
from jitctx.hook.pipeline import respond

CLAUDE = all_clients.get("claude-code")


def attachment(kind: str, version: str = "2.1.197", cwd: str = "/", **fields: Any) -> str:
    record = {"type": "attachment", "version": version, "sessionId": "e1", "isSidechain": False, "cwd": cwd,
              "attachment": {"type": kind, **fields}}  # fmt: skip
    return json.dumps(record) + "\n"


def answered(context: str, command: str = "jitctx hook claude-code", cwd: str = "/") -> str:
    """A hook's answer as Claude Code 2.1.332 records it: the command's success with what it printed and
    when it ended, then the context the client added to the conversation. The hook runs now, after the
    files of the test were written (a few milliseconds pass, more than the record's times can tell)."""
    time.sleep(0.005)
    now = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    printed = {"hookSpecificOutput": {"hookEventName": "PostToolBatch", "additionalContext": context}}
    ran = {"hookName": "PostToolBatch", "toolUseID": "hook-1", "hookEvent": "PostToolBatch"}
    success = {"command": command, "stdout": json.dumps(printed), "exitCode": 0, "durationMs": 0, **ran}
    record = {
        "type": "attachment",
        "timestamp": now,
        "cwd": cwd,
        "attachment": {"type": "hook_success", **success},
    }
    return (
        json.dumps(record) + "\n" + attachment("hook_additional_context", content=[context], cwd=cwd, **ran)
    )


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for rel, text in {"CLAUDE.md": "root\n", "src/ui/CLAUDE.md": "ui rules\n", "src/ui/Footer.tsx": "x\n",
                      "src/api/AGENTS.md": "api rules\n", "src/api/users.ts": "y\n"}.items():  # fmt: skip
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / ".git").mkdir()
    return root


def hook(tmp_path: Path, root: Path, transcript: Path, session_id: str = "e1", **fields: Any) -> str:
    payload = {"session_id": session_id, "transcript_path": str(transcript), "cwd": str(root), **fields}
    answer = respond(CLAUDE, json.dumps(payload), state_dir=str(tmp_path / "state"), use_git=False)
    return str(answer["hookSpecificOutput"]["additionalContext"]) if answer else ""


def shell(root: Path, command: str) -> dict[str, Any]:
    return {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": command}}


def test_the_records_read(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "src/x.md").write_text("x body\n")
    (root / "src/y.md").write_text("x body\n")
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        '{"type":"user","version":"2.1.332"}\n'
        + attachment("nested_memory", path="/p/src/ui/CLAUDE.md", content={"content": "ui rules\n"})
        + attachment("instructions", files=[{"path": "/p/CLAUDE.md", "type": "Project", "content": "root"}])
        + attachment(
            "hook_additional_context", content=["Contents of /p/AGENTS.md:\n\nagents\n"], hookName="tool.call"
        )
        + answered("Contents of src/x.md (applies here):\n\nx body")
        + '{"type": "attachment", "half written'
    )
    seen = delivered(str(transcript))
    assert seen is not None
    assert seen.holds("/p/src/ui/CLAUDE.md", "src/ui/CLAUDE.md", "ui rules")
    assert not seen.holds("/p/src/ui/CLAUDE.md", "src/ui/CLAUDE.md", "ui rules, version 2")  # a new version
    assert seen.holds("/p/CLAUDE.md", "CLAUDE.md", "root") and seen.holds(
        "/p/AGENTS.md", "AGENTS.md", "agents"
    )
    assert seen.holds(str(root / "src/x.md"), "src/x.md", "x body") and not seen.holds(
        str(root / "src/y.md"), "src/y.md", "x body"
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
        log.write(answered(text))
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
        '{"type":"user","version":"2.1.197"}\n' + answered("Contents of src/api/AGENTS.md (x):\n\napi rules")
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
        log.write(answered(first))
    (root / "src/api/AGENTS.md").write_text("Rule A: use tabs.\n")
    os.utime(root / "src/api/AGENTS.md", (time.time() + 5, time.time() + 5))
    again = hook(tmp_path, root, transcript, **read)
    assert "Updated contents of src/api/AGENTS.md" in again and "Rule B" not in again


def test_an_updated_block_already_sent_is_not_sent_twice(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "src/a.md").write_text("v2\n")
    seen = tmp_path / "t.jsonl"
    seen.write_text(
        answered("Updated contents of src/a.md (it changed):\n\nv2")
        + attachment("nested_memory", path="/p/b.md", content={"content": "one\n\ntwo"})
    )
    found = delivered(str(seen))
    assert found is not None and found.holds(str(root / "src/a.md"), "src/a.md", "v2\n")
    assert not found.holds("/p/b.md", "b.md", "one")  # a part of what the client holds is no version of it
    assert found.holds("/p/b.md", "b.md", "one\n\ntwo\n")


# -- evidence only where the client alone writes it ------------------------------------------------------


def tool_use(name: str, **tool_input: Any) -> str:
    content = [{"type": "tool_use", "id": "t9", "name": name, "input": tool_input}]
    return json.dumps({"type": "assistant", "version": "2.1.332", "message": {"content": content}}) + "\n"


def prompt(text: str) -> str:
    return (
        json.dumps({"type": "user", "version": "2.1.332", "message": {"role": "user", "content": text}})
        + "\n"
    )


def result(ident: str) -> str:
    content = [{"type": "tool_result", "tool_use_id": ident, "content": "x"}]
    return json.dumps({"type": "user", "version": "2.1.332", "message": {"content": content}}) + "\n"


TURN = json.dumps({"type": "assistant", "version": "2.1.332", "message": {"content": []}}) + "\n"
COMPACTION = '{"type":"system","subtype":"compact_boundary","version":"2.1.332"}\n'


def test_only_the_clients_own_compaction_record_cuts_the_evidence(tmp_path: Path) -> None:
    """The words `compact_boundary` in an edit, a search, a prompt or a nested object are text: only a
    record of the client's own (type system, subtype compact_boundary, at the top) marks a compaction."""
    loaded = attachment("nested_memory", path="/p/src/ui/CLAUDE.md", content={"content": "ui rules\n"})
    texts = (
        tool_use("Edit", file_path="/p/a.py", old_string="compact_boundary", new_string="x")
        + tool_use("Grep", pattern='"compact_boundary"')
        + prompt("compact_boundary")
        + json.dumps({"type": "assistant", "message": {"type": "system", "subtype": "compact_boundary"}})
        + "\n"
    )
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(loaded + texts)
    seen = delivered(str(transcript))
    assert seen is not None and seen.holds("/p/src/ui/CLAUDE.md", "src/ui/CLAUDE.md", "ui rules")
    transcript.write_text(loaded + texts + COMPACTION)
    seen = delivered(str(transcript))
    assert seen is not None and not seen.holds("/p/src/ui/CLAUDE.md", "src/ui/CLAUDE.md", "ui rules")


def test_a_prompt_saying_compact_boundary_does_not_hide_a_load_that_never_came(tmp_path: Path) -> None:
    """After a Read the client was expected to load src/ui/CLAUDE.md; its transcript, complete for the
    call, shows no such load, so jitctx sends it, whatever a prompt in between says."""
    root = project(tmp_path)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"type":"user","version":"2.1.197"}\n')
    hook(tmp_path, root, transcript, hook_event_name="SessionStart", source="startup")
    read = {"tool_name": "Read", "tool_input": {"file_path": str(root / "src/ui/Footer.tsx")}}
    assert "ui rules" not in hook(tmp_path, root, transcript, hook_event_name="PostToolUse", **read,
                                  tool_use_id="t1")  # fmt: skip
    with transcript.open("a") as log:
        log.write(result("t1") + prompt("compact_boundary") + TURN)
    assert "ui rules" in hook(tmp_path, root, transcript, **shell(root, f"cat {root / 'src/api/users.ts'}"))


def test_a_block_counts_only_from_jitctx_own_hook(tmp_path: Path) -> None:
    """Another hook's context (a logger echoing a file, a hook of another tool) may say anything, a block
    of jitctx's shape too: it is not jitctx's answer. Nor is a context no hook command printed."""
    root = project(tmp_path)
    block = "Contents of src/api/AGENTS.md (applies to src/api/users.ts):\n\napi rules"
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        '{"type":"user","version":"2.1.332"}\n'
        + answered(block, command="node /opt/hooks/echo.js hook claude-code")
        + answered(block, command="echo jitctx hook claude-code")
        + attachment("hook_additional_context", content=[block], hookName="PostToolBatch")
    )
    hook(tmp_path, root, transcript, hook_event_name="SessionStart", source="startup")
    assert "api rules" in hook(tmp_path, root, transcript, **shell(root, f"cat {root / 'src/api/users.ts'}"))
    seen = delivered(str(transcript))
    assert seen is not None and not seen.holds(
        str(root / "src/api/AGENTS.md"), "src/api/AGENTS.md", "api rules"
    )
    with transcript.open("a") as log:
        log.write(answered(block, command=f"'{tmp_path}/venv/bin/jitctx' hook claude-code --warm"))
    seen = delivered(str(transcript))
    assert seen is not None and seen.holds(str(root / "src/api/AGENTS.md"), "src/api/AGENTS.md", "api rules")


@pytest.mark.parametrize("field", ["timestamp", "durationMs"])
def test_an_answer_whose_record_does_not_tell_when_the_hook_ran_proves_no_block(
    tmp_path: Path, field: str
) -> None:
    """A block's extent is its file's text only for a file unchanged since before the hook ran."""
    root = project(tmp_path)
    success, context = answered("Contents of src/api/AGENTS.md (x):\n\napi rules").splitlines()
    record = json.loads(success)
    record.pop(field, None)
    record["attachment"].pop(field, None)
    (tmp_path / "t.jsonl").write_text(json.dumps(record) + "\n" + context + "\n")
    seen = delivered(str(tmp_path / "t.jsonl"))
    assert seen is not None and not seen.holds(
        str(root / "src/api/AGENTS.md"), "src/api/AGENTS.md", "api rules"
    )


def test_a_header_quoted_inside_a_file_is_no_block(tmp_path: Path) -> None:
    """A block's text may quote a header and another file's text; the blocks are walked from the start,
    each as long as its file's text, so the quote stays inside the block that holds it."""
    root = project(tmp_path)
    quote = "Contents of src/api/AGENTS.md (applies to src/api/users.ts):\n\napi rules"
    (root / "docs").mkdir()
    (root / "docs/NOTES.md").write_text(f"How jitctx frames a file:\n\n{quote}\n")
    answer = f"Contents of docs/NOTES.md (session start):\n\nHow jitctx frames a file:\n\n{quote}"
    frames = (
        f"Contents of {root}/AGENTS.md:\n\nroot agents\n\nContents of {root}/src/api/AGENTS.md:\n\napi rules"
    )
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        answered(answer) + attachment("hook_additional_context", content=[frames], hookName="tool.call")
    )
    seen = delivered(str(transcript))
    assert seen is not None
    assert seen.holds(str(root / "docs/NOTES.md"), "docs/NOTES.md", (root / "docs/NOTES.md").read_text())
    assert not seen.holds(str(root / "src/api/AGENTS.md"), "src/api/AGENTS.md", "api rules")
    assert seen.holds(str(root / "AGENTS.md"), "AGENTS.md", "root agents\n\nContents of " + frames.split(
        "Contents of ", 2)[2])  # fmt: skip
    # A file whose text is now a part of its block (an edit cut its end) is no whole block of it.
    (root / "docs/NOTES.md").write_text("How jitctx frames a file:\n")
    seen = delivered(str(transcript))
    assert seen is not None and not seen.holds(
        str(root / "docs/NOTES.md"), "docs/NOTES.md", "How jitctx frames a file:"
    )


@pytest.mark.parametrize("spelling", ["/proc/self/cwd/src/api/AGENTS.md", "{root}/src/./api/AGENTS.md",
                                      "{root}//src/api/AGENTS.md", "{root}/src/api/../api/AGENTS.md",
                                      "{root}/link/AGENTS.md"])  # fmt: skip
def test_a_plugin_frame_spelled_as_the_client_would_not_is_not_its_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    root = project(tmp_path)
    (root / "link").symlink_to(root / "src/api")
    monkeypatch.chdir(root)
    frame = f"Contents of {spelling.format(root=root)}:\n\napi rules"
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(attachment("hook_additional_context", content=[frame], hookName="tool.call"))
    seen = delivered(str(transcript))
    assert seen is not None and not seen.holds(
        str(root / "src/api/AGENTS.md"), "src/api/AGENTS.md", "api rules"
    )
    transcript.write_text(
        attachment(
            "hook_additional_context",
            content=[f"Contents of {root}/src/api/AGENTS.md:\n\napi rules"],
            hookName="tool.call",
        )
    )
    seen = delivered(str(transcript))
    assert seen is not None and seen.holds(str(root / "src/api/AGENTS.md"), "src/api/AGENTS.md", "api rules")


def test_a_record_nested_past_the_parser_is_passed_over(tmp_path: Path) -> None:
    """One tool_use input 1,100 levels deep cannot be parsed (RecursionError): it is no evidence, and
    the rest of the transcript still is."""
    root = project(tmp_path)
    transcript = tmp_path / "t.jsonl"
    deep_line = tool_use("Write", file_path=str(root / "src/x.json"), content="DEEP").replace(
        '"DEEP"', '{"x": ' * 1100 + "1" + "}" * 1100
    )
    transcript.write_text(
        attachment("nested_memory", path=str(root / "src/ui/CLAUDE.md"), content={"content": "ui rules\n"})
        + deep_line
    )
    seen = delivered(str(transcript))
    assert seen is not None and seen.holds(str(root / "src/ui/CLAUDE.md"), "src/ui/CLAUDE.md", "ui rules")
    hook(tmp_path, root, transcript, hook_event_name="SessionStart", source="startup")
    assert "api rules" in hook(tmp_path, root, transcript, **shell(root, f"cat {root / 'src/api/users.ts'}"))
    assert "ui rules" not in hook(
        tmp_path, root, transcript, **shell(root, f"cat {root / 'src/ui/Footer.tsx'}")
    )


def test_a_fork_keeps_only_what_the_clients_and_jitctx_records_show(tmp_path: Path) -> None:
    """A fork keeps of its parent's state only the files its copied conversation shows arriving: a tool
    result or a prompt that names a file, or quotes jitctx's header for it, shows nothing arrived."""
    root = project(tmp_path)
    parent = tmp_path / "parent.jsonl"
    parent.write_text('{"type":"user","version":"2.1.332"}\n')
    hook(tmp_path, root, parent, session_id="old", hook_event_name="SessionStart", source="startup")
    cat = shell(root, f"cat {root / 'src/api/users.ts'}")
    assert "api rules" in hook(tmp_path, root, parent, session_id="old", **cat)
    quoted = "Contents of src/api/AGENTS.md (applies to src/api/users.ts):\n\napi rules"
    fork = tmp_path / "fork.jsonl"
    fork.write_text(
        '{"type":"user","version":"2.1.332","sessionId":"new"}\n'
        + prompt(f"{quoted}\n{root / 'src/api/AGENTS.md'}")
        + result("t1").replace('"x"', json.dumps(quoted))
        + '{"type":"assistant","version":"2.1.332","sessionId":"new","requestSessionId":"old"}\n'
    )
    assert "api rules" in hook(tmp_path, root, fork, session_id="new", **cat)


def test_a_forked_transcript_is_read_for_its_records_not_searched(tmp_path: Path) -> None:
    """32 MiB of tool output: the fork's check gets the names the records show, not the text to search
    once per inherited file."""
    transcript = tmp_path / "t.jsonl"
    filler = result("t1").replace('"x"', json.dumps("Contents of y " * 4000))
    with transcript.open("w") as log:
        log.write(attachment("nested_memory", path="/p/src/ui/CLAUDE.md", content={"content": "ui rules\n"}))
        log.write(filler * (32 * 1024 * 1024 // len(filler) - 1))
    names = CLAUDE.transcript_names(str(transcript))
    assert names == frozenset({"/p/src/ui/CLAUDE.md"})
