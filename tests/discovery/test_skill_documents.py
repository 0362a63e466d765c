"""Discovery leaves a skill's folder alone: instruction-named files there (`AGENTS.md`, `CLAUDE.md`,
`CLAUDE.local.md`, a nested `.claude/rules`) are documents of the skill, read with it, for every
client's skills folders; the directories above the skills folder are walked as ever (issue #29, item 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jitctx.discovery.session import Session
from jitctx.project import Project
from tests.conftest import write_tree

DOCS = ("AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", "GEMINI.md", ".claude/rules/r.md")


@pytest.mark.parametrize(
    "skills", [".agents/skills", ".claude/skills", ".github/skills", ".qwen/skills", ".opencode/skill"]
)
@pytest.mark.parametrize("agent", ["jitctx", "codex", "opencode"])
def test_a_touch_in_a_skill_loads_only_what_is_above_its_skills_folder(
    tmp_path: Path, skills: str, agent: str
) -> None:
    skill = f"web/{skills}/x"
    files = {f"{skill}/{doc}": f"SKILL_DOC {doc}\n" for doc in DOCS}
    root = write_tree(
        tmp_path / "proj", {**files, f"{skill}/SKILL.md": "---\nname: x\n---\n", "web/AGENTS.md": "web\n"}
    )
    session = Session(Project(root, agent, managed_files=()), cwd=root, use_git=False)
    step = session.discover(str(root / skill / "SKILL.md"))
    assert [load.file.display for load in step.loaded] == ["web/AGENTS.md"]
    files_found, _ = session.project.all_instruction_files()
    assert [f.display for f in files_found] == ["web/AGENTS.md"]
