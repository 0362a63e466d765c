"""Agent Skills (SKILL.md): found in every agent's skills folder, the spec's fields linted, the listing
budgeted against Claude Code's 1,536 characters per skill, and covered by explain, budget and provenance."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from jitctx.cli.main import main
from jitctx.govern.lint import lint_project
from jitctx.govern.skills import LISTING_MAX, find_skills, skill_folder
from jitctx.project import Project
from tests.conftest import Tree

SKILL = ".claude/skills/pdf-tools/SKILL.md"
GOOD = "---\nname: pdf-tools\ndescription: Fill PDF forms. Use when the user mentions PDFs.\n---\n# Steps\n"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))


def skill_text(front: str) -> str:
    return f"---\n{front}---\n# Steps\n"


def skill_rows(root: Path, agent: str | None = None) -> list[tuple[str, int, str]]:
    report = lint_project(Project(str(root), profile=agent), use_git=False)
    return [(f.file, f.line, f.rule) for f in report.findings if f.rule.startswith("skill-")]


@pytest.mark.parametrize(
    ("path", "folder"),
    [
        (".claude/skills/pdf-tools/SKILL.md", ".claude/skills"),
        (".agents/skills/deploy/SKILL.md", ".agents/skills"),
        (".gemini/skills/review/SKILL.md", ".gemini/skills"),
        ("packages/web/.claude/skills/ui/SKILL.md", "packages/web/.claude/skills"),  # nested in the tree
        (".claude/skills/group/ui/SKILL.md", ".claude/skills"),  # grouped in a subfolder
        (".claude/skills/SKILL.md", None),  # a skill is a folder of its own
        ("docs/SKILL.md", None),
        (".claude/skill/x/SKILL.md", None),
        (".claude/skills/x/README.md", None),
    ],
)
def test_where_skills_live(path: str, folder: str | None) -> None:
    assert skill_folder(path) == folder


LONG = "x" * 1025
NAME_65 = "a" * 65


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ("name: pdf-tools\ndescription: Fill PDF forms.\n", []),
        ("name: pdf-tools\ndescription: Fill forms.\nlicense: MIT\nallowed-tools: Read\n", []),
        ("name: pdf-tools\ndescription: d\ndisable-model-invocation: true\nargument-hint: '[file]'\n", []),
        ("description: Fill PDF forms.\n", [(SKILL, 1, "skill-name-missing")]),
        ("name: PDF_Tools\ndescription: d\n", [(SKILL, 2, "skill-name")]),
        ("name: pdf--tools\ndescription: d\n", [(SKILL, 2, "skill-name")]),
        ("name: -pdf-tools\ndescription: d\n", [(SKILL, 2, "skill-name")]),
        (f"name: {NAME_65}\ndescription: d\n", [(SKILL, 2, "skill-name")]),
        ("name: pdf\ndescription: d\n", [(SKILL, 2, "skill-name")]),  # not the folder's name
        ("name: pdf-tools\n", [(SKILL, 1, "skill-description")]),
        ("name: pdf-tools\ndescription: ''\n", [(SKILL, 1, "skill-description")]),
        (f"name: pdf-tools\ndescription: {LONG}\n", [(SKILL, 3, "skill-description")]),
        (f"name: pdf-tools\ndescription: {'x' * 1024}\n", []),  # at the limit
        ("name: pdf-tools\ndescription: d\ntags: [pdf]\n", [(SKILL, 4, "skill-unknown-field")]),
        # Not YAML; read by the clients that recover (they quote the value): the line to quote.
        ("name: pdf-tools\ndescription: [unclosed\n", [(SKILL, 3, "skill-frontmatter")]),
    ],
)
def test_spec_fields(tree: Tree, front: str, expected: list[tuple[str, int, str]]) -> None:
    assert skill_rows(tree({SKILL: skill_text(front)})) == expected


def test_no_frontmatter(tree: Tree) -> None:
    assert skill_rows(tree({SKILL: "# just text\n"})) == [(SKILL, 1, "skill-frontmatter")]


@pytest.mark.parametrize(
    ("extra", "listed", "cut"),
    [
        ("when_to_use: " + "w" * 600 + "\n", True, True),  # 11 + 1,000 + 3 + 600 > 1,536
        ("when_to_use: " + "w" * 520 + "\n", True, False),  # 11 + 1,000 + 3 + 520 = 1,534
        ("when_to_use: " + "w" * 600 + "\ndisable-model-invocation: true\n", False, False),
    ],
)
def test_listing_budget(tree: Tree, extra: str, listed: bool, cut: bool) -> None:
    front = "name: pdf-tools\ndescription: " + "d" * 1000 + "\n" + extra
    root = tree({SKILL: skill_text(front)})
    (skill,) = find_skills(str(root), [SKILL])
    assert skill.listed is listed
    assert (skill.listing_cut > 0) is (skill.listing_chars > LISTING_MAX)
    rules = [rule for _, _, rule in skill_rows(root)]
    assert ("skill-listing-cut" in rules) is cut


def test_each_agent_reads_its_own_folders(tree: Tree) -> None:
    bad = skill_text("description: d\n")
    root = tree(
        {
            ".claude/skills/a/SKILL.md": bad,
            ".agents/skills/b/SKILL.md": bad,
            ".gemini/skills/c/SKILL.md": bad,
            "AGENTS.md": "# r\n",
            "GEMINI.md": "# r\n",
        }
    )

    def folders(agent: str | None) -> set[str]:
        return {path.split("/")[0] for path, _, _ in skill_rows(root, agent)}

    assert folders(None) == {".claude", ".agents", ".gemini"}
    assert folders("claude-code") == {".claude"}
    assert folders("codex") == {".agents"}
    assert folders("gemini") == {".gemini", ".agents"}


def test_budget_reports_the_listing_and_fails_on_a_cut(
    capsys: pytest.CaptureFixture[str], tree: Tree
) -> None:
    root = tree({SKILL: GOOD, "AGENTS.md": "# r\n"})
    assert main(["budget", "--root", str(root), "--json"]) == 0
    skills = json.loads(capsys.readouterr().out)["skills"]
    assert (skills["count"], skills["listed"], skills["cut"]) == (1, 1, [])
    assert skills["listing_chars"] == len("pdf-tools: Fill PDF forms. Use when the user mentions PDFs.")
    long = skill_text("name: pdf-tools\ndescription: " + "d" * 1000 + "\nwhen_to_use: " + "w" * 600 + "\n")
    (root / SKILL).write_text(long, encoding="utf-8")
    assert main(["budget", "--root", str(root)]) == 1
    out = capsys.readouterr().out
    assert "1 cut" in out and f"{SKILL}: 1,614 characters, 78 cut" in out


def test_explain_a_skill(capsys: pytest.CaptureFixture[str], tree: Tree) -> None:
    root = tree({SKILL: GOOD})
    assert main(["explain", str(root / SKILL), "--root", str(root), "--no-git"]) == 0
    out = capsys.readouterr().out
    assert f"{SKILL} is an Agent Skill ('pdf-tools')" in out and "fits" in out
    assert main(["explain", str(root / SKILL), "--root", str(root), "--no-git", "--json"]) == 0
    skill = json.loads(capsys.readouterr().out)["skill"]
    assert (skill["name"], skill["listing_cut"], skill["listed"]) == ("pdf-tools", 0, True)


def test_explain_an_ordinary_file_has_no_skill_section(
    capsys: pytest.CaptureFixture[str], tree: Tree
) -> None:
    root = tree({"CLAUDE.md": "# r\n", "docs/SKILL.md": GOOD})
    assert main(["explain", str(root / "docs/SKILL.md"), "--root", str(root), "--no-git", "--json"]) == 0
    assert "skill" not in json.loads(capsys.readouterr().out)


def test_lint_and_provenance_count_skills_alike(capsys: pytest.CaptureFixture[str], tree: Tree) -> None:
    root = tree({SKILL: GOOD, "CLAUDE.md": "# r\n"})
    assert main(["lint", "--root", str(root), "--json", "--no-git"]) == 0
    checked = json.loads(capsys.readouterr().out)["files_checked"]
    assert main(["provenance", "--root", str(root), "--json"]) == 0
    locked = [f["path"] for f in json.loads(capsys.readouterr().out)["files"]]
    assert checked == len(locked) == 2 and SKILL in locked
    assert main(["lint", "--root", str(root), "--no-git"]) == 0
    assert "2 files (1 instruction file, 1 skill) checked" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("budget", ["budget", "--no-git"]),
        ("explain", ["explain", SKILL, "--no-git"]),
    ],
)
def test_skill_documents_match_the_shipped_schemas(
    capsys: pytest.CaptureFixture[str], tree: Tree, name: str, args: list[str]
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    long = skill_text("name: pdf-tools\ndescription: " + "d" * 1600 + "\n")
    root = tree({SKILL: long, "CLAUDE.md": "# r\n"})
    main([*args, "--root", str(root), "--json"])
    document = json.loads(capsys.readouterr().out)
    assert "skill" in document or document["skills"]["cut"]
    text = resources.files("jitctx").joinpath("schemas", f"{name}.json").read_text(encoding="utf-8")
    jsonschema.validate(document, json.loads(text))
