"""`jitctx explain`: every file gets a verdict, and the reasons are the ones a person would check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from tests.conftest import write_tree


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))


def explain(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["explain", *args, "--json"]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def by_file(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {v["path"]: v for v in document["verdicts"]}


def test_footer_on_the_example(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    doc = explain(capsys, str(example_copy / "src/ui/Footer.tsx"))
    verdicts = by_file(doc)
    assert doc["path"] == "src/ui/Footer.tsx" and doc["inside"] is True
    assert verdicts["CLAUDE.md"]["kind"] == "startup"
    assert (verdicts["src/ui/CLAUDE.md"]["loads"], verdicts["src/ui/CLAUDE.md"]["reason"]) == (
        True,
        "path_glob_match",
    )
    python = verdicts[".claude/rules/python.md"]
    assert python["loads"] is False and python["kind"] == "scope_mismatch"
    assert python["globs"] == ["**/*.py"] and python["against"] == "src/ui/Footer.tsx"
    api = verdicts["src/api/AGENTS.md"]
    assert api["loads"] is False and api["kind"] == "off_chain" and "src/api/" in api["why"]
    # every instruction file of the example has a verdict
    assert set(verdicts) == {
        "CLAUDE.md", "AGENTS.md", "src/ui/CLAUDE.md", "src/api/AGENTS.md", "docs/summary/CLAUDE.md",
        "website/CLAUDE.md", ".claude/rules/python.md", ".claude/rules/components.md",
        ".claude/rules/api-handlers.md", "docs/conventions.md",
    }  # fmt: skip
    conventions = verdicts["docs/conventions.md"]
    assert (conventions["loads"], conventions["reason"]) == (True, "include")
    assert "imported with @ by CLAUDE.md" in conventions["why"]


def test_readme_under_a_tsx_rule_shows_the_glob(
    capsys: pytest.CaptureFixture[str], example_copy: Path
) -> None:
    doc = explain(capsys, str(example_copy / "src/ui/README.md"))
    components = by_file(doc)[".claude/rules/components.md"]
    assert components["kind"] == "scope_mismatch" and components["globs"] == ["src/ui/**/*.tsx"]


def test_unreadable_frontmatter_and_binary(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "p",
        {
            ".git/": "",
            ".claude/rules/bad.md": "---\npaths: [x\n---\nB",
            "src/CLAUDE.md": b"\0\0",
            "src/a.ts": "",
        },
    )
    verdicts = by_file(explain(capsys, str(root / "src/a.ts"), "--no-git"))
    assert verdicts[".claude/rules/bad.md"]["kind"] == "frontmatter"
    assert "not valid YAML" in verdicts[".claude/rules/bad.md"]["why"]
    assert verdicts["src/CLAUDE.md"]["kind"] == "unreadable" and "binary" in verdicts["src/CLAUDE.md"]["why"]


def test_outside_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = write_tree(tmp_path / "p", {".git/": "", "src/CLAUDE.md": "x"})
    other = write_tree(tmp_path / "q", {"a.ts": ""})
    doc = explain(capsys, str(other / "a.ts"), "--root", str(root), "--no-git")
    assert doc["inside"] is False
    assert by_file(doc)["src/CLAUDE.md"]["loads"] is False
    assert any("outside the project" in note for note in doc["notes"])


def test_codex_says_what_codex_itself_loads(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    doc = explain(
        capsys, str(example_copy / "src/api/users.ts"), "--agent", "codex", "--no-git", "--without-hook"
    )
    verdicts = by_file(doc)
    assert verdicts["AGENTS.md"]["kind"] == "startup"
    assert verdicts["src/api/AGENTS.md"]["kind"] == "touch"
    assert "CLAUDE.md" not in verdicts  # not a Codex file
    assert any("only through jitctx hooks" in note for note in doc["notes"])


def test_human_report_as_a_subprocess(example_copy: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "jitctx", "explain", str(example_copy / "src/ui/README.md")],
        capture_output=True, text=True, check=False,
        env={"JITCTX_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "reaches the agent:" in proc.stdout
    assert "src/ui/**/*.tsx" in proc.stdout and "vs" in proc.stdout


def test_relative_path_is_taken_from_the_root(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    doc = explain(capsys, "src/ui/Footer.tsx", "--root", str(example_copy))
    assert doc["inside"] is True and doc["path"] == "src/ui/Footer.tsx"


def test_no_root_above_the_path_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["explain", str(tmp_path / "nowhere/a.py")]) == 2
    assert "no project root above" in capsys.readouterr().err


@pytest.mark.parametrize(("agent", "whole"), [("claude-code", True), ("codex", False)])
def test_the_budget_line_says_whose_limit_it_is(
    capsys: pytest.CaptureFixture[str], example_copy: Path, agent: str, whole: bool
) -> None:
    """Claude Code loads its files whole: the 64 KiB figure is jitctx's model, and explain says so; Codex
    cuts at its own limit, which needs no such line."""
    assert main(["explain", str(example_copy / "src/ui/Footer.tsx"), "--agent", agent]) == 0
    out = capsys.readouterr().out
    assert ("loads its files whole; this is jitctx's model" in out) is whole
