"""Fixtures shared by the whole suite: trees of files and real git repositories in temp dirs."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "monorepo"

Tree = Callable[[Mapping[str, str | bytes]], Path]

# Variables that point jitctx or a client at a user's own settings, state or transcripts: a test that wants
# one sets it itself.
_USER_PLACES = (
    "JITCTX_STATE_DIR",
    "JITCTX_HOME",
    "JITCTX_CONFIG",
    "XDG_RUNTIME_DIR",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "COPILOT_HOME",
    "QWEN_HOME",
    "OPENCODE_CONFIG",
    "OPENCODE_CONFIG_DIR",
)


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test runs with a home and XDG dirs of its own, so nothing it does (a hook's state, a settings
    backup, a hook error) reaches the real home or state dir of whoever runs the suite."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for variable, sub in (
        ("XDG_STATE_HOME", ".local/state"),
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_DATA_HOME", ".local/share"),
    ):
        monkeypatch.setenv(variable, str(home / sub))
    for variable in _USER_PLACES:
        monkeypatch.delenv(variable, raising=False)
    return home


def write_tree(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Write `files` (POSIX relative path -> text or bytes) under `root`; a path ending in / is a folder."""
    for rel, content in files.items():
        target = root / rel
        if rel.endswith("/"):
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return root


def settle(root: Path, age: float = 60.0) -> Path:
    """Date every directory under `root` `age` seconds back, as if the tree had been written then.

    A directory changed within the last two seconds is looked at again on every touch (its mtime could
    hide a file created in the same clock tick); tests that check the warm path start from a settled tree.
    """
    when = time.time_ns() - int(age * 1e9)
    for current, dirnames, _ in os.walk(root):
        for name in dirnames:
            os.utime(os.path.join(current, name), ns=(when, when), follow_symlinks=False)
    os.utime(root, ns=(when, when))
    return root


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    """Build a project tree: `root = tree({"CLAUDE.md": "...", "src/a.py": ""})`."""
    root = tmp_path / "proj"
    root.mkdir()

    def build(files: Mapping[str, str | bytes]) -> Path:
        return write_tree(root, files)

    return build


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


def git_init(root: Path) -> Path:
    """Make `root` a git repository with everything in it committed."""
    git(root, "init", "-q")
    git(root, "config", "user.email", "test@example.invalid")
    git(root, "config", "user.name", "test")
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", "fixture")
    return root


@pytest.fixture
def example_copy(tmp_path: Path) -> Path:
    """A private copy of examples/monorepo, committed to its own git repository."""
    target = tmp_path / "monorepo"
    shutil.copytree(EXAMPLE, target)
    return git_init(target)
