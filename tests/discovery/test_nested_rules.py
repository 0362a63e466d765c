"""Rules folders in subdirectories (`pkg/.claude/rules`, `pkg/.cursor/rules`), as Claude Code and Cursor
read them: a nested rule belongs to the directory holding its folder, and its scope is relative to it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from jitctx.cli.main import main
from jitctx.discovery.explain import explain
from jitctx.discovery.session import Session
from jitctx.project import Project
from tests.conftest import write_tree

TREE = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "CLAUDE.md": "# Root\n",
    "src/a.tsx": "",
    "pkg/.claude/rules/always.md": "# Pkg always\n",
    "pkg/.claude/rules/ui/tsx.md": '---\npaths: ["src/**/*.tsx"]\n---\n# Pkg TSX rule\n',
    "pkg/.cursor/rules/ts.mdc": '---\nglobs: "*.ts, src/**/*.ts"\n---\n# Pkg TS rule (Cursor)\n',
    "pkg/.cursor/rules/plain.md": "# not a Cursor rule: Cursor reads .mdc only\n",
    "pkg/src/b.tsx": "",
    "pkg/src/c.ts": "",
    "pkg/README.md": "",
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "repo", TREE)


def started(root: Path, profile: str = "jitctx", cwd: Path | None = None) -> Session:
    session = Session(Project(root, profile, managed_files=()), cwd=cwd or root, use_git=False)
    session.startup()
    return session


def loaded(session: Session, path: str) -> list[str]:
    return [load.file.display for load in session.discover(path).loaded]


def test_a_nested_rule_matches_relative_to_its_directory(root: Path) -> None:
    session = Session(Project(root, managed_files=()), cwd=root, use_git=False)
    assert [load.file.display for load in session.startup().loaded] == ["CLAUDE.md"]
    assert loaded(session, "src/a.tsx") == []  # `src/**/*.tsx` of pkg/ does not reach the root's src/
    assert loaded(session, "pkg/src/b.tsx") == ["pkg/.claude/rules/always.md", "pkg/.claude/rules/ui/tsx.md"]
    assert loaded(session, "pkg/src/c.ts") == ["pkg/.cursor/rules/ts.mdc"]  # a comma-separated globs string
    assert loaded(session, "pkg/src/c.ts") == []  # once


def test_a_non_matching_nested_rule_is_looked_at_again(root: Path) -> None:
    """Dedup: touching pkg/README.md must not mark pkg/ scanned while its scoped rules did not match."""
    session = started(root)
    assert loaded(session, "pkg/README.md") == ["pkg/.claude/rules/always.md"]
    assert loaded(session, "pkg/src/b.tsx") == ["pkg/.claude/rules/ui/tsx.md"]


def test_started_in_the_subdirectory_its_unconditional_rules_load(root: Path) -> None:
    session = Session(Project(root, managed_files=()), cwd=root / "pkg", use_git=False)
    shown = [load.file.display for load in session.startup().loaded]
    assert "pkg/.claude/rules/always.md" in shown
    assert "pkg/.claude/rules/ui/tsx.md" not in shown


def test_claude_code_profile_reads_only_its_own_nested_folder(root: Path) -> None:
    session = started(root, "claude-code")
    assert loaded(session, "pkg/src/c.ts") == ["pkg/.claude/rules/always.md"]


def test_a_plain_md_in_cursor_rules_is_never_loaded(root: Path) -> None:
    session = started(root)
    for path in ("pkg/src/b.tsx", "pkg/src/c.ts", "pkg/README.md"):
        assert "pkg/.cursor/rules/plain.md" not in loaded(session, path)


def test_a_new_nested_rule_is_picked_up_mid_session(root: Path) -> None:
    session = started(root)
    loaded(session, "pkg/src/b.tsx")
    write_tree(root, {"pkg/.claude/rules/new.md": "# New pkg rule\n"})
    os.utime(root / "pkg/.claude/rules", ns=(1, 1))  # a listing change the watch list cannot miss
    session._watched.clear()
    assert loaded(session, "pkg/src/b.tsx") == ["pkg/.claude/rules/new.md"]


def test_explain_compares_a_nested_scope_with_the_path_relative_to_its_directory(root: Path) -> None:
    result = explain(Project(root, managed_files=()), "pkg/src/c.ts", use_git=False)
    verdict = next(v for v in result.verdicts if v.path == "pkg/.claude/rules/ui/tsx.md")
    assert verdict.kind == "scope_mismatch"
    assert verdict.against == "src/c.ts"


def test_claude_code_subfolder_of_a_git_repo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The live-session report: started in a subfolder (no marker of its own) of a git checkout, Claude
    Code reads the subfolder's `.claude/rules` with paths relative to it; jitctx must too."""
    repo = write_tree(
        tmp_path / "checkout",
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "examples/mono/.claude/rules/components.md": '---\npaths: ["src/ui/**/*.tsx"]\n---\n# C\n',
            "examples/mono/.claude/rules/python.md": '---\npaths: ["**/*.py"]\n---\n# P\n',
            "examples/mono/src/ui/Footer.tsx": "",
            "examples/mono/tools/gen.py": "",
        },
    )
    monkeypatch.chdir(repo / "examples/mono")
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    assert main(["touch", "--agent", "claude-code", "--json", "src/ui/Footer.tsx", "tools/gen.py"]) == 0
    report = json.loads(capsys.readouterr().out)
    shown = json.dumps(report)
    assert "examples/mono/.claude/rules/components.md" in shown
    assert "examples/mono/.claude/rules/python.md" in shown


@pytest.mark.parametrize(("agent", "loads"), [("claude-code", True), ("jitctx", False)])
def test_a_scope_in_a_nested_claude_md_binds_only_jitctx(tmp_path: Path, agent: str, loads: bool) -> None:
    """A nested CLAUDE.md whose frontmatter scope does not match the touched file: Claude Code loads it
    anyway (it honours `paths:` only in `.claude/rules/`; the real client, tests/e2e), while jitctx's own
    profile keeps the scope. Broken frontmatter does not keep Claude Code from loading the file either."""
    root = write_tree(
        tmp_path / "repo",
        {
            ".git/HEAD": "x\n",
            "src/ui/CLAUDE.md": '---\npaths: ["nomatch/**"]\n---\n# UI\n',
            "src/api/CLAUDE.md": "---\npaths: [unclosed\n---\n# API\n",
            "src/ui/Footer.tsx": "",
            "src/api/users.ts": "",
        },
    )
    session = Session(Project(str(root), profile=agent), cwd=str(root), use_git=False)
    found = [
        load.file.display
        for touched in ("src/ui/Footer.tsx", "src/api/users.ts")
        for load in session.discover(str(root / touched)).loaded
    ]
    assert found == (["src/ui/CLAUDE.md", "src/api/CLAUDE.md"] if loads else [])


def test_claude_code_reads_agents_md_only_with_no_claude_md_on_the_cwd_chain(tmp_path: Path) -> None:
    """Claude Code reads AGENTS.md (root and nested) only when no directory from the root down to its
    cwd holds a CLAUDE.md; one CLAUDE.md on that chain keeps every AGENTS.md out."""
    tree = {
        ".git/HEAD": "x\n",
        "AGENTS.md": "# a\n",
        "api/AGENTS.md": "# api\n",
        "api/x.ts": "",
        "ui/CLAUDE.md": "# ui\n",
        "ui/AGENTS.md": "# ui agents\n",
        "ui/x.ts": "",
    }
    without = write_tree(tmp_path / "without", tree)
    session = Session(Project(without, "claude-code", managed_files=()), cwd=without, use_git=False)
    assert [load.file.display for load in session.startup().loaded] == ["AGENTS.md"]
    assert loaded(session, "api/x.ts") == ["api/AGENTS.md"]
    assert loaded(session, "ui/x.ts") == ["ui/CLAUDE.md", "ui/AGENTS.md"]

    with_claude = write_tree(tmp_path / "with", {**tree, "CLAUDE.md": "# c\n"})
    session = Session(Project(with_claude, "claude-code", managed_files=()), cwd=with_claude, use_git=False)
    assert [load.file.display for load in session.startup().loaded] == ["CLAUDE.md"]
    assert loaded(session, "api/x.ts") == []
    assert loaded(session, "ui/x.ts") == ["ui/CLAUDE.md"]


def test_a_claude_md_above_the_project_root_is_deliberately_not_read(tmp_path: Path) -> None:
    """Claude Code itself reads CLAUDE.md in every directory from the filesystem root down. jitctx reads
    nothing outside the project (its boundary), so `startup --agent claude-code` leaves such a file out:
    deliberately. The hook loses nothing by it, since Claude Code loads those files itself."""
    outer = write_tree(tmp_path / "outer", {"CLAUDE.md": "# outer\n", "proj/.git/HEAD": "x\n"})
    write_tree(outer / "proj", {"CLAUDE.md": "# proj\n", "sub/x.py": ""})
    root = str(outer / "proj")
    session = Session(Project(root, profile="claude-code"), cwd=str(outer / "proj/sub"), use_git=False)
    assert [load.file.display for load in session.startup().loaded] == ["CLAUDE.md"]
