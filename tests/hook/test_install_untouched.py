"""`jitctx install` changes its own entries and nothing else, and never writes where it should not.

Numbers it does not touch keep their text (`1e400` used to come back as `Infinity`, which is not JSON, and
long numbers were rounded); a dangling settings symlink is not followed out of the project; concurrent
installs wait for each other instead of writing back what each read.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jitctx.cli.main import main
from jitctx.clients.kit.settings_file import dump, parse_settings

NUMBERS = (
    '{\n  "big": 1e400,\n  "long": 12345678901234567890.123456789,\n  "float": 1.0,\n  "exp": 1E5,\n'
    '  "negzero": -0,\n  "huge": ' + "9" * 5000 + ',\n  "ints": [1, -2, 30],\n  "odd": NaN\n}\n'
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    return root


def strict(text: str) -> object:
    """JSON as the spec has it: no NaN or Infinity."""

    def refuse(name: str) -> object:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse, parse_int=str)  # str: Python's int() stops at 4300 digits


def test_numbers_keep_their_text(project: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(NUMBERS.replace('"odd": NaN', '"odd": 0'))
    assert main(["install", "claude-code", "--command", "jitctx hook claude-code"]) == 0
    text = settings.read_text()
    strict(text)  # valid JSON: no Infinity
    for literal in ("1e400", "12345678901234567890.123456789", "1.0", "1E5", "-0", "9" * 5000, "[\n    1,"):
        assert literal in text, literal
    assert "hooks" in strict(text)  # type: ignore[operator]


def test_dump_writes_back_what_it_read() -> None:
    data = parse_settings(NUMBERS, Path("s.json"))
    written = dump(data, NUMBERS)
    # Layout is dump's own (two spaces, one item a line); every value keeps its text, NaN too.
    assert written == NUMBERS.replace("[1, -2, 30]", "[\n    1,\n    -2,\n    30\n  ]")


def test_a_lone_surrogate_escape_survives(project: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"note": "\\ud800 and caf\\u00e9"}\n')
    assert main(["install", "claude-code", "--command", "jitctx hook claude-code"]) == 0
    assert json.loads(settings.read_text())["note"] == "\ud800 and café"


def test_a_dangling_settings_link_is_not_followed(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside" / "settings.json"
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").symlink_to(outside)
    assert main(["install", "claude-code"]) == 2
    assert not outside.exists() and not outside.parent.exists()


def test_a_dangling_folder_link_is_not_followed(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    (project / ".claude").symlink_to(outside)
    assert main(["install", "claude-code"]) == 2
    assert not outside.exists()


def test_installs_wait_for_each_other(project: Path) -> None:
    folder = project / ".claude"
    folder.mkdir()
    held = os.open(folder, os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX)  # as another install would, mid-way through its write
    try:
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "jitctx",
                "install",
                "claude-code",
                "--command",
                "jitctx hook claude-code",
            ],
            cwd=project,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.5)
        assert child.poll() is None, "the install did not wait for the lock"
        assert not (folder / "settings.json").exists()
    finally:
        fcntl.flock(held, fcntl.LOCK_UN)
        os.close(held)
    assert child.wait(timeout=30) == 0
    assert "hooks" in json.loads((folder / "settings.json").read_text())


def test_no_home_is_a_usage_error_for_the_user_scope_only(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pwd

    def no_entry(uid: int) -> pwd.struct_passwd:
        raise KeyError(uid)

    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("JITCTX_HOME", raising=False)
    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    assert main(["install", "claude-code", "--scope", "user", "--dry-run"]) == 2
    assert "no home directory" in capsys.readouterr().err
    assert main(["install", "claude-code", "--command", "jitctx hook claude-code"]) == 0
