"""A long-lived session notices a changed rules folder on the next touch it matters for (§2.4 Freshness),
both ways `rules_watch` knows it: a stat of every rule per call, and inotify with a poll per call.

The rule that matters may be one the glob index would never name for the touched path: its old scope
(`docs/**`) matched nothing there, and the edit gives it one that does.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jitctx.discovery import inotify, rules_watch
from jitctx.discovery.rules_watch import RulesWatch
from jitctx.discovery.session import Session
from jitctx.model import Discovery
from jitctx.project import Project
from tests.conftest import settle, write_tree

MODES = ["stat", "notified"]
RULES = 40


def rule(glob: str, body: str) -> str:
    return f'---\npaths: ["{glob}"]\n---\n{body}\n'


def loaded(found: Discovery) -> list[tuple[str, str, bool]]:
    return [(load.file.display, load.file.text.strip(), load.updated) for load in found.loaded]


def inotify_here(path: Path) -> bool:
    return inotify.notifier() is not None and inotify.local_filesystem(os.stat(path).st_dev)


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    files = {f".claude/rules/r{i}.md": rule(f"docs/{i}/**", f"R{i}") for i in range(RULES)}
    files |= {"CLAUDE.md": "root", "src/a.ts": "", "src/b.ts": "", "docs/0/x.md": ""}
    return settle(write_tree(tmp_path / "proj", files))


@pytest.fixture(params=MODES)
def start(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Callable[[Path], Session]:
    """A started session in the mode asked for, warm on `src/`: nothing more loads there."""
    mode = str(request.param)

    def started(root: Path) -> Session:
        if mode == "notified":
            if not inotify_here(root):
                pytest.skip("no inotify for this file system here")
            monkeypatch.setattr(rules_watch, "ARM_AFTER_STATS", 0)
        s = Session(Project(root, managed_files=()), cwd=root, use_git=False)
        s.rules_watch = RulesWatch(s.project, notify=mode == "notified")
        s.startup()
        assert s.discover("src/a.ts").loaded == ()
        assert s.discover("src/a.ts").loaded == ()
        assert s.rules_watch.notified is (mode == "notified")
        return s

    return started


def edit_in_place(path: Path, text: str, *, keep_mtime: bool = False) -> None:
    """Write `text` (padded with spaces to the file's size) over the file without replacing it (same
    inode); the mtime moves on by 10 ms (a clock tick later), or stays exactly as it was with
    `keep_mtime`."""
    before = path.stat()
    text = text[:-1].ljust(before.st_size - 1) + "\n"
    assert len(text.encode()) == before.st_size
    with open(path, "r+", encoding="utf-8") as handle:
        handle.write(text)
    mtime = before.st_mtime_ns if keep_mtime else before.st_mtime_ns + 10_000_000
    os.utime(path, ns=(before.st_atime_ns, mtime))
    after = path.stat()
    assert (after.st_ino, after.st_size) == (before.st_ino, before.st_size)


def test_a_rule_edited_in_place_to_gain_a_matching_scope_loads_on_the_next_touch(
    proj: Path, start: Callable[[Path], Session]
) -> None:
    s = start(proj)
    edit_in_place(proj / ".claude/rules/r7.md", rule("src/**", "EDIT"))  # `docs/7/**`: same length
    assert loaded(s.discover("src/b.ts")) == [(".claude/rules/r7.md", "EDIT", False)]
    assert s.discover("src/a.ts").loaded == ()  # held from now on


def test_an_edit_that_leaves_mtime_size_and_inode_as_they_were_is_still_heard(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two writes within one tick of a coarse file clock: no stat can tell, the queue names the file."""
    if not inotify_here(proj):
        pytest.skip("no inotify for this file system here")
    monkeypatch.setattr(rules_watch, "ARM_AFTER_STATS", 0)
    s = Session(Project(proj, managed_files=()), cwd=proj, use_git=False)
    s.startup()
    s.discover("src/a.ts")
    assert s.rules_watch.notified
    edit_in_place(proj / ".claude/rules/r7.md", rule("src/**", "EDIT"), keep_mtime=True)
    assert loaded(s.discover("src/b.ts")) == [(".claude/rules/r7.md", "EDIT", False)]


def test_a_held_rule_edited_in_place_goes_out_again_once(
    proj: Path, start: Callable[[Path], Session]
) -> None:
    s = start(proj)
    assert loaded(s.discover("docs/0/x.md")) == [(".claude/rules/r0.md", "R0", False)]
    edit_in_place(proj / ".claude/rules/r0.md", rule("docs/0/**", "V2"))
    assert loaded(s.discover("src/a.ts")) == []  # its scope does not match here: not due yet
    assert loaded(s.discover("docs/0/x.md")) == [(".claude/rules/r0.md", "V2", True)]
    assert loaded(s.discover("docs/0/x.md")) == []
    assert [f.text.strip() for f in s.blocks()].count("V2") == 1


def test_a_rule_added_loads_on_the_next_touch(proj: Path, start: Callable[[Path], Session]) -> None:
    s = start(proj)
    (proj / ".claude/rules/new.md").write_text(rule("src/*.ts", "NEW"))
    assert loaded(s.discover("src/a.ts")) == [(".claude/rules/new.md", "NEW", False)]


def test_a_rule_replaced_by_a_rename_loads_by_its_new_scope(
    proj: Path, start: Callable[[Path], Session]
) -> None:
    """As editors save: a new file written beside, then renamed over the old one (a new inode)."""
    s = start(proj)
    (proj / ".claude/rules/.r3.md.tmp").write_text(rule("src/**", "SAVED"))
    os.replace(proj / ".claude/rules/.r3.md.tmp", proj / ".claude/rules/r3.md")
    assert loaded(s.discover("src/a.ts")) == [(".claude/rules/r3.md", "SAVED", False)]


def test_a_held_rule_deleted_leaves_on_the_next_touch(proj: Path, start: Callable[[Path], Session]) -> None:
    s = start(proj)
    s.discover("docs/0/x.md")
    (proj / ".claude/rules/r0.md").unlink()
    found = s.discover("src/a.ts")
    assert found.dropped == (".claude/rules/r0.md",)
    assert ".claude/rules/r0.md" not in [f.display for f in s.blocks()]


def test_a_rule_in_a_new_sub_folder_loads(proj: Path, start: Callable[[Path], Session]) -> None:
    s = start(proj)
    write_tree(proj, {".claude/rules/team/ts.md": rule("src/**", "TEAM")})
    assert loaded(s.discover("src/a.ts")) == [(".claude/rules/team/ts.md", "TEAM", False)]
    edit_in_place(proj / ".claude/rules/team/ts.md", rule("src/**", "T2"))  # watched from then on
    assert loaded(s.discover("src/a.ts")) == [(".claude/rules/team/ts.md", "T2", True)]


def test_a_rules_folder_created_mid_session_is_found(
    tmp_path: Path, start: Callable[[Path], Session]
) -> None:
    root = settle(write_tree(tmp_path / "bare", {"CLAUDE.md": "root", "src/a.ts": ""}))
    s = start(root)
    write_tree(root, {".claude/rules/first.md": rule("src/**", "FIRST")})
    assert loaded(s.discover("src/a.ts")) == [(".claude/rules/first.md", "FIRST", False)]


def test_a_linked_rule_edited_through_its_target_is_noticed(
    tmp_path: Path, start: Callable[[Path], Session]
) -> None:
    """The write is reported to the target's folder, which no watch is on: such a file is stat'ed."""
    root = write_tree(
        tmp_path / "linked", {"CLAUDE.md": "", "src/a.ts": "", "shared/r.md": rule("docs/**", "L")}
    )
    (root / ".claude/rules").mkdir(parents=True)
    (root / ".claude/rules/r.md").symlink_to(root / "shared/r.md")
    s = start(settle(root))
    edit_in_place(root / "shared/r.md", rule("src/**", "L2"))
    assert loaded(s.discover("src/a.ts")) == [(".claude/rules/r.md", "L2", False)]


def test_a_hard_linked_rule_edited_through_its_other_name_is_noticed(
    tmp_path: Path, start: Callable[[Path], Session]
) -> None:
    root = write_tree(
        tmp_path / "hard", {"CLAUDE.md": "", "src/a.ts": "", "other/r.md": rule("docs/**", "H")}
    )
    (root / ".claude/rules").mkdir(parents=True)
    os.link(root / "other/r.md", root / ".claude/rules/r.md")
    s = start(settle(root))
    edit_in_place(root / "other/r.md", rule("src/**", "H2"))
    assert loaded(s.discover("src/a.ts")) == [(".claude/rules/r.md", "H2", False)]


def test_a_warm_touch_stats_every_rule_the_stat_way_and_none_once_notified(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trade this module makes: the stat way is exact at a stat per rule per call; once notified, a
    warm touch (the held rule it matches included) stats no rule file."""
    s = Session(Project(proj, managed_files=()), cwd=proj, use_git=False)
    s.startup()
    s.discover("docs/0/x.md")  # holds r0
    stats: list[str] = []
    real = os.stat

    def counting(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if isinstance(path, str) and f"{os.sep}.claude{os.sep}rules" in path:
            stats.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", counting)
    assert not s.rules_watch.notified
    s.discover("docs/0/x.md")
    assert len([p for p in stats if p.endswith(".md")]) >= RULES
    if not inotify_here(proj):
        return
    monkeypatch.setattr(rules_watch, "ARM_AFTER_STATS", 0)
    s.discover("docs/0/x.md")  # sets up inotify, then compares once more
    assert s.rules_watch.notified
    stats.clear()
    assert s.discover("docs/0/x.md").loaded == ()
    assert stats == []


def test_where_inotify_may_not_hear_a_session_keeps_to_stats(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rules folder on a network or FUSE file system: its writes may come from elsewhere."""
    monkeypatch.setattr(rules_watch, "ARM_AFTER_STATS", 0)
    monkeypatch.setattr(rules_watch, "local_filesystem", lambda device: False)
    s = Session(Project(proj, managed_files=()), cwd=proj, use_git=False)
    s.startup()
    s.discover("src/a.ts")
    s.discover("src/a.ts")
    assert not s.rules_watch.notified and not s.rules_watch.notify
    edit_in_place(proj / ".claude/rules/r7.md", rule("src/**", "EDIT"))
    assert loaded(s.discover("src/b.ts")) == [(".claude/rules/r7.md", "EDIT", False)]


def test_a_session_switches_to_inotify_once_its_stats_cost_as_much(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not inotify_here(proj):
        pytest.skip("no inotify for this file system here")
    s = Session(Project(proj, managed_files=()), cwd=proj, use_git=False)
    monkeypatch.setattr(rules_watch, "ARM_AFTER_STATS", 2 * RULES + 1)  # a stat per rule per compare
    s.startup()
    modes = []
    for _ in range(5):
        s.discover("src/a.ts")
        modes.append(s.rules_watch.notified)
    assert modes == [False, False, False, True, True]  # the first builds, three compare, then it listens


def test_a_forked_child_listens_on_an_instance_of_its_own(tmp_path: Path) -> None:
    """Reading the parent's instance would take its events; the child makes its own."""
    if not inotify_here(tmp_path):
        pytest.skip("no inotify here")
    parent = inotify.notifier()
    assert parent is not None
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports by its exit code
        child = inotify.notifier()
        os._exit(0 if child is not None and child is not parent and child.pid == os.getpid() else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert inotify.notifier() is parent


def test_a_watched_folder_removed_counts_as_a_change(tmp_path: Path) -> None:
    if not inotify_here(tmp_path):
        pytest.skip("no inotify here")
    found = inotify.notifier()
    assert found is not None
    folder = tmp_path / "watched"
    folder.mkdir()
    watch = found.watch(str(folder), "suffix", ".md")
    assert watch is not None
    seen = found.poll()
    (folder / "notes.txt").write_text("not a rule")
    assert found.poll() > seen and not found.changed_since(seen, [watch])  # not a name it listens for
    seen = found.serial
    folder.joinpath("notes.txt").unlink()
    folder.rmdir()
    found.poll()
    assert found.changed_since(seen, [watch])
