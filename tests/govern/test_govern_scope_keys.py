"""Scope keys an agent ignores, and fixes that keep every glob.

A `.claude/rules` file scoped only with Cursor's `globs:` (spectrum-web-components' stories-format.md) is
loaded by Claude Code at every start: lint says so and offers `paths:` with the same globs. Every fix
that writes a scope line writes all of the file's globs, in the form its format reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jitctx.frontmatter import scope_of, split_frontmatter
from jitctx.govern.findings import Finding
from jitctx.govern.lint import lint_project
from jitctx.project import Project
from jitctx.scope_fix import COPILOT, CURSOR, expand_braces, raw_globs, scope_line
from tests.conftest import Tree

STORIES = (
    "---\n"
    "description: Enforces consistent file structure for stories files.\n"
    "globs: 2nd-gen/packages/swc/components/*/stories/**, 2nd-gen/packages/swc/patterns/*/*/stories/**, "
    "2nd-gen/packages/core/controllers/*/stories/**\n"
    "alwaysApply: false\n"
    "---\n"
    "# Storybook stories format\n"
)
STORY_GLOBS = [
    "2nd-gen/packages/swc/components/*/stories/**",
    "2nd-gen/packages/swc/patterns/*/*/stories/**",
    "2nd-gen/packages/core/controllers/*/stories/**",
]


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def findings(root: Path, rule: str, agent: str | None = None) -> list[Finding]:
    report = lint_project(Project(root, profile=agent), use_git=False)
    return [f for f in report.findings if f.rule == rule]


def globs_of(fix_line: str) -> list[str]:
    """Read a suggested `key: ...` line back as YAML frontmatter, the way Claude Code would."""
    front = split_frontmatter(f"---\n{fix_line}\n---\nbody\n")
    assert front.error is None and not front.recovered, fix_line
    key = fix_line.split(":", 1)[0]
    return list(scope_of(front.data or {}, (key,)).patterns)


def test_claude_code_ignores_cursor_globs_in_its_rules(tree: Tree) -> None:
    root = tree(
        {".claude/rules/stories-format.md": STORIES, "2nd-gen/packages/swc/components/a/stories/x.ts": ""}
    )
    [found] = findings(root, "scope-key-ignored", "claude-code")
    assert (found.file, found.line) == (".claude/rules/stories-format.md", 3)
    assert "'globs:' is not a scope key for claude-code (reads paths:)" in found.message
    assert "every session start" in found.message
    line = found.fix.removeprefix("write ").removesuffix(" in place of 'globs:'")
    assert globs_of(line) == STORY_GLOBS  # all three globs, not one


def test_a_rule_with_the_agent_s_own_key_is_not_flagged(tree: Tree) -> None:
    root = tree({".claude/rules/ts.md": '---\npaths: ["src/**"]\nglobs: src/**\n---\n# TS\n', "src/a.ts": ""})
    assert findings(root, "scope-key-ignored", "claude-code") == []


def test_the_default_profile_names_the_agents_that_ignore_the_key(tree: Tree) -> None:
    root = tree({".claude/rules/stories-format.md": STORIES})
    [found] = findings(root, "scope-key-ignored")
    assert "claude-code (reads paths:)" in found.message


@pytest.mark.parametrize(
    "front",
    [
        "paths: **/*.ts, **/*.mdx, docs/**",
        "paths: [**/*.ts, **/*.mdx, docs/**]",
        "paths:\n  - **/*.ts\n  - **/*.mdx\n  - docs/**",
        "description: x\npaths: **/*.ts,**/*.mdx, docs/**\nalwaysApply: false",
    ],
)
def test_the_unquoted_glob_fix_keeps_every_glob(tree: Tree, front: str) -> None:
    root = tree({".claude/rules/ts.md": f"---\n{front}\n---\n# TS\n", "a.ts": "", "b.mdx": "", "docs/c": ""})
    [found] = findings(root, "unquoted-glob", "claude-code")
    assert globs_of(found.fix.removeprefix("quote it: ")) == ["**/*.ts", "**/*.mdx", "docs/**"]


def test_an_unreadable_scope_gets_a_fix_with_its_own_globs(tree: Tree) -> None:
    root = tree({".claude/rules/ts.md": "---\npaths: **/*.ts,\n  **/*.mdx,\n  docs/**\n---\n# TS\n"})
    [found] = findings(root, "frontmatter-unreadable", "claude-code")
    line = found.fix.split("quote every glob: ", 1)[1]
    assert globs_of(line) == ["**/*.ts", "**/*.mdx", "docs/**"]


def test_a_cursor_list_fix_keeps_every_glob_and_splits_braces(tree: Tree) -> None:
    root = tree({".cursor/rules/ts.mdc": '---\nglobs: ["src/**/*.{ts,tsx}", "lib/**"]\n---\n# TS\n'})
    [found] = findings(root, "cursor-globs-list", "cursor")
    assert found.fix == "write it unquoted: globs: src/**/*.ts, src/**/*.tsx, lib/**"


@pytest.mark.parametrize(
    ("style", "expected"),
    [
        ("yaml", 'paths: ["**/*.{ts,tsx}", "docs/**"]'),
        (COPILOT, 'paths: "**/*.ts,**/*.tsx,docs/**"'),
        (CURSOR, "paths: **/*.ts, **/*.tsx, docs/**"),
    ],
)
def test_one_form_per_format(style: str, expected: str) -> None:
    assert scope_line("paths", ["**/*.{ts,tsx}", "docs/**"], style) == expected


def test_brace_sets_expand_nested_and_keep_plain_patterns() -> None:
    assert expand_braces("a/{b,c/{d,e}}.md") == ["a/b.md", "a/c/d.md", "a/c/e.md"]
    assert expand_braces("src/**") == ["src/**"]
    assert expand_braces("{only}") == ["{only}"]


def test_raw_globs_read_the_key_s_own_lines_only() -> None:
    lines = ["---", "description: x, y", "paths: 'a/**', \"b/**\"", "  - c/**", "other: z", "---"]
    assert raw_globs(lines, 6, "paths") == ["a/**", "b/**", "c/**"]


def test_the_real_cli_reports_the_ignored_key(tree: Tree) -> None:
    root = tree({".claude/rules/stories-format.md": STORIES})
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "jitctx",
            "lint",
            "--root",
            str(root),
            "--agent",
            "claude-code",
            "--json",
            "--no-git",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr  # a warning: lint fails on it only with --strict
    rules = [f["rule"] for f in json.loads(proc.stdout)["findings"]]
    assert rules == ["scope-key-ignored"]
