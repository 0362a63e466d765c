"""A name that is not UTF-8 never costs a command its output: stdout and stderr escape what they cannot
encode.

`os.fsdecode` turns the byte \\xe9 of a Latin-1 file name into the lone surrogate \\udce9; a JSON escape in
a tool's input can carry any lone surrogate (\\ud800). Printing either raised UnicodeEncodeError.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from jitctx.cli import main as cli_main


def run(*args: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "jitctx", *args],
        capture_output=True, env={**os.environ, **env}, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.parametrize("name", ["caf\ud800.py", "caf\udce9.py"])
@pytest.mark.parametrize("io_encoding", ["", "utf-8"])  # "utf-8" alone means strict errors
def test_a_lone_surrogate_is_printed_escaped(name: str, io_encoding: str) -> None:
    env = {"PYTHONIOENCODING": io_encoding} if io_encoding else {}
    done = run("touched", "--tool", "Read", "--input", json.dumps({"file_path": name}), **env)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert done.stdout.decode("utf-8").strip() == name.encode("utf-8", "backslashreplace").decode()
    assert b"internal error" not in done.stderr


def test_streams_without_reconfigure_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", None)  # no stream at all (pythonw, a closed descriptor)
    monkeypatch.setattr(
        sys, "argv", ["jitctx", "touched", "--tool", "Read", "--input", '{"file_path": "a.py"}']
    )
    with pytest.raises(SystemExit) as exited:
        cli_main.entry()
    assert exited.value.code == 0
    assert out.getvalue().strip() == "a.py"
