"""Tables fit the terminal they are printed on; `--wide` and a pipe get every cell whole."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from jitctx.cli import width
from jitctx.cli.common import table
from jitctx.cli.main import main
from tests.conftest import write_tree

LONG_MESSAGE = (
    "scope pattern 'packages/front-end/**/*.{ts,tsx}' matches no file in the repository "
    "(5,012 files checked, listed by git ls-files)"
)
HEADERS = ["at", "severity", "rule", "message", "fix"]
ROWS = [
    [".claude/rules/react-and-data.md:3", "warning", "scope-matches-nothing", LONG_MESSAGE, "fix it"],
    ["CLAUDE.md:1", "error", "import-missing", "@docs/none.md does not exist", "create it or drop it"],
]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Terminal:
    """A terminal of 100 columns; a test puts it in place itself with `attach` (pytest's capture sets
    sys.stdout again when the test's call begins)."""
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    width.set_wide(False)
    return Terminal()


def attach(screen: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", screen)


def _words(text: str) -> list[str]:
    return "".join(text.split()).split(",")


@pytest.mark.parametrize("columns", [60, 80, 100, 140])
def test_a_wide_table_is_wrapped_to_the_width_and_keeps_every_character(columns: int) -> None:
    headers, rows = width.fit_rows(HEADERS, ROWS, columns)
    from jitctx.reports.table import plain_table

    text = plain_table(headers, rows)
    assert max(len(line) for line in text.splitlines()) <= columns
    every = "".join("".join(row) for row in [HEADERS, *ROWS]).replace(" ", "")
    assert sorted(text.replace(" ", "").replace("\n", "")) == sorted(every)


def test_numbers_keep_their_width_and_a_table_that_fits_is_unchanged() -> None:
    rows = [["a/very/long/path/" * 6, 123456789]]
    _, fitted = width.fit_rows(["file", "bytes"], rows, 50, right=(1,))
    assert "123456789" in [row[1] for row in fitted]
    assert all(len(str(row[0])) <= 50 - 2 - 9 for row in fitted)
    assert width.fit_rows(["a", "b"], [["x", "y"]], 50) == (["a", "b"], [["x", "y"]])


def test_table_on_a_terminal_fits_it(terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    attach(terminal, monkeypatch)
    text = table(HEADERS, ROWS)
    assert max(len(line) for line in text.splitlines()) <= 100
    width.set_wide(True)
    assert max(len(line) for line in table(HEADERS, ROWS).splitlines()) > 200


def test_table_into_a_pipe_is_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.setenv("COLUMNS", "100")
    width.set_wide(False)
    assert max(len(line) for line in table(HEADERS, ROWS).splitlines()) > 200


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    glob = "packages/front-end/components/very-long-folder-name/**/*.{ts,tsx}"
    root = write_tree(
        tmp_path / "repo",
        {".git/HEAD": "x\n", ".claude/rules/react.md": f'---\npaths: ["{glob}"]\n---\n# react\n'},
    )
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(root)
    return root


def test_lint_takes_wide(repo: Path, terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    attach(terminal, monkeypatch)
    main(["lint", "--agent", "claude-code", "--no-git"])
    fitted = terminal.getvalue()
    assert "scope-matches-nothing" in fitted
    assert max(len(line) for line in fitted.splitlines()) <= 100
    terminal.seek(0)
    terminal.truncate()
    main(["lint", "--agent", "claude-code", "--no-git", "--wide"])
    assert max(len(line) for line in terminal.getvalue().splitlines()) > 100


def test_lint_in_a_real_terminal_of_100_columns(repo: Path) -> None:
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("COLUMNS", None)
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "lint", "--agent", "claude-code", "--no-git"],
        stdout=follower,
        stderr=subprocess.DEVNULL,
        env=env,
        timeout=60,
        check=False,
    )
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    lines = output.decode().splitlines()
    assert done.returncode == 0 and any("scope-matches-nothing" in line for line in lines)
    assert max(len(line) for line in lines) <= 100
    assert any(line.startswith(".claude/rules/react.md:2") for line in lines)  # names stay whole first
