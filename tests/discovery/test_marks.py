"""Scanned-directory marks kept one file per directory: a call reads the marks of its chain only, the state
does not grow with the directories scanned, and a mark never outlives the state that vouches for it."""

from __future__ import annotations

import json
import os
import shutil
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from jitctx.discovery import quick
from jitctx.discovery import store as store_module
from jitctx.discovery.marks import ScannedMarks, mark_file_name, parse_mark
from jitctx.discovery.quick import quick_file_name, quiet
from jitctx.discovery.session import Session
from jitctx.discovery.state import Pass
from jitctx.discovery.store import OpenSession, SessionStore
from jitctx.project import Project
from tests.conftest import settle, write_tree


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    files: dict[str, str | bytes] = {"CLAUDE.md": "root", "a/b/c/x.ts": "", "a/b/CLAUDE.md": "AB"}
    for index in range(60):
        files[f"d{index:02d}/x.ts"] = ""
    files["pkg/CLAUDE.md"] = "PKG"
    files["pkg/a.ts"] = ""
    return settle(write_tree(tmp_path / "proj", files))


def open_session(
    store: SessionStore, proj: Path, session_id: str = "s", inherit: str | None = None
) -> AbstractContextManager[OpenSession]:
    return store.open(Project(proj, managed_files=()), session_id, use_git=False, inherit=inherit)


def touch_all(store: SessionStore, proj: Path, paths: list[str], session_id: str = "s") -> None:
    with open_session(store, proj, session_id) as opened:
        if opened.new:
            opened.session.startup()
        for path in paths:
            opened.session.discover(path)


def test_a_warm_touch_reads_the_marks_of_its_chain_only(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SessionStore(tmp_path / "state" / "sessions")
    touch_all(store, proj, [f"d{i:02d}/x.ts" for i in range(60)] + ["a/b/c/x.ts"])
    chain = {str(proj), str(proj / "a"), str(proj / "a/b"), str(proj / "a/b/c")}
    asked: list[str] = []

    def recording(folder: str, directory: str) -> object:
        asked.append(directory)
        return real(folder, directory)

    real = quick.stored_mark
    monkeypatch.setattr(store_module, "stored_mark", recording)
    with open_session(store, proj) as opened:
        assert opened.session.discover("a/b/c/x.ts").loaded == ()
    assert set(asked) == chain

    # The fast lane, too, reads the marks of the chain and nothing else.
    asked.clear()
    monkeypatch.setattr(quick, "stored_mark", recording)
    index = json.loads((store.directory / quick_file_name("s")).read_text())
    assert quiet(index, str(proj), "a/b/c/x.ts") is not None
    assert set(asked) == chain


def test_the_state_does_not_grow_with_the_directories_scanned(proj: Path, tmp_path: Path) -> None:
    sizes = {}
    for count in (5, 60):
        store = SessionStore(tmp_path / f"state{count:02d}" / "sessions")  # paths of one length
        touch_all(store, proj, [f"d{i:02d}/x.ts" for i in range(count)])
        sizes[count] = (
            store.path_for("s").stat().st_size,
            (store.directory / quick_file_name("s")).stat().st_size,
        )
        marks = list(store.marks_folder("s").rglob("*.json"))
        assert len(marks) == count + 1  # one per directory scanned: the root and each touched one
    assert sizes[5] == sizes[60]


def test_a_session_started_afresh_never_trusts_the_marks_of_the_old_one(proj: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state" / "sessions")
    with open_session(store, proj) as opened:
        opened.session.startup()
        assert [x.file.display for x in opened.session.discover("pkg/a.ts").loaded] == ["pkg/CLAUDE.md"]
        old = opened.session.channels["main"].scanned.marks_id
    assert (store.marks_folder("s") / old / mark_file_name(str(proj / "pkg"))).is_file()
    store.path_for("s").write_text("{not json")
    with open_session(store, proj) as opened:
        assert opened.new
        opened.session.startup()
        # The new session holds nothing: the file is sent again, though pkg/ has a mark from before.
        assert [x.file.display for x in opened.session.discover("pkg/a.ts").loaded] == ["pkg/CLAUDE.md"]
    assert not (store.marks_folder("s") / old).exists()


def test_delete_takes_the_marks_with_the_state(proj: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state" / "sessions")
    touch_all(store, proj, ["pkg/a.ts"])
    assert store.marks_folder("s").is_dir()
    assert store.delete("s")
    assert not store.marks_folder("s").exists()
    assert sorted(os.listdir(store.directory)) == ["s.lock"]


def test_a_continued_session_starts_with_its_parents_marks_and_changes_only_its_own(
    proj: Path, tmp_path: Path
) -> None:
    store = SessionStore(tmp_path / "state" / "sessions")
    touch_all(store, proj, ["pkg/a.ts", "d01/x.ts"], session_id="parent")
    pkg = str(proj / "pkg")
    with open_session(store, proj, "quiet-child", inherit="parent") as opened:
        assert opened.inherited  # and changes nothing: its state is still its own from now on
    assert store.path_for("quiet-child").is_file()
    with open_session(store, proj, "child", inherit="parent") as opened:
        assert opened.inherited
        state = opened.session.channels["main"]
        assert state.scanned.get(pkg) is not None
        assert opened.session.discover("pkg/a.ts").loaded == ()  # held from the parent
        state.forget(str(proj / "pkg/CLAUDE.md"))
    with open_session(store, proj, "child") as opened:
        assert [x.file.display for x in opened.session.discover("pkg/a.ts").loaded] == ["pkg/CLAUDE.md"]
    with open_session(store, proj, "parent") as opened:
        assert opened.session.channels["main"].scanned.get(pkg) is not None
        assert opened.session.discover("pkg/a.ts").loaded == ()


def test_a_mark_is_written_after_the_state_that_holds_its_files(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process killed between the writes must never leave a mark whose files the state does not hold:
    the next call would take the directory as scanned and never send them."""
    store = SessionStore(tmp_path / "state" / "sessions")
    touch_all(store, proj, [])
    saved: list[str] = []
    real = store_module._save

    def recording(path: Path, encoded: bytes) -> None:
        saved.append(path.name)
        real(path, encoded)

    monkeypatch.setattr(store_module, "_save", recording)
    touch_all(store, proj, ["pkg/a.ts"])
    pkg_mark = mark_file_name(str(proj / "pkg"))
    assert saved.index("s.json") < saved.index("s.quick.json") < saved.index(pkg_mark)


def test_each_channel_keeps_its_own_marks(proj: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state" / "sessions")
    with open_session(store, proj) as opened:
        opened.session.startup()
        opened.session.discover("pkg/a.ts")
        opened.session.startup("agent-1")
    with open_session(store, proj) as opened:
        main, sub = opened.session.channels["main"], opened.session.channels["agent-1"]
        assert main.scanned.marks_id != sub.scanned.marks_id
        assert main.scanned.get(str(proj / "pkg")) is not None
        assert sub.scanned.get(str(proj / "pkg")) is None
        assert [x.file.display for x in opened.session.discover("pkg/a.ts", "agent-1").loaded] == [
            "pkg/CLAUDE.md"
        ]


def test_marks_in_memory_behave_like_a_dict() -> None:
    marks = ScannedMarks({"/p/a": [["/p/a", 1, 2]]})
    assert "/p/a" in marks and "/p/b" not in marks
    marks["/p/b"] = [["/p/b", 3, 4]]
    assert marks.pop("/p/a") == [["/p/a", 1, 2]]
    assert marks.pop("/p/a") is None
    with pytest.raises(KeyError):
        del marks["/p/a"]
    assert marks == {"/p/b": [["/p/b", 3, 4]]}
    assert list(marks.changes()) == [("/p/a", None), ("/p/b", [["/p/b", 3, 4]])]


def test_a_link_planted_as_the_marks_folder_never_leads_into_other_files(proj: Path, tmp_path: Path) -> None:
    victim = write_tree(tmp_path / "victim", {"docs/thesis.tex": "T", "notes.txt": "N", "d/x.json": "{}"})
    store = SessionStore(tmp_path / "state" / "sessions")
    touch_all(store, proj, ["pkg/a.ts"])
    shutil.rmtree(store.marks_folder("s"))
    store.marks_folder("s").symlink_to(victim)
    # A session that starts afresh drops the marks of the old one; a delete drops them all.
    store.path_for("s").write_text("{not json")
    with open_session(store, proj) as opened:
        opened.session.startup()
        assert [x.file.display for x in opened.session.discover("pkg/a.ts").loaded] == ["pkg/CLAUDE.md"]
    store.delete("s")
    assert sorted(str(p.relative_to(victim)) for p in victim.rglob("*")) == [
        "d",
        "d/x.json",
        "docs",
        "docs/thesis.tex",
        "notes.txt",
    ]


def test_a_link_planted_as_a_channels_folder_gets_no_marks_and_the_session_goes_on(
    proj: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    store = SessionStore(tmp_path / "state" / "sessions")
    with open_session(store, proj) as opened:
        opened.session.startup()
        marks_id = opened.session.channels["main"].scanned.marks_id
    folder = store.marks_folder("s") / marks_id
    shutil.rmtree(folder)
    folder.symlink_to(elsewhere)
    with open_session(store, proj) as opened:
        assert [x.file.display for x in opened.session.discover("pkg/a.ts").loaded] == ["pkg/CLAUDE.md"]
    assert list(elsewhere.iterdir()) == []
    with open_session(store, proj) as opened:  # no mark, so pkg/ is scanned again; its file is held
        assert opened.session.discover("pkg/a.ts").loaded == ()


def test_a_directory_planted_among_old_marks_does_not_stop_the_clean_up(proj: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state" / "sessions")
    with open_session(store, proj) as opened:
        opened.session.startup()
        opened.session.discover("pkg/a.ts")
        old = opened.session.channels["main"].scanned.marks_id
    (store.marks_folder("s") / old / "planted").mkdir()
    store.path_for("s").write_text("{not json")
    with open_session(store, proj) as opened:
        opened.session.startup()
        new = opened.session.channels["main"].scanned.marks_id
    names = sorted(os.listdir(store.marks_folder("s")))
    assert new in names and os.listdir(store.marks_folder("s") / old) == ["planted"]
    assert (store.directory / quick_file_name("s")).is_file()


def test_a_directory_that_is_gone_when_scanned_gets_no_mark(proj: Path) -> None:
    """A chain directory removed between the walk and the scan has no watch list: marking it would mean
    'never look again', and a CLAUDE.md it gets when it comes back would never be found."""
    session = Session(Project(proj, managed_files=()), use_git=False)
    state = session.channels["main"]
    gone = str(proj / "gone")
    session.resolve_dir(gone, state, Pass(), None, lambda scope, candidate: None)
    assert state.scanned.get(gone) is None
    session.resolve_dir(str(proj / "pkg"), state, Pass(), None, lambda scope, candidate: None)
    assert state.scanned.get(str(proj / "pkg")) is not None  # the control: a directory that is there


@pytest.mark.parametrize(
    ("raw", "ok"),
    [
        (["/p/d", [["/p/d", 1, 2]]], True),
        (["/p/d", [["/p/d", 1, 2], ["/p/d/.claude", 3, 4]]], True),
        (["/p/d", []], False),  # nothing to compare: would hold for ever
        (["/p/d", [["/p/d/.claude", 3, 4]]], False),  # not led by the directory itself
        (["/p/other", [["/p/other", 1, 2]]], False),  # another directory's mark
        (["/p/d", [[]]], False),
        ({"/p/d": []}, False),
    ],
)
def test_a_mark_counts_for_its_own_directory_with_something_to_compare(raw: object, ok: bool) -> None:
    assert (parse_mark(raw, "/p/d") is not None) is ok
