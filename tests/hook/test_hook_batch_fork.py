"""Claude Code's PostToolBatch (one answer for a batch of parallel calls), SubagentStart (a sub-agent's own
startup) and forked sessions (`--fork-session`: a copy of a conversation under a new id)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.hook.events import hook_event as event

TREE: dict[str, str] = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "CLAUDE.md": "# Root\n",
    "AGENTS.md": "# Root agents\n",
    "api/AGENTS.md": "# API agents\n",
    "api/CLAUDE.md": "# API claude\n",
    "api/users.ts": "export {}\n",
    "ui/AGENTS.md": "# UI agents\n",
    "ui/Footer.tsx": "export {}\n",
    ".claude/rules/tsx.md": '---\npaths: ["ui/**/*.tsx"]\n---\n# TSX rule\n',
}


@pytest.fixture
def project(tree: Any) -> Path:
    root: Path = tree(TREE)
    return root


def call(tool: str, **tool_input: Any) -> dict[str, Any]:
    return {
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": f"toolu_{tool}",
        "tool_response": "ok",
    }


def test_a_batch_is_answered_once_for_all_its_calls(
    project: Path, call_hook: Any, answers: Any, release: tuple[str, bool]
) -> None:
    transcript, wide = release
    start = call_hook("claude-code", event(project, "b", "SessionStart", transcript, source="startup"))
    assert answers.sent(start) == ["AGENTS.md"]
    batch = [
        call("Read", file_path=str(project / "ui/Footer.tsx")),
        call("Bash", command="nl -ba api/users.ts"),  # a shell read no release follows itself
        call("Write", file_path=str(project / "api/new.ts"), content="x"),  # the same directory again
    ]
    answer = call_hook("claude-code", event(project, "b", "PostToolBatch", transcript, tool_calls=batch))
    assert answer["hookSpecificOutput"]["hookEventName"] == "PostToolBatch"
    # The Read's rule is Claude Code's own; api/CLAUDE.md is its own too in a release that loads after a
    # Write, since one call of the batch loaded it. Each file once; among the paths the client follows
    # alike, the written ones first (the write's record names the rules that came after it).
    expected = (
        ["api/AGENTS.md", "ui/AGENTS.md"] if wide else ["ui/AGENTS.md", "api/CLAUDE.md", "api/AGENTS.md"]
    )
    assert answers.sent(answer) == expected
    assert call_hook("claude-code", event(project, "b", "PostToolBatch", transcript, tool_calls=batch)) == {}


def test_a_batch_of_calls_that_touch_nothing_answers_empty(project: Path, call_hook: Any) -> None:
    batch = [call("Bash", command="ls -la"), call("WebFetch", url="https://example.com")]
    assert call_hook("claude-code", event(project, "n", "PostToolBatch", tool_calls=batch)) == {}


@pytest.mark.parametrize(
    "tool_calls", [None, "Read", [1, 2], [{"tool_name": "Read", "tool_input": "x"}], [{"tool_input": {}}]]
)
def test_a_malformed_batch_answers_empty_and_is_logged(
    project: Path, call_hook: Any, tmp_path: Path, tool_calls: Any
) -> None:
    data = event(project, "m", "PostToolBatch")
    if tool_calls is not None:
        data["tool_calls"] = tool_calls
    assert call_hook("claude-code", data) == {}
    log = (tmp_path / "state" / "hook.log").read_text(encoding="utf-8")
    assert "PostToolBatch" in log or "tool_name" in log or "tool_input" in log


def test_a_batch_through_the_hook_process(project: Path, run_hook_process: Any, answers: Any) -> None:
    batch = [call("Bash", command="nl -ba api/users.ts"), call("Bash", command="nl -ba api/users.ts")]
    code, answer, stderr = run_hook_process(
        "claude-code", event(project, "p", "PostToolBatch", tool_calls=batch)
    )
    assert (code, stderr) == (0, "")
    assert answers.sent(answer) == ["AGENTS.md", "api/CLAUDE.md", "api/AGENTS.md"]
    code, again, _ = run_hook_process("claude-code", event(project, "p", "PostToolBatch", tool_calls=batch))
    assert (code, again) == (0, {})  # warm: the quick lane or the engine, nothing twice


def test_a_sub_agent_starts_with_what_applies_to_it(project: Path, call_hook: Any, answers: Any) -> None:
    call_hook("claude-code", event(project, "s", "SessionStart", source="startup"))
    first = call_hook(
        "claude-code", event(project, "s", "SubagentStart", agent_id="ag-1", agent_type="Explore")
    )
    assert first["hookSpecificOutput"]["hookEventName"] == "SubagentStart"
    assert answers.sent(first) == ["AGENTS.md"]  # CLAUDE.md Claude Code gives every agent itself
    again = call_hook("claude-code", event(project, "s", "SubagentStart", agent_id="ag-1"))
    assert again == {}  # the same sub-agent (resumed) holds it
    # Its tool calls are its own channel: what the main agent holds is not what the sub-agent holds.
    touch = event(
        project,
        "s",
        "PostToolBatch",
        agent_id="ag-1",
        tool_calls=[call("Bash", command="nl -ba api/users.ts")],
    )
    assert answers.sent(call_hook("claude-code", touch)) == ["api/CLAUDE.md", "api/AGENTS.md"]
    main = event(project, "s", "PostToolBatch", tool_calls=[call("Bash", command="nl -ba api/users.ts")])
    assert answers.sent(call_hook("claude-code", main)) == ["api/CLAUDE.md", "api/AGENTS.md"]


def test_a_sub_agent_start_without_an_agent_id_answers_empty(
    project: Path, call_hook: Any, tmp_path: Path
) -> None:
    assert call_hook("claude-code", event(project, "s", "SubagentStart")) == {}
    assert "agent_id" in (tmp_path / "state" / "hook.log").read_text(encoding="utf-8")


def _fork_transcript(path: Path, new: str, old: str, held: Sequence[str] = (), cwd: str = "/") -> str:
    """A fork's transcript: the copied records keep the parent's id; `held` are the hook contexts the
    copied conversation shows arriving (jitctx's answers, as Claude Code records them: its hook command's
    success with what it printed, then the context the client added, in the directory `cwd`)."""

    def answered(text: str) -> list[dict[str, Any]]:
        printed = {"hookSpecificOutput": {"hookEventName": "PostToolBatch", "additionalContext": text}}
        ran = {"hookName": "PostToolBatch", "toolUseID": "hook-1", "hookEvent": "PostToolBatch"}
        success = {
            "type": "hook_success",
            "command": "jitctx hook claude-code",
            "stdout": json.dumps(printed),
        }
        return [
            {"type": "attachment", "sessionId": new, "cwd": cwd, "timestamp": ended,
             "attachment": {**success, **ran, "durationMs": 0}},
            {"type": "attachment", "sessionId": new, "cwd": cwd,
             "attachment": {"type": "hook_additional_context", "content": [text], **ran}},
        ]  # fmt: skip

    time.sleep(0.005)  # the hooks ran after the project's files were written, by more than a record tells
    ended = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    records: list[dict[str, Any]] = [
        {"type": "mode", "sessionId": new},
        {"type": "user", "sessionId": new, "version": "2.1.332"},
        *(record for text in held for record in answered(text)),
        {"type": "assistant", "sessionId": new, "requestSessionId": old, "version": "2.1.332"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def test_a_fork_holds_what_its_parent_was_sent(
    project: Path, call_hook: Any, answers: Any, tmp_path: Path
) -> None:
    nl_api = [call("Bash", command="nl -ba api/users.ts")]
    start = call_hook("claude-code", event(project, "old", "SessionStart", source="startup"))
    batch = call_hook("claude-code", event(project, "old", "PostToolBatch", tool_calls=nl_api))
    assert answers.sent(batch) == ["api/CLAUDE.md", "api/AGENTS.md"]
    # The fork's SessionStart comes before its transcript exists: nothing is opened or sent.
    assert call_hook("claude-code", event(project, "new", "SessionStart", source="fork")) == {}
    held = [answers.context(start), answers.context(batch)]
    transcript = _fork_transcript(tmp_path / "new.jsonl", "new", "old", held, str(project))
    again = event(project, "new", "PostToolBatch", transcript, tool_calls=nl_api)
    assert call_hook("claude-code", again) == {}  # the copied conversation holds them, and AGENTS.md
    nl_ui = [call("Bash", command="nl -ba ui/Footer.tsx")]
    ui = call_hook("claude-code", event(project, "new", "PostToolBatch", transcript, tool_calls=nl_ui))
    assert answers.sent(ui) == ["ui/AGENTS.md", ".claude/rules/tsx.md"]  # new to the fork
    # The parent goes on by itself: the fork's loads are not its own.
    old_ui = call_hook("claude-code", event(project, "old", "PostToolBatch", tool_calls=nl_ui))
    assert answers.sent(old_ui) == ["ui/AGENTS.md", ".claude/rules/tsx.md"]


def test_a_fork_keeps_only_what_its_copy_shows(
    project: Path, call_hook: Any, answers: Any, tmp_path: Path
) -> None:
    """Forked from an earlier point, or while the parent went on: what the parent got after the copied
    part is not in the fork's context, so the fork is sent it."""
    start = call_hook("claude-code", event(project, "old", "SessionStart", source="startup"))
    nl_ui = [call("Bash", command="nl -ba ui/Footer.tsx")]
    assert answers.sent(call_hook("claude-code", event(project, "old", "PostToolBatch", tool_calls=nl_ui)))
    transcript = _fork_transcript(
        tmp_path / "new.jsonl", "new", "old", [answers.context(start)], str(project)
    )
    ui = call_hook("claude-code", event(project, "new", "PostToolBatch", transcript, tool_calls=nl_ui))
    assert answers.sent(ui) == ["ui/AGENTS.md", ".claude/rules/tsx.md"]  # AGENTS.md: held, from the start


def test_a_fork_keeps_a_file_only_for_a_record_of_its_own_name(
    project: Path, call_hook: Any, answers: Any, tmp_path: Path
) -> None:
    """A client load of `api/CLAUDE.md.bak` is not one of `api/CLAUDE.md`: names are compared whole, so
    the fork is sent the file its copied conversation never showed."""
    nl_api = [call("Bash", command="nl -ba api/users.ts")]
    call_hook("claude-code", event(project, "old", "SessionStart", source="startup"))
    assert "api/CLAUDE.md" in answers.sent(
        call_hook("claude-code", event(project, "old", "PostToolBatch", tool_calls=nl_api))
    )
    transcript = Path(_fork_transcript(tmp_path / "new.jsonl", "new", "old", (), str(project)))
    longer = str(project / "api" / "CLAUDE.md") + ".bak"
    shown = {"type": "nested_memory", "path": longer, "content": {"content": "old\n"}}
    loaded = {"type": "attachment", "sessionId": "new", "cwd": str(project), "isSidechain": False,
              "attachment": shown}  # fmt: skip
    with transcript.open("a", encoding="utf-8") as log:
        log.write(json.dumps(loaded) + "\n")
    again = call_hook(
        "claude-code", event(project, "new", "PostToolBatch", str(transcript), tool_calls=nl_api)
    )
    assert "api/CLAUDE.md" in answers.sent(again)


def test_a_fork_of_an_unknown_session_starts_afresh(
    project: Path, call_hook: Any, answers: Any, tmp_path: Path
) -> None:
    transcript = _fork_transcript(tmp_path / "new.jsonl", "new", "never-seen")
    nl_api = [call("Bash", command="nl -ba api/users.ts")]
    answer = call_hook("claude-code", event(project, "new", "PostToolBatch", transcript, tool_calls=nl_api))
    assert answers.sent(answer) == ["AGENTS.md", "api/CLAUDE.md", "api/AGENTS.md"]


def test_codex_does_not_read_transcripts_for_forks(
    project: Path, call_hook: Any, answers: Any, tmp_path: Path
) -> None:
    def nl_api(session: str, transcript: str = "/t.jsonl") -> dict[str, Any]:
        tool_input = {"command": "nl -ba api/users.ts"}
        return event(project, session, "PostToolUse", transcript, tool_name="Bash", tool_input=tool_input)

    expected = ["CLAUDE.md", "api/CLAUDE.md", "api/AGENTS.md"]  # CLAUDE.md: Codex reads only AGENTS.md
    assert answers.sent(call_hook("codex", nl_api("old"))) == expected
    transcript = _fork_transcript(tmp_path / "new.jsonl", "new", "old")
    assert answers.sent(call_hook("codex", nl_api("new", transcript))) == expected


def test_a_scoped_nested_claude_md_is_claude_codes_whatever_its_scope(tree: Any, call_hook: Any) -> None:
    """Claude Code loads pkg/CLAUDE.md on a Read of pkg/a.py although its `paths:` name only .ts files;
    the hook must count it as held then, not send it on a later touch that matches the scope."""
    root: Path = tree(
        {".git/HEAD": "x\n", "pkg/CLAUDE.md": '---\npaths: ["pkg/**/*.ts"]\n---\n# Pkg\n', "pkg/a.py": ""}
    )
    read = event(root, "n", "PostToolUse", tool_name="Read", tool_input={"file_path": str(root / "pkg/a.py")})
    assert call_hook("claude-code", read) == {}
    touch = event(root, "n", "PostToolUse", tool_name="Bash", tool_input={"command": "touch pkg/b.ts"})
    assert call_hook("claude-code", touch) == {}


def test_what_claude_code_loads_lazily_is_not_sent_early(
    tmp_path: Path, call_hook: Any, answers: Any
) -> None:
    """An uncommitted src/ui/Badge.tsx is an early touch at start (the seed's row 2). What Claude Code
    loads by itself on its first read there (src/ui/CLAUDE.md, the scoped .claude/rules rule) is not sent
    then, or it would arrive twice; what it never loads (src/ui/AGENTS.md) is. A shell write there, which
    Claude Code does not follow, sends the rest later."""
    from tests.conftest import git, git_init, write_tree

    root = write_tree(
        tmp_path / "repo",
        {
            "CLAUDE.md": "# Root\n",
            "src/ui/CLAUDE.md": "# UI claude\n",
            "src/ui/AGENTS.md": "# UI agents\n",
            "src/ui/Badge.tsx": "export {}\n",
            ".claude/rules/tsx.md": '---\npaths: ["src/ui/**/*.tsx"]\n---\n# TSX rule\n',
        },
    )
    git_init(root)
    (root / "src/ui/Badge.tsx").write_text("export const Badge = 1\n")
    assert git(root, "status", "--porcelain").strip()  # the change is there
    start = call_hook("claude-code", event(root, "e", "SessionStart", source="startup"), use_git=True)
    assert answers.sent(start) == ["src/ui/AGENTS.md"]
    write = event(root, "e", "PostToolUse", tool_name="Bash", tool_input={"command": "touch src/ui/New.tsx"})
    assert answers.sent(call_hook("claude-code", write, use_git=True)) == [
        "src/ui/CLAUDE.md",
        ".claude/rules/tsx.md",
    ]
