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
