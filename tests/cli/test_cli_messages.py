"""Messages a new user reads: an empty window, the path a relative PATH named, imports as written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jitctx.cli.main import main


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))


def test_an_empty_window_says_so_not_install(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    assert main(["touch", "--root", str(example_copy), "--session", "s1", "src/ui/Footer.tsx"]) == 0
    capsys.readouterr()
    for command in ("stats", "log"):
        assert main([command, "--since", "2099-01-01"]) == 0
        err = capsys.readouterr().err
        assert "the window is empty" in err and "2099-01-01" in err, command
        assert "install" not in err, command


def test_no_log_at_all_still_points_at_install(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--since", "2099-01-01"]) == 0
    assert "install claude-code" in capsys.readouterr().err


def test_touch_names_the_path_a_relative_path_resolved_to(
    capsys: pytest.CaptureFixture[str], example_copy: Path
) -> None:
    assert main(["touch", "--root", str(example_copy), "--cwd", "src", "src/ui/Footer.tsx"]) == 0
    captured = capsys.readouterr()
    assert "src/src/ui/Footer.tsx" in captured.out  # the touched column is root-relative
    assert "src/ui/Footer.tsx resolved to src/src/ui/Footer.tsx" in captured.err
    assert "from the root does" in captured.err


def test_touch_json_carries_the_root_relative_path(
    capsys: pytest.CaptureFixture[str], example_copy: Path
) -> None:
    args = ["touch", "--root", str(example_copy), "--cwd", "src", "ui/Footer.tsx", "/etc/hostname", "--json"]
    assert main(args) == 0
    captured = capsys.readouterr()
    steps = json.loads(captured.out)["steps"]
    assert [(s["trigger"], s["path"]) for s in steps] == [
        ("ui/Footer.tsx", "src/ui/Footer.tsx"),
        ("/etc/hostname", None),
    ]
    assert "resolved to" not in captured.err  # an existing file needs no word


def test_imports_table_shows_no_markdown_bold(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "docs" / "x.md").write_text("x\n")
    (root / "CLAUDE.md").write_text("# T\n\nSee **@docs/x.md** for details.\n\n- **@docs/y.md**: bold\n")
    assert main(["imports", "--root", str(root), "CLAUDE.md"]) == 1
    out = capsys.readouterr().out
    assert "**" not in out
    assert "@docs/x.md " in out and "@docs/y.md " in out
