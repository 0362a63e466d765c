"""Colour only for people: NO_COLOR, a terminal check, --color; and tables that fit a terminal."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jitctx.cli import colour
from jitctx.cli.main import main


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def auto_mode() -> None:
    colour.set_mode("auto")


@pytest.mark.parametrize(
    ("environ", "tty", "mode", "expected"),
    [
        ({}, True, "auto", True),
        ({}, False, "auto", False),  # a pipe or a file: no escape codes
        ({"NO_COLOR": "1"}, True, "auto", False),
        ({"NO_COLOR": "anything"}, True, "auto", False),
        ({"NO_COLOR": ""}, True, "auto", True),  # no-color.org: set *and non-empty*
        ({"TERM": "dumb"}, True, "auto", False),
        ({"NO_COLOR": "1"}, False, "always", True),  # the command line wins over the environment
        ({}, True, "never", False),
    ],
)
def test_when_colour_is_wanted(environ: dict[str, str], tty: bool, mode: str, expected: bool) -> None:
    stream = Terminal() if tty else io.StringIO()
    assert colour.wanted(stream, mode, environ) is expected


def test_paint_leaves_text_alone_without_colour() -> None:
    colour.set_mode("never")
    assert colour.paint("ok", "green", Terminal()) == "ok"
    colour.set_mode("always")
    assert colour.paint("ok", "green", io.StringIO()) == "\033[32mok\033[0m"


def test_color_option_and_no_color_in_a_real_run(tmp_path: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1", "JITCTX_HOME": str(tmp_path)}
    run = [sys.executable, "-m", "jitctx", "profiles"]
    plain = subprocess.run(run, capture_output=True, text=True, env=env, check=True).stdout
    assert "\033[" not in plain
    forced = subprocess.run([*run, "--color", "always"], capture_output=True, text=True, env=env, check=True)
    assert "\033[1m" in forced.stdout
    assert subprocess.run([*run, "--color", "sometimes"], capture_output=True, env=env).returncode == 2


def test_an_earlier_run_does_not_leak_its_mode(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles", "--color", "always"]) == 0
    assert "\033[" in capsys.readouterr().out
    assert main(["profiles"]) == 0
    assert "\033[" not in capsys.readouterr().out


def test_profiles_fits_100_columns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 100
    for name in (".github/instructions/", "*.instructions.md", "AGENTS.override.md", "CLAUDE.local.md"):
        assert name in out
