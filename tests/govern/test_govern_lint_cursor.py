"""`lint` on Cursor rules: files outside `.cursor/rules/`, and `globs:` written as YAML lists."""

from __future__ import annotations

import pytest

from jitctx.govern.lint import lint_project
from jitctx.govern.lint_cursor import misplaced_rule_findings
from jitctx.project import Project
from tests.conftest import Tree

RULE = "---\nalwaysApply: true\n---\n# rule\n"


def findings(root: object, agent: str | None = None) -> list[tuple[str, int, str]]:
    report = lint_project(Project(str(root), profile=agent), use_git=False)
    return [(f.file, f.line, f.rule) for f in report.findings]


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("docs/.cursor/rules.mdc", [("docs/.cursor/rules.mdc", 1, "rule-misplaced")]),
        (".cursor/rules.mdc", [(".cursor/rules.mdc", 1, "rule-misplaced")]),
        (".cursor/style.mdc", [(".cursor/style.mdc", 1, "rule-misplaced")]),
        ("pkg/.cursor/notes/a.mdc", [("pkg/.cursor/notes/a.mdc", 1, "rule-misplaced")]),
        (".cursor/rules/ok.mdc", []),
        ("docs/.cursor/rules/ok.mdc", []),
        (".cursor/rules/deep/ok.mdc", []),
        ("src/template.mdc", []),  # not under .cursor: not a rule file at all
        (".cursor/rules/plain.md", [(".cursor/rules/plain.md", 1, "rule-ignored")]),
    ],
)
def test_misplaced_rule_files(tree: Tree, path: str, expected: list[tuple[str, int, str]]) -> None:
    assert findings(tree({path: RULE})) == expected


def test_a_rules_file_instead_of_a_folder_says_so() -> None:
    (found,) = misplaced_rule_findings(["docs/.cursor/rules.mdc"])
    assert "is a file" in found.message and found.fix == "move it to docs/.cursor/rules/<name>.mdc"


def test_only_profiles_that_read_cursor_rules_flag_them(tree: Tree) -> None:
    root = tree({"docs/.cursor/rules.mdc": RULE, "AGENTS.md": "# rules\n"})
    assert findings(root, "cursor") == [("docs/.cursor/rules.mdc", 1, "rule-misplaced")]
    assert findings(root, "codex") == []


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ('globs: ["src/**"]\n', [(".cursor/rules/a.mdc", 2, "cursor-globs-list")]),
        ("globs: ['src/**', 'lib/**']\n", [(".cursor/rules/a.mdc", 2, "cursor-globs-list")]),
        ("description: x\nglobs:\n  - src/**\n", [(".cursor/rules/a.mdc", 3, "cursor-globs-list")]),
        ("globs: src/**/*.ts, lib/**\n", []),  # Cursor's own format
        ("globs: **/*.ts\n", []),  # invalid YAML, yet what Cursor wants: no unquoted-glob advice here
    ],
)
def test_cursor_globs_written_as_yaml_lists(
    tree: Tree, front: str, expected: list[tuple[str, int, str]]
) -> None:
    root = tree({".cursor/rules/a.mdc": f"---\n{front}---\n# rule\n", "src/a.ts": "", "lib/b.ts": ""})
    assert findings(root) == expected


def test_the_fix_spells_the_cursor_form(tree: Tree) -> None:
    root = tree({".cursor/rules/a.mdc": '---\nglobs: ["src/**", "lib/**"]\n---\n# r\n', "src/a": ""})
    report = lint_project(Project(str(root)), use_git=False)
    fixes = [f.fix for f in report.findings if f.rule == "cursor-globs-list"]
    assert fixes == ["write it unquoted: globs: src/**, lib/**"]


def test_claude_rules_still_get_the_unquoted_glob_advice(tree: Tree) -> None:
    root = tree({".claude/rules/a.md": "---\npaths: **/*.ts\n---\n# r\n", "src/a.ts": ""})
    assert findings(root) == [(".claude/rules/a.md", 2, "unquoted-glob")]
