"""walk_tree: os.walk's order without its recursion, and a bounded depth that is reported."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jitctx import walk
from jitctx.project import Project, walk_dirs
from jitctx.walk import walk_tree
from tests.conftest import write_tree


def test_same_order_as_os_walk(tmp_path: Path) -> None:
    write_tree(tmp_path, {"b/x.md": "", "a/c/y.md": "", "a/b/z.md": "", "top.md": "", "a/d/e/f/g.md": ""})
    expected = []
    for current, dirnames, filenames in os.walk(tmp_path):
        dirnames.sort()
        expected.append((current, list(dirnames), sorted(filenames)))
    assert list(walk_tree(str(tmp_path))) == expected


def test_links_are_listed_never_entered(tmp_path: Path) -> None:
    write_tree(tmp_path, {"real/x.md": "", "outside/y.md": ""})
    (tmp_path / "real" / "link").symlink_to(tmp_path / "outside")
    walked = {current: dirs for current, dirs, _ in walk_tree(str(tmp_path / "real"))}
    assert walked == {str(tmp_path / "real"): ["link"]}


def test_pruning_and_skip(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a/x.md": "", "node_modules/y.md": "", "b/z.md": ""})
    seen = []
    for current, dirs, _ in walk_tree(str(tmp_path), skip={"node_modules"}):
        seen.append(os.path.relpath(current, tmp_path))
        dirs[:] = [d for d in dirs if d != "b"]
    assert seen == [".", "a"]


def test_depth_is_capped_and_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walk, "MAX_DEPTH", 3)
    write_tree(tmp_path, {"1/2/3/4/5/GEMINI.md": "# deep\n", "1/GEMINI.md": "# one\n", ".git/HEAD": ""})
    too_deep: list[str] = []
    walked = [os.path.relpath(d, tmp_path) for d in walk_dirs(str(tmp_path), too_deep)]
    assert walked == [".", "1", "1/2", "1/2/3"]
    assert too_deep == [str(tmp_path / "1/2/3")]
    files, skips = Project(tmp_path).all_instruction_files()
    assert [file.display for file in files] == ["1/GEMINI.md"]
    assert [skip.path for skip in skips] == ["1/2/3"]
