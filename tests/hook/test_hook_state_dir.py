"""Where the hook keeps state when the environment says little: never a relative directory.

With no HOME and no passwd entry, `os.path.expanduser("~")` stays "~", and state used to land in
`./~/.local/state/jitctx` inside the repository the agent works in.
"""

from __future__ import annotations

import io
import json
import os
import pwd
import stat
import tempfile
from pathlib import Path

import pytest

from jitctx.cli import state
from jitctx.cli.cmd_hook import serve
from jitctx.errors import JitctxError


@pytest.fixture
def homeless(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No HOME, no passwd entry, no JITCTX_* or XDG_* variables; the temp dir is the test's own."""
    for name in ("HOME", "JITCTX_HOME", "JITCTX_STATE_DIR", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
                 "XDG_CONFIG_HOME"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)

    def no_entry(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    return temp


def test_no_home_gives_a_private_absolute_dir(homeless: Path) -> None:
    assert os.path.expanduser("~") == "~"  # the situation under test
    chosen = state.state_dir_path()
    assert chosen == str(homeless / f"jitctx-state-{os.getuid()}")
    info = os.stat(chosen)
    assert stat.S_IMODE(info.st_mode) == 0o700 and info.st_uid == os.getuid()
    assert state.user_home() is None and state.user_config_path() is None


def test_the_runtime_dir_comes_first(homeless: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    assert state.state_dir_path() == str(runtime / "jitctx")


def test_a_temp_dir_someone_else_made_is_refused(homeless: Path) -> None:
    taken = homeless / f"jitctx-state-{os.getuid()}"
    taken.mkdir()
    taken.chmod(0o777)  # made first by someone who wants to read or plant state
    with pytest.raises(JitctxError, match="not a private directory"):
        state.state_dir_path()


def test_a_relative_state_dir_variable_is_made_absolute(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_STATE_DIR", "some/state")
    assert state.state_dir_path() == os.path.abspath("some/state")


def test_the_hook_keeps_state_out_of_the_repository(
    homeless: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "GEMINI.md").write_text("# guide\n", "utf-8")  # one Claude Code does not read itself
    monkeypatch.chdir(repo)
    event = {"hook_event_name": "SessionStart", "session_id": "s", "cwd": str(repo), "source": "startup"}
    out = io.StringIO()
    assert serve("claude-code", stdin=io.BytesIO(json.dumps(event).encode()), stdout=out, use_git=False) == 0
    assert "# guide" in out.getvalue()
    assert sorted(p.name for p in repo.iterdir()) == [".git", "GEMINI.md"]  # no `~` folder
    assert (homeless / f"jitctx-state-{os.getuid()}" / "sessions").is_dir()


def test_no_safe_place_answers_empty(homeless: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (homeless / f"jitctx-state-{os.getuid()}").write_text("not a directory")
    out = io.StringIO()
    assert serve("claude-code", stdin=io.BytesIO(b"{}"), stdout=out) == 0
    assert out.getvalue() == "{}\n"
    assert "JITCTX_STATE_DIR" in capsys.readouterr().err


def test_a_failed_first_call_creates_a_private_state_dir(tmp_path: Path) -> None:
    """The first hook call of a machine may fail before anything else made the state dir; the log line it
    writes must not leave the dir open to other users (doctor would report it)."""
    from jitctx.hook.log import log_problem

    chosen = tmp_path / "xdg" / "jitctx"
    log_problem(chosen, "claude-code", "broken payload")
    assert stat.S_IMODE(os.stat(chosen).st_mode) == 0o700
    assert "broken payload" in (chosen / "hook.log").read_text()


def test_the_suite_runs_in_a_home_of_its_own() -> None:
    """Nothing a test does reaches the real home: the root conftest gives each test its own."""
    home = Path(os.environ["HOME"])
    assert home.is_relative_to(Path(tempfile.gettempdir()))
    assert state.state_dir_path().startswith(os.environ["XDG_STATE_HOME"])
