"""A rule's globs mean what the agent of its *format* means, whichever profile reads the file (DESIGN
§2.9): the rules folder a file is found in decides its dialect, never the receiving profile."""

from __future__ import annotations

from pathlib import Path

import pytest

from jitctx.discovery.explain import explain
from jitctx.model import InstructionFile
from jitctx.project import Project
from jitctx.scope import scope_matches
from tests.conftest import Tree

SCHEMA = "internal-packages/database/prisma/schema.prisma"


def files_of(root: Path, profile: str) -> dict[str, InstructionFile]:
    files, _ = Project(root, profile, managed_files=()).all_instruction_files()
    return {file.display: file for file in files}


def matches(file: InstructionFile, path: str) -> bool:
    assert file.scope is not None, file.display
    return scope_matches(file.scope.regex, path)


def test_explain_for_the_default_agent_matches_a_claude_rule_as_claude_code_does(tree: Tree) -> None:
    """Claude Code's `*.prisma` matches at any depth (gitignore rules); so does the default profile's."""
    root = tree({SCHEMA: "", ".claude/rules/db.md": '---\npaths: "*.prisma"\n---\n# Prisma\n'})
    verdicts = {
        v.path: v
        for v in explain(Project(root, managed_files=()), str(root / SCHEMA), use_git=False).verdicts
    }
    assert (verdicts[".claude/rules/db.md"].loads, verdicts[".claude/rules/db.md"].kind) == (True, "touch")


@pytest.mark.parametrize("profile", ["jitctx", "copilot", "copilot-cli"])
def test_a_copilot_glob_without_a_slash_matches_at_any_depth_for_every_receiver(
    tree: Tree, profile: str
) -> None:
    """Copilot CLI 1.0.102 matches `applyTo: "*.ts"` against the file name: `src/a.ts` too."""
    rule = ".github/instructions/ts.instructions.md"
    root = tree({rule: '---\napplyTo: "*.ts"\n---\n# TS\n', "src/a.ts": ""})
    file = files_of(root, profile)[rule]
    assert file.scope is not None and file.scope.dialect == "copilot"
    assert matches(file, "src/a.ts") and not matches(file, "src/a.py")


CASE_RULES = {
    ".claude/rules/ts.md": '---\npaths: "src/*.TS"\n---\n# TS (Claude)\n',
    ".cursor/rules/ts.mdc": "---\nglobs: src/*.TS\n---\n# TS (Cursor)\n",
    ".github/instructions/ts.instructions.md": '---\napplyTo: "src/*.TS"\n---\n# TS (Copilot)\n',
    "lib/CLAUDE.md": '---\npaths: "src/*.TS"\n---\n# TS (jitctx)\n',
    "src/a.ts": "",
}


@pytest.mark.parametrize("profile", ["jitctx", "claude-code", "copilot-cli"])
def test_only_the_claude_rules_format_ignores_case(tree: Tree, profile: str) -> None:
    """Claude Code matches `paths:` in any case (the `ignore` package's default); Copilot and jitctx's own
    `paths:` do not, and neither does Cursor's format as jitctx reads it."""
    files = files_of(tree(CASE_RULES), profile)
    found = {path: matches(file, "src/a.ts") for path, file in files.items() if file.scope is not None}
    assert found.pop(".claude/rules/ts.md") is True
    assert not any(found.values()), found


def test_a_nested_claude_md_scope_stays_jitctxs_own_dialect(tree: Tree) -> None:
    """`paths:` in a nested CLAUDE.md is jitctx's own feature: the seed's Bun.Glob semantics, where `*`
    stays in one folder, even beside a `.claude/rules` rule with the same glob."""
    root = tree(
        {
            SCHEMA: "",
            "internal-packages/CLAUDE.md": '---\npaths: "*.prisma"\n---\n# Packages\n',
            ".claude/rules/db.md": '---\npaths: "*.prisma"\n---\n# Prisma\n',
        }
    )
    files = files_of(root, "jitctx")
    nested, rule = files["internal-packages/CLAUDE.md"], files[".claude/rules/db.md"]
    assert nested.scope is not None and rule.scope is not None
    assert (nested.scope.dialect, rule.scope.dialect) == ("bun", "gitignore")
    assert not matches(nested, SCHEMA) and matches(nested, "schema.prisma")
    assert matches(rule, SCHEMA)


@pytest.mark.parametrize(("profile", "at_start"), [("claude-code", True), ("jitctx", False)])
def test_claude_code_reads_a_paths_of_only_globstar_as_no_scope(
    tree: Tree, profile: str, at_start: bool
) -> None:
    """Claude Code 2.1.332 loads a `.claude/rules` file whose `paths:` is only `**` at start; jitctx's own
    profile keeps it a scope that matches every touched path."""
    root = tree({".claude/rules/all.md": '---\npaths: "**"\n---\n# Everywhere\n', "src/a.ts": ""})
    file = files_of(root, profile)[".claude/rules/all.md"]
    assert (file.scope is None) is at_start
    if not at_start:
        assert matches(file, "src/a.ts")
