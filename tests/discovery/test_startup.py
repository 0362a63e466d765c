"""Startup loading: tiers in order, signals from the cwd and git, the seed's four-row table."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jitctx.discovery import signals as signals_module
from jitctx.discovery.session import Session
from jitctx.model import Startup
from jitctx.project import Project
from tests.conftest import git, git_init, write_tree

UI_RULE = '---\npaths: ["src/ui/**"]\n---\nUI_RULE: no colour emoji\n'


def start(root: Path, cwd: str = ".", **kwargs: object) -> Startup:
    project = Project(root, managed_files=())
    return Session(project, cwd=root / cwd, **kwargs).startup()  # type: ignore[arg-type]


def loaded(result: Startup) -> list[str]:
    return [load.file.display for load in result.loaded]


@pytest.fixture(params=[".claude/rules/ui.md", "src/ui/CLAUDE.md"])
def seed_repo(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    """The seed's fixture: one rule scoped to src/ui/**, as a rules-folder file or a nested CLAUDE.md."""
    rule: str = request.param
    root = write_tree(
        tmp_path / "proj",
        {
            "CLAUDE.md": "root rules\n",
            rule: UI_RULE,
            "src/ui/Badge.tsx": "export const Badge = 1;\n",
            "docs/guide.md": "guide\n",
            "website/index.md": "site\n",
        },
    )
    return git_init(root), rule


def test_seed_row_1_root_clean_has_no_signals(seed_repo: tuple[Path, str]) -> None:
    root, rule = seed_repo
    result = start(root)
    assert result.signals == ()
    assert rule not in loaded(result)
    assert loaded(result) == ["CLAUDE.md"]


def test_seed_rows_2_to_4_with_an_uncommitted_badge(seed_repo: tuple[Path, str]) -> None:
    root, rule = seed_repo
    (root / "src/ui/Badge.tsx").write_text("export const Badge = 2;\n")

    row2 = start(root)
    assert row2.signals == ("src/ui/Badge.tsx",)
    assert rule in loaded(row2)

    row3 = start(root, "src/ui")
    assert row3.signals == ("src/ui/", "src/ui/Badge.tsx")
    assert rule in loaded(row3)

    row4 = start(root, "docs")
    assert row4.signals == ("docs/",)
    assert rule not in loaded(row4)


def test_cwd_marker_alone_loads_a_directory_scope(seed_repo: tuple[Path, str]) -> None:
    root, rule = seed_repo
    result = start(root, "src/ui")
    assert result.signals == ("src/ui/",)
    assert rule in loaded(result)
    load = next(x for x in result.loaded if x.file.display == rule)
    assert load.trigger == "src/ui/"
    assert load.globs == ("src/ui/**",)


def test_a_change_under_ui_does_not_reach_website(seed_repo: tuple[Path, str]) -> None:
    root, rule = seed_repo
    (root / "src/ui/Badge.tsx").write_text("changed\n")
    result = start(root, "website")
    assert result.signals == ("website/",)
    assert rule not in loaded(result)
    if rule.startswith(".claude/rules/"):  # a nested CLAUDE.md off the cwd chain is never even seen
        skipped = {s.path: s.why for s in result.skipped}
        assert "src/ui/**" in skipped[rule]


def test_new_untracked_file_appears_as_itself(tmp_path: Path) -> None:
    root = git_init(
        write_tree(
            tmp_path / "proj", {".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\nPY\n', "a.txt": ""}
        )
    )
    write_tree(root, {"tools/gen/x.py": "print(1)\n"})
    result = start(root)
    assert result.signals == ("tools/gen/x.py",)  # -uall: not collapsed to "tools/"
    assert ".claude/rules/py.md" in loaded(result)


def test_the_cwd_marker_alone_cannot_satisfy_an_extension_scope(tmp_path: Path) -> None:
    root = git_init(
        write_tree(
            tmp_path / "proj", {".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\nPY\n', "tools/a.py": ""}
        )
    )
    assert ".claude/rules/py.md" not in loaded(start(root, "tools"))


def test_changed_file_walks_its_directory_chain(tmp_path: Path) -> None:
    """A changed file is an early touch: an unconditional nested file on its chain loads at start."""
    root = git_init(
        write_tree(tmp_path / "proj", {"CLAUDE.md": "root", "src/api/AGENTS.md": "API", "src/api/a.ts": "1"})
    )
    assert loaded(start(root)) == ["CLAUDE.md"]
    (root / "src/api/a.ts").write_text("2")
    assert loaded(start(root)) == ["CLAUDE.md", "src/api/AGENTS.md"]


def test_deleted_files_are_not_signals(seed_repo: tuple[Path, str]) -> None:
    root, rule = seed_repo
    (root / "src/ui/Badge.tsx").unlink()
    result = start(root)
    assert result.signals == ()
    assert rule not in loaded(result)


def test_renamed_file_signals_its_new_name(tmp_path: Path) -> None:
    root = git_init(write_tree(tmp_path / "proj", {"src/old.ts": "x" * 100}))
    git(root, "mv", "src/old.ts", "src/new.ts")
    assert start(root).signals == ("src/new.ts",)


def test_git_missing_means_cwd_markers_only(
    seed_repo: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, rule = seed_repo
    (root / "src/ui/Badge.tsx").write_text("changed\n")
    monkeypatch.setattr(signals_module, "GIT_STATUS", ("jitctx-no-such-git-binary", "status"))
    result = start(root)
    assert result.signals == ()
    assert rule not in loaded(result)
    assert any("git is not installed" in w for w in result.warnings)
    assert start(root, "src/ui").signals == ("src/ui/",)


def test_git_failure_is_a_warning_not_match_everything(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "proj", {".git": "gitdir: /nonexistent/place\n", ".claude/rules/ui.md": UI_RULE}
    )
    result = start(root)
    assert result.signals == ()
    assert loaded(result) == []
    assert any("git status failed" in w for w in result.warnings)


def test_without_git_repository_no_git_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = write_tree(tmp_path / "proj", {"CLAUDE.md": "x", "src/ui/a.ts": ""})
    called: list[object] = []
    monkeypatch.setattr(signals_module, "git_changed", lambda *a: called.append(a) or ([], None))
    result = start(root, "src/ui")
    assert result.signals == ("src/ui/",)
    assert called == []


def test_tiers_load_in_priority_order(tmp_path: Path) -> None:
    home = write_tree(tmp_path / "home", {".claude/CLAUDE.md": "user", ".claude/rules/style.md": "user rule"})
    managed = write_tree(tmp_path / "etc", {"CLAUDE.md": "managed"})
    root = write_tree(
        tmp_path / "proj",
        {
            "CLAUDE.md": "root",
            "AGENTS.md": "agents",
            "src/CLAUDE.md": "src",
            "src/api/.claude/CLAUDE.md": "api",
            "src/other/CLAUDE.md": "not on the cwd chain",
            ".claude/rules/general.md": "general rule",
            "CLAUDE.local.md": "local root",
            "src/api/CLAUDE.local.md": "local api",
        },
    )
    project = Project(root, home=home, managed_files=(str(managed / "CLAUDE.md"),))
    result = Session(project, cwd=root / "src/api", use_git=False).startup()
    assert [(x.file.display, x.file.tier.value) for x in result.loaded] == [
        (str(managed / "CLAUDE.md"), "managed"),
        (str(home / ".claude/CLAUDE.md"), "user"),
        ("CLAUDE.md", "project"),
        ("AGENTS.md", "project"),
        ("src/CLAUDE.md", "project"),
        ("src/api/.claude/CLAUDE.md", "project"),
        (str(home / ".claude/rules/style.md"), "user"),
        (".claude/rules/general.md", "project"),
        ("CLAUDE.local.md", "local"),
        ("src/api/CLAUDE.local.md", "local"),
    ]
    assert all(x.reason.value == "session_start" for x in result.loaded)


def test_user_rule_scopes_are_relative_to_the_cwd(tmp_path: Path) -> None:
    # `lib/*.ts` has an inner slash: anchored where the scope starts, in Claude Code's dialect too.
    home = write_tree(tmp_path / "home", {".claude/rules/t.md": '---\npaths: ["lib/*.ts"]\n---\nTS\n'})
    root = git_init(write_tree(tmp_path / "proj", {"src/lib/a.ts": "1"}))
    (root / "src/lib/a.ts").write_text("2")
    project = Project(root, home=home, managed_files=())
    at_src = Session(project, cwd=root / "src").startup()
    assert str(home / ".claude/rules/t.md") in loaded(at_src)  # lib/a.ts is relative to the cwd src/
    at_root = Session(Project(root, home=home, managed_files=()), cwd=root).startup()
    assert str(home / ".claude/rules/t.md") not in loaded(at_root)  # src/lib/a.ts does not match lib/*.ts


def test_cwd_outside_root_loads_root_files_with_a_warning(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "proj", {"CLAUDE.md": "root"})
    outside = write_tree(tmp_path / "elsewhere", {"CLAUDE.md": "outside"})
    result = Session(Project(root, managed_files=()), cwd=outside, use_git=False).startup()
    assert loaded(result) == ["CLAUDE.md"]
    assert any("outside the project root" in w for w in result.warnings)


def test_same_file_under_two_names_loads_once(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "proj", {"CLAUDE.md": "one file"})
    os.link(root / "CLAUDE.md", root / "claude.md")
    assert loaded(start(root, use_git=False)) == ["CLAUDE.md"]


def test_codex_profile_prefers_override_and_reads_only_agents_files(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "proj",
        {"AGENTS.md": "a", "AGENTS.override.md": "override", "CLAUDE.md": "c", "src/AGENTS.md": "src"},
    )
    project = Project(root, profile="codex", managed_files=())
    result = Session(project, cwd=root / "src", use_git=False).startup()
    assert loaded(result) == ["AGENTS.override.md", "src/AGENTS.md"]


def test_cursor_rules_always_apply_and_manual(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "proj",
        {
            ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nALWAYS\n",
            ".cursor/rules/tsx.mdc": "---\nglobs: src/**/*.tsx\nalwaysApply: false\n---\nTSX\n",
            ".cursor/rules/manual.mdc": "---\ndescription: only when asked\n---\nMANUAL\n",
        },
    )
    result = start(root, use_git=False)
    assert loaded(result) == [".cursor/rules/always.mdc"]
    why = {s.path: s.why for s in result.skipped}
    assert "on request" in why[".cursor/rules/manual.mdc"]
    assert "src/**/*.tsx" in why[".cursor/rules/tsx.mdc"]


def test_an_early_touch_names_the_change_that_brought_it(tmp_path: Path) -> None:
    root = git_init(
        write_tree(tmp_path / "proj", {"CLAUDE.md": "root", "pkg/AGENTS.md": "PKG", "pkg/a.ts": "1"})
    )
    (root / "pkg/a.ts").write_text("2")
    result = start(root)
    nested = next(x for x in result.loaded if x.file.display == "pkg/AGENTS.md")
    assert nested.trigger == "pkg/a.ts"
    assert next(x for x in result.loaded if x.file.display == "CLAUDE.md").trigger is None


def test_a_file_over_the_whole_budget_is_flagged(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "proj", {".jitctx.toml": "max_bytes = 100\n", "CLAUDE.md": "x" * 500})
    result = start(root, use_git=False)
    assert any("over the whole budget" in w for w in result.warnings)
