"""The provenance lock: fingerprints, comparison, atomic no-op writes, and locks that cannot be used."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.govern.provenance import (
    LOCK_VERSION,
    ChangeKind,
    Fingerprint,
    Lock,
    LockError,
    NewerLockError,
    compare,
    fingerprints,
    merge_for_write,
    parse_lock,
    read_lock,
    render_lock,
    write_lock,
)
from jitctx.project import Project
from tests.conftest import Tree

SHA = "a" * 64


def current(root: Path) -> tuple[Fingerprint, ...]:
    files, _ = Project(root).all_instruction_files()
    return fingerprints(files)


def fp(path: str, sha: str = SHA, size: int = 10, mtime_ns: int = 1_000_000_000) -> Fingerprint:
    return Fingerprint(path, sha, size, mtime_ns)


def test_fingerprint_hashes_bytes_on_disk(tree: Tree) -> None:
    raw = b'\xef\xbb\xbf---\npaths: ["src/**"]\n---\r\nrule\r\n'
    root = tree({"CLAUDE.md": "# Root\n", ".claude/rules/a.md": raw})
    found = {f.path: f for f in current(root)}
    assert set(found) == {"CLAUDE.md", ".claude/rules/a.md"}
    rule = found[".claude/rules/a.md"]
    assert rule.sha256 == hashlib.sha256(raw).hexdigest()  # BOM, frontmatter and CRLF included
    assert rule.size == len(raw)
    assert rule.mtime_ns == os.stat(root / ".claude/rules/a.md").st_mtime_ns
    assert rule.mtime.endswith("Z")


@pytest.mark.parametrize(
    ("before", "after", "kinds"),
    [
        ([fp("A.md")], [fp("A.md")], []),
        ([fp("A.md")], [fp("A.md", sha="b" * 64)], [ChangeKind.CHANGED]),
        ([fp("A.md")], [fp("A.md", size=11)], [ChangeKind.CHANGED]),
        ([fp("A.md")], [fp("A.md", mtime_ns=2_000_000_000)], [ChangeKind.TOUCHED]),
        ([fp("A.md")], [fp("A.md"), fp("B.md")], [ChangeKind.ADDED]),
        ([fp("A.md"), fp("B.md")], [fp("B.md")], [ChangeKind.REMOVED]),
    ],
)
def test_compare(before: list[Fingerprint], after: list[Fingerprint], kinds: list[ChangeKind]) -> None:
    drift = compare(Lock(LOCK_VERSION, tuple(before)), after)
    assert [c.kind for c in drift.changes] == kinds
    # an mtime alone is a note, never a failure (CI clones reset mtimes)
    assert [c.kind for c in drift.failing] == [k for k in kinds if k is not ChangeKind.TOUCHED]


def test_write_then_check_then_drift(tree: Tree) -> None:
    root = tree({"CLAUDE.md": "# Root\n", "AGENTS.md": "# Agents\n", "website/CLAUDE.md": "# Site\n"})
    lock_path = str(root / ".jitctx.lock.json")
    assert write_lock(lock_path, render_lock(merge_for_write(None, current(root)))) is True
    lock = read_lock(lock_path)
    assert lock is not None and [f.path for f in lock.files] == [
        "AGENTS.md",
        "CLAUDE.md",
        "website/CLAUDE.md",
    ]
    assert compare(lock, current(root)).changes == ()

    (root / "AGENTS.md").write_text("# Agents, edited\n")
    (root / "website/CLAUDE.md").unlink()
    (root / "GEMINI.md").write_text("# Gemini\n")
    os.utime(root / "CLAUDE.md", ns=(1, 1))
    drift = compare(lock, current(root))
    assert [(c.path, c.kind) for c in drift.changes] == [
        ("AGENTS.md", ChangeKind.CHANGED),
        ("CLAUDE.md", ChangeKind.TOUCHED),
        ("GEMINI.md", ChangeKind.ADDED),
        ("website/CLAUDE.md", ChangeKind.REMOVED),
    ]


def test_rewrite_of_unchanged_content_is_a_no_op(tree: Tree) -> None:
    root = tree({"CLAUDE.md": "# Root\n"})
    lock_path = str(root / ".jitctx.lock.json")
    write_lock(lock_path, render_lock(merge_for_write(None, current(root))))
    first = Path(lock_path).read_bytes()
    inode = os.stat(lock_path).st_ino
    os.utime(root / "CLAUDE.md", ns=(5, 5))  # a CI clone: new mtime, same bytes
    lock = read_lock(lock_path)
    assert write_lock(lock_path, render_lock(merge_for_write(lock, current(root)))) is False
    assert Path(lock_path).read_bytes() == first
    assert os.stat(lock_path).st_ino == inode  # not even replaced


def test_write_is_atomic_and_readable_by_everyone(tree: Tree) -> None:
    root = tree({"CLAUDE.md": "# Root\n"})
    lock_path = root / ".jitctx.lock.json"
    write_lock(str(lock_path), render_lock(current(root)))
    assert stat.S_IMODE(os.stat(lock_path).st_mode) == 0o644
    assert [p.name for p in root.iterdir() if p.name.startswith(".jitctx.lock.")] == [".jitctx.lock.json"]
    document = json.loads(lock_path.read_text())
    assert document["version"] == LOCK_VERSION
    assert set(document["files"][0]) == {"path", "sha256", "size", "mtime", "mtime_ns"}


def test_missing_lock_reads_as_none(tmp_path: Path) -> None:
    assert read_lock(str(tmp_path / "nope.json")) is None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"files": []}', "'version' must be a positive integer"),
        ('{"version": "1", "files": []}', "'version' must be a positive integer"),
        ('{"version": true, "files": []}', "'version' must be a positive integer"),
        ('{"version": 1}', "'files' must be a list"),
        ('{"version": 1, "files": [3]}', "files[0] must be an object"),
        ('{"version": 1, "files": [{"sha256": "' + SHA + '", "size": 1}]}', "'path' must be"),
        ('{"version": 1, "files": [{"path": "A.md", "sha256": "xyz", "size": 1}]}', "'sha256' must be"),
        (
            '{"version": 1, "files": [{"path": "A.md", "sha256": "' + SHA + '", "size": -1}]}',
            "'size' must be",
        ),
    ],
)
def test_malformed_lock(text: str, fragment: str) -> None:
    with pytest.raises(LockError) as info:
        parse_lock(text, "lock.json")
    assert fragment in str(info.value)
    assert str(info.value).startswith("lock.json")
    assert not isinstance(info.value, NewerLockError)


def test_lock_from_newer_version() -> None:
    with pytest.raises(NewerLockError, match=r"newer jitctx.*lock format 2.*reads up to 1"):
        parse_lock(json.dumps({"version": LOCK_VERSION + 1, "files": "anything"}), "lock.json")


def test_unknown_keys_of_the_same_version_are_tolerated() -> None:
    lock = parse_lock(
        json.dumps({"version": 1, "note": "x", "files": [{**fp("A.md").to_json(), "x": 1}]}), "l"
    )
    assert lock.files == (fp("A.md"),)


@settings(max_examples=250, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=70),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    )
)
def test_any_json_is_read_or_refused_with_lock_error(document: object) -> None:
    try:
        parse_lock(json.dumps(document), "lock.json")
    except LockError:
        pass
