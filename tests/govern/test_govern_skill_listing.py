"""One answer to "does the agent list this skill?": `lint`, `explain` and `budget` give the same, agent by
agent (issue #29, item 6).

A `description:` holding a bare `: ` is not valid YAML. Each client reads SKILL.md its own way: Claude
Code 2.1.332, Gemini CLI 0.61.0, OpenCode 1.18.33 and Qwen Code 0.24.4 read such lines by a recovery of
their own and list the skill; Codex 0.171.0 and Copilot CLI 1.0.102 parse YAML strictly and skip it
(Copilot's `skill list` says "failed to parse YAML frontmatter"); jitctx's own profile reads it as the
Agent Skills spec does. The rows below are those verdicts; the three commands must each give them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.govern.skills import lists, read_skill, recover_frontmatter
from jitctx.profiles import FORMAT_PROFILES, PROFILES
from tests.conftest import Tree

BARE = "---\nname: asks\ndescription: Use this when: the user asks\n---\n# Steps\n"

# (agent, a skills folder it reads, does it list the skill)
ROWS = [
    (None, ".claude/skills", False),  # jitctx: the spec, YAML
    ("claude-code", ".claude/skills", True),
    ("gemini-cli", ".gemini/skills", True),
    ("opencode", ".opencode/skills", True),
    ("opencode", ".opencode/skill", True),
    ("qwen-code", ".qwen/skills", True),
    ("codex", ".agents/skills", False),
    ("copilot-cli", ".github/skills", False),
]


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))


def good(name: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name} things. Use when {name}.\n---\n# Steps\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(list(argv))
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return code, document


@pytest.mark.parametrize(("agent", "folder", "listed"), ROWS)
def test_lint_explain_and_budget_give_one_answer(
    capsys: pytest.CaptureFixture[str], tree: Tree, agent: str | None, folder: str, listed: bool
) -> None:
    bare = f"{folder}/asks/SKILL.md"
    files = {f"{folder}/{name}/SKILL.md": good(name) for name in ("alpha", "beta", "gamma")}
    root = tree({**files, bare: BARE, "AGENTS.md": "# r\n", "GEMINI.md": "# r\n", "QWEN.md": "# r\n"})
    common = ["--root", str(root), "--no-git", "--json", *(["--agent", agent] if agent else [])]

    _, budget = run(capsys, "budget", *common)
    assert (budget["skills"]["count"], budget["skills"]["listed"]) == (4, 3 + listed)

    code, lint = run(capsys, "lint", *common)
    rules = {(f["rule"], f["severity"]) for f in lint["findings"] if f["path"] == bare}
    assert rules == ({("skill-yaml", "warning")} if listed else {("skill-frontmatter", "error")})
    assert code == (0 if listed else 1)

    _, explain = run(capsys, "explain", str(root / bare), *common)
    skill = explain["skill"]
    assert skill["yaml_error"] is not None and skill["error"] is None
    if agent is None:
        assert skill["listed"] is listed
    else:  # each live client that reads the folder, with its own answer
        assert skill["listed_by"][agent] is listed


def test_explain_says_who_lists_it_and_who_skips_it(capsys: pytest.CaptureFixture[str], tree: Tree) -> None:
    root = tree({".agents/skills/asks/SKILL.md": BARE})
    assert main(["explain", str(root / ".agents/skills/asks/SKILL.md"), "--root", str(root), "--no-git"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Codex and GitHub Copilot CLI skip it" in out
    assert "Gemini CLI, OpenCode and Qwen Code list it by a recovery of their own" in out


def test_every_live_client_says_how_it_reads_a_frontmatter_that_is_not_yaml() -> None:
    live = {name: PROFILES[name].skill_frontmatter for name in PROFILES if name not in FORMAT_PROFILES}
    assert live == {
        "claude-code": "recover",
        "codex": "yaml",
        "copilot-cli": "yaml",
        "gemini-cli": "recover",
        "opencode": "recover",
        "qwen-code": "recover",
    }


@pytest.mark.parametrize(
    ("block", "expected", "quoted"),
    [
        (
            "name: a\ndescription: Use this when: the user asks",
            {"description": "Use this when: the user asks"},
            ("description",),
        ),
        ("name: a\ndescription: Fix #12 fast", {"description": "Fix #12 fast"}, ("description",)),
        ('name: a\ndescription: "ok: quoted"', {"description": "ok: quoted"}, ()),
        ("name: a\ndescription: x\nallowed-tools: [Read, Grep]", {"allowed-tools": ["Read", "Grep"]}, ()),
        ('name: a\ndescription: say "hi": now', {"description": 'say "hi": now'}, ("description",)),
    ],
)
def test_the_recovery_reads_what_a_recovering_client_reads(
    block: str, expected: dict[str, Any], quoted: tuple[str, ...]
) -> None:
    data, keys = recover_frontmatter(block)
    assert data is not None and expected.items() <= data.items()
    assert keys == quoted


def test_what_no_recovery_reads_is_listed_by_nobody(tree: Tree) -> None:
    root = tree({".claude/skills/x/SKILL.md": "---\nname: x\n  description: [unclosed\n---\n"})
    skill = read_skill(str(root), ".claude/skills/x/SKILL.md", "claude-code")
    assert skill is not None and skill.error is not None and skill.yaml_error is None
    assert skill.listed is False and dict(skill.listed_by) == {
        "claude-code": False,
        "copilot-cli": False,
        "opencode": False,
    }
    assert not any(lists(PROFILES[name], skill) for name in PROFILES)
