"""Settings that widen what jitctx reads come only from the user's own config, never from a repository.

A cloned repository whose `.jitctx.toml` said `[imports] allow_outside = true` could make its AGENTS.md
import any Markdown file on the machine. That key is now read from `~/.config/jitctx/config.toml` (or the
path the CLI passes in) only; in a project config it is ignored, with a warning that says where it goes.
Config files are also bounded: one over 1 MiB is refused instead of parsed on every hook call.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jitctx.config import MAX_CONFIG_BYTES, load_config, load_user_config
from jitctx.discovery.session import Session
from jitctx.errors import ConfigError
from jitctx.project import Project
from tests.conftest import write_tree

SECRET = "private notes of the user"


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """(repo, home): a repo whose GEMINI.md imports a Markdown file outside it, and an empty home."""
    write_tree(tmp_path, {"outside/notes.md": SECRET + "\n"})
    repo = write_tree(
        tmp_path / "repo",
        {
            ".git/HEAD": "x\n",
            "GEMINI.md": "# guide\n@../outside/notes.md\n",  # Claude Code does not read it itself
            ".jitctx.toml": "[imports]\nallow_outside = true\n",
        },
    )
    home = tmp_path / "home"
    home.mkdir()
    return repo, home


def startup_text(project: Project) -> str:
    startup = Session(project, use_git=False).startup()
    return "\n".join(load.file.text for load in startup.loaded)


def test_a_repository_cannot_widen_reads(layout: tuple[Path, Path]) -> None:
    repo, home = layout
    project = Project(repo, home=home)
    assert project.config.allow_outside_imports is False
    assert SECRET not in startup_text(project)
    (warning,) = [w for w in project.config.warnings if "allow_outside" in w]
    assert "ignored" in warning and str(home / ".config/jitctx/config.toml") in warning


def test_the_user_config_allows_it(layout: tuple[Path, Path]) -> None:
    repo, home = layout
    write_tree(home, {".config/jitctx/config.toml": "[imports]\nallow_outside = true\n"})
    project = Project(repo, home=home)
    assert project.config.allow_outside_imports is True
    assert SECRET in startup_text(project)


def test_an_explicit_user_config_path(layout: tuple[Path, Path], tmp_path: Path) -> None:
    repo, _ = layout
    config = write_tree(tmp_path / "xdg", {"jitctx/config.toml": "[imports]\nallow_outside = true\n"})
    project = Project(repo, user_config=config / "jitctx/config.toml")
    assert SECRET in startup_text(project)
    assert Project(repo).config.allow_outside_imports is False  # no home, no path: no user config


def test_user_config_problems(tmp_path: Path) -> None:
    path = write_tree(tmp_path, {"c.toml": "[imports]\nallow_outside = 'yes'\nmax_depth = 3\n"}) / "c.toml"
    with pytest.raises(ConfigError, match=r"c\.toml: 'imports\.allow_outside' must be bool"):
        load_user_config(path)
    path.write_text("jitContext = false\n[imports]\nmax_depth = 3\n")
    warnings = load_user_config(path).warnings
    assert len(warnings) == 2 and all(
        "a user config holds only [imports] allow_outside" in w for w in warnings
    )
    path.write_text("[imports\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_user_config(path)
    assert load_user_config(tmp_path / "missing.toml").allow_outside_imports is False


def cli(repo: Path, home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "JITCTX_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "jitctx", *argv, "--root", str(repo)],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip


def test_lint_and_explain_show_the_warning(layout: tuple[Path, Path]) -> None:
    repo, home = layout
    linted = cli(repo, home, "lint", "--json")
    messages = [f["message"] for f in json.loads(linted.stdout)["findings"]]
    assert any("'imports.allow_outside' ignored" in m and "user config" in m for m in messages)
    assert any(f["rule"] == "import-outside" for f in json.loads(linted.stdout)["findings"])
    explained = cli(repo, home, "explain", str(repo / "GEMINI.md"))
    assert "'imports.allow_outside' ignored" in explained.stdout + explained.stderr
    write_tree(home, {".config/jitctx/config.toml": "[imports]\nallow_outside = true\n"})
    linted = cli(repo, home, "lint", "--json")
    assert not any(f["rule"] == "import-outside" for f in json.loads(linted.stdout)["findings"])


def test_the_hook_reads_the_user_config_of_its_home(layout: tuple[Path, Path], tmp_path: Path) -> None:
    repo, home = layout
    event = {"hook_event_name": "SessionStart", "session_id": "u", "cwd": str(repo), "source": "startup"}

    def hook(session: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "jitctx", "hook", "claude-code", "--no-git"],
            input=json.dumps({**event, "session_id": session}), capture_output=True, text=True, timeout=60,
            env={**os.environ, "JITCTX_HOME": str(home), "JITCTX_STATE_DIR": str(tmp_path / "state")},
            check=False,
        )  # fmt: skip
        return done.stdout

    assert SECRET not in hook("a")
    write_tree(home, {".config/jitctx/config.toml": "[imports]\nallow_outside = true\n"})
    assert SECRET in hook("b")


# -- size caps ---------------------------------------------------------------------------------------------


def test_a_huge_project_config_is_refused_quickly(tmp_path: Path) -> None:
    padding = "# padding\n" * (MAX_CONFIG_BYTES // 10 + 1)
    write_tree(tmp_path, {".jitctx.toml": padding + "jitContext = false\n"})
    started = time.monotonic()
    with pytest.raises(ConfigError, match="larger than 1024 KiB"):
        load_config(tmp_path)
    assert time.monotonic() - started < 1


def test_a_huge_pyproject_is_not_read_but_said(tmp_path: Path) -> None:
    padding = "# padding\n" * (MAX_CONFIG_BYTES // 10 + 1)
    write_tree(tmp_path, {"pyproject.toml": "[tool.jitctx]\njitContext = false\n" + padding})
    config = load_config(tmp_path)
    assert config.jit_context is True
    assert any("its [tool.jitctx] table is not read" in w for w in config.warnings)


def test_a_config_that_is_a_fifo_is_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "c.toml")
    os.mkfifo(tmp_path / ".jitctx.toml")
    assert load_user_config(tmp_path / "c.toml").allow_outside_imports is False
    assert load_config(tmp_path).source is None
