"""lint --format sarif, provenance --write and every --json document survive a file name that is not UTF-8.

On Linux a name may hold any byte; Python gives `caf\\xe9` to us as the str `caf\\udce9`, which cannot be
encoded as UTF-8. Each output below used to raise (and `provenance --write` left a temp file behind).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

LATIN1_DIR = os.fsdecode(b"caf\xe9")  # "caf\udce9"

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux allows any byte in a file name")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# rules\n", "utf-8")
    folder = root / LATIN1_DIR
    folder.mkdir()
    (folder / "CLAUDE.md").write_text("# cafe rules\nSee @missing.md\n", "utf-8")
    return root


def jitctx(root: Path, *argv: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "JITCTX_HOME": "/nonexistent-home"}
    return subprocess.run(
        [sys.executable, "-m", "jitctx", *argv, "--root", str(root)], capture_output=True, env=env,
        timeout=60, check=False,
    )  # fmt: skip


def test_lint_sarif_is_valid_utf8_json(root: Path) -> None:
    done = jitctx(root, "lint", "--format", "sarif")
    assert done.returncode == 1, done.stderr  # the broken import is a finding, not a crash
    document = json.loads(done.stdout.decode("utf-8"))
    results = document["runs"][0]["results"]
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    # A URI carries the file name's own bytes, percent-encoded.
    assert "caf%E9/CLAUDE.md" in locations


def test_lint_json_keeps_the_exact_name(root: Path) -> None:
    done = jitctx(root, "lint", "--json")
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout.decode("utf-8"))
    # The JSON escape \udce9 round-trips: os.fsencode gives back the bytes of the real name.
    files = {finding["path"] for finding in document["findings"]}
    assert f"{LATIN1_DIR}/CLAUDE.md" in files
    assert os.path.exists(root / f"{LATIN1_DIR}/CLAUDE.md")


def test_provenance_write_then_check(root: Path) -> None:
    done = jitctx(root, "provenance", "--write")
    assert done.returncode == 0, done.stderr
    lock = root / ".jitctx.lock.json"
    paths = [entry["path"] for entry in json.loads(lock.read_bytes().decode("utf-8"))["files"]]
    assert f"{LATIN1_DIR}/CLAUDE.md" in paths
    assert [p.name for p in root.iterdir() if p.name.endswith(".tmp")] == []
    checked = jitctx(root, "provenance", "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr  # the name round-trips through the lock


def test_provenance_table_and_json(root: Path) -> None:
    shown = jitctx(root, "provenance")
    assert shown.returncode == 0, shown.stderr
    assert "caf\\udce9/CLAUDE.md" in shown.stdout.decode("utf-8")
    document = json.loads(jitctx(root, "provenance", "--json").stdout.decode("utf-8"))
    assert f"{LATIN1_DIR}/CLAUDE.md" in [f["path"] for f in document["files"]]


def test_a_failed_lock_write_leaves_no_temp_file(tmp_path: Path) -> None:
    from jitctx.govern.provenance import LockError, write_lock

    target = tmp_path / "lock.json"
    with pytest.raises((LockError, UnicodeEncodeError)):
        write_lock(str(target), "caf\ud800")  # not even backslashreplace-able by the caller: refused
    assert list(tmp_path.iterdir()) == []
