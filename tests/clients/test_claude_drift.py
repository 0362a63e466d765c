"""Drift read from a Claude Code transcript: the files whose same text reached the main thread twice since
the last compaction, and the files jitctx counted as the client's loads that the client never showed.

The records are shaped as Claude Code 2.1.197 and 2.1.332 write them (see `evidence`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients import all_clients
from jitctx.clients.claude_code import drift as drift_module
from jitctx.clients.claude_code.drift import find_transcript, session_drift
from jitctx.clients.kit.transcript_drift import CLIENT_ROUTE, JITCTX_ROUTE, SessionDrift, block_path

SESSION = "0b7f6a52-1c1e-4f57-9d0e-2f1d5c0e9a11"
RULE = "Use the API client in src/api/client.ts; never fetch directly."


def record(kind: str, version: str = "2.1.197", sidechain: bool = False, **fields: Any) -> str:
    entry = {"type": "attachment", "version": version, "sessionId": SESSION, "isSidechain": sidechain,
             "attachment": {"type": kind, **fields}}  # fmt: skip
    return json.dumps(entry) + "\n"


def nested(path: Path, text: str, **options: Any) -> str:
    return record("nested_memory", path=str(path), content={"content": text}, **options)


def answered(context: str, command: str = "jitctx hook claude-code", **options: Any) -> str:
    """A hook's answer as Claude Code records it: the command's success with what it printed, then the
    context it added."""
    stdout = json.dumps(
        {"hookSpecificOutput": {"hookEventName": "PostToolBatch", "additionalContext": context}}
    )
    ran = {"hookName": "PostToolBatch", "toolUseID": "hook-1", "hookEvent": "PostToolBatch"}
    return record("hook_success", command=command, stdout=stdout, exitCode=0, **ran, **options) + record(
        "hook_additional_context", content=[context], **ran, **options
    )


def block(display: str, text: str, **options: Any) -> str:
    return answered(f"Contents of {display} (src/api/** matches src/api/new.ts):\n\n{text}", **options)


COMPACTION = '{"type":"system","subtype":"compact_boundary","version":"2.1.197"}\n'


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    (project / ".claude/rules").mkdir(parents=True)
    (project / ".claude/rules/api.md").write_text(f"---\npaths: src/api/**\n---\n\n{RULE}\n")
    (project / "src/ui").mkdir(parents=True)
    (project / "src/ui/CLAUDE.md").write_text("UI rules\n")
    return project


def write_transcript(home: Path, root: Path, text: str, session: str = SESSION) -> Path:
    folder = home / ".claude/projects" / "".join(c if c.isalnum() else "-" for c in str(root))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{session}.jsonl"
    path.write_text(text)
    return path


def drift_of(home: Path, root: Path, host_loaded: tuple[str, ...] = ()) -> SessionDrift:
    return session_drift(SESSION, str(root), host_loaded, str(home), {})


def test_the_same_text_from_jitctx_and_from_the_client_arrived_twice(tmp_path: Path, root: Path) -> None:
    rule = root / ".claude/rules/api.md"
    transcript = write_transcript(
        tmp_path / "home", root, block(".claude/rules/api.md", RULE) + nested(rule, RULE + "\n")
    )
    found = drift_of(tmp_path / "home", root)
    assert found.found and found.transcript == str(transcript) and found.releases == ("2.1.197",)
    [twice] = found.twice()
    assert twice.path == str(rule.resolve())
    version = twice.repeated()
    assert version is not None and version.count == 2
    assert [arrival.route for arrival in version.arrivals] == [JITCTX_ROUTE, CLIENT_ROUTE]
    assert {arrival.release for arrival in version.arrivals} == {"2.1.197"}


def test_two_versions_of_a_file_are_not_a_duplicate(tmp_path: Path, root: Path) -> None:
    rule = root / ".claude/rules/api.md"
    write_transcript(
        tmp_path / "home", root, block(".claude/rules/api.md", RULE) + nested(rule, RULE + " Also: retry.")
    )
    found = drift_of(tmp_path / "home", root)
    assert found.twice() == () and len(found.files) == 1 and len(found.files[0].versions) == 2


def test_a_host_load_the_client_never_showed_never_arrived(tmp_path: Path, root: Path) -> None:
    ui, rule = root / "src/ui/CLAUDE.md", root / ".claude/rules/api.md"
    write_transcript(tmp_path / "home", root, nested(rule, RULE))
    found = drift_of(tmp_path / "home", root, host_loaded=(str(ui), str(rule)))
    assert found.never_arrived == (str(ui.resolve()),)  # the rule was shown; the UI file never was


def test_a_compaction_hides_what_came_before_it(tmp_path: Path, root: Path) -> None:
    rule = root / ".claude/rules/api.md"
    before = block(".claude/rules/api.md", RULE) + nested(rule, RULE)
    write_transcript(tmp_path / "home", root, before + COMPACTION + nested(rule, RULE))
    found = drift_of(tmp_path / "home", root, host_loaded=(str(rule),))
    assert found.twice() == ()  # one arrival since the compaction
    assert [version.count for version in found.files[0].versions] == [1]
    assert found.never_arrived == ()  # a load before the compaction still arrived


def test_the_same_duplicate_after_the_compaction_is_found(tmp_path: Path, root: Path) -> None:
    rule = root / ".claude/rules/api.md"
    after = block(".claude/rules/api.md", RULE) + nested(rule, RULE)
    write_transcript(tmp_path / "home", root, nested(rule, RULE) + COMPACTION + after)
    [twice] = drift_of(tmp_path / "home", root).twice()
    version = twice.repeated()
    assert version is not None and version.count == 2


def test_a_sub_agents_records_are_not_counted(tmp_path: Path, root: Path) -> None:
    ui, rule = root / "src/ui/CLAUDE.md", root / ".claude/rules/api.md"
    text = block(".claude/rules/api.md", RULE) + nested(rule, RULE, sidechain=True)
    write_transcript(tmp_path / "home", root, text + nested(ui, "UI rules", sidechain=True))
    found = drift_of(tmp_path / "home", root, host_loaded=(str(ui),))
    assert found.twice() == ()
    assert found.never_arrived == (str(ui.resolve()),)  # shown to a sub-agent only


def test_a_missing_transcript_is_reported_as_not_found(tmp_path: Path, root: Path) -> None:
    found = drift_of(tmp_path / "home", root, host_loaded=(str(root / "src/ui/CLAUDE.md"),))
    assert not found.found and found.transcript is None and found.never_arrived == ()


@pytest.mark.parametrize("session", ["../../etc/passwd", "a/b", "", "*", "replay:x"])
def test_a_session_id_that_is_no_uuid_names_no_file(tmp_path: Path, root: Path, session: str) -> None:
    write_transcript(tmp_path / "home", root, nested(root / "src/ui/CLAUDE.md", "UI rules"))
    assert find_transcript(session, str(tmp_path / "home"), {}) is None


def test_the_config_dir_of_the_environment_is_searched_first(tmp_path: Path, root: Path) -> None:
    config = tmp_path / "config"
    elsewhere = write_transcript(tmp_path / "home", root, "")
    (config / "projects/-any").mkdir(parents=True)
    (config / "projects/-any" / f"{SESSION}.jsonl").write_text("")
    found = find_transcript(SESSION, str(tmp_path / "home"), {"CLAUDE_CONFIG_DIR": str(config)})
    assert found == str(config / "projects/-any" / f"{SESSION}.jsonl")
    assert find_transcript(SESSION, str(tmp_path / "home"), {}) == str(elsewhere)


def test_a_fifo_is_not_read(tmp_path: Path, root: Path) -> None:
    import os

    path = write_transcript(tmp_path / "home", root, "")
    path.unlink()
    os.mkfifo(path)
    assert not drift_of(tmp_path / "home", root).found  # not waited on: no writer will come


def test_a_changed_file_counts_only_for_an_instruction_file(tmp_path: Path, root: Path) -> None:
    """The client shows any tracked file that changed on disk; only an instruction file's notice is an
    arrival of its text."""
    ui, source = root / "src/ui/CLAUDE.md", root / "src/ui/Badge.tsx"
    changed = [
        record("edited_text_file", filename=str(path), snippet="1\tUI rules\n2\tv2")
        for path in (ui, source, source)
    ]
    write_transcript(tmp_path / "home", root, nested(ui, "UI rules\nv2") + "".join(changed))
    found = drift_of(tmp_path / "home", root)
    assert [file.path for file in found.twice()] == [str(ui.resolve())]


def test_a_cut_transcript_claims_nothing_never_arrived(
    tmp_path: Path, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ui, rule = root / "src/ui/CLAUDE.md", root / ".claude/rules/api.md"
    text = nested(ui, "UI rules") + block(".claude/rules/api.md", RULE) + nested(rule, RULE)
    write_transcript(tmp_path / "home", root, text)
    monkeypatch.setattr(drift_module, "DRIFT_BYTES", len(text) - 10)  # the first record is cut off
    found = drift_of(tmp_path / "home", root, host_loaded=(str(root / "src/x/CLAUDE.md"),))
    assert found.partial and found.never_arrived == ()
    assert [file.path for file in found.twice()] == [str(rule.resolve())]  # the end was still read
    assert str(ui.resolve()) not in {file.path for file in found.files}


def test_releases_are_listed_as_they_appear(tmp_path: Path, root: Path) -> None:
    rule = root / ".claude/rules/api.md"
    text = block(".claude/rules/api.md", RULE) + nested(rule, RULE, version="2.1.332")
    write_transcript(tmp_path / "home", root, text + '{"type":"user","version":"not a release"}\n')
    found = drift_of(tmp_path / "home", root)
    assert found.releases == ("2.1.197", "2.1.332") and found.release == "2.1.332"


def test_a_header_is_read_back_to_its_file(tmp_path: Path, root: Path) -> None:
    odd = root / "docs (old)/CLAUDE.md"
    odd.parent.mkdir()
    odd.write_text("x")
    assert block_path("Contents of docs (old)/CLAUDE.md (applies to docs (old)/a.md)", str(root)) == str(odd)
    assert block_path("Updated contents of src/ui/CLAUDE.md (it changed)", str(root)) == str(
        (root / "src/ui/CLAUDE.md").resolve()
    )
    assert block_path("Contents of /etc/x.md (session start)", str(root)) == "/etc/x.md"
    assert block_path("Contents of /abs/AGENTS.md", str(root)) is None  # the client's own frame
    assert block_path("Something else (x)", str(root)) is None


def test_the_report_goes_through_the_registry(tmp_path: Path, root: Path) -> None:
    write_transcript(tmp_path / "home", root, nested(root / "src/ui/CLAUDE.md", "UI rules"))
    reader = all_clients.drift("claude-code")
    assert reader is not None
    found = reader(SESSION, str(root), [], str(tmp_path / "home"), {})
    assert found is not None and found.found and len(found.files) == 1
    # A client that keeps no transcript jitctx reads has nothing to say.
    assert all_clients.drift("gemini") is None


def test_damaged_paths_are_no_crash(tmp_path: Path, root: Path) -> None:
    write_transcript(tmp_path / "home", root, nested(Path("/p/a\0b/CLAUDE.md"), "x"))
    damaged = drift_of(tmp_path / "home", root)
    assert damaged.found and damaged.files == ()  # a record naming no real path is passed over
    write_transcript(tmp_path / "home", root, nested(root / "src/ui/CLAUDE.md", "UI rules"))
    found = drift_of(tmp_path / "home", root, host_loaded=("/p/a\0b.md", "relative.md"))
    assert found.found and found.never_arrived == ()  # such records name no file jitctx could have sent


def test_only_jitctx_own_answers_count_as_its_arrivals(tmp_path: Path, root: Path) -> None:
    """Another hook's context in jitctx's shape is not jitctx's answer: no duplicate to report."""
    rule = root / ".claude/rules/api.md"
    context = f"Contents of .claude/rules/api.md (src/api/** matches src/api/new.ts):\n\n{RULE}"
    text = answered(context, command="/opt/other-hook --echo") + nested(rule, RULE)
    write_transcript(tmp_path / "home", root, text)
    assert drift_of(tmp_path / "home", root).twice() == ()


def test_a_record_nested_past_the_parser_is_passed_over(tmp_path: Path, root: Path) -> None:
    deep = json.dumps({"type": "assistant", "message": {"content": "DEEP"}}).replace(
        '"DEEP"', "[" * 1100 + "]" * 1100
    )
    write_transcript(tmp_path / "home", root, deep + "\n" + nested(root / "src/ui/CLAUDE.md", "UI rules"))
    found = drift_of(tmp_path / "home", root)
    assert found.found and [file.path for file in found.files] == [str(root / "src/ui/CLAUDE.md")]
