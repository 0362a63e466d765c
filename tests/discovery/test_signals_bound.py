"""Startup signals are bounded: 20,000 untracked files would make every session start take seconds, and a
start cut short by the hook's deadline would be cut short again at every call."""

from __future__ import annotations

from pathlib import Path

from jitctx.discovery.session import Session
from jitctx.discovery.signals import MAX_CHANGED_SIGNALS, collect_signals
from jitctx.project import Project
from tests.conftest import git_init, write_tree


def test_past_the_bound_the_first_changed_files_are_signals(tmp_path: Path) -> None:
    root = git_init(
        write_tree(tmp_path / "proj", {".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\nPY\n'})
    )
    write_tree(root, {f"many/f{index:05d}.py": "" for index in range(MAX_CHANGED_SIGNALS + 50)})
    signals = collect_signals(str(root), str(root))
    assert signals.changed == tuple(f"many/f{index:05d}.py" for index in range(MAX_CHANGED_SIGNALS))
    assert signals.warnings == (
        f"{MAX_CHANGED_SIGNALS + 50:,} changed files under the cwd; the first {MAX_CHANGED_SIGNALS:,} are "
        "startup signals, the others load their rules when touched",
    )
    started = Session(Project(str(root)), use_git=True).startup()
    assert ".claude/rules/py.md" in [load.file.display for load in started.loaded]
    assert signals.warnings[0] in started.warnings


def test_within_the_bound_every_changed_file_is_a_signal(tmp_path: Path) -> None:
    root = git_init(write_tree(tmp_path / "proj", {"a.txt": ""}))
    write_tree(root, {f"few/f{index}.py": "" for index in range(10)})
    signals = collect_signals(str(root), str(root))
    assert len(signals.changed) == 10 and signals.warnings == ()
