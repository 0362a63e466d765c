"""`explain`, `touch` and `startup` answer for a live client with jitctx's hook installed: every file with
its route (the client itself, jitctx's hook, or nobody), as the hook decides it; `--without-hook` shows
the client alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from tests.conftest import write_tree


@pytest.fixture
def web(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A web app with a root CLAUDE.md importing AGENTS.md, a nested CLAUDE.md and AGENTS.md, a Cursor
    rule and a Copilot instruction for its files."""
    root = write_tree(
        tmp_path / "repo",
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "CLAUDE.md": "All working instructions live in @AGENTS.md\n",
            "AGENTS.md": "# Agents\nUse pnpm.\n",
            "web/CLAUDE.md": "# Web\nNo inline styles.\n",
            "web/app/AGENTS.md": "# App\nServer components first.\n",
            ".cursor/rules/react.mdc": '---\nglobs: "web/**/*.tsx"\n---\nHooks at the top.\n',
            ".github/instructions/web.instructions.md": '---\napplyTo: "web/**"\n---\nPrefer fetch.\n',
            "web/app/page.tsx": "export default 1\n",
        },
    )
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def routes(document: dict[str, Any]) -> dict[str, str]:
    return {v["path"]: v["route"] for v in document["verdicts"] if v.get("route") and v["loads"]}


def test_explain_for_gemini_cli_shows_what_the_hook_sends(
    web: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, `explain --agent gemini-cli` said no instruction file reaches the agent, while the hook sent
    every one of them: Gemini CLI reads GEMINI.md only."""
    document = run(
        capsys, "explain", str(web / "web/app/page.tsx"), "--agent", "gemini-cli", "--no-git", "--json"
    )
    assert routes(document) == {
        "CLAUDE.md": "jitctx",
        "AGENTS.md": "jitctx",
        "web/CLAUDE.md": "jitctx",
        "web/app/AGENTS.md": "jitctx",
        ".cursor/rules/react.mdc": "jitctx",
        ".github/instructions/web.instructions.md": "jitctx",
    }
    alone = run(
        capsys, "explain", str(web / "web/app/page.tsx"), "--agent", "gemini-cli", "--no-git", "--json",
        "--without-hook",
    )  # fmt: skip
    assert [v["path"] for v in alone["verdicts"] if v["loads"]] == []


def test_explain_for_claude_code_shows_the_cursor_rule_the_hook_sends(
    web: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = run(
        capsys, "explain", str(web / "web/app/page.tsx"), "--agent", "claude-code", "--no-git", "--json"
    )
    got = routes(document)
    assert got["CLAUDE.md"] == "client"
    assert got["AGENTS.md"] == "client"  # through CLAUDE.md's import
    assert got["web/CLAUDE.md"] == "client"  # after its Read
    assert got[".cursor/rules/react.mdc"] == "jitctx"
    assert got["web/app/AGENTS.md"] == "jitctx"


def test_explain_for_codex_shows_the_nested_claude_md_the_hook_sends(
    web: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = run(capsys, "explain", str(web / "web/app/page.tsx"), "--agent", "codex", "--no-git", "--json")
    got = routes(document)
    assert got["AGENTS.md"] == "client"  # not sent again as CLAUDE.md's import
    assert got["web/CLAUDE.md"] == "jitctx"
    assert got["CLAUDE.md"] == "jitctx"  # its own line is not in Codex's context; its import is


def test_the_text_names_who_brings_each_file(web: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["explain", str(web / "web/app/page.tsx"), "--agent", "codex", "--no-git"]) == 0
    out = capsys.readouterr().out
    assert "reaches the agent (with jitctx's hook):" in out
    assert "jitctx's hook" in out and "the client itself" in out


@pytest.mark.parametrize(("tool", "route"), [("read", "client"), ("shell_read", "jitctx")])
def test_touch_tells_a_view_from_a_cat_for_copilot_cli(
    web: Path, capsys: pytest.CaptureFixture[str], tool: str, route: str
) -> None:
    """Copilot CLI loads the nested AGENTS.md itself after its `view`, not after a shell `cat`."""
    document = run(
        capsys, "touch", "--root", str(web), "--agent", "copilot-cli", "--tool", tool, "--no-git", "--json",
        str(web / "web/app/page.tsx"),
    )  # fmt: skip
    files = {f["path"]: f["route"] for f in document["steps"][0]["files"]}
    assert files["web/app/AGENTS.md"] == route


def test_touch_takes_a_tool_per_path(web: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = run(
        capsys, "touch", "--root", str(web), "--agent", "codex", "--no-git", "--json",
        "--tool", "read", "--tool", "edit", str(web / "README.md"), str(web / "web/app/page.tsx"),
    )  # fmt: skip
    assert [step["kind"] for step in document["steps"]] == ["read", "edit"]


def test_touch_refuses_a_tool_count_that_fits_no_path(web: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["touch", "--root", str(web), "--agent", "codex", "--tool", "read", "--tool", "edit",
         "a", "b", "c"]
    )  # fmt: skip
    assert code == 2
    assert "--tool given 2 times for 3 paths" in capsys.readouterr().err


def test_startup_for_codex_says_who_brings_each_file(web: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = run(capsys, "startup", "--root", str(web), "--agent", "codex", "--no-git", "--json")
    files = {f["path"]: f["route"] for f in document["files"]}
    assert files["AGENTS.md"] == "client"
    assert {f["path"] for f in document["loaded"]} >= {"AGENTS.md"}


def test_budget_weighs_the_start_the_hook_decides(web: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """budget says what startup says: the same files, the same routes, and their bytes."""
    budget = run(capsys, "budget", "--root", str(web), "--agent", "codex", "--no-git", "--json")["routes"]
    startup = run(capsys, "startup", "--root", str(web), "--agent", "codex", "--no-git", "--json")["files"]
    assert budget["files"] == startup
    assert budget["client_bytes"] == sum(f["bytes"] for f in startup if f["route"] == "client") > 0
    assert budget["jitctx_bytes"] == sum(f["bytes"] for f in startup if f["route"] == "jitctx") > 0


def test_a_pinned_file_is_shown_alike_by_startup_explain_and_rules(
    web: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`[pin] paths`: startup, explain and rules say the same thing — jitctx's hook sends it at start,
    whatever its name and scope, and no agent reads it by itself."""
    write_tree(web, {".jitctx.toml": '[pin]\npaths = ["docs/style.md"]\n', "docs/style.md": "# Style\n"})
    startup = run(capsys, "startup", "--root", str(web), "--agent", "codex", "--no-git", "--json")["files"]
    assert {f["path"]: f["route"] for f in startup}["docs/style.md"] == "jitctx"
    explain = run(capsys, "explain", "web/app/page.tsx", "--root", str(web), "--agent", "codex", "--no-git",
                  "--json")  # fmt: skip
    assert routes(explain)["docs/style.md"] == "jitctx"
    rules = run(capsys, "rules", "--root", str(web), "--agent", "codex", "--json")
    row = next(r for r in rules["rules"] if r["path"] == "docs/style.md")
    assert row["format"] == "[pin]"
    assert row["agents"][0]["when"] == "never"  # not by itself
    assert row["agents"][0]["hook"] == {"start": "jitctx"}
