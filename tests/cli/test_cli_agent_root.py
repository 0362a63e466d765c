"""`--agent` changes what is read, never where the project is: every profile finds the same root."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jitctx.cli.main import main
from jitctx.profiles import PROFILES


@pytest.fixture
def nested_project(tree: object, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A checkout (.git) holding a project of its own (sub/.jitctx.toml), as examples/monorepo is."""
    root: Path = tree(  # type: ignore[operator]
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "sub/.jitctx.toml": "",
            "sub/AGENTS.md": "# Sub agents guide\n",
            "sub/CLAUDE.md": "# Sub Claude rules\n",
        }
    )
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(root / "sub")
    return root / "sub"


@pytest.mark.parametrize("agent", sorted(PROFILES))
def test_every_agent_finds_the_same_root(
    agent: str, nested_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["startup", "--agent", agent, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["root"] == str(nested_project)


def test_budget_for_codex_counts_the_subprojects_agents_md(
    nested_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, `budget --agent codex` moved the root up to the .git and reported 0 files."""
    main(["budget", "--agent", "codex", "--json"])
    report = json.dumps(json.loads(capsys.readouterr().out))
    assert "AGENTS.md" in report
