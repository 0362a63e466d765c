"""A skills folder reached through a symbolic link inside the project (Chainlit's
`.claude/skills -> ../.shared/skills`) is read as the agent reads it: budget counts its skills, lint
checks them and provenance locks them. A link that leads outside the project is not followed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.govern.inventory import take_inventory
from jitctx.govern.lint import lint_project
from jitctx.govern.repo_files import list_repo_files
from jitctx.govern.skills import find_skills
from jitctx.project import Project
from tests.conftest import Tree, git_init

GOOD = "---\nname: deploy\ndescription: Deploy the app when the user asks to ship a release.\n---\nSteps.\n"
NAMELESS = "---\ndescription: Review a pull request when the user asks for a review.\n---\nSteps.\n"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def linked_project(tree: Tree) -> Path:
    root = tree(
        {
            "CLAUDE.md": "# Project\n",
            ".shared/skills/deploy/SKILL.md": GOOD,
            ".shared/skills/review/SKILL.md": NAMELESS,
        }
    )
    (root / ".claude").mkdir()
    os.symlink("../.shared/skills", root / ".claude" / "skills")
    return root


def budget_skills(capsys: pytest.CaptureFixture[str], root: Path, *extra: str) -> dict[str, Any]:
    assert main(["budget", "--root", str(root), "--agent", "claude-code", "--json", *extra]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)["skills"]
    return document


@pytest.mark.parametrize("use_git", [True, False])
def test_budget_counts_the_skills_behind_a_linked_folder(
    tree: Tree, capsys: pytest.CaptureFixture[str], use_git: bool
) -> None:
    root = linked_project(tree)
    if use_git:
        git_init(root)  # git stores `.claude/skills` as one link, not the files behind it
    skills = budget_skills(capsys, root, *(() if use_git else ("--no-git",)))
    assert (skills["count"], skills["listed"]) == (2, 2)


def test_skills_are_named_by_the_linked_path_the_agent_reads(tree: Tree) -> None:
    root = linked_project(tree)
    paths = list_repo_files(str(root), use_git=False).paths
    found = find_skills(str(root), paths, "claude-code")
    assert [s.path for s in found] == [".claude/skills/deploy/SKILL.md", ".claude/skills/review/SKILL.md"]


def test_lint_checks_and_provenance_locks_a_linked_skill(tree: Tree) -> None:
    root = git_init(linked_project(tree))
    project = Project(root, profile="claude-code")
    report = lint_project(project)
    assert [(f.file, f.rule) for f in report.findings] == [
        (".claude/skills/review/SKILL.md", "skill-name-missing")
    ]
    locked = [f.display for f in take_inventory(project).sources]
    assert ".claude/skills/deploy/SKILL.md" in locked
    assert ".claude/skills/review/SKILL.md" in locked


def test_a_linked_skill_folder_itself_is_followed(tree: Tree) -> None:
    root = tree({"CLAUDE.md": "# Project\n", "shared/deploy/SKILL.md": GOOD})
    (root / ".claude" / "skills").mkdir(parents=True)
    os.symlink("../../shared/deploy", root / ".claude" / "skills" / "deploy")
    found = find_skills(str(root), list_repo_files(str(root), use_git=False).paths, "claude-code")
    assert [s.name for s in found] == ["deploy"]


def test_a_link_that_leads_outside_the_project_is_not_followed(tree: Tree, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "skills" / "deploy"
    outside.mkdir(parents=True)
    (outside / "SKILL.md").write_text(GOOD, encoding="utf-8")
    root = tree({"CLAUDE.md": "# Project\n"})
    (root / ".claude").mkdir()
    os.symlink(outside.parent, root / ".claude" / "skills")
    assert find_skills(str(root), list_repo_files(str(root), use_git=False).paths, "claude-code") == ()
