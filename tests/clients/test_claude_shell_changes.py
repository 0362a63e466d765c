"""Instruction files a shell creates or changes: the client brings them itself, so jitctx leaves them to it
and decides again at the next touch, from what the transcript then shows.

Seen with Claude Code 2.1.197 and 2.1.332 (tests/e2e/test_claude_code.py runs the same session for real):
a CLAUDE.md created by `printf ... >` is loaded by the client as a nested file at its next Read there; a
file in the client's file state (loaded, read or edited) changed by `sed -i` is shown changed by the
client itself (an `edited_text_file` record with the file's lines numbered) — though not every time."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from jitctx.clients import all_clients
from jitctx.clients.claude_code.evidence import delivered
from jitctx.hook.pipeline import respond

CLAUDE = all_clients.get("claude-code")


def attachment(kind: str, **fields: Any) -> str:
    record = {
        "type": "attachment",
        "version": "2.1.197",
        "sessionId": "s1",
        "attachment": {"type": kind, **fields},
    }
    return json.dumps(record) + "\n"


def tool_use(name: str, file_path: str) -> str:
    content = [{"type": "tool_use", "id": "t1", "name": name, "input": {"file_path": file_path}}]
    return json.dumps({"type": "assistant", "version": "2.1.197", "message": {"content": content}}) + "\n"


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for rel, text in {"CLAUDE.md": "root\n", "src/ui/CLAUDE.md": "ui v1\n", "src/ui/Footer.tsx": "x\n",
                      "src/x/a.py": "A = 1\n"}.items():  # fmt: skip
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / ".git").mkdir()
    return root


class Session:
    def __init__(self, tmp_path: Path, client: Any = CLAUDE) -> None:
        self.tmp_path = tmp_path
        self.root = project(tmp_path)
        self.transcript = tmp_path / "t.jsonl"
        self.transcript.write_text('{"type":"user","version":"2.1.197"}\n')
        self.client = client
        self.call("SessionStart", source="startup")

    def call(self, event: str, **fields: Any) -> str:
        payload = {"session_id": "s1", "transcript_path": str(self.transcript), "cwd": str(self.root)}
        payload.update(hook_event_name=event, **fields)
        answer = respond(
            self.client, json.dumps(payload), state_dir=str(self.tmp_path / "state"), use_git=False
        )
        if not answer:
            return ""
        return str(answer["hookSpecificOutput"]["additionalContext"])

    def bash(self, command: str) -> str:
        os.system(f"cd {self.root} && {command}")  # the shell ran it: the hook sees the result
        return self.call("PostToolUse", tool_name="Bash", tool_input={"command": command})

    def read(self, rel: str) -> str:
        return self.call("PostToolUse", tool_name="Read", tool_input={"file_path": str(self.root / rel)})

    def shows(self, line: str) -> None:
        with self.transcript.open("a") as log:
            log.write(line)


def test_a_claude_md_a_shell_created_is_left_to_the_clients_next_read(tmp_path: Path) -> None:
    session = Session(tmp_path)
    created = session.bash("printf 'shell rules\\n' > src/x/CLAUDE.md")
    assert "shell rules" not in created  # sent now, the client's next Read there would bring it again
    path = str(session.root / "src/x/CLAUDE.md")
    assert "shell rules" not in session.read("src/x/a.py")  # the client loads it itself now
    session.shows(attachment("nested_memory", path=path, content={"content": "shell rules\n"}))
    assert "shell rules" not in session.bash("echo 'B = 2' > src/x/b.py")  # held: not sent later either


def test_it_goes_out_at_the_next_touch_the_client_does_not_follow(tmp_path: Path) -> None:
    """2.1.197 loads nothing after a Write: the next touch there is jitctx's to serve."""
    session = Session(tmp_path)
    assert "shell rules" not in session.bash("printf 'shell rules\\n' > src/x/CLAUDE.md")
    wrote = session.call(
        "PostToolUse", tool_name="Write", tool_input={"file_path": str(session.root / "src/x/b.py")}
    )
    assert "Contents of src/x/CLAUDE.md" in wrote and "shell rules" in wrote


def test_a_client_that_loads_nothing_by_itself_gets_it_at_once(tmp_path: Path) -> None:
    session = Session(tmp_path, all_clients.get("codex"))
    (session.root / "AGENTS.md").write_text("root agents\n")
    created = session.bash("printf 'shell agents\\n' > src/x/AGENTS.md")
    assert "shell agents" in created


def test_a_changed_file_the_client_holds_is_left_to_the_clients_own_note(tmp_path: Path) -> None:
    session = Session(tmp_path)
    ui = session.root / "src/ui/CLAUDE.md"
    session.read("src/ui/Footer.tsx")
    session.shows(attachment("nested_memory", path=str(ui), content={"content": "ui v1\n"}))
    assert "ui v2" not in session.bash("sed -i 's/v1/v2/' src/ui/CLAUDE.md")  # the client shows the change
    session.shows(attachment("edited_text_file", filename=str(ui), snippet="1\tui v2"))
    assert "ui v2" not in session.bash("echo 'y' > src/ui/Header.tsx")  # and it did: held


def test_a_change_the_client_did_not_show_goes_out_at_the_next_touch(tmp_path: Path) -> None:
    session = Session(tmp_path)
    ui = session.root / "src/ui/CLAUDE.md"
    session.shows(tool_use("Read", str(ui)))  # the model read the file: it is in the client's file state
    assert "ui v2" not in session.bash("sed -i 's/v1/v2/' src/ui/CLAUDE.md")
    later = session.bash("echo 'y' > src/ui/Header.tsx")  # no note of the client's in the transcript
    assert "ui v2" in later


def test_a_change_to_a_file_the_client_never_saw_goes_out_at_once(tmp_path: Path) -> None:
    session = Session(tmp_path)
    session.bash("echo 'y' > src/ui/Header.tsx")  # jitctx sends src/ui/CLAUDE.md (no client load)
    os.utime(session.root / "src/ui/CLAUDE.md", (time.time() - 5, time.time() - 5))
    assert "ui v2" in session.bash("sed -i 's/v1/v2/' src/ui/CLAUDE.md")


def test_the_client_file_state_and_its_notes(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        tool_use("Edit", "/p/a/CLAUDE.md")
        + attachment("edited_text_file", filename="/p/r.md", snippet="1\t---\n2\tpaths: [x]\n3\t---\n4\tbody")
        + attachment("edited_text_file", filename="/p/cut.md", snippet="7\tline seven")
        + tool_use("Read", "relative/ignored.md")
    )
    seen = delivered(str(transcript))
    assert seen is not None
    assert seen.shows_changes("/p/a/CLAUDE.md") and seen.shows_changes("/p/r.md")
    assert not seen.shows_changes("/p/other.md") and not seen.shows_changes("relative/ignored.md")
    assert seen.holds("/p/r.md", "r.md", "body")  # the whole file, frontmatter and all: its body is held
    assert not seen.holds("/p/cut.md", "cut.md", "line seven")  # a part from line 7 is no whole version


def test_a_change_the_client_showed_in_part_goes_out_at_a_touch_it_follows(tmp_path: Path) -> None:
    """The next touch may be one the client follows (a Read there): for a changed file in its file state
    the transcript decides, not the prediction that the client holds what it loaded."""
    session = Session(tmp_path)
    ui = session.root / "src/ui/CLAUDE.md"
    session.read("src/ui/Footer.tsx")
    session.shows(attachment("nested_memory", path=str(ui), content={"content": "ui v1\n"}))
    assert "ui v2" not in session.bash("sed -i 's/v1/v2/' src/ui/CLAUDE.md")
    session.shows(attachment("edited_text_file", filename=str(ui), snippet="3\tsomething else"))
    assert "ui v2" in session.read("src/ui/Footer.tsx")  # shown in part only: jitctx sends the new text
    assert "ui v2" not in session.read("src/ui/Footer.tsx")  # and once


def test_a_path_the_os_refuses_in_the_transcript_silences_nothing(tmp_path: Path) -> None:
    session = Session(tmp_path)
    (session.root / "src/x/AGENTS.md").write_text("x agents\n")
    session.shows(attachment("file", filename="/a\u0000b") + tool_use("Read", "/p/\u0000"))
    session.shows(attachment("nested_memory", path="/a\u0000c", content={"content": "z"}))
    assert "x agents" in session.read("src/x/a.py")


def result(ident: str) -> str:
    content = [{"type": "tool_result", "tool_use_id": ident, "content": "x"}]
    return json.dumps({"type": "user", "version": "2.1.197", "message": {"content": content}}) + "\n"


TURN = json.dumps({"type": "assistant", "version": "2.1.197", "message": {"content": []}}) + "\n"


def test_a_file_left_to_the_client_that_never_arrived_is_sent(tmp_path: Path) -> None:
    """Reconciliation: after a Read the client is expected to load src/ui/CLAUDE.md itself; once its
    transcript is complete for that call (the result, then the model's next turn) and shows no such load,
    jitctx sends it; a call whose evidence is not complete yet is asked again later."""
    session = Session(tmp_path)
    footer = {"file_path": str(session.root / "src/ui/Footer.tsx")}
    assert "ui v1" not in session.call("PostToolUse", tool_name="Read", tool_input=footer, tool_use_id="t1")
    session.shows(result("t1"))  # no turn after it yet: not settled
    assert "ui v1" not in session.bash("echo 'A = 1' > src/x/a.py")
    session.shows(TURN)
    late = session.bash("echo 'B = 1' > src/x/b.py")
    assert "Contents of src/ui/CLAUDE.md" in late and "ui v1" in late
    assert "ui v1" not in session.bash("echo 'C = 1' > src/x/c.py")  # once


def test_a_file_the_client_did_load_is_owed_nothing(tmp_path: Path) -> None:
    session = Session(tmp_path)
    footer = {"file_path": str(session.root / "src/ui/Footer.tsx")}
    session.call("PostToolUse", tool_name="Read", tool_input=footer, tool_use_id="t1")
    ui = str(session.root / "src/ui/CLAUDE.md")
    session.shows(result("t1") + attachment("nested_memory", path=ui, content={"content": "ui v1\n"}) + TURN)
    assert "ui v1" not in session.bash("echo 'B = 1' > src/x/b.py")
    assert "ui v1" not in session.bash("echo 'C = 1' > src/x/c.py")


def test_what_is_owed_goes_out_at_a_touch_the_client_follows(tmp_path: Path) -> None:
    """A Read again in the settled folder: the owed file goes out with it (the quick index of a session
    that owes a file says so, and the fast lane leaves such a touch to the engine)."""
    session = Session(tmp_path)
    footer = {"file_path": str(session.root / "src/ui/Footer.tsx")}
    session.call("PostToolUse", tool_name="Read", tool_input=footer, tool_use_id="t1")
    session.shows(result("t1") + TURN)
    again = session.call("PostToolUse", tool_name="Read", tool_input=footer, tool_use_id="t2")
    assert "Contents of src/ui/CLAUDE.md" in again
