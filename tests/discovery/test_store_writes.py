"""A call that changes nothing writes nothing; a call that changes the session or its quick index does."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jitctx.discovery.quick import quick_file_name
from jitctx.discovery.store import SessionStore
from jitctx.project import Project
from tests.conftest import settle, write_tree


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = write_tree(
        tmp_path / "proj",
        {
            "CLAUDE.md": "root",
            "a/CLAUDE.md": "A",
            "a/x.ts": "",
            "b/y.ts": "",
            ".claude/rules/ts.md": '---\npaths: ["b/**"]\n---\nB rule',
        },
    )
    settle(root)
    return root


def _touch(store: SessionStore, root: Path, path: str) -> list[str]:
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        if opened.new:
            opened.session.startup()
        return [load.file.display for load in opened.session.discover(path).loaded]


def _identity(path: Path) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_ino, info.st_mtime_ns


def test_a_warm_touch_rewrites_neither_state_nor_quick_index(proj: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state")
    assert _touch(store, proj, "a/x.ts") == ["a/CLAUDE.md"]
    assert _touch(store, proj, "a/x.ts") == []  # settles what the first call left to check
    state, quick = store.path_for("s"), store.directory / quick_file_name("s")
    before = (_identity(state), _identity(quick))
    assert _touch(store, proj, "a/x.ts") == []
    assert (_identity(state), _identity(quick)) == before


def test_a_load_is_written(proj: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state")
    _touch(store, proj, "a/x.ts")
    _touch(store, proj, "a/x.ts")
    assert _touch(store, proj, "b/y.ts") == [".claude/rules/ts.md"]
    assert "ts.md" in store.path_for("s").read_text()
    # A later process sees it as sent.
    assert _touch(store, proj, "b/y.ts") == []


def test_a_quick_index_that_changed_alone_is_written(proj: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state")
    _touch(store, proj, "a/x.ts")
    _touch(store, proj, "a/x.ts")
    quick = store.directory / quick_file_name("s")
    old = quick.read_bytes()
    # A config file appears: the index records its version, the session state does not change.
    (proj / ".jitctx.toml").write_text("jitContext = true\n")
    _touch(store, proj, "a/x.ts")
    assert quick.read_bytes() != old


@pytest.mark.parametrize("damage", ["delete", "lock-garbage"])
def test_a_missing_index_or_a_planted_digest_is_written_again(
    proj: Path, tmp_path: Path, damage: str
) -> None:
    store = SessionStore(tmp_path / "state")
    _touch(store, proj, "a/x.ts")
    _touch(store, proj, "a/x.ts")
    quick = store.directory / quick_file_name("s")
    good = quick.read_bytes()
    if damage == "delete":
        quick.unlink()
    else:
        quick.write_text("{}")
        store.path_for("s").with_suffix(".lock").write_bytes(b"0" * 200)
    _touch(store, proj, "a/x.ts")
    assert quick.read_bytes() == good
