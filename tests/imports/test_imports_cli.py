"""`jitctx imports FILE [--root DIR] [--json]`, in-process and as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jitctx.cli.main import main
from tests.conftest import Tree

FILES = {
    ".git/": "",
    "CLAUDE.md": "---\npaths: ['x']\n---\n# Rules\nSee @docs/a.md and `@not.md`.\nUse @media here.\n",
    "docs/a.md": "A imports @b.md\n",
    "docs/b.md": "B\n",
}


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code = main(["imports", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_json_lists_nested_imports_and_the_expanded_size(
    tree: Tree, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tree(FILES)
    code, document = run_json(capsys, str(root / "CLAUDE.md"))
    assert code == 1  # @media is not a path
    body = "# Rules\nSee @docs/a.md and `@not.md`.\nUse @media here.\n"
    assert document["path"] == "CLAUDE.md"
    assert document["expanded_bytes"] == len((body + "\n\nA imports @b.md\n" + "\n\nB\n").encode())
    assert [
        {k: item[k] for k in ("line", "token", "path", "status", "depth", "parent")}
        for item in document["imports"]  # type: ignore[attr-defined]
    ] == [
        {
            "line": 5,
            "token": "docs/a.md",
            "path": "docs/a.md",
            "status": "ok",
            "depth": 1,
            "parent": "CLAUDE.md",
        },
        {"line": 1, "token": "b.md", "path": "docs/b.md", "status": "ok", "depth": 2, "parent": "docs/a.md"},
        {
            "line": 6,
            "token": "media",
            "path": None,
            "status": "not_a_path",
            "depth": 1,
            "parent": "CLAUDE.md",
        },
    ]


def test_all_ok_exits_zero_and_prints_a_table(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    root = tree({**FILES, "CLAUDE.md": "See @docs/a.md\n"})
    assert main(["imports", str(root / "CLAUDE.md"), "--root", str(root)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "file  CLAUDE.md"
    assert out[3].split() == ["where", "import", "status", "resolved"]
    assert out[4].split() == ["CLAUDE.md:1", "@docs/a.md", "ok", "docs/a.md"]
    assert out[5].split() == ["docs/a.md:1", "@b.md", "ok", "docs/b.md"]
    expanded = len("See @docs/a.md\n\n\nA imports @b.md\n\n\nB\n")  # file, then each include
    assert out[-1] == f"expanded  {expanded} bytes (CLAUDE.md + 2 included files)"


def test_problems_exit_one_and_warn_with_file_and_line(
    tree: Tree, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tree({**FILES, "CLAUDE.md": "a\n@gone.md\n"})
    assert main(["imports", str(root / "CLAUDE.md")]) == 1
    assert "CLAUDE.md:2: @gone.md: no such file" in capsys.readouterr().err


def test_no_imports(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    root = tree({**FILES, "CLAUDE.md": "plain text, user@example.com\n"})
    code, document = run_json(capsys, str(root / "CLAUDE.md"))
    assert (code, document["imports"], document["expanded_bytes"]) == (0, [], 29)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("nope.md", "nope.md: no such file"),
        ("docs", "is a directory"),
        ("logo.png", "binary file"),
    ],
)
def test_unreadable_file_exits_two(
    tree: Tree, capsys: pytest.CaptureFixture[str], name: str, message: str
) -> None:
    root = tree({**FILES, "logo.png": b"\x89PNG\x00\x00"})
    assert main(["imports", str(root / name), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err


def test_config_sets_depth_and_outside(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (tmp_path / "shared.md").write_text("shared\n", encoding="utf-8")
    (root / "docs" / "a.md").write_text("@b.md\n", encoding="utf-8")
    (root / "docs" / "b.md").write_text("b\n", encoding="utf-8")
    (root / "CLAUDE.md").write_text("@docs/a.md @../shared.md\n", encoding="utf-8")
    code, document = run_json(capsys, str(root / "CLAUDE.md"), "--root", str(root))
    assert [i["status"] for i in document["imports"]] == ["ok", "ok", "outside"]  # type: ignore[attr-defined]
    (root / ".jitctx.toml").write_text("[imports]\nmax_depth = 1\nallow_outside = true\n", encoding="utf-8")
    code, document = run_json(capsys, str(root / "CLAUDE.md"), "--root", str(root))
    assert code == 1
    # max_depth is the project's to set; allow_outside only the user's (see tests/test_user_config.py).
    statuses = [i["status"] for i in document["imports"]]  # type: ignore[attr-defined]
    assert statuses == ["ok", "too_deep", "outside"]


def test_root_defaults_to_the_nearest_marker(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    root = tree({**FILES, "docs/CLAUDE.md": "@a.md\n"})
    code, document = run_json(capsys, str(root / "docs" / "CLAUDE.md"))
    assert (code, document["path"], document["root"]) == (0, "docs/CLAUDE.md", str(root.resolve()))


def test_subprocess(tree: Tree) -> None:
    root = tree(FILES)
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "imports", str(root / "CLAUDE.md"), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    document = json.loads(done.stdout)
    assert [i["status"] for i in document["imports"]] == ["ok", "ok", "not_a_path"]
    assert "CLAUDE.md:6: @media: not a path" in done.stderr


def test_help_teaches_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["imports", "--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and "jitctx imports" in out and "not_a_path" in out
