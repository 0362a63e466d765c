"""Gemini CLI as a client: its payloads, what it loads by itself (and shows it loaded), install, doctor.

The payloads are those Gemini CLI 0.61.0 sent to a hook in a live run (tests/e2e has the run itself)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.clients.event import PROMPT, TOOLS, HookError
from jitctx.clients.gemini_cli.evidence import context_files_shown
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


def shown(root: Path, *rels: str) -> dict[str, Any]:
    """A tool result as Gemini CLI writes it after loading context files."""
    blocks = "".join(
        f"--- Context from: {root / rel} ---\nrules\n--- End of Context from: {root / rel} ---\n\n"
        for rel in rels
    )
    return {"llmContent": f"file text\n\n\n--- Newly Discovered Project Context ---\n{blocks}"}


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


def test_evidence_needs_both_marker_lines() -> None:
    assert context_files_shown({"llmContent": "--- Context from: /p/GEMINI.md ---\nno end\n"}) == frozenset()
    assert context_files_shown(None) is None
    both = "--- Context from: /p/GEMINI.md ---\nx\n--- End of Context from: /p/GEMINI.md ---\n"
    assert context_files_shown({"llmContent": [{"text": both}]}) == frozenset({"/p/GEMINI.md"})


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
    assert after_tool["hooks"][0]["timeout"] == 10_000 and after_tool["hooks"][0]["command"].endswith(
        "hook gemini-cli"
    )
    assert set(settings["hooks"]) == {"SessionStart", "BeforeAgent", "AfterTool"}
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


def test_evidence_is_read_in_linear_time_and_needs_whole_closing_lines() -> None:
    """A file the model reads may hold the marker lines: 160,000 unclosed openings are read in one pass
    (searching the rest of the text once per opening took minutes, past the hook's timeout)."""
    assert context_files_shown({"llmContent": "--- Context from: /a ---\n" * 160_000}) == frozenset()
    junk = "--- Context from: /p/G.md ---\nx\n--- End of Context from: /p/G.md ---junk\n"
    assert context_files_shown({"llmContent": junk}) == frozenset()
