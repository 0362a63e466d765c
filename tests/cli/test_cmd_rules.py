"""`jitctx rules`: every instruction file, its format, scope, bytes, twins, dead globs, and when each
agent reads it; on a small repository shaped like the cases (a brace glob, a twin .mdc/.md pair, a
nested AGENTS.md, a dead glob)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from tests.conftest import git_init, write_tree

BODY = "# API handlers\n\nValidate every request body with the shared schema.\n"
FILES = {
    "CLAUDE.md": "# House rules\nUse pnpm.\n",
    "AGENTS.md": "# Agents\nRun the tests before a commit.\n",
    "pkg/AGENTS.md": "# pkg\nThis package is Python.\n",
    ".claude/rules/api.md": f'---\npaths:\n  - "src/{{api,web}}/**/*.ts"\n---\n{BODY}',
    ".cursor/rules/api.mdc": f"---\nglobs: src/{{api,web}}/**/*.ts\nalwaysApply: false\n---\n{BODY}",
    ".claude/rules/legacy.md": '---\npaths: ["old/**/*.py"]\n---\n# Legacy\nDo not touch.\n',
    ".claude/rules/python.md": '---\npaths: ["*.py"]\n---\n# Python\nType everything.\n',
    "src/api/users.ts": "",
    "src/web/app.ts": "",
    "src/other/x.ts": "",
    "pkg/main.py": "",
    "README.md": "",
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = write_tree(tmp_path / "proj", FILES)
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(root)
    return git_init(root)


def rules_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["rules", "--json", *args]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def by_path(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["path"]: row for row in document["rules"]}


def when(row: dict[str, Any], agent: str) -> tuple[str, list[str]]:
    [reading] = [r for r in row["agents"] if r["agent"] == agent]
    return reading["when"], reading["on"]


def test_every_instruction_file_is_a_row_with_its_format(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = by_path(rules_json(capsys))
    assert set(rows) == {name for name in FILES if name.endswith((".md", ".mdc")) and name != "README.md"}
    formats = {path: row["format"] for path, row in rows.items()}
    assert formats["pkg/AGENTS.md"] == "AGENTS.md"
    assert formats[".claude/rules/api.md"] == ".claude/rules"
    assert formats[".cursor/rules/api.mdc"] == ".cursor/rules"
    assert rows["CLAUDE.md"]["scope"] == "always" and rows[".claude/rules/api.md"]["scope"] == "globs"


def test_the_twin_pair_names_each_other(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = by_path(rules_json(capsys))
    assert rows[".claude/rules/api.md"]["twins"] == [".cursor/rules/api.mdc"]
    assert rows[".cursor/rules/api.mdc"]["twins"] == [".claude/rules/api.md"]
    assert rows["AGENTS.md"]["twins"] == [] and rows["pkg/AGENTS.md"]["twins"] == []


def test_bytes_are_the_body_and_file_bytes_the_size_on_disk(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row = by_path(rules_json(capsys))[".cursor/rules/api.mdc"]
    assert row["bytes"] == len(BODY.encode())
    assert row["file_bytes"] == (repo / ".cursor/rules/api.mdc").stat().st_size > row["bytes"]


def test_a_brace_glob_counts_both_branches_and_a_dead_glob_is_flagged(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = by_path(rules_json(capsys))
    [brace] = rows[".claude/rules/api.md"]["globs"]
    assert brace == {"glob": "src/{api,web}/**/*.ts", "matches": 2, "dead": False, "negated": False}
    [cursor] = rows[".cursor/rules/api.mdc"]["globs"]
    assert cursor["matches"] == 2
    assert rows[".claude/rules/legacy.md"]["dead_globs"] == ["old/**/*.py"]
    assert rows[".claude/rules/api.md"]["dead_globs"] == []


def test_each_agent_reads_each_file_at_its_own_moment(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = by_path(rules_json(capsys))
    assert when(rows["CLAUDE.md"], "claude-code") == ("start", [])
    assert when(rows["CLAUDE.md"], "codex")[0] == "never"
    # Codex reads the nested AGENTS.md only when it starts there; jitctx on a touch of the folder;
    # Claude Code not at all (a CLAUDE.md is on its way from the root)
    assert when(rows["pkg/AGENTS.md"], "codex") == ("start", ["pkg/"])
    assert when(rows["pkg/AGENTS.md"], "jitctx") == ("touch", ["pkg/"])
    assert when(rows["pkg/AGENTS.md"], "claude-code")[0] == "never"
    assert when(rows[".cursor/rules/api.mdc"], "cursor") == ("touch", ["src/{api,web}/**/*.ts"])
    assert when(rows[".cursor/rules/api.mdc"], "claude-code")[0] == "never"
    assert when(rows[".claude/rules/api.md"], "claude-code") == ("touch", ["src/{api,web}/**/*.ts"])


def test_a_glob_is_counted_in_its_formats_dialect(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    row = by_path(rules_json(capsys))[".claude/rules/python.md"]
    counts = {r["agent"]: r["globs"][0]["matches"] for r in row["agents"] if r["globs"]}
    # A `.claude/rules` glob means what Claude Code's means, whichever agent reads the file: gitignore
    # rules, `*.py` at any depth (pkg/main.py), for jitctx's own profile too.
    assert counts["claude-code"] == counts["jitctx"] == 1
    assert row["globs"][0]["matches"] == 1 and row["dead_globs"] == []


def test_agent_narrows_the_table_to_one_profile(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = rules_json(capsys, "--agent", "codex")
    assert document["agents"] == ["codex"]
    assert all([r["agent"] for r in row["agents"]] == ["codex"] for row in document["rules"])
    rows = by_path(document)
    assert when(rows["AGENTS.md"], "codex") == ("start", [])


def test_the_json_matches_its_schema(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    text = resources.files("jitctx").joinpath("schemas", "rules.json").read_text(encoding="utf-8")
    validator = jsonschema.Draft202012Validator(json.loads(text))
    for args in ([], ["--agent", "claude-code"]):
        document = rules_json(capsys, *args)
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]
        assert errors == []
        assert document["listed_by"] == "git" and document["files_counted"] == len(FILES)


def test_people_get_an_aligned_table_and_the_dead_globs(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split() == ["path", "format", "scope", "bytes", "twins", "when", "agents"]
    [api] = [line for line in lines if line.startswith(".claude/rules/api.md")]
    assert ".cursor/rules/api.mdc" in api and "src/{api,web}/**/*.ts (2)" in api
    assert lines[0].index("when") == api.index("on touch of")  # aligned under its header
    assert "old/**/*.py (0, dead)" in out
    assert "dead glob: .claude/rules/legacy.md: 'old/**/*.py'" in err
    assert "start in pkg/" in out  # Codex's nested AGENTS.md


def test_bad_input_is_a_message_not_a_traceback(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--root", str(repo / "missing")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and "Traceback" not in err


def test_an_empty_project_has_no_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    document = rules_json(capsys, "--root", str(tmp_path / "empty"))
    assert document["rules"] == [] and document["listed_by"] == "walk"
    assert main(["rules", "--root", str(tmp_path / "empty")]) == 0
    assert "no instruction files found" in capsys.readouterr().out


def test_as_a_real_process(repo: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "rules", "--json", "--agent", "cursor"],
        capture_output=True, text=True, timeout=60, check=False, env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = by_path(json.loads(done.stdout))
    assert when(rows[".cursor/rules/api.mdc"], "cursor")[0] == "touch"


def test_claude_code_reads_agents_md_only_where_no_claude_md_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = git_init(write_tree(tmp_path / "plain", {"AGENTS.md": "# Agents\n", "app/AGENTS.md": "# App\n"}))
    rows = by_path(rules_json(capsys, "--root", str(root), "--agent", "claude-code"))
    [top] = rows["AGENTS.md"]["agents"]
    assert (top["when"], top["note"]) == ("start", "no CLAUDE.md from the root down to its folder")
    assert when(rows["app/AGENTS.md"], "claude-code") == ("touch", ["app/"])


def test_a_file_an_agent_never_reads_says_when_its_hook_sends_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude Code reads no AGENTS.md beside a CLAUDE.md; its jitctx hook sends it at start. A format
    profile without a hook (cursor) keeps a plain never."""
    rows = by_path(rules_json(capsys, "--agent", "claude-code"))
    [reading] = rows["AGENTS.md"]["agents"]
    assert reading["when"] == "never"
    assert reading["hook"] == {"start": "jitctx"}
    [cursor] = by_path(rules_json(capsys, "--agent", "cursor"))["CLAUDE.md"]["agents"]
    assert (cursor["when"], cursor["note"]) == ("never", None)


def test_a_link_to_a_file_the_agent_reads_is_not_said_to_be_sent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`CLAUDE.md -> AGENTS.md`: Codex reads the file as AGENTS.md and its hook sends nothing for the
    link; `rules` says the same as the hook."""
    root = tmp_path / "linked"
    write_tree(root, {"AGENTS.md": "# The one guide\n", "src/a.py": ""})
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    git_init(root)
    [reading] = by_path(rules_json(capsys, "--root", str(root), "--agent", "codex"))["CLAUDE.md"]["agents"]
    assert reading["when"] == "never" and "hook sends nothing" in reading["note"]
    assert reading["hook"] == {"start": "client"}
    start = {"session_id": "cx", "transcript_path": None, "cwd": str(root), "hook_event_name": "SessionStart",
             "source": "startup", "model": "m", "permission_mode": "default"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "codex"], input=json.dumps(start), capture_output=True,
        text=True, timeout=60, check=False, env={**os.environ, "JITCTX_STATE_DIR": str(tmp_path / "state")},
    )  # fmt: skip
    assert json.loads(done.stdout) == {}


IMPORTING = {
    "CLAUDE.md": "@AGENTS.md\n",
    "AGENTS.md": "# Agents\nUse tabs.\n",
    "pkg/CLAUDE.md": "# Pkg\nSee @AGENTS.md\n",
    "pkg/AGENTS.md": "# Pkg agents\nPython only.\n",
    "pkg/a.py": "",
}


def test_a_file_imported_by_one_the_agent_reads_is_read_with_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CLAUDE.md holding `@AGENTS.md`: Claude Code loads AGENTS.md through the import, at start for the
    root's and with pkg/CLAUDE.md for pkg's, so its hook sends neither; `rules` says the same."""
    from jitctx.hook.engine import HookEnv
    from jitctx.hook.pipeline import run_hook

    root = git_init(write_tree(tmp_path / "imports", IMPORTING))
    rows = by_path(rules_json(capsys, "--root", str(root), "--agent", "claude-code"))
    [top] = rows["AGENTS.md"]["agents"]
    assert (top["when"], top["on"], top["note"]) == ("start", [], "imported by CLAUDE.md")
    [nested] = rows["pkg/AGENTS.md"]["agents"]
    assert (nested["when"], nested["on"], nested["note"]) == ("touch", ["pkg/"], "imported by pkg/CLAUDE.md")
    assert main(["rules", "--root", str(root), "--agent", "claude-code"]) == 0
    out = capsys.readouterr().out
    assert "start (imported by CLAUDE.md)" in out and "hook sends" not in out
    assert "on touch of pkg/ (imported by pkg/CLAUDE.md)" in out

    env = HookEnv(state_dir=tmp_path / "state", home=str(tmp_path / "home"), use_git=False)
    base = {"session_id": "imp", "cwd": str(root)}
    start = {**base, "hook_event_name": "SessionStart", "source": "startup"}
    read = {**base, "hook_event_name": "PostToolUse", "tool_name": "Read",
            "tool_input": {"file_path": str(root / "pkg/a.py")}, "tool_response": {}}  # fmt: skip
    assert run_hook("claude-code", json.dumps(start), env) == {}  # AGENTS.md: Claude Code's own import
    assert run_hook("claude-code", json.dumps(read), env) == {}  # pkg/AGENTS.md: with pkg/CLAUDE.md
