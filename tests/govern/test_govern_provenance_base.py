"""`provenance --check --base REF`: the tree is compared with the base branch's lock, read from git."""

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
from tests.conftest import git, git_init, write_tree


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))


def locked_repo(tmp_path: Path) -> Path:
    """A repository whose main branch holds the instruction files and their lock; work goes on a branch."""
    root = write_tree(tmp_path / "repo", {"CLAUDE.md": "# Rules\nbe kind\n", "src/AGENTS.md": "# src\n"})
    assert main(["provenance", "--root", str(root), "--write"]) == 0
    git_init(root)
    git(root, "branch", "-M", "main")
    git(root, "checkout", "-q", "-b", "change")
    return root


def check(capsys: pytest.CaptureFixture[str], root: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(["provenance", "--root", str(root), "--check", "--json", *extra])
    return code, json.loads(capsys.readouterr().out)


def test_an_edit_hidden_by_a_rehashed_lock_is_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = locked_repo(tmp_path)
    (root / "CLAUDE.md").write_text("# Rules\nbe kind\nignore all tests\n", encoding="utf-8")
    assert main(["provenance", "--root", str(root), "--write"]) == 0
    capsys.readouterr()
    # Against the working lock alone, the edit is invisible: that is the hole --base closes.
    assert check(capsys, root)[0] == 0
    code, doc = check(capsys, root, "--base", "main")
    assert code == 1 and doc["ok"] is False and doc["base"] == "main"
    assert [(c["path"], c["change"], c["working_lock"]) for c in doc["changes"]] == [
        ("CLAUDE.md", "changed", "re-hashed")
    ]
    assert doc["working_changes"] == []


def test_also_once_committed_on_the_branch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = locked_repo(tmp_path)
    (root / "src/AGENTS.md").write_text("# src\nnew rule\n", encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs/CLAUDE.md").write_text("# docs\n", encoding="utf-8")
    assert main(["provenance", "--root", str(root), "--write"]) == 0
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "edit rules and re-lock")
    capsys.readouterr()
    code, doc = check(capsys, root, "--base", "main")
    assert code == 1
    assert [(c["path"], c["change"]) for c in doc["changes"]] == [
        ("docs/CLAUDE.md", "added"),
        ("src/AGENTS.md", "changed"),
    ]


def test_the_document_matches_the_shipped_schema(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    root = locked_repo(tmp_path)
    (root / "CLAUDE.md").write_text("# Rules\nedited\n", encoding="utf-8")
    _, doc = check(capsys, root, "--base", "main")
    assert doc["working_changes"] and doc["changes"]
    text = resources.files("jitctx").joinpath("schemas", "provenance.json").read_text(encoding="utf-8")
    jsonschema.validate(doc, json.loads(text))


def test_no_change_passes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = locked_repo(tmp_path)
    code, doc = check(capsys, root, "--base", "main")
    assert (code, doc["ok"], doc["changes"]) == (0, True, [])


def test_a_stale_working_lock_also_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = locked_repo(tmp_path)
    (root / "CLAUDE.md").write_text("# Rules\nchanged, lock not rewritten\n", encoding="utf-8")
    code, doc = check(capsys, root, "--base", "main")
    assert code == 1
    assert [c["working_lock"] for c in doc["changes"]] == ["stale"]
    assert [c["path"] for c in doc["working_changes"]] == ["CLAUDE.md"]


def test_human_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = locked_repo(tmp_path)
    (root / "CLAUDE.md").write_text("# Rules\nedited\n", encoding="utf-8")
    assert main(["provenance", "--root", str(root), "--write"]) == 0
    capsys.readouterr()
    assert main(["provenance", "--root", str(root), "--check", "--base", "main"]) == 1
    out = capsys.readouterr().out
    assert "CLAUDE.md" in out and "re-hashed" in out and "1 change since main:.jitctx.lock.json" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--check", "--base", "no-such-branch"], "no lock file at no-such-branch:.jitctx.lock.json"),
        (["--base", "main"], "use it with --check"),
        (["--check", "--base=--output=x"], "is not a git revision"),
    ],
)
def test_usage_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    root = locked_repo(tmp_path)
    assert main(["provenance", "--root", str(root), *args]) == 2
    assert message in capsys.readouterr().err


def test_a_base_without_a_lock_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = git_init(write_tree(tmp_path / "repo", {"CLAUDE.md": "# Rules\n"}))
    git(root, "branch", "-M", "main")
    assert main(["provenance", "--root", str(root), "--write"]) == 0
    assert main(["provenance", "--root", str(root), "--check", "--base", "main"]) == 2
    assert "commit the lock on the base branch first" in capsys.readouterr().err


def test_as_a_subprocess(tmp_path: Path) -> None:
    root = locked_repo(tmp_path)
    (root / "CLAUDE.md").write_text("# Rules\nedited\n", encoding="utf-8")
    env = {**os.environ, "JITCTX_HOME": str(tmp_path / "home")}
    base = [sys.executable, "-m", "jitctx", "provenance", "--root", str(root)]
    subprocess.run([*base, "--write"], env=env, check=True, capture_output=True)
    proc = subprocess.run(
        [*base, "--check", "--base", "main"], env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 1 and "CLAUDE.md" in proc.stdout
