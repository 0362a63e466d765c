"""`budget --agent X` reports agent X's own limits and says whose each one is: Codex cuts at its
`project_doc_max_bytes`; Claude Code cuts none of CLAUDE.md or `.claude/rules` and only warns past
40,000 characters a file (120,000 in all), so jitctx's 64 KiB model is never its cut; what jitctx's
hook sends is capped at 10,000 characters an answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients.claude_code import profile as claude_profile
from jitctx.govern.lint import lint_project
from jitctx.hook.context import CONTEXT_LIMIT
from jitctx.project import Project
from tests.conftest import Tree

LINE = "- Always run the linter before you push any change to the components.\n"  # 70 bytes


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def budget(capsys: pytest.CaptureFixture[str], root: Path, agent: str, code: int) -> dict[str, Any]:
    assert main(["budget", "--root", str(root), "--agent", agent, "--json", "--no-git"]) == code
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def spectrum_like(tree: Tree, claude_lines: int = 450) -> Path:
    """A CLAUDE.md and unconditional rules that together pass 64 KiB (about 115 KB)."""
    files = {"CLAUDE.md": "# Components\n" + LINE * claude_lines}
    files.update({f".claude/rules/r{i}.md": f"# Rule {i}\n" + LINE * 400 for i in range(3)})
    return tree(files)


def test_claude_code_cuts_nothing_past_jitctx_s_64_kib(
    tree: Tree, capsys: pytest.CaptureFixture[str]
) -> None:
    report = budget(capsys, spectrum_like(tree), "claude-code", 0)
    worst = report["worst"]
    assert worst["need_bytes"] > 64 * 1024
    assert (worst["over"], worst["cut"], worst["warnings"]) == (False, [], [])
    assert (worst["limit_owner"], worst["limit_cuts"]) == ("jitctx", False)
    assert report["ok"] is True


def test_claude_code_text_says_whose_limit_and_invents_no_cut(
    tree: Tree, capsys: pytest.CaptureFixture[str]
) -> None:
    root = spectrum_like(tree)
    assert main(["budget", "--root", str(root), "--agent", "claude-code", "--no-git"]) == 0
    text = capsys.readouterr().out
    assert "OVER" not in text and "dropped" not in text
    assert "claude-code cuts none of them" in text
    assert "claude-code: Large CLAUDE.md warning, 40,000 characters per file (warns" in text


def test_a_claude_md_over_40k_characters_is_a_warning_not_a_cut(
    tree: Tree, capsys: pytest.CaptureFixture[str]
) -> None:
    report = budget(capsys, spectrum_like(tree, claude_lines=650), "claude-code", 0)
    warnings = report["worst"]["warnings"]
    assert [(w["file"], w["limit"]["owner"], w["limit"]["value"], w["limit"]["cuts"]) for w in warnings] == [
        ("CLAUDE.md", "claude-code", 40_000, False)
    ]
    assert warnings[0]["size"] == len("# Components\n" + LINE * 650)
    assert report["worst"]["cut"] == [] and report["ok"] is True


def test_the_total_warning_counts_files_not_already_over_alone(
    tree: Tree, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {f".claude/rules/r{i}.md": LINE * 500 for i in range(4)}  # 4 x 35,000 characters
    report = budget(capsys, tree(files), "claude-code", 0)
    totals = [w for w in report["worst"]["warnings"] if w["file"] is None]
    assert [(w["size"], w["limit"]["value"]) for w in totals] == [(140_000, 120_000)]


def test_codex_cut_is_codex_s_own_project_doc_max_bytes(
    tree: Tree, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tree({"AGENTS.md": LINE * 500})  # 35,000 bytes
    report = budget(capsys, root, "codex", 1)
    worst = report["worst"]
    assert (worst["limit"], worst["limit_owner"], worst["limit_name"], worst["limit_cuts"]) == (
        32 * 1024, "codex", "project_doc_max_bytes", True,
    )  # fmt: skip
    assert [(c["path"], c["status"]) for c in worst["cut"]] == [("AGENTS.md", "truncated")]


def test_a_configured_max_bytes_is_the_project_s_own_budget_under_any_agent(
    tree: Tree, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tree({".jitctx.toml": "max_bytes = 1000\n", "CLAUDE.md": LINE * 30})
    report = budget(capsys, root, "claude-code", 1)
    assert (report["worst"]["limit_owner"], report["worst"]["limit_cuts"]) == ("jitctx", True)
    assert report["worst"]["over"] is True


def test_files_over_the_hook_cap_are_listed_with_the_cap_s_owner(
    tree: Tree, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tree({"CLAUDE.md": "# Root\n", "pkg/CLAUDE.md": LINE * 150, "lib/CLAUDE.md": LINE * 100})
    hook = budget(capsys, root, "claude-code", 0)["hook"]
    assert (hook["limit"]["owner"], hook["limit"]["value"]) == ("claude-code", 10_000)
    assert [(w["file"], w["size"]) for w in hook["too_large"]] == [("pkg/CLAUDE.md", 10_500)]


def test_the_profile_s_hook_cap_is_the_hook_s_own() -> None:
    assert claude_profile.HOOK_CONTEXT_CHARS == CONTEXT_LIMIT


def test_lint_under_claude_code_warns_past_40k_and_never_calls_64_kib_over(tree: Tree) -> None:
    root = tree({"CLAUDE.md": LINE * 1000})  # 70,000 bytes and characters
    report = lint_project(Project(root, profile="claude-code"), use_git=False)
    assert [(f.file, f.rule, f.severity.value) for f in report.findings] == [
        ("CLAUDE.md", "size-warning", "warning")
    ]
    assert "claude-code's 40,000" in report.findings[0].message
    codex = lint_project(Project(tree({"AGENTS.md": LINE * 1000}), profile="codex"), use_git=False)
    over = [f for f in codex.findings if f.rule == "over-limit"]
    assert len(over) == 1 and "codex's project_doc_max_bytes" in over[0].message


def test_the_owned_limits_fit_the_budget_schema(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from importlib import resources

    schema = json.loads(resources.files("jitctx").joinpath("schemas", "budget.json").read_text("utf-8"))
    root = tree({"CLAUDE.md": LINE * 650, "pkg/CLAUDE.md": LINE * 150})
    document = budget(capsys, root, "claude-code", 0)
    jsonschema.validate(document, schema)
    assert document["limits"][0]["owner"] == "jitctx" and document["hook"]["too_large"]
