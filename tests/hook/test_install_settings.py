"""The merge logic of `jitctx install`: exactly jitctx's entries change, everything else stays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients.claude_code.hooks import ENTRIES
from jitctx.clients.kit.hook_command import is_jitctx_command
from jitctx.clients.kit.settings_file import SettingsError, diff, dump, install, parse_settings, uninstall

CMD = "jitctx hook claude-code"
OTHER = {
    "matcher": "Write|Edit",
    "hooks": [{"type": "command", "command": "npx prettier --write", "timeout": 30}],
}


@pytest.mark.parametrize(
    ("command", "ours"),
    [
        ("jitctx hook claude-code", True),
        ("/opt/venv/bin/jitctx hook claude-code", True),
        ("'/opt/my venv/bin/python' -m jitctx hook claude-code --no-git", True),
        ("/usr/bin/python3 -m jitctx hook claude-code", True),
        ("jitctx hook codex", False),  # another agent's entry is not touched
        ("jitctx touch src/a.ts", False),
        ("echo jitctx hook claude-code", False),
        ("env JITCTX_STATE_DIR=/tmp/s jitctx hook claude-code", True),
        ("my-jitctx hook claude-code", False),
        ("jitctx 'unbalanced hook claude-code", False),
        (42, False),
    ],
)
def test_which_commands_are_jitctxs(command: object, ours: bool) -> None:
    assert is_jitctx_command(command, "claude-code") is ours


def test_install_into_nothing_adds_one_group_per_event() -> None:
    data, changes = install({}, ENTRIES, CMD, "claude-code")
    assert [(c.event, c.action) for c in changes] == [(entry.event, "added") for entry in ENTRIES]
    assert list(data) == ["hooks"]
    assert data["hooks"]["SessionStart"] == [
        {
            "matcher": ENTRIES[0].matcher,
            "hooks": [{"type": "command", "command": CMD, "timeout": 10}],
        }
    ]
    assert data["hooks"]["UserPromptSubmit"] == [
        {"hooks": [{"type": "command", "command": CMD, "timeout": 10}]}
    ]


def test_install_twice_changes_nothing() -> None:
    once, _ = install({"model": "opus"}, ENTRIES, CMD, "claude-code")
    twice, changes = install(once, ENTRIES, CMD, "claude-code")
    assert twice is once
    assert {c.action for c in changes} == {"kept"}


def test_install_keeps_other_hooks_and_settings_in_their_order() -> None:
    original: dict[str, Any] = {
        "permissions": {"allow": ["Bash(git diff:*)"]},
        "hooks": {"PostToolUse": [OTHER], "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]},
        "model": "opus",
    }
    data, _ = install(original, ENTRIES, CMD, "claude-code")
    assert list(data) == ["permissions", "hooks", "model"]
    added = [entry.event for entry in ENTRIES if entry.event not in ("PostToolUse", "Stop")]
    assert list(data["hooks"]) == ["PostToolUse", "Stop", *added]
    assert data["hooks"]["PostToolUse"][0] == OTHER
    assert data["hooks"]["Stop"] == original["hooks"]["Stop"]
    assert original["hooks"]["PostToolUse"] == [OTHER]  # the input is not mutated


def test_an_old_entry_is_updated_not_doubled() -> None:
    old = {"hooks": [{"type": "command", "command": "/old/venv/bin/jitctx hook claude-code", "timeout": 5}]}
    event = "UserPromptSubmit"
    data, changes = install({"hooks": {event: [OTHER, old, old]}}, ENTRIES, CMD, "claude-code")
    assert (event, "updated") in [(c.event, c.action) for c in changes]
    groups = data["hooks"][event]
    assert groups[0] == OTHER and len(groups) == 2
    assert groups[1]["hooks"][0]["command"] == CMD


def test_our_handler_in_someone_elses_group_leaves_their_handler() -> None:
    shared = {
        "matcher": "Read",
        "hooks": [{"type": "command", "command": CMD}, {"type": "command", "command": "log"}],
    }
    data, _ = install({"hooks": {"PostToolUse": [shared]}}, ENTRIES, CMD, "claude-code")
    assert data["hooks"]["PostToolUse"][0] == {
        "matcher": "Read",
        "hooks": [{"type": "command", "command": "log"}],
    }


def test_entries_under_events_no_longer_used_are_removed() -> None:
    stale = {"hooks": [{"type": "command", "command": CMD}]}
    # PostToolUse: what installs wrote before PostToolBatch answered a batch of calls once.
    data, changes = install({"hooks": {"PostToolUse": [stale]}}, ENTRIES, CMD, "claude-code")
    assert "PostToolUse" not in data["hooks"]
    assert ("PostToolUse", "removed") in [(c.event, c.action) for c in changes]


def test_uninstall_removes_only_ours_and_what_it_leaves_empty() -> None:
    original: dict[str, Any] = {"hooks": {"PostToolUse": [OTHER]}, "model": "opus"}
    installed, _ = install(original, ENTRIES, CMD, "claude-code")
    codex_entry = {"hooks": [{"type": "command", "command": "jitctx hook codex"}]}
    installed["hooks"]["Stop"] = [codex_entry]
    removed, changes = uninstall(installed, "claude-code")
    assert removed == {"hooks": {"PostToolUse": [OTHER], "Stop": [codex_entry]}, "model": "opus"}
    assert {c.action for c in changes} == {"removed"}
    nothing, changes = uninstall(removed, "claude-code")
    assert nothing is removed and changes == []
    bare, _ = uninstall(install({}, ENTRIES, CMD, "claude-code")[0], "claude-code")
    assert bare == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ('{"a": 1,}', "not valid JSON"),
        ("// comment\n{}", "not valid JSON"),
        ("[]", "holds a JSON list, not an object"),
        ('"x"', "holds a JSON str"),
        ('{"hooks": []}', "'hooks' is a list, not an object"),
        ('{"hooks": {"PostToolUse": {}}}', "'hooks.PostToolUse' is a dict, not a list"),
        ('{"model": "a", "model": "b"}', "the key 'model' appears twice"),
    ],
)
def test_unparsable_settings_are_refused(text: str, message: str) -> None:
    with pytest.raises(SettingsError, match=message) as caught:
        parse_settings(text, Path("/p/settings.json"))
    assert str(caught.value).startswith("/p/settings.json")
    assert "jitctx did not change it" in str(caught.value)


def test_an_empty_file_is_an_empty_object() -> None:
    assert parse_settings("  \n", Path("s.json")) == {}


def test_refusal_names_line_and_column() -> None:
    with pytest.raises(SettingsError, match=r"s\.json:3:3: not valid JSON \(Expecting .,. delimiter\)"):
        parse_settings('{\n  "a": 1\n  "b": 2\n}', Path("s.json"))


@pytest.mark.parametrize(
    ("like", "indent"),
    [(None, "  "), ('{\n  "a": 1\n}\n', "  "), ('{\n    "a": 1\n}\n', "    "), ('{\n\t"a": 1\n}', "\t")],
)
def test_dump_keeps_the_files_style(like: str | None, indent: str) -> None:
    text = dump({"a": {"b": "é"}}, like)
    assert text.startswith("{\n" + indent + '"a": {\n' + indent * 2 + '"b": "é"')
    assert text.endswith("\n") is (like is None or like.endswith("\n"))


def test_install_then_uninstall_gives_back_the_same_bytes() -> None:
    original = json.dumps({"env": {"A": "1"}, "hooks": {"PostToolUse": [OTHER]}}, indent=2) + "\n"
    data, _ = install(parse_settings(original, Path("s")), ENTRIES, CMD, "claude-code")
    installed = dump(data, original)
    back, _ = uninstall(parse_settings(installed, Path("s")), "claude-code")
    assert dump(back, installed) == original


def test_diff_is_unified() -> None:
    text = diff('{\n  "a": 1\n}\n', '{\n  "a": 2\n}\n', Path("s.json"))
    assert text.splitlines()[:2] == ["--- s.json", "+++ s.json"]
    assert '-  "a": 1' in text and '+  "a": 2' in text
    assert diff(None, "{}\n", Path("s.json")).startswith("--- /dev/null\n+++ s.json\n")
