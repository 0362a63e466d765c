"""Links in a rules folder: a rule file or folder that resolves outside the project is never a rule."""

from __future__ import annotations

from pathlib import Path

from jitctx.project import Project
from tests.conftest import write_tree

RULE = '---\npaths: ["**/*.py"]\n---\n{}\n'


def rule_names(root: Path) -> list[str]:
    return sorted(Path(c.path).name for c in Project(root, managed_files=()).rule_candidates())


def test_linked_rule_files_count_only_when_they_resolve_inside(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"secret.md": RULE.format("SECRET"), "d/x.md": "X"})
    root = write_tree(tmp_path / "proj", {".claude/rules/own.md": RULE.format("OWN"), "docs/r.md": "R"})
    rules = root / ".claude" / "rules"
    (rules / "out.md").symlink_to(outside / "secret.md")
    (rules / "in.md").symlink_to(root / "docs" / "r.md")
    (rules / "sub").symlink_to(outside / "d")  # a linked folder is never entered
    assert rule_names(root) == ["in.md", "own.md"]


def test_a_rules_folder_linked_out_of_the_project_gives_no_rules(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"secret.md": RULE.format("SECRET")})
    root = write_tree(tmp_path / "proj", {"CLAUDE.md": "root"})
    (root / ".claude").mkdir()
    (root / ".claude" / "rules").symlink_to(outside)
    assert rule_names(root) == []


def test_a_rules_folder_linked_within_the_project_keeps_its_rules(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "proj", {"shared/rules/a.md": RULE.format("A")})
    (root / ".claude").mkdir()
    (root / ".claude" / "rules").symlink_to(root / "shared" / "rules")
    assert rule_names(root) == ["a.md"]
