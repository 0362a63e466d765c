"""A YAML list under Cursor's `globs` is one literal pattern to Cursor: every command says so alike (the
rule never reaches Cursor; lint says what to write instead, and nothing else)."""

from __future__ import annotations

from pathlib import Path

from jitctx.discovery.explain import explain
from jitctx.govern.lint import lint_project
from jitctx.govern.rules_table import rules_table
from jitctx.profiles import get_profile
from jitctx.project import Project
from tests.conftest import write_tree

FILES = {
    ".git/HEAD": "x\n",
    ".cursor/rules/listed.mdc": '---\nglobs: ["src/**/*.{ts,tsx}"]\n---\nList rule.\n',
    ".cursor/rules/text.mdc": "---\nglobs: src/**/*.ts\n---\nText rule.\n",
    "src/app.tsx": "",
    "src/a.ts": "",
}


def test_cursor_never_reads_a_listed_glob_and_every_command_agrees(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "r", FILES)
    project = Project(str(root), profile="cursor")
    verdicts = {v.path: v for v in explain(project, "src/a.ts", use_git=False).verdicts}
    assert not verdicts[".cursor/rules/listed.mdc"].loads and verdicts[".cursor/rules/text.mdc"].loads
    table = rules_table(str(root), [get_profile("cursor")], ["src/app.tsx", "src/a.ts"])
    when = {row.path: row.readings[0].when for row in table.rows}
    assert when == {".cursor/rules/listed.mdc": "never", ".cursor/rules/text.mdc": "touch"}
    rules = [(f.file, f.rule) for f in lint_project(project, use_git=False).findings]
    assert rules == [(".cursor/rules/listed.mdc", "cursor-globs-list")]
    # jitctx's own profile parses the YAML: its hook sends the rule to agents that are not Cursor.
    assert explain(Project(str(root)), "src/app.tsx", use_git=False).blocks
