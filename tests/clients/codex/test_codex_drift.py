"""`stats --drift` for Codex: one session's rollout against jitctx's records of it (files that reached the
main thread more than once since the last compaction, and who sent each copy; files taken to be Codex's
own that it never showed loading). Recorded rollouts of 0.171.0 (`rollout_records`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.clients.codex.drift import find_rollout, session_drift
from jitctx.clients.kit.transcript_drift import CLIENT_ROUTE, JITCTX_ROUTE, SessionDrift
from jitctx.telemetry.records import append_record, startup_record
from tests.clients.codex.rollout_records import (
    FORKED_FILES,
    SESSION_FILES,
    USER_AGENTS,
    hook_context,
    later,
    recorded,
    write_project,
    write_rollout,
)

SESSION = "01a23d6b-fac8-7d31-98a1-d8a0760f030e"  # session.jsonl's thread
PARENT, SUB = "01a23d6e-5fa1-7ad2-9bf4-59c5ce082ec2", "01a23d6e-61dc-7632-97c3-167a6d545a0c"
DAY = "sessions/2026/12/03"  # the day of these ids (UUIDv7)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "home" / ".codex").mkdir(parents=True)
    (tmp_path / "home" / ".codex" / "AGENTS.md").write_text(USER_AGENTS)
    return tmp_path / "home"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_project(tmp_path / "proj", SESSION_FILES)


def place(home: Path, lines: list[str], thread: str = SESSION, folder: str = DAY) -> Path:
    return write_rollout(home / ".codex" / folder / f"rollout-2026-12-03T19-40-16-{thread}.jsonl", lines)


def drift(root: Path, home: Path, host_loaded: tuple[str, ...] = (), session: str = SESSION) -> SessionDrift:
    loaded = [str(root / rel) for rel in host_loaded]
    return session_drift(session, str(root), loaded, str(home), {})


def arrivals(found: SessionDrift, root: Path) -> dict[str, list[list[str]]]:
    """Per file (relative), the routes of each version's arrivals."""
    return {
        str(Path(file.path).relative_to(root)) if file.path.startswith(str(root)) else file.path: [
            [arrival.route for arrival in version.arrivals] for version in file.versions
        ]
        for file in found.files
    }


def test_a_clean_session_after_its_compaction(root: Path, home: Path) -> None:
    """After the compaction: Codex's instructions kept in the compaction's history (the user's AGENTS.md,
    the root's and sub/'s), jitctx's answer sending CLAUDE.md and api/AGENTS.md again; each once."""
    place(home, recorded("session.jsonl", root, home, at=later()))
    found = drift(root, home, host_loaded=("AGENTS.md", "sub/AGENTS.md"))
    assert found.found and found.releases == ("0.171.0",) and not found.partial
    assert arrivals(found, root) == {
        "AGENTS.md": [[CLIENT_ROUTE]],
        "sub/AGENTS.md": [[CLIENT_ROUTE]],
        str(home / ".codex" / "AGENTS.md"): [[CLIENT_ROUTE]],
        "CLAUDE.md": [[JITCTX_ROUTE]],
        "api/AGENTS.md": [[JITCTX_ROUTE]],
    }
    assert found.twice() == () and found.never_arrived == ()


def test_the_same_text_twice_and_who_sent_each_copy(root: Path, home: Path) -> None:
    """A block of the root AGENTS.md after Codex's own load (client + jitctx), and CLAUDE.md sent a second
    time (jitctx twice); a new version of a file is not a repeat."""
    again = [
        hook_context("Contents of AGENTS.md (applies to x):\n\n# Agents\n\nJX-ROOT-AGENTS: run the linters."),
        hook_context(
            "Contents of CLAUDE.md (session start):\n\n# Project\n\nJX-ROOT-CLAUDE: keep the tests green."
        ),
        hook_context("Updated contents of api/AGENTS.md (it changed):\n\n# API\n\nJX-API-AGENTS: typed."),
    ]
    place(home, [*recorded("session.jsonl", root, home, at=later()), *again])
    found = drift(root, home)
    twice = {str(Path(file.path).relative_to(root)): file.repeated() for file in found.twice()}
    assert set(twice) == {"AGENTS.md", "CLAUDE.md"}
    routes = {
        rel: [arrival.route for arrival in version.arrivals] for rel, version in twice.items() if version
    }
    assert routes == {"AGENTS.md": [CLIENT_ROUTE, JITCTX_ROUTE], "CLAUDE.md": [JITCTX_ROUTE, JITCTX_ROUTE]}
    assert {arrival.release for version in twice.values() if version for arrival in version.arrivals} == {
        "0.171.0"
    }
    assert arrivals(found, root)["api/AGENTS.md"] == [[JITCTX_ROUTE], [JITCTX_ROUTE]]


def test_what_came_before_the_compaction_is_no_repeat(root: Path, home: Path) -> None:
    """CLAUDE.md and api/AGENTS.md were sent before the compaction and again after it: once each in the
    conversation that is left."""
    place(home, recorded("session.jsonl", root, home, at=later()))
    assert drift(root, home).twice() == ()


def test_a_host_load_codex_never_showed_never_arrived(root: Path, home: Path) -> None:
    """jitctx took api/AGENTS.md to be Codex's own; Codex loaded AGENTS.md for sub/ only. Once a file of
    sub/'s way changed, no file is found in Codex's text: none arrived, and none is said never to have
    (each may have been there, as it was then)."""
    place(home, recorded("session.jsonl", root, home, at=later()))
    found = drift(root, home, host_loaded=("AGENTS.md", "sub/AGENTS.md", "api/AGENTS.md"))
    assert found.never_arrived == (str(root / "api/AGENTS.md"),)
    (root / "sub/AGENTS.md").write_text("# Sub\n\nJX-SUB-AGENTS: new sub rules.\n")
    found = drift(root, home, host_loaded=("AGENTS.md", "sub/AGENTS.md", "api/AGENTS.md"))
    assert found.never_arrived == (str(root / "api/AGENTS.md"),)
    assert "sub/AGENTS.md" not in arrivals(found, root) and "AGENTS.md" not in arrivals(found, root)


def test_only_the_main_threads_rollout_is_read(tmp_path: Path, home: Path) -> None:
    """The sub-agent's rollout (another thread id, the same session) is not the session's: its read of
    src/api does not count, nor its copy of the parent's start."""
    root = write_project(tmp_path / "forked", FORKED_FILES)
    place(home, recorded("parent_of_forked.jsonl", root, home, at=later()), thread=PARENT)
    place(home, recorded("subagent_forked.jsonl", root, home, at=later()), thread=SUB)
    found = drift(root, home, session=PARENT)
    assert found.transcript is not None and found.transcript.endswith(f"-{PARENT}.jsonl")
    assert "src/api/AGENTS.md" not in arrivals(found, root) and found.twice() == ()
    assert arrivals(found, root)["docs/pinned.md"] == [[JITCTX_ROUTE]]


def test_where_the_rollout_is_found(tmp_path: Path, home: Path, root: Path) -> None:
    """The day folders the id points to, any other day folder, archived_sessions/; $CODEX_HOME first. An
    id that is no UUID names no file; a link is not read."""
    codex_home = home / ".codex"
    assert find_rollout(SESSION, str(codex_home)) is None
    moved = place(home, ["{}"], folder="sessions/2025/01/02")
    assert find_rollout(SESSION, str(codex_home)) == str(moved)
    moved.unlink()
    archived = place(home, ["{}"], folder="archived_sessions")
    assert find_rollout(SESSION, str(codex_home)) == str(archived)
    assert find_rollout("../../etc/passwd", str(codex_home)) is None
    elsewhere = tmp_path / "elsewhere"
    placed = place(elsewhere, recorded("session.jsonl", root, home, at=later()))
    found = session_drift(SESSION, str(root), [], str(home), {"CODEX_HOME": str(elsewhere / ".codex")})
    assert found.transcript == str(placed)
    linked = home / ".codex" / DAY / f"rollout-x-{SESSION}.jsonl"
    linked.parent.mkdir(parents=True)
    archived.unlink()
    linked.symlink_to(placed)
    assert not drift(root, home).found  # found, but a link is not read


def test_stats_drift_names_codex_and_its_release(
    tmp_path: Path,
    home: Path,
    root: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Through the registry and the command line, which names no client: the session of the event log is
    Codex's, its rollout is read, and a repeat is listed under Codex's release with who sent it."""
    again = hook_context(
        "Contents of CLAUDE.md (session start):\n\n# Project\n\nJX-ROOT-CLAUDE: keep the tests green."
    )
    place(home, [*recorded("session.jsonl", root, home, at=later()), again])
    head = {"session_id": SESSION, "root": str(root), "agent": "codex", "elapsed_ms": 1.0}
    append_record(tmp_path / "state" / "events", startup_record(**head, cwd="sub", signals=[], skipped=0,
                                                                  cumulative_bytes=0))  # fmt: skip
    monkeypatch.setenv("JITCTX_HOME", str(home))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    reader = all_clients.drift("codex")
    assert reader is not None and reader(SESSION, str(root), [], str(home), {}) is not None
    assert main(["stats", "--drift", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["drift"]
    assert report["read_by_client"] == [{"client": "codex", "sessions": 1}]
    [release] = report["releases"]
    assert (release["client"], release["release"]) == ("codex", "0.171.0")
    assert [(t["path"], t["count"], t["routes"]) for t in release["twice"]] == [("CLAUDE.md", 2, ["jitctx"])]
