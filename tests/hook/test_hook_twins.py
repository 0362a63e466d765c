"""Twins: a rule kept twice for two agents (`.claude/rules/x.md` and `.cursor/rules/x.mdc`, one body) reaches
the model once, whichever of them the client loads itself; the record names the one left out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

BODY = "Use the design tokens for every colour.\n"


@pytest.fixture
def twins(tree: Any) -> Path:
    root: Path = tree(
        {
            ".git/HEAD": "x\n",
            "CLAUDE.md": "# Root\n",
            ".claude/rules/always.md": BODY,
            ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\n\n" + BODY.replace("\n", "  \r\n"),
            ".claude/rules/front.md": '---\npaths: ["src/**"]\n---\nFront end: hooks only.\n',
            ".cursor/rules/front.mdc": '---\nglobs: "src/**"\n---\nFront end: hooks only.\n',
            ".cursor/rules/other.mdc": '---\nglobs: "src/**"\n---\nFront end: hooks only, and more.\n',
            "src/app.ts": "x\n",
        }
    )
    return root


def event(root: Path, transcript: str, name: str, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": "tw",
        "transcript_path": transcript,
        "cwd": str(root),
        "hook_event_name": name,
        **fields,
    }


def records(tmp_path: Path) -> list[dict[str, Any]]:
    lines = []
    for log in sorted((tmp_path / "state" / "events").rglob("*.jsonl")):
        lines.extend(json.loads(line) for line in log.read_text().splitlines() if line.strip())
    return lines


def test_a_twin_of_what_the_client_loads_is_not_sent(
    twins: Path, call_hook: Any, answers: Any, release: tuple[str, bool], tmp_path: Path
) -> None:
    transcript, _ = release
    start = call_hook(
        "claude-code", event(twins, transcript, "SessionStart", source="startup"), use_git=False
    )
    # Claude Code loads .claude/rules/always.md at start; the .mdc twin (CRLF, trailing blanks) is left out.
    assert ".cursor/rules/always.mdc" not in answers.sent(start)
    read = event(
        twins,
        transcript,
        "PostToolUse",
        tool_name="Read",
        tool_input={"file_path": str(twins / "src/app.ts")},
    )
    sent = answers.sent(call_hook("claude-code", read, use_git=False))
    # The client loads front.md after its Read; front.mdc says the same; other.mdc says more: it goes out.
    assert sent == [".cursor/rules/other.mdc"]
    noted: dict[str, str] = {}
    for record in records(tmp_path):
        noted.update(record.get("twins", {}))
    assert noted == {
        ".cursor/rules/always.mdc": ".claude/rules/always.md",
        ".cursor/rules/front.mdc": ".claude/rules/front.md",
    }


def test_of_two_twins_jitctx_sends_one(twins: Path, call_hook: Any, answers: Any, tmp_path: Path) -> None:
    """Codex reads neither: of the two always-on copies one goes out, once."""
    (twins / "AGENTS.md").write_text("# Agents\n")
    start = call_hook("codex", event(twins, "", "SessionStart", source="startup"), use_git=False)
    sent = answers.sent(start)
    assert sent.count(".claude/rules/always.md") + sent.count(".cursor/rules/always.mdc") == 1


def test_the_config_keeps_a_format_from_one_agent(
    twins: Path, call_hook: Any, answers: Any, tmp_path: Path
) -> None:
    """`[send.AGENT] skip`: the Cursor copies stay with Cursor for this agent, whatever their text."""
    (twins / ".jitctx.toml").write_text('[send.claude-code]\nskip = [".cursor/rules/**"]\n')
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"type":"user","version":"2.1.197"}\n')
    call_hook("claude-code", event(twins, str(transcript), "SessionStart", source="startup"), use_git=False)
    read = event(
        twins,
        str(transcript),
        "PostToolUse",
        tool_name="Read",
        tool_input={"file_path": str(twins / "src/app.ts")},
    )
    assert answers.sent(call_hook("claude-code", read, use_git=False)) == []  # other.mdc, kept back
    skipped = [name for record in records(tmp_path) for name in record.get("skipped_by_config", [])]
    # The config is read first: the twins are kept back by it too, not only by their text.
    assert skipped == [".cursor/rules/always.mdc", ".cursor/rules/front.mdc", ".cursor/rules/other.mdc"]


def test_a_send_table_that_is_not_one_is_a_clear_error(tmp_path: Path) -> None:
    from jitctx.config import parse_config
    from jitctx.errors import JitctxError

    with pytest.raises(JitctxError, match=r"send\.claude-code\.skip' must be a list of globs"):
        parse_config({"send": {"claude-code": {"skip": "x"}}}, "t.toml")
    config = parse_config(
        {"send": {"nobody": {"skip": ["x"]}, "codex": {"skip": ["a/**"], "odd": 1}}}, "t.toml"
    )
    assert config.skipped_for("codex") == ("a/**",) and config.skipped_for("nobody") == ()
    assert any("names no profile" in w for w in config.warnings) and any("odd" in w for w in config.warnings)


def test_explain_names_the_twins_that_reach_the_agent(twins: Path) -> None:
    from jitctx.discovery.explain import explain
    from jitctx.project import Project
    from jitctx.reports.explain import to_json, to_text

    project = Project(str(twins))
    result = explain(project, "src/app.ts", use_git=False)
    document = to_json(result, project)
    assert {(t["path"], t["twin_of"]) for t in document["twins"]} == {
        (".cursor/rules/always.mdc", ".claude/rules/always.md"),
        (".cursor/rules/front.mdc", ".claude/rules/front.md"),
    }
    assert "twin: .cursor/rules/front.mdc has the text of .claude/rules/front.md" in to_text(result, project)


def test_a_file_the_config_keeps_back_holds_nothing_for_its_twin(
    tree: Any, call_hook: Any, answers: Any, tmp_path: Path
) -> None:
    """Its twin is the only way that text reaches the model: it goes out."""
    root: Path = tree(
        {
            ".git/HEAD": "x\n",
            "CLAUDE.md": "# Root\n",
            ".jitctx.toml": '[send.claude-code]\nskip = [".cursor/rules/**"]\n',
            ".cursor/rules/x.mdc": '---\nglobs: "src/x/**"\n---\nX: no globals.\n',
            "src/x/AGENTS.md": "X: no globals.\n",
            "src/x/a.py": "",
        }
    )
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"type":"user","version":"2.1.197"}\n')
    call_hook("claude-code", event(root, str(transcript), "SessionStart", source="startup"), use_git=False)
    read = event(
        root,
        str(transcript),
        "PostToolUse",
        tool_name="Read",
        tool_input={"file_path": str(root / "src/x/a.py")},
    )
    assert answers.sent(call_hook("claude-code", read, use_git=False)) == ["src/x/AGENTS.md"]


def test_a_twin_of_a_file_held_since_an_earlier_call_is_not_sent(
    twins: Path, run_hook_process: Any, answers: Any, tmp_path: Path
) -> None:
    """Each hook is a process of its own: the held texts come back from disk for the comparison."""
    (twins / "src/ui").mkdir()
    (twins / "src/ui/AGENTS.md").write_text("UI: tokens only.\n")
    (twins / "src/ui/x.ts").write_text("")
    (twins / ".cursor/rules/ui.mdc").write_text('---\nglobs: "src/ui/x.ts"\n---\nUI: tokens only.\n')
    (twins / ".cursor/rules/front.mdc").unlink()
    (twins / ".cursor/rules/other.mdc").unlink()
    start = event(twins, "", "SessionStart", source="startup")
    assert run_hook_process("codex", start)[0] == 0
    shell = event(twins, "", "PostToolUse", tool_name="Bash", tool_input={"command": "ls src/ui"})
    _, first, _ = run_hook_process("codex", shell)
    assert "src/ui/AGENTS.md" in answers.sent(first)
    cat = event(twins, "", "PostToolUse", tool_name="Bash", tool_input={"command": "cat src/ui/x.ts"})
    _, second, _ = run_hook_process("codex", cat)
    assert answers.sent(second) == []  # ui.mdc says what src/ui/AGENTS.md said, sent in the call before
