"""Claude Code's AGENTS.md modes (its built-in agents-md plugin): jitctx sends what the mode in force
leaves out, so AGENTS.md arrives once whichever mode the user or the organisation set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients import all_clients
from jitctx.clients.claude_code.agents_md import mode_in_force
from jitctx.hook.pipeline import respond

CLAUDE = all_clients.get("claude-code")


def settings(home: Path, options: dict[str, Any] | None = None, **more: Any) -> None:
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = dict(more)
    if options is not None:
        data["pluginConfigs"] = {"agents-md@builtin": {"options": options}}
    (home / ".claude/settings.json").write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("options", "more", "mode"),
    [
        (None, {}, "claude-md-or-agents-md"),
        ({"instructionFiles": "claude-md-and-agents-md"}, {}, "claude-md-and-agents-md"),
        ({"instructionFiles": "claude-md"}, {}, "claude-md"),
        ({"instructionFiles": "managed-only"}, {}, "managed-only"),
        ({"instructionFiles": "no-such-mode"}, {}, "claude-md-or-agents-md"),
        ({"projectInstructions": "both"}, {}, "claude-md-and-agents-md"),  # the older option
        ({"projectInstructions": "both", "instructionFiles": "claude-md"}, {}, "claude-md"),
        ({"instructionFiles": "claude-md-and-agents-md"}, {"disableAllHooks": True}, "claude-md"),
    ],
)
def test_the_mode_in_force(tmp_path: Path, options: Any, more: dict[str, Any], mode: str) -> None:
    settings(tmp_path, options, **more)
    assert mode_in_force(str(tmp_path), managed=str(tmp_path / "none.json")) == mode


def test_managed_settings_win(tmp_path: Path) -> None:
    settings(tmp_path, {"instructionFiles": "claude-md-and-agents-md"})
    managed = tmp_path / "managed.json"
    managed.write_text(
        json.dumps({"pluginConfigs": {"agents-md@builtin": {"options": {"instructionFiles": "claude-md"}}}})
    )
    assert mode_in_force(str(tmp_path), managed=str(managed)) == "claude-md"


def start(tmp_path: Path, home: Path, version: str | None = "2.1.332") -> list[str]:
    """What jitctx sends at the start of a session of `version` (None: a release nothing tells)."""
    root = tmp_path / "proj"
    transcript = tmp_path / "transcript.jsonl"
    transcript.write_text(json.dumps({"type": "user", "version": version}) + "\n" if version else "")
    start_event = {
        "session_id": "m",
        "cwd": str(root),
        "hook_event_name": "SessionStart",
        "source": "startup",
        "transcript_path": str(transcript),
    }
    answer = respond(
        CLAUDE, json.dumps(start_event), state_dir=str(tmp_path / "state"), home=str(home), use_git=False
    )
    text = answer["hookSpecificOutput"]["additionalContext"] if answer else ""
    return [
        line.split(" of ", 1)[1].split(" (", 1)[0]
        for line in text.splitlines()
        if line.startswith("Contents of ")
    ]


@pytest.mark.parametrize(
    ("mode", "sent"),
    [
        (None, ["AGENTS.md"]),  # a CLAUDE.md is there: the default mode leaves AGENTS.md out
        ("claude-md-and-agents-md", []),
        ("claude-md", ["AGENTS.md"]),
        ("managed-only", ["CLAUDE.md", "AGENTS.md"]),
    ],
)
def test_the_session_start_sends_what_the_mode_leaves_out(
    tmp_path: Path, mode: str | None, sent: list[str]
) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("claude\n")
    (root / "AGENTS.md").write_text("agents\n")
    home = tmp_path / "home"
    settings(home, None if mode is None else {"instructionFiles": mode})
    assert sorted(start(tmp_path, home)) == sorted(sent)


@pytest.mark.parametrize("version", ["2.1.197", None])
def test_a_release_without_the_plugin_or_an_unknown_one_gets_agents_md_from_jitctx(
    tmp_path: Path, version: str | None
) -> None:
    """2.1.197 reads no AGENTS.md at all; an unknown release is taken as the oldest (a possible duplicate,
    never a lost rule)."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "AGENTS.md").write_text("agents\n")  # no CLAUDE.md: 2.1.332 would read it itself
    home = tmp_path / "home"
    settings(home)
    assert start(tmp_path, home, version) == ["AGENTS.md"]


def test_a_release_with_the_plugin_reads_agents_md_where_no_claude_md_is(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "AGENTS.md").write_text("agents\n")
    home = tmp_path / "home"
    settings(home)
    assert start(tmp_path, home, "2.1.332") == []
