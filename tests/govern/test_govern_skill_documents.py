"""A vendored skill's reference document named like an instruction file (`web/.agents/skills/x/AGENTS.md`,
81 KB) is the skill's, read with it: lint applies no instruction-file limit to it and says so in a note,
while a real nested `web/AGENTS.md` stays an instruction file (issue #29, item 9)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.govern.inventory import take_inventory
from jitctx.project import Project
from tests.conftest import Tree

DOC = "web/.agents/skills/x/AGENTS.md"
BIG = "# Reference\n" + "lorem ipsum dolor sit amet " * 3000  # 81 KB: over every startup limit
SKILL = "---\nname: x\ndescription: Does x. Use when x.\n---\nSee AGENTS.md for the reference.\n"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))


@pytest.fixture
def vendored(tree: Tree) -> Path:
    return tree(
        {
            "web/.agents/skills/x/SKILL.md": SKILL,
            DOC: BIG,
            "web/AGENTS.md": "# Web\nUse pnpm.\n",
            "CLAUDE.md": "# Root\n",
        }
    )


def lint(capsys: pytest.CaptureFixture[str], root: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    code = main(["lint", "--root", str(root), "--no-git", "--json", *extra])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return code, document


@pytest.mark.parametrize("agent", [None, "codex", "opencode"])
def test_lint_applies_no_instruction_limit_to_a_skill_document(
    capsys: pytest.CaptureFixture[str], vendored: Path, agent: str | None
) -> None:
    code, document = lint(capsys, vendored, *(["--agent", agent] if agent else []))
    about = [(f["rule"], f["severity"]) for f in document["findings"] if f["path"] == DOC]
    assert all(severity == "note" for _, severity in about), about
    assert code == 0


def test_the_note_names_the_skill_and_the_clients_that_load_it_themselves(
    capsys: pytest.CaptureFixture[str], vendored: Path
) -> None:
    _, document = lint(capsys, vendored)
    (note,) = [f for f in document["findings"] if f["path"] == DOC]
    assert (note["rule"], note["severity"]) == ("skill-document", "note")
    assert "document of the skill 'x' (web/.agents/skills)" in note["message"]
    # Copilot CLI 1.0.102 and OpenCode 1.18.33 load an AGENTS.md there after a read in that folder;
    # Claude Code only a CLAUDE.md, Codex and Qwen Code nothing nested.
    assert "GitHub Copilot CLI and OpenCode load it by themselves" in note["message"]


def test_a_real_nested_instruction_file_is_still_one(vendored: Path) -> None:
    inventory = take_inventory(Project(vendored, managed_files=()), ["web/AGENTS.md", DOC, "CLAUDE.md"])
    assert [f.display for f in inventory.files] == ["CLAUDE.md", "web/AGENTS.md"]
    assert [d.path for d in inventory.skill_documents] == [DOC]
    # still among what provenance locks: its bytes reach an agent when the skill is used
    assert DOC in [f.display for f in inventory.sources]
