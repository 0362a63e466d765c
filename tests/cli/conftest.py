"""Fixtures of the command-line tests."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest


@pytest.fixture
def committed_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project (the cwd) whose install and doctor run with this interpreter's jitctx alone on PATH, a
    private state dir and home, and no virtualenv or Codex home of the caller's."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    (tmp_path / "state").mkdir(mode=0o700)
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable))
    return root
