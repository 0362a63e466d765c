"""Duplicate findings only for texts that load together for some agent, compared after imports expand.

GrowthBook's shape: a root `CLAUDE.md` and `packages/back-end/CLAUDE.md` that both say `@AGENTS.md` pull
in different files, so they are not the same text; and `packages/back-end/AGENTS.md` and
`packages/front-end/AGENTS.md` never load together, so lines they share are no duplicate (moving them
to a common folder would load them in every session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jitctx.govern.duplicates import Text, duplicate_findings, load_together
from jitctx.govern.findings import Finding
from jitctx.govern.lint import lint_project
from jitctx.project import Project
from tests.conftest import Tree

SHARED = "- Write tests with jest and keep them next to the source file they cover.\n"
OTHER = "- Every API route validates its input with zod before it touches the database.\n"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def duplicates(root: Path, agent: str | None = None) -> list[Finding]:
    report = lint_project(Project(root, profile=agent), use_git=False)
    return [f for f in report.findings if f.rule.startswith("duplicate-")]


def growthbook(
    tree: Tree, root_agents: str = "# GrowthBook\n- Run yarn lint before every push to main.\n"
) -> Path:
    return tree(
        {
            "CLAUDE.md": "@AGENTS.md\n",
            "AGENTS.md": root_agents,
            "packages/back-end/CLAUDE.md": "@AGENTS.md\n",
            "packages/back-end/AGENTS.md": "# Back-end\n" + OTHER + SHARED,
            "packages/front-end/AGENTS.md": "# Front-end\n" + SHARED,
        }
    )


@pytest.mark.parametrize("agent", [None, "claude-code", "codex"])
def test_growthbook_shape_has_no_duplicates(tree: Tree, agent: str | None) -> None:
    assert duplicates(growthbook(tree), agent) == []


def test_identical_files_on_one_chain_are_duplicates_and_the_deeper_one_goes(tree: Tree) -> None:
    root = tree({"CLAUDE.md": "# Rules\n" + OTHER, "pkg/CLAUDE.md": "# Rules\n" + OTHER})
    found = duplicates(root, "claude-code")
    assert [(f.file, f.rule) for f in found] == [
        ("CLAUDE.md", "duplicate-rule"),
        ("pkg/CLAUDE.md", "duplicate-rule"),
    ]
    child = next(f for f in found if f.file == "pkg/CLAUDE.md")
    assert child.fix.startswith("delete this file: CLAUDE.md has the same text")
    assert "import" not in child.fix


def test_lines_shared_with_a_parent_folder_are_duplicates_with_a_fix_that_keeps_the_parent(
    tree: Tree,
) -> None:
    root = growthbook(tree, root_agents="# GrowthBook\n" + SHARED)
    found = {(f.file, f.rule): f for f in duplicates(root, "codex")}
    assert sorted(found) == [
        ("AGENTS.md", "duplicate-text"),
        ("packages/back-end/AGENTS.md", "duplicate-text"),
        ("packages/front-end/AGENTS.md", "duplicate-text"),
    ]
    assert found[("packages/front-end/AGENTS.md", "duplicate-text")].fix.startswith(
        "delete the lines here: AGENTS.md"
    )
    assert "common folder" not in " ".join(f.fix for f in found.values())


def test_imported_files_are_compared_where_they_are_written(tree: Tree) -> None:
    # Claude Code reads the AGENTS.md files only through the CLAUDE.md imports.
    root = growthbook(tree, root_agents="# GrowthBook\n" + SHARED)
    found = sorted((f.file, f.line) for f in duplicates(root, "claude-code"))
    assert found == [("AGENTS.md", 2), ("packages/back-end/AGENTS.md", 3)]


def test_same_folder_files_read_by_one_agent_keep_the_import_advice() -> None:
    texts = [Text("CLAUDE.md", OTHER, homes=("",), readers=frozenset({"a"})),
             Text(".claude/CLAUDE.md", OTHER, homes=("",), readers=frozenset({"a"}))]  # fmt: skip
    found = duplicate_findings(texts)
    assert [f.file for f in found] == ["CLAUDE.md", ".claude/CLAUDE.md"]
    assert found[0].fix.endswith("(@.claude/CLAUDE.md)")


@pytest.mark.parametrize(
    ("a", "b", "together"),
    [
        (("",), ("pkg",), True),
        (("pkg",), ("pkg/sub",), True),
        (("pkg/a",), ("pkg/b",), False),
        (("pkg",), ("pkgx",), False),
    ],
)
def test_load_together_needs_one_directory_chain(
    a: tuple[str, ...], b: tuple[str, ...], together: bool
) -> None:
    assert load_together(Text("x", "", homes=a), Text("y", "", homes=b)) is together


def test_load_together_needs_one_agent() -> None:
    codex, claude = frozenset({"codex"}), frozenset({"claude-code"})
    assert not load_together(
        Text("x", "", homes=("",), readers=codex), Text("y", "", homes=("",), readers=claude)
    )
