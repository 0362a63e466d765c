"""Session state that survives across processes, with concurrent writers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from jitctx import project as project_module
from jitctx.discovery.marks import mark_file_name
from jitctx.discovery.state import STATE_VERSION, channels_from_json
from jitctx.discovery.store import SessionStore, state_file_name
from jitctx.project import Project
from tests.conftest import settle, write_tree


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    files: dict[str, str | bytes] = {"CLAUDE.md": "root"}
    for index in range(12):
        files[f"pkg{index}/CLAUDE.md"] = f"PKG_{index}"
        files[f"pkg{index}/a.ts"] = ""
    return write_tree(tmp_path / "proj", files)


def test_two_opens_behave_like_one_session(proj: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state")
    project = Project(proj, managed_files=())
    with store.open(project, "s1", use_git=False) as first:
        assert first.new
        first.session.startup()
        assert [x.file.display for x in first.session.discover("pkg0/a.ts").loaded] == ["pkg0/CLAUDE.md"]
    with store.open(Project(proj, managed_files=()), "s1", use_git=False) as second:
        assert not second.new
        assert second.session.discover("pkg0/a.ts").loaded == ()
        assert [f.display for f in second.session.blocks()] == ["CLAUDE.md", "pkg0/CLAUDE.md"]


def test_state_of_another_root_is_not_reused(proj: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state")
    with store.open(Project(proj), "s1", use_git=False) as first:
        first.session.startup()
    other = write_tree(tmp_path / "other", {"CLAUDE.md": "x"})
    with store.open(Project(other), "s1", use_git=False) as second:
        assert second.new and any("another project" in w for w in second.warnings)


@pytest.mark.parametrize("garbage", ["{not json", "[]", '{"version": 99}', '{"version": 1, "root": 5}'])
def test_corrupt_state_starts_a_new_session(proj: Path, tmp_path: Path, garbage: str) -> None:
    store = SessionStore(tmp_path / "state")
    store.directory.mkdir()
    store.path_for("s1").write_text(garbage)
    with store.open(Project(proj), "s1", use_git=False) as opened:
        assert opened.new and opened.warnings
        opened.session.startup()
    assert json.loads(store.path_for("s1").read_text())["version"] == STATE_VERSION


@pytest.mark.parametrize("hostile", ["../../etc/passwd", "a/b", "..", "x" * 500, "id\0nul", ""])
def test_hostile_session_ids_stay_inside_the_state_dir(hostile: str) -> None:
    name = state_file_name(hostile)
    assert "/" not in name and "\0" not in name and name not in (".json", "..json") and len(name) < 120


def test_concurrent_writers_do_not_lose_loads(proj: Path, tmp_path: Path) -> None:
    """Twelve processes each touch a different package of one session; every load survives."""
    state = tmp_path / "state"
    env = {**os.environ, "JITCTX_HOME": str(tmp_path / "home")}

    def touch(index: int) -> int:
        proc = subprocess.run(
            [sys.executable, "-m", "jitctx", "touch", "--root", str(proj), "--session", "shared",
             "--state-dir", str(state), "--no-git", f"pkg{index}/a.ts"],
            capture_output=True, text=True, env=env, check=False,
        )  # fmt: skip
        return proc.returncode

    with ThreadPoolExecutor(max_workers=6) as pool:
        assert list(pool.map(touch, range(12))) == [0] * 12
    saved = json.loads((state / "sessions" / "shared.json").read_text())
    loaded = {entry[1] for entry in saved["channels"]["main"]["loaded"]}
    assert loaded == {"CLAUDE.md"} | {f"pkg{i}/CLAUDE.md" for i in range(12)}


def test_resume_reads_no_rule_when_nothing_changed(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A resumed session takes rule scopes from its saved cache: no file is read, no YAML is parsed."""
    write_tree(proj, {".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\nPY\n'})
    store = SessionStore(tmp_path / "state")
    with store.open(Project(proj, managed_files=()), "s1", use_git=False) as first:
        first.session.startup()
        first.session.discover("pkg0/a.ts")
    reads: list[str] = []
    original = project_module.read_instruction
    monkeypatch.setattr(
        project_module, "read_instruction", lambda p, *a, **k: reads.append(p) or original(p, *a, **k)
    )
    with store.open(Project(proj, managed_files=()), "s1", use_git=False) as second:
        assert second.session.discover("pkg0/a.ts").loaded == ()
        assert second.session.discover("pkg1/b.ts").scope_skipped >= 1
    assert reads == [str(proj / "pkg1/CLAUDE.md")]  # only the newly touched directory's file
    with store.open(Project(proj, managed_files=()), "s1", use_git=False) as third:
        step = third.session.discover("tools/x.py")
        assert [x.file.display for x in step.loaded] == [".claude/rules/py.md"]


@pytest.mark.parametrize(
    "named",
    [
        "{secret}",  # outside by name
        "{proj}/../secret.md",  # inside by its first letters only
        "{proj}/vendor/CLAUDE.md",  # inside by name, outside in fact: vendor -> the secret's folder
    ],
)
def test_a_tampered_state_cannot_name_files_outside(proj: Path, tmp_path: Path, named: str) -> None:
    outside = tmp_path / "outside"
    secret = write_tree(outside, {"secret.md": "EVIL_RULE_LEAKED", "CLAUDE.md": "EVIL_RULE_LEAKED"})
    (proj / "vendor").symlink_to(outside)
    store = SessionStore(tmp_path / "state")
    with store.open(Project(proj, managed_files=()), "s1", use_git=False) as opened:
        opened.session.startup()
    saved = json.loads(store.path_for("s1").read_text())
    path = named.format(secret=secret / "secret.md", proj=proj)
    directory = os.path.dirname(path)
    saved["channels"]["main"]["loaded"].append([path, "x.md", 1, 1, "session_start", "project", directory])
    store.path_for("s1").write_text(json.dumps(saved))
    with store.open(Project(proj, managed_files=()), "s1", use_git=False) as opened:
        # A touch of the folder it claims (mtime 1: it looks edited, so it would be read again) ...
        step = opened.session.discover(directory + "/CLAUDE.md")
        assert all("EVIL" not in x.file.text for x in step.loaded)
        assert all("EVIL" not in f.text for f in opened.session.blocks())
        assert all("EVIL" not in x.file.text for x in opened.session.after_compaction())
        assert path not in opened.session.channels["main"].loaded


def test_a_deleted_rule_is_dropped_in_the_next_process(proj: Path, tmp_path: Path) -> None:
    write_tree(proj, {".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\nPY\n'})
    store = SessionStore(tmp_path / "state")
    with store.open(Project(proj, managed_files=()), "s1", use_git=False) as first:
        first.session.startup()
        assert [x.file.display for x in first.session.discover("tools/x.py").loaded] == [
            ".claude/rules/py.md"
        ]
    (proj / ".claude/rules/py.md").unlink()
    with store.open(Project(proj, managed_files=()), "s1", use_git=False) as second:
        assert second.session.discover("pkg0/a.ts").dropped == (".claude/rules/py.md",)
        assert ".claude/rules/py.md" not in [f.display for f in second.session.blocks()]


def test_scanned_listings_survive_the_round_trip(proj: Path, tmp_path: Path) -> None:
    settle(proj)
    store = SessionStore(tmp_path / "state")
    pkg3 = str(proj / "pkg3")
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        opened.session.discover("pkg3/a.ts")
        before = opened.session.channels["main"].scanned.get(pkg3)
    assert before == [[pkg3, os.stat(pkg3).st_mtime_ns, os.stat(pkg3).st_size]]  # no .claude/ there
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        marks = opened.session.channels["main"].scanned
        assert marks.loaded() == {}  # nothing is read before a touch asks for it
        assert marks.get(pkg3) == before
        assert marks.get(str(proj / "pkg4")) is None
    # The state names the marks folder; the marks are not in it.
    saved = json.loads(store.path_for("s").read_text())
    assert saved["version"] == STATE_VERSION
    assert set(saved["channels"]["main"]) == {"started", "marks", "identities", "loaded"}
    assert str(before[0][1]) not in store.path_for("s").read_text()  # the directory's mtime: its mark


def test_a_version_2_state_is_taken_back_and_its_marks_moved_out(proj: Path, tmp_path: Path) -> None:
    settle(proj)
    store = SessionStore(tmp_path / "state")
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        opened.session.discover("pkg3/a.ts")
        pkg3 = str(proj / "pkg3")
        watch = opened.session.channels["main"].scanned.get(pkg3)
    data = json.loads(store.path_for("s").read_text())
    data["version"] = 2
    del data["channels"]["main"]["marks"]
    data["channels"]["main"]["scanned"] = {pkg3: watch, "/elsewhere": [["/elsewhere", 1, 1]]}
    store.path_for("s").write_text(json.dumps(data))
    shutil.rmtree(store.marks_folder("s"))
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        assert not opened.new
        assert opened.session.discover("pkg3/a.ts").loaded == ()  # held, and pkg3 still counts as scanned
        assert "/elsewhere" not in opened.session.channels["main"].scanned
    saved = json.loads(store.path_for("s").read_text())
    assert saved["version"] == STATE_VERSION and "scanned" not in saved["channels"]["main"]
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        assert opened.session.channels["main"].scanned.get(pkg3) == watch


def test_a_state_written_before_watch_lists_were_kept_looks_at_each_directory_again(
    proj: Path, tmp_path: Path
) -> None:
    raw = {"main": {"started": True, "scanned": [str(proj / "pkg3")], "identities": [], "loaded": []}}
    never = [[str(proj / "pkg3"), -1, -1]]  # a version no directory has
    assert channels_from_json(raw)["main"].scanned == {str(proj / "pkg3"): never}
    raw["main"]["scanned"] = "not a listing"
    with pytest.raises(TypeError):
        channels_from_json(raw)


def mark_path(store: SessionStore, opened_marks_id: str, directory: str) -> Path:
    return store.marks_folder("s") / opened_marks_id / mark_file_name(directory)


@pytest.mark.parametrize(
    "mark",
    [
        ["PKG", [["/etc", 1, 1]]],  # a path that is not the directory's own
        ["PKG", []],  # would mean "never look again"
        ["PKG", [["PKG\u0000", 1, 1]]],
        ["PKG/other", [["PKG", 1, 1]]],  # the mark of another directory
        ["PKG", [["PKG", 1e400, 1]]],
        ["PKG", [["PKG", "1", 1]]],
        ["PKG", [[1, 1, 1]]],
        ["PKG", "x"],
        "not a mark",
    ],
)
def test_a_tampered_mark_only_makes_the_directory_looked_at_again(
    proj: Path, tmp_path: Path, mark: object
) -> None:
    settle(proj)
    store = SessionStore(tmp_path / "state")
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        opened.session.discover("pkg3/a.ts")
        marks_id = opened.session.channels["main"].scanned.marks_id
    pkg3 = str(proj / "pkg3")
    path = mark_path(store, marks_id, pkg3)
    assert json.loads(path.read_text())[0] == pkg3
    path.write_text(json.dumps(mark).replace("PKG", pkg3).replace("1e400", "1" + "0" * 400))
    write_tree(proj, {"pkg3/AGENTS.md": "NEW_IN_PKG3"})
    settle(proj)  # so that only the tampered mark, not a young directory, sends the touch to a new scan
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        assert not opened.new and not opened.warnings
        step = opened.session.discover("pkg3/a.ts")
    assert [load.file.display for load in step.loaded] == ["pkg3/AGENTS.md"]


def test_a_mark_left_as_it_was_keeps_a_new_file_unseen_until_the_directory_changes(
    proj: Path, tmp_path: Path
) -> None:
    """The control for the test above: without tampering, a settled mark is trusted."""
    settle(proj)
    store = SessionStore(tmp_path / "state")
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        opened.session.discover("pkg3/a.ts")
    pkg3 = proj / "pkg3"
    stamp = pkg3.stat().st_mtime_ns
    write_tree(proj, {"pkg3/AGENTS.md": "NEW_IN_PKG3"})
    os.utime(pkg3, ns=(stamp, stamp))  # the listing looks as it was
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        assert opened.session.discover("pkg3/a.ts").loaded == ()


def test_a_state_without_body_sizes_still_resumes(proj: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state")
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
    state_path = tmp_path / "state" / state_file_name("s")
    data = json.loads(state_path.read_text())
    for row in data["channels"]["main"]["loaded"]:
        row.pop()  # as written before body sizes were kept
    state_path.write_text(json.dumps(data))
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        entry = opened.session.channels["main"].loaded[str(proj / "CLAUDE.md")]
        assert opened.warnings == [] and entry.body_bytes == -1 and entry.carried == entry.size


def sent_per_call(store: SessionStore, project: Callable[[], Project], touches: list[str]) -> list[list[str]]:
    """What each call (a store open, as a hook process makes one) loaded for its touch."""
    sent = []
    for path in touches:
        with store.open(project(), "s", use_git=False) as opened:
            if opened.new:
                opened.session.startup()
            sent.append([x.file.display for x in opened.session.discover(path).loaded])
    return sent


def test_user_rules_kept_behind_a_link_are_sent_once(tmp_path: Path) -> None:
    """Dotfiles elsewhere (`~/.claude/rules -> /nix/store/...`): the user's rules load wherever their
    links lead, so a resumed session must hold them as such, not drop them and send them again."""
    proj = write_tree(tmp_path / "proj", {"CLAUDE.md": "root", "a/x.py": "", "b/y.py": "", "c/z.py": ""})
    store_rules = write_tree(tmp_path / "store" / "rules", {"py.md": '---\npaths: ["**/*.py"]\n---\nPY\n'})
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "rules").symlink_to(store_rules)
    store = SessionStore(tmp_path / "state")
    sent = sent_per_call(
        store, lambda: Project(proj, home=home, managed_files=()), ["a/x.py", "b/y.py", "c/z.py", "a/x.py"]
    )
    assert [len(files) for files in sent] == [1, 0, 0, 0], sent


def test_an_import_from_outside_that_the_user_allows_is_sent_once(tmp_path: Path) -> None:
    shared = write_tree(tmp_path / "shared", {"style.md": "SHARED_STYLE"})
    proj = write_tree(
        tmp_path / "proj",
        {"CLAUDE.md": "root", "pkg/CLAUDE.md": f"see @{shared / 'style.md'}", "pkg/a.ts": "", "pkg/b.ts": ""},
    )
    home = write_tree(tmp_path / "home", {".config/jitctx/config.toml": "[imports]\nallow_outside = true\n"})
    store = SessionStore(tmp_path / "state")
    sent = sent_per_call(
        store, lambda: Project(proj, home=home, managed_files=()), ["pkg/a.ts", "pkg/b.ts", "pkg/a.ts"]
    )
    assert sent[0] == ["pkg/CLAUDE.md", str(shared / "style.md")] and sent[1:] == [[], []], sent
    with store.open(Project(proj, home=home, managed_files=()), "s", use_git=False) as opened:
        assert "SHARED_STYLE" in [f.text for f in opened.session.blocks()]


def test_a_tampered_state_cannot_pass_off_a_link_to_other_text_as_an_allowed_import(tmp_path: Path) -> None:
    """With imports outside allowed, only Markdown outside is read: a state naming `notes.md`, a link to a
    key file, does not get the key file read."""
    secret = write_tree(tmp_path / "keys", {"id.txt": "EVIL_KEY"}) / "id.txt"
    (tmp_path / "keys" / "notes.md").symlink_to(secret)
    proj = write_tree(tmp_path / "proj", {"CLAUDE.md": "root"})
    home = write_tree(tmp_path / "home", {".config/jitctx/config.toml": "[imports]\nallow_outside = true\n"})
    store = SessionStore(tmp_path / "state")
    with store.open(Project(proj, home=home, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
    saved = json.loads(store.path_for("s").read_text())
    named = str(tmp_path / "keys" / "notes.md")
    saved["channels"]["main"]["loaded"].append([named, "notes.md", 1, 1, "include", "project", str(proj)])
    store.path_for("s").write_text(json.dumps(saved))
    with store.open(Project(proj, home=home, managed_files=()), "s", use_git=False) as opened:
        assert all("EVIL" not in f.text for f in opened.session.blocks())
        assert named not in opened.session.channels["main"].loaded
