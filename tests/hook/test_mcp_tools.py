"""The MCP tools' behaviour without the protocol: `McpTools` on the example, hostile arguments included."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jitctx.discovery.explain import explain
from jitctx.hook.transports.mcp.tools import MAX_PATHS, McpTools, ToolAnswer
from jitctx.project import Project
from jitctx.reports.explain import to_json, to_text
from jitctx.telemetry.scan import stats_from_log


def make_tools(root: Path, state: Path, **options: Any) -> McpTools:
    project = Project(root, home=str(state.parent / "home"))
    return McpTools(project, cwd=str(root), state_dir=state, **options)


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


def files(answer: ToolAnswer) -> list[tuple[str, str]]:
    """(path, reason) of the files an answer carries; @imported files follow their importer, left out."""
    assert not answer.error, answer.text
    return [(f["path"], f["reason"]) for f in answer.document["files"] if f["reason"] != "include"]


def test_first_call_runs_startup_then_each_file_comes_once(example_copy: Path, state: Path) -> None:
    tools = make_tools(example_copy, state)
    first = tools.context_for_paths(["src/ui/README.md"])
    assert first.document["startup"] is True
    assert files(first) == [
        ("CLAUDE.md", "session_start"),
        ("AGENTS.md", "session_start"),
        ("src/ui/CLAUDE.md", "path_glob_match"),
    ]
    imported = [f for f in first.document["files"] if f["reason"] == "include"]
    assert [(f["path"], f["parent"]) for f in imported] == [("docs/conventions.md", "CLAUDE.md")]
    rule = first.document["files"][-1]
    assert rule["text"] == (example_copy / "src/ui/CLAUDE.md").read_text().split("---\n", 2)[2]
    assert rule["bytes"] == len(rule["text"].encode("utf-8"))
    assert "Instructions from: src/ui/CLAUDE.md" in first.text and "Terminal UI rules" in first.text

    second = tools.context_for_paths(["src/ui/Footer.tsx", "src/ui/README.md"])
    assert second.document["startup"] is False
    assert files(second) == [(".claude/rules/components.md", "path_glob_match")]
    assert [t["hit"] for t in second.document["touched"]] == [True, False]

    again = tools.context_for_paths(["src/ui/Footer.tsx"])
    assert files(again) == [] and "no new instruction files" in again.text


def test_a_session_id_persists_across_servers(example_copy: Path, state: Path) -> None:
    assert (
        len(files(make_tools(example_copy, state).context_for_paths(["tools/gen.py"], session_id="s"))) == 3
    )
    restarted = make_tools(example_copy, state)  # a new server process on the same state dir
    assert files(restarted.context_for_paths(["tools/gen.py", "src/api/users.ts"], session_id="s")) == [
        ("src/api/AGENTS.md", "nested_traversal"),
        (".claude/rules/api-handlers.md", "path_glob_match"),
    ]
    # Another session, and calls without a session id, start from nothing.
    assert ("CLAUDE.md", "session_start") in files(
        restarted.context_for_paths(["tools/gen.py"], session_id="t")
    )
    assert ("CLAUDE.md", "session_start") in files(restarted.context_for_paths(["tools/gen.py"]))


def test_an_edited_rule_comes_again_with_its_new_text(example_copy: Path, state: Path) -> None:
    tools = make_tools(example_copy, state)
    tools.context_for_paths(["website/index.md"])
    rule = example_copy / "website/CLAUDE.md"
    rule.write_text("# Website rules\n\n- Edited.\n")
    os.utime(rule, ns=(1, 1))  # a different mtime even on coarse clocks
    answer = tools.context_for_paths(["website/index.md"])
    assert [(f["path"], f["text"]) for f in answer.document["files"]] == [
        ("website/CLAUDE.md", "# Website rules\n\n- Edited.\n")
    ]


@pytest.mark.parametrize("path", ["/etc/passwd", "../outside.txt", "~", "src/../../x"])
def test_paths_outside_the_project_are_a_clear_result(example_copy: Path, state: Path, path: str) -> None:
    answer = make_tools(example_copy, state).context_for_paths([path])
    assert not answer.error
    (touched,) = answer.document["touched"]
    assert touched["hit"] is False and "outside the project" in touched["note"]
    assert "outside the project" in answer.text


def test_a_symlink_out_of_the_project_is_outside(example_copy: Path, state: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "sub").mkdir(parents=True)
    (elsewhere / "CLAUDE.md").write_text("# not ours\n")
    (example_copy / "link").symlink_to(elsewhere)
    answer = make_tools(example_copy, state).context_for_paths(["link/sub/a.py"])
    assert "outside the project" in answer.document["touched"][0]["note"]
    assert all("not ours" not in f["text"] for f in answer.document["files"])


@pytest.mark.parametrize(
    ("raw", "note"),
    [("src/\0x", "contains a NUL byte"), ("src/\ud800", "lone surrogate")],
)
def test_unusable_strings_are_noted_per_path(example_copy: Path, state: Path, raw: str, note: str) -> None:
    answer = make_tools(example_copy, state).context_for_paths([raw, "tools/gen.py"])
    assert not answer.error
    bad, good = answer.document["touched"]
    assert note in bad["note"] and good["hit"] is True


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"paths": []}, "paths is empty"),
        ({"paths": ["a"] * (MAX_PATHS + 1)}, f"at most {MAX_PATHS}"),
        ({"paths": "src/ui"}, "must be a list of strings"),
        ({"paths": ["a"], "cwd": "/"}, "outside the project"),
        ({"paths": ["a"], "cwd": "../"}, "outside the project"),
        ({"paths": ["a"], "cwd": "no/such/dir"}, "is not a directory"),
        ({"paths": ["a"], "cwd": "src/\0"}, "NUL byte"),
        ({"paths": ["a"], "session_id": "\ud800"}, "lone surrogate"),
    ],
)
def test_bad_arguments_are_tool_errors(
    example_copy: Path, state: Path, arguments: dict[str, Any], message: str
) -> None:
    answer = make_tools(example_copy, state).context_for_paths(**arguments)
    assert answer.error and message in answer.text and message in answer.document["error"]


def test_cwd_sets_where_relative_paths_start(example_copy: Path, state: Path) -> None:
    answer = make_tools(example_copy, state).context_for_paths(["Footer.tsx"], cwd="src/ui")
    assert (".claude/rules/components.md", "path_glob_match") in files(answer)


def test_hostile_session_ids_stay_inside_the_state_dir(example_copy: Path, state: Path) -> None:
    tools = make_tools(example_copy, state)
    for session_id in ("../../escape", "/etc/x", "a" * 5000, ""):
        assert not tools.context_for_paths(["src"], session_id=session_id).error
    written = {p.resolve() for p in state.rglob("*")}
    assert all(p.is_relative_to(state.resolve()) for p in written)
    assert not (state.parent / "escape.json").exists()


def test_explain_is_the_explain_command_as_a_tool(example_copy: Path, state: Path) -> None:
    tools = make_tools(example_copy, state, use_git=False)
    answer = tools.explain("src/ui/Footer.tsx")
    result = explain(tools.project, "src/ui/Footer.tsx", cwd=str(example_copy), use_git=False)
    assert answer.document == to_json(result, tools.project)
    assert answer.text == to_text(result, tools.project)
    loads = {v["path"] for v in answer.document["verdicts"] if v["loads"]}
    assert {"src/ui/CLAUDE.md", ".claude/rules/components.md"} <= loads


@pytest.mark.parametrize("path", ["/etc/passwd", "../x", "\0", "\ud800"])
def test_explain_outside_or_unusable(example_copy: Path, state: Path, path: str) -> None:
    answer = make_tools(example_copy, state).explain(path)
    if answer.error:
        assert "NUL" in answer.text or "surrogate" in answer.text
    else:
        assert answer.document["inside"] is False
        assert any("outside the project" in n for n in answer.document["notes"])


def test_stats_reads_the_events_the_tools_recorded(example_copy: Path, state: Path) -> None:
    tools = make_tools(example_copy, state)
    assert "no events recorded yet" in tools.stats().text
    tools.context_for_paths(["src/ui/README.md", "/etc/passwd"], session_id="a")
    tools.context_for_paths(["src/ui/README.md"], session_id="a")
    answer = tools.stats()
    expected = stats_from_log(state / "events").to_json()
    assert answer.document == {"events_dir": str(state / "events"), **expected, "skills_unused": []}
    assert answer.document["discoveries"] == 3 and answer.document["hits"] == 1
    assert answer.document["sessions"] == 1
    assert "discoveries 3" in answer.text
    assert tools.stats(session="zzz").document["discoveries"] == 0
    assert tools.stats(since="1h").document["discoveries"] == 3


def test_stats_rejects_a_bad_since(example_copy: Path, state: Path) -> None:
    answer = make_tools(example_copy, state).stats(since="yesterday-ish")
    assert answer.error and "--since" in answer.text


def test_no_events_when_recording_is_off(example_copy: Path, state: Path) -> None:
    tools = make_tools(example_copy, state, record_events=False)
    tools.context_for_paths(["src/ui/README.md"])
    assert not (state / "events").exists()


def test_an_internal_failure_is_an_error_answer(
    example_copy: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = make_tools(example_copy, state)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(tools, "_touch", broken)
    answer = tools.context_for_paths(["src"])
    assert answer.error and "internal error" in answer.text and "boom" in answer.text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(paths=st.lists(st.text(max_size=40), min_size=1, max_size=4), cwd=st.none() | st.text(max_size=12))
def test_any_text_gives_an_answer_never_an_exception(
    example_copy: Path, state: Path, paths: list[str], cwd: str | None
) -> None:
    tools = make_tools(example_copy, state, use_git=False, record_events=False)
    answer = tools.context_for_paths(paths, cwd=cwd, session_id="fuzz")
    assert isinstance(answer, ToolAnswer) and answer.text
    assert answer.error == ("error" in answer.document)
    if not answer.error:
        assert len(answer.document["touched"]) == len(paths)
    explained = tools.explain(paths[0], cwd=cwd)
    assert isinstance(explained, ToolAnswer) and explained.text


def _hook_fields(root: Path, session: str, command: str, cwd: Path | None = None) -> dict[str, str]:
    calls = [{"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t1"}]
    return {"hook_event_name": "PostToolBatch", "session_id": session, "cwd": str(cwd or root),
            "tool_calls": json.dumps(calls)}  # fmt: skip


def test_hook_event_answers_for_this_project_only(example_copy: Path, state: Path, tmp_path: Path) -> None:
    """The model can call hook_event too: a cwd outside the server's project gets `{}` and a log line."""
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    (other / "CLAUDE.md").write_text("# another project\n")
    tools = McpTools(Project(example_copy), cwd=str(example_copy), state_dir=state, use_git=False)
    outside = tools.hook_event(_hook_fields(example_copy, "o", "nl -ba CLAUDE.md", cwd=other))
    assert (outside.document, outside.text) == ({}, "{}")
    assert "is outside" in (state / "hook.log").read_text(encoding="utf-8")
    inside = tools.hook_event(_hook_fields(example_copy, "i", "nl -ba src/api/users.ts"))
    assert "src/api/AGENTS.md" in json.loads(inside.text)["hookSpecificOutput"]["additionalContext"]


def test_a_hook_answer_past_the_deadline_is_not_counted_as_sent(
    example_copy: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the mcp_tool hook's timeout Claude Code has dropped the call: the files go out again next time."""
    from jitctx.hook.transports.mcp import tools as mcp_tools

    tools = McpTools(Project(example_copy), cwd=str(example_copy), state_dir=state, use_git=False)
    fields = _hook_fields(example_copy, "late", "nl -ba src/api/users.ts")
    monkeypatch.setattr(mcp_tools, "HOOK_DEADLINE_S", -1.0)
    assert tools.hook_event(fields).document == {}
    monkeypatch.setattr(mcp_tools, "HOOK_DEADLINE_S", 8.0)
    again = json.loads(tools.hook_event(fields).text)
    assert "src/api/AGENTS.md" in again["hookSpecificOutput"]["additionalContext"]


def test_quick_hook_event_answers_what_loads_nothing_and_leaves_the_rest_to_hook_event(
    example_copy: Path, state: Path
) -> None:
    """The server answers these on its event loop, which must never wait for a session: `{}` for an event
    it cannot take and for a touch the fast lane proves loads nothing (recorded as the engine would);
    None for anything that may load, which `hook_event` answers on a thread of its own."""
    for directory in (example_copy, example_copy / "docs"):  # a listing this fresh is not trusted yet
        os.utime(directory, ns=(10**18, 10**18))
    tools = McpTools(Project(example_copy), cwd=str(example_copy), state_dir=state, use_git=False)
    fields = _hook_fields(example_copy, "q", "nl -ba src/api/users.ts")
    assert tools.quick_hook_event(fields) is None  # the first touch loads src/api/AGENTS.md
    assert (
        "src/api/AGENTS.md"
        in json.loads(tools.hook_event(fields).text)["hookSpecificOutput"]["additionalContext"]
    )
    command = json.dumps({"command": "nl -ba docs/guide.md"})  # no rule for it; the root's files are held
    single = {**fields, "tool_calls": "", "hook_event_name": "PostToolUse", "tool_name": "Bash",
              "tool_input": command, "tool_use_id": "t2"}  # fmt: skip
    tools.hook_event(single)
    quiet = tools.quick_hook_event({**single, "tool_use_id": "t3"})
    assert quiet is not None and (quiet.document, quiet.text) == ({}, "{}")
    logs = (state / "events").glob("*.jsonl")
    records = [json.loads(line) for log in logs for line in log.read_text().splitlines()]
    assert [r.get("hit") for r in records if r.get("tool_use_id") == "t3"] == [False]  # the miss, recorded
    outside = tools.quick_hook_event({**fields, "cwd": "/"})
    assert outside is not None and outside.document == {}
