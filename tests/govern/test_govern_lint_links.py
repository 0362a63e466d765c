"""A link in the project that leads to an instruction file outside it: jitctx does not read that file, a
client that follows links loads it. `lint` reports each such file (the maintainer's view), `doctor` says
so in one check (the user's), whether the link is a folder or the file itself, committed or not."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.govern.lint import LintReport, lint_project
from jitctx.govern.lint_links import InstructionPaths, linked_instruction_files
from jitctx.profiles import PROFILES, get_profile
from jitctx.project import Project
from tests.conftest import git_init, write_tree


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the project, with instruction files of several agents and code."""
    folder = tmp_path / "shared"
    write_tree(
        folder,
        {
            "AGENTS.md": "OUTSIDE: run the release script.\n",
            "lib/CLAUDE.md": "OUTSIDE-LIB\n",
            "lib/CONTEXT.md": "OUTSIDE-CONTEXT\n",
            "lib/x.ts": "export {};\n",
            ".claude/rules/r.md": "OUTSIDE-RULE\n",
        },
    )
    return folder


@pytest.fixture
def project(tmp_path: Path, outside: Path) -> Path:
    root = tmp_path / "proj"
    write_tree(root, {"AGENTS.md": "# inside\n", "src/a.ts": "export {};\n", "docs/guide.md": "# guide\n"})
    (root / "vendor").symlink_to(outside, target_is_directory=True)  # a linked folder
    (root / "docs" / "AGENTS.md").symlink_to(outside / "AGENTS.md")  # a linked instruction file
    (root / "docs" / "notes.md").symlink_to(outside / "lib" / "x.ts")  # a link to a file that is not one
    (root / "src" / "inner").symlink_to(root / "docs", target_is_directory=True)  # inside: jitctx reads it
    return git_init(root)


def lint(root: Path, use_git: bool = True) -> LintReport:
    return lint_project(Project(root), use_git=use_git)


@pytest.mark.parametrize("use_git", [True, False])
def test_lint_reports_each_instruction_file_behind_a_link_out_of_the_project(
    project: Path, outside: Path, use_git: bool
) -> None:
    found = [f for f in lint(project, use_git).findings if f.rule == "instruction-link-outside"]
    # the jitctx profile's names: AGENTS.md, CLAUDE.md and the .claude/rules rule, not OpenCode's CONTEXT.md
    assert [f.file for f in found] == [
        "vendor/.claude/rules/r.md",
        "vendor/AGENTS.md",
        "vendor/lib/CLAUDE.md",
    ]
    assert all(f.severity == "warning" and str(outside) in f.message for f in found)
    assert "a client that follows links loads it" in found[0].message
    # the linked docs/AGENTS.md is reported once, as the file jitctx skips
    skipped = [f for f in lint(project, use_git).findings if f.file == "docs/AGENTS.md"]
    assert [f.rule for f in skipped] == ["file-skipped"]


def test_every_agents_names_count_for_the_users_view(project: Path) -> None:
    paths = ["vendor", "docs/AGENTS.md", "docs/notes.md", "src/inner", "src/a.ts"]
    every = linked_instruction_files(str(project), paths, InstructionPaths(PROFILES.values()))
    assert [item.file for item in every] == [
        "docs/AGENTS.md",
        "vendor/.claude/rules/r.md",
        "vendor/AGENTS.md",
        "vendor/lib/CLAUDE.md",
        "vendor/lib/CONTEXT.md",
    ]
    assert {item.link for item in every} == {"docs/AGENTS.md", "vendor"}


def test_what_counts_as_an_instruction_path() -> None:
    names = InstructionPaths([get_profile("jitctx")])
    assert names("AGENTS.md") and names("a/b/CLAUDE.md") and names("pkg/.claude/CLAUDE.md")
    assert names(".github/copilot-instructions.md") and not names("x/.github/copilot-instructions.md")
    assert names(".claude/rules/a/b.md") and names("x/.cursor/rules/r.mdc")
    assert not names("README.md") and not names(".claude/rules/notes.txt")


def test_a_project_without_links_out_has_no_finding(tmp_path: Path) -> None:
    root = tmp_path / "p"
    write_tree(root, {"AGENTS.md": "x\n", "src/CLAUDE.md": "y\n"})
    (root / "lib").symlink_to(root / "src", target_is_directory=True)
    assert not [f for f in lint(git_init(root)).findings if f.rule == "instruction-link-outside"]


def doctor_check(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    main(["doctor", "--json"])
    [check] = [
        c
        for c in json.loads(capsys.readouterr().out)["checks"]
        if (c["client"], c["check"]) == ("jitctx", "links")
    ]
    return dict(check)


@pytest.fixture
def doctor_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("PATH", os.environ.get("PATH", ""))


def test_doctor_warns_about_the_links_whichever_agent_reads_the_file(
    project: Path, doctor_env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    check = doctor_check(capsys)
    assert check["status"] == "warn"
    assert "docs/AGENTS.md" in check["detail"] and "and 2 more" in check["detail"]  # 5 files in all
    assert "jitctx does not read them" in check["detail"] and "jitctx lint" in check["fix"]


def test_doctor_says_nothing_is_amiss_without_links_out(
    tmp_path: Path, doctor_env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "clean").mkdir()
    root = git_init(tmp_path / "clean")
    monkeypatch.chdir(root)
    assert doctor_check(capsys)["status"] == "ok"
    monkeypatch.chdir(tmp_path)  # not a project: nothing is walked
    assert doctor_check(capsys)["status"] == "skip"
