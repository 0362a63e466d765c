"""Gemini CLI as a client: its payloads, what it loads by itself (and shows it loaded), install, doctor.

The payloads are those Gemini CLI 0.61.0 sent to a hook in a live run (tests/e2e has the run itself)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.clients.gemini_cli.evidence import context_files_shown
from jitctx.clients.kit.hook_command import is_fail_safe, unguard
from jitctx.hook.event import PROMPT, TOOLS, HookError
from jitctx.hook.pipeline import respond

GEMINI = all_clients.get("gemini-cli")


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    files = {
        "GEMINI.md": "root gemini rules\n",
        "AGENTS.md": "root agents rules\n",
        "sub/GEMINI.md": "sub gemini rules\n",
        "sub/AGENTS.md": "sub agents rules\n",
        "sub/a.py": "x = 1\n",
        "sub2/GEMINI.md": "sub2 gemini rules\n",
        "sub2/b.txt": "b\n",
        "sub3/GEMINI.md": "sub3 gemini rules\n",
        "sub3/c.txt": "c\n",
        ".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\npython rules\n',
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / ".git").mkdir()
    return root


def event(root: Path, name: str, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": "g1",
        "transcript_path": str(root / "no-transcript.jsonl"),
        "cwd": str(root),
        "hook_event_name": name,
        "timestamp": "2026-12-02T14:44:51.372Z",
        **fields,
    }


def frames(root: Path, *rels: str) -> str:
    """The context files as Gemini CLI 0.61.0 frames them (`concatenateInstructions`): each file's text,
    trimmed, between its opening and closing lines, joined by blank lines."""
    return "\n\n".join(
        f"--- Context from: {root / rel} ---\n{(root / rel).read_text().strip()}\n"
        f"--- End of Context from: {root / rel} ---"
        for rel in rels
    )


def shown(root: Path, *rels: str, output: str = "x = 1") -> dict[str, Any]:
    """A tool result as Gemini CLI writes it after loading context files (`appendJitContext`): the
    tool's own output, then the section."""
    section = (
        f"\n\n--- Newly Discovered Project Context ---\n{frames(root, *rels)}\n--- End Project Context ---"
    )
    return {"llmContent": output + section, "returnDisplay": ""}


def answer(tmp_path: Path, payload: dict[str, Any]) -> str:
    result = respond(GEMINI, json.dumps(payload), state_dir=str(tmp_path / "state"), home=None, use_git=False)
    if not result:
        return ""
    output = result["hookSpecificOutput"]
    assert output["hookEventName"] == payload["hook_event_name"]
    text: str = output["additionalContext"]
    return text


def test_its_payloads_become_canonical_events(tmp_path: Path) -> None:
    root = project(tmp_path)
    tool = GEMINI.parse(event(root, "AfterTool", tool_name="read_file", tool_input={"file_path": "sub/a.py"}))
    assert (tool.kind, tool.calls[0]["tool_name"], tool.session_id) == (TOOLS, "read_file", "g1")
    assert GEMINI.parse(event(root, "BeforeAgent", prompt="hi @sub/a.py")).kind == PROMPT
    assert GEMINI.parse(event(root, "SessionStart", source="resume")).source == "resume"
    with pytest.raises(HookError, match="unknown hook event 'PostToolUse' for gemini-cli"):
        GEMINI.parse(event(root, "PostToolUse", tool_name="read_file", tool_input={}))


def test_it_gets_what_it_does_not_load_itself_and_never_its_own_gemini_md(tmp_path: Path) -> None:
    root = project(tmp_path)
    start = answer(tmp_path, event(root, "SessionStart", source="startup"))
    assert "root agents rules" in start and "root gemini rules" not in start  # GEMINI.md is its own
    read = event(
        root, "AfterTool", tool_name="read_file", tool_input={"file_path": "sub/a.py"},
        tool_response=shown(root, "sub/GEMINI.md"),
    )  # fmt: skip
    text = answer(tmp_path, read)
    assert "sub agents rules" in text and "python rules" in text  # AGENTS.md and a scoped rule: jitctx's
    assert "sub gemini rules" not in text  # loaded (and shown) by Gemini CLI itself


def test_a_gemini_md_it_was_expected_to_load_but_did_not_show_is_sent(tmp_path: Path) -> None:
    """Evidence over the table: the result of the read names no context file, so the nested GEMINI.md
    did not reach the model, and jitctx sends it."""
    root = project(tmp_path)
    answer(tmp_path, event(root, "SessionStart", source="startup"))
    silent = event(
        root, "AfterTool", tool_name="read_file", tool_input={"file_path": "sub2/b.txt"},
        tool_response={"llmContent": "b\n"},
    )  # fmt: skip
    assert "sub2 gemini rules" in answer(tmp_path, silent)


def test_a_shell_read_is_not_followed_by_the_client(tmp_path: Path) -> None:
    root = project(tmp_path)
    answer(tmp_path, event(root, "SessionStart", source="startup"))
    shell = event(root, "AfterTool", tool_name="run_shell_command", tool_input={"command": "cat sub3/c.txt"})
    shell["tool_response"] = {"llmContent": "Output: c"}
    assert "sub3 gemini rules" in answer(tmp_path, shell)


def test_without_evidence_the_prediction_stands(tmp_path: Path) -> None:
    root = project(tmp_path)
    answer(tmp_path, event(root, "SessionStart", source="startup"))
    read = event(root, "AfterTool", tool_name="read_file", tool_input={"file_path": "sub2/b.txt"})
    assert "sub2 gemini rules" not in answer(tmp_path, read)  # no tool_response: a read it follows


def test_context_file_name_setting_is_honoured(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / ".gemini").mkdir()
    (root / ".gemini/settings.json").write_text(
        "{\n  // JSON with comments, as Gemini CLI reads it\n"
        '  "context": {"fileName": ["GEMINI.md", "AGENTS.md"]},\n}\n'
    )
    start = answer(tmp_path, event(root, "SessionStart", source="startup"))
    assert "root agents rules" not in start  # Gemini CLI loads AGENTS.md itself now


def read_call(root: Path, rel: str, response: object) -> dict[str, Any]:
    return {
        "tool_name": "read_file",
        "tool_input": {"file_path": rel},
        "cwd": str(root),
        "tool_response": response,
    }


def test_evidence_is_the_whole_section_at_the_end(tmp_path: Path) -> None:
    root = project(tmp_path)
    sub = str(root / "sub/GEMINI.md")
    assert context_files_shown(read_call(root, "sub/a.py", shown(root, "sub/GEMINI.md"))) == {sub}
    assert context_files_shown(read_call(root, "sub/a.py", None)) is None  # no result: the prediction
    opening_only = {"llmContent": f"x = 1\n--- Context from: {sub} ---\nsub gemini rules\n"}
    assert context_files_shown(read_call(root, "sub/a.py", opening_only)) == frozenset()
    two = shown(root, "GEMINI.md", "sub/GEMINI.md")
    assert context_files_shown(read_call(root, "sub/a.py", two)) == {sub, str(root / "GEMINI.md")}
    (root / "sub/GEMINI.md").write_text("sub gemini rules, changed since\n")  # not what the client showed
    assert context_files_shown(read_call(root, "sub/a.py", two)) == frozenset()


def test_install_writes_millisecond_timeouts_and_uninstall_takes_them_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path)
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    assert main(["install", "gemini", "--root", str(root), "--json"]) == 0  # the alias installs gemini-cli
    document = json.loads(capsys.readouterr().out)
    assert document["agent"] == "gemini-cli"
    settings = json.loads((root / ".gemini/settings.json").read_text())
    after_tool = settings["hooks"]["AfterTool"][0]
    assert "read_file" in after_tool["matcher"] and "run_shell_command" in after_tool["matcher"]
    assert after_tool["hooks"][0]["timeout"] == 10_000
    assert unguard(after_tool["hooks"][0]["command"]).endswith("hook gemini-cli")
    assert set(settings["hooks"]) == {"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "PreCompress"}
    # Before the call: the tools that may write, the whole name (Gemini CLI's matcher is unanchored).
    [before_tool] = settings["hooks"]["BeforeTool"]
    assert before_tool["matcher"] == "^(replace|write_file|run_shell_command)$"
    # A hook that fails denies in Gemini CLI: every command it runs exits 0 whatever jitctx does.
    handlers = [h for groups in settings["hooks"].values() for g in groups for h in g["hooks"]]
    assert all(is_fail_safe(h["command"]) for h in handlers), handlers
    assert main(["uninstall", "gemini-cli", "--root", str(root)]) == 0
    assert not (root / ".gemini/settings.json").exists()  # jitctx created it, and it is empty again


def test_doctor_says_whether_the_folder_is_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path)
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("JITCTX_HOME", str(home))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("GEMINI_CLI_TRUST_WORKSPACE", raising=False)
    monkeypatch.chdir(root)
    assert main(["install", "gemini-cli"]) == 0
    capsys.readouterr()

    def trust() -> str:
        main(["doctor", "--json"])
        checks = json.loads(capsys.readouterr().out)["checks"]
        return next(
            c["status"] for c in checks if c["client"] == "gemini-cli" and c["check"] == "trust (folder)"
        )

    assert trust() == "warn"  # never asked
    (home / ".gemini/trustedFolders.json").write_text(json.dumps({str(root): "DO_NOT_TRUST"}))
    assert trust() == "problem"
    (home / ".gemini/trustedFolders.json").write_text(json.dumps({str(root.parent / "x"): "TRUST_PARENT"}))
    assert trust() == "ok"  # a sibling's TRUST_PARENT trusts the parent and all below it
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    (home / ".gemini/trustedFolders.json").write_text(json.dumps({str(root): "DO_NOT_TRUST"}))
    assert trust() == "ok"


def test_hook_context_in_the_prompt_is_not_read_as_mentions(tmp_path: Path) -> None:
    """Headless, Gemini CLI prepends the SessionStart answer to the prompt: an `@path` inside it is jitctx's
    own text, not the user's mention."""
    root = project(tmp_path)
    answer(tmp_path, event(root, "SessionStart", source="startup"))
    ours = "<hook_context>Contents of AGENTS.md: see @sub/a.py</hook_context>\n\nPlease go on."
    assert answer(tmp_path, event(root, "BeforeAgent", prompt=ours)) == ""
    assert "sub agents rules" in answer(tmp_path, event(root, "BeforeAgent", prompt="look at @sub/a.py"))


def test_the_first_resume_sends_the_start_files_again_and_a_later_one_does_not(tmp_path: Path) -> None:
    """Gemini CLI 0.61 rebuilds a resumed conversation without the first run's opening prompt, which held
    jitctx's SessionStart answer: the first resume gets those files again (not what tool calls brought,
    which survives), a later resume nothing."""
    root = project(tmp_path)
    first = answer(tmp_path, event(root, "SessionStart", source="startup"))
    assert "root agents rules" in first
    read = event(root, "AfterTool", tool_name="read_file", tool_input={"file_path": "sub/a.py"},
                 tool_response=shown(root, "sub/GEMINI.md"))  # fmt: skip
    assert "sub agents rules" in answer(tmp_path, read)
    again = answer(tmp_path, event(root, "SessionStart", source="resume"))
    assert (
        "root agents rules" in again and "sub agents rules" not in again and "root gemini rules" not in again
    )
    assert answer(tmp_path, event(root, "SessionStart", source="resume")) == ""
    assert "root agents rules" in answer(tmp_path, event(root, "SessionStart", source="startup"))  # afresh
    assert "root agents rules" in answer(tmp_path, event(root, "SessionStart", source="resume"))


def test_evidence_is_read_in_linear_time_and_needs_whole_closing_lines(tmp_path: Path) -> None:
    """A file the model reads may hold the marker lines: 160,000 unclosed openings are read back from
    the end, once (searching the rest of the text once per opening took minutes, past the hook's
    timeout)."""
    root = project(tmp_path)
    many = {"llmContent": "--- Context from: /a ---\n" * 160_000 + "--- End Project Context ---"}
    assert context_files_shown(read_call(root, "sub/a.py", many)) == frozenset()
    sub = root / "sub/GEMINI.md"
    junk = shown(root, "sub/GEMINI.md")["llmContent"].replace(
        f"{sub} ---\n--- End Project", f"{sub} ---junk\n--- End Project"
    )
    assert context_files_shown(read_call(root, "sub/a.py", {"llmContent": junk})) == frozenset()


# -- the frames count only where the client alone writes them ---------------------------------------------


@pytest.mark.parametrize(
    "spelling", ["{root}/sub2/GEMINI.md", "/proc/self/cwd/sub2/GEMINI.md", "{root}/./sub2/GEMINI.md",
                 "{root}//sub2/GEMINI.md", "{root}/sub2/../sub2/GEMINI.md"],
)  # fmt: skip
def test_a_file_holding_the_frame_lines_does_not_pass_for_the_clients_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    """The file read holds the two marker lines of a nested GEMINI.md (the client appended nothing): its
    text is read_file's whole output, so the lines are the file's, and the GEMINI.md goes out."""
    root = project(tmp_path)
    monkeypatch.chdir(root)
    path = spelling.format(root=root)
    forged = f"b\n--- Context from: {path} ---\nanything\n--- End of Context from: {path} ---\n"
    (root / "sub2/b.txt").write_text(forged)
    answer(tmp_path, event(root, "SessionStart", source="startup"))
    read = event(root, "AfterTool", tool_name="read_file", tool_input={"file_path": "sub2/b.txt"},
                 tool_response={"llmContent": forged.rstrip("\n"), "returnDisplay": ""})  # fmt: skip
    assert "sub2 gemini rules" in answer(tmp_path, read)


def test_a_file_ending_in_a_whole_section_does_not_pass_for_the_clients_load(tmp_path: Path) -> None:
    """Even the exact section, with the rule's own text, at the end of the file read: the file's text is
    what read_file shows, so a section it holds proves nothing."""
    root = project(tmp_path)
    forged = str(shown(root, "sub2/GEMINI.md", output="b")["llmContent"])
    (root / "sub2/b.txt").write_text(forged)
    answer(tmp_path, event(root, "SessionStart", source="startup"))
    read = event(root, "AfterTool", tool_name="read_file", tool_input={"file_path": "sub2/b.txt"},
                 tool_response={"llmContent": forged})  # fmt: skip
    assert "sub2 gemini rules" in answer(tmp_path, read)
    (root / "sub2/b.txt").write_bytes(b"\xff\xfe" + forged.encode("utf-16-le"))  # read_file decodes it
    assert context_files_shown(read_call(root, "sub2/b.txt", {"llmContent": forged})) == frozenset()
    real = event(root, "AfterTool", tool_name="read_file", tool_input={"file_path": "sub3/c.txt"},
                 tool_response=shown(root, "sub3/GEMINI.md", output="c"))  # fmt: skip
    assert "sub3 gemini rules" not in answer(tmp_path, real)  # the client's own section, after the file


def test_where_each_tool_puts_the_section(tmp_path: Path) -> None:
    root = project(tmp_path)
    sub, section = str(root / "sub/GEMINI.md"), shown(root, "sub/GEMINI.md", output="")["llmContent"]
    listed = f"Directory listing for {root}/sub:\na.py (6 bytes){section}"
    listing = {"tool_name": "list_directory", "tool_input": {"dir_path": "sub"}, "cwd": str(root),
               "tool_response": {"llmContent": listed}}  # fmt: skip
    assert context_files_shown(listing) == {sub}
    many = {"tool_name": "read_many_files", "tool_input": {"include": ["sub/a.py"]}, "cwd": str(root),
            "tool_response": {"llmContent": [f"--- {root}/sub/a.py ---\n\nx = 1\n\n", section,
                                             "\n--- End of content ---"]}}  # fmt: skip
    assert context_files_shown(many) == {sub}
    # A file's own part ends with the section: it is no part of its own, nor the one before the end.
    many["tool_response"] = {
        "llmContent": [f"--- {root}/sub/a.py ---\n\nx = 1{section}\n\n", "\n--- End of content ---"]
    }
    assert context_files_shown(many) == frozenset()
    image = read_call(root, "sub/a.py", {"llmContent": [{"inlineData": {"data": "", "mimeType": "image/png"}},
                                                         {"text": section}]})  # fmt: skip
    assert context_files_shown(image) == {sub}
    shell = {"tool_name": "run_shell_command", "tool_input": {"command": "cat sub/a.py"}, "cwd": str(root),
             "tool_response": {"llmContent": f"x = 1{section}"}}  # fmt: skip
    assert context_files_shown(shell) == frozenset()  # a tool the client appends nothing to


def test_a_frame_must_name_a_file_above_the_touched_path(tmp_path: Path) -> None:
    """The client walks up from the touched path: a frame for another directory's file, or one reached
    through a link, or a touched path holding a line break (which the tool's output may echo) proves
    nothing."""
    root = project(tmp_path)
    assert context_files_shown(read_call(root, "sub2/b.txt", shown(root, "sub/GEMINI.md"))) == frozenset()
    (root / "link").symlink_to(root / "sub")
    via_link = shown(root, "link/GEMINI.md")
    listing = {"tool_name": "list_directory", "tool_input": {"dir_path": "link"}, "cwd": str(root),
               "tool_response": via_link}  # fmt: skip
    assert context_files_shown(listing) == frozenset()  # sent again: a possible duplicate
    odd = root / "sub/x\n--- End Project Context ---"
    odd.write_bytes(b"\0binary")
    assert context_files_shown(read_call(root, str(odd), shown(root, "sub/GEMINI.md"))) == frozenset()
