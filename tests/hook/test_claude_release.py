"""What a Claude Code release loads by itself, and what its transcript tells: the release and the session a
fork was copied from. The shell rows are what the real 2.1.332 did against the scripted model (tests/e2e)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from jitctx.clients.claude_code.release import shell_read_by_client, tool_loads_nested, wide
from jitctx.clients.claude_code.transcript import TAIL_BYTES, forked_from, release_of

OLD = (2, 1, 197)
WIDE = (2, 1, 332)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools/gen.py").write_text("pass\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.ts").write_text("export {}\n")
    return tmp_path


@pytest.mark.parametrize(
    ("command", "read"),
    [
        ("cat tools/gen.py", "tools/gen.py"),
        ("cat -n tools/gen.py", "tools/gen.py"),
        ("head -50 tools/gen.py", "tools/gen.py"),
        ("head -n 5 tools/gen.py", "tools/gen.py"),
        ("tail -n 3 tools/gen.py", "tools/gen.py"),
        ("sed -n '1,5p' tools/gen.py", "tools/gen.py"),
        ("grep -n main tools/gen.py", "tools/gen.py"),
        ("egrep main tools/gen.py", "tools/gen.py"),
        ("rg main tools/gen.py", "tools/gen.py"),
        ("cat ABS", "tools/gen.py"),
        # What the client leaves to jitctx: several files, pipes, redirections, lists, other programs.
        ("cat tools/gen.py src/a.ts", None),
        ("cat tools/gen.py | head -2", None),
        ("cat tools/gen.py 2>/dev/null", None),
        ("cd tools && cat gen.py", None),
        ("nl tools/gen.py", "tools/gen.py"),  # a bare `nl` is followed...
        ("nl -ba tools/gen.py", None),  # ...with options it is not
        ("less tools/gen.py", None),
        ("wc -l tools/gen.py", None),
        ("rg main tools", None),  # a directory search
        ("sed -i s/a/b/ tools/gen.py", None),  # a write
        ("cat tools/missing.py", None),
        ("cat 'unterminated", None),
        ("cat $F", None),
    ],
)
def test_which_shell_reads_the_client_follows(project: Path, command: str, read: str | None) -> None:
    command = command.replace("ABS", str(project / "tools/gen.py"))
    expected = None if read is None else str(project / read)
    assert shell_read_by_client(command, str(project), WIDE) == expected
    # Unknown: the oldest behaviour, so jitctx sends it (a possible duplicate, never a lost rule).
    assert shell_read_by_client(command, str(project), None) is None
    assert shell_read_by_client(command, str(project), OLD) is None  # 2.1.197 follows no shell read


def test_the_tools_after_which_a_release_loads_nested_files() -> None:
    assert [tool_loads_nested(t, OLD) for t in ("Read", "Write", "Edit", "Bash")] == [
        True,
        False,
        False,
        False,
    ]
    assert [tool_loads_nested(t, WIDE) for t in ("Read", "Write", "Edit", "Bash")] == [
        True,
        True,
        True,
        False,
    ]
    assert not wide(None) and wide((3, 0, 0)) and not wide((2, 1, 331))
    assert [tool_loads_nested(t, None) for t in ("Read", "Write")] == [True, False]


def _transcript(path: Path, records: list[dict[str, object]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def test_the_release_is_read_from_the_transcript(tmp_path: Path) -> None:
    path = _transcript(tmp_path / "t.jsonl", [{"type": "mode"}, {"type": "user", "version": "2.1.332"}])
    assert release_of(path) == (2, 1, 332)
    assert release_of(_transcript(tmp_path / "none.jsonl", [{"type": "mode"}])) is None
    assert release_of(str(tmp_path / "missing.jsonl")) is None
    assert release_of("relative.jsonl") is None
    assert release_of(str(tmp_path)) is None  # a directory
    assert release_of(None) is None and release_of(7) is None and release_of("/a\0b") is None


def test_a_fifo_transcript_is_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    assert release_of(str(fifo)) is None
    assert forked_from(str(fifo), "new") is None


def test_a_fork_names_the_session_it_was_copied_from(tmp_path: Path) -> None:
    copied = {"type": "assistant", "sessionId": "new", "requestSessionId": "old-1"}
    path = _transcript(tmp_path / "fork.jsonl", [{"type": "mode", "sessionId": "new"}, copied])
    assert forked_from(path, "new") == "old-1"
    own = _transcript(tmp_path / "own.jsonl", [{"type": "assistant", "requestSessionId": "new"}])
    assert forked_from(own, "new") is None  # its own requests
    assert forked_from(_transcript(tmp_path / "plain.jsonl", [{"type": "user"}]), "new") is None
    hostile = _transcript(tmp_path / "hostile.jsonl", [{"requestSessionId": "../../etc/passwd"}])
    assert forked_from(hostile, "new") is None  # not an id


def test_a_fork_of_a_fork_names_its_direct_parent(tmp_path: Path) -> None:
    """The newest record naming another session wins, found in the tail of a long transcript."""
    records: list[dict[str, object]] = [{"requestSessionId": "grandparent", "pad": "x" * 1000}]
    records += [{"type": "user", "pad": "y" * 1000} for _ in range(TAIL_BYTES // 1000 + 10)]
    records.append({"requestSessionId": "parent"})
    records.append({"requestSessionId": "child"})
    path = _transcript(tmp_path / "long.jsonl", records)
    assert forked_from(path, "child") == "parent"


def test_the_release_is_the_newest_the_transcript_names(tmp_path: Path) -> None:
    """A conversation begun by 2.1.197 and resumed by 2.1.332 is answered as 2.1.332; a half-written last
    record (`"2.1.3`) is not read as release 2.1.3."""
    records: list[dict[str, object]] = [{"type": "user", "version": "2.1.197", "pad": "x" * 70_000}]
    records.append({"type": "assistant", "version": "2.1.332"})
    path = _transcript(tmp_path / "resumed.jsonl", records)
    assert release_of(path) == (2, 1, 332)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"type": "user", "version": "2.1.3')
    assert release_of(path) == (2, 1, 332)


def test_the_release_is_read_from_the_client_process_when_the_transcript_does_not_exist_yet(
    tmp_path: Path,
) -> None:
    """The first tool call of `claude -p` can come before the transcript exists: the client process
    above the hook tells the release, from the package it runs out of."""
    import subprocess
    import sys
    import time

    from jitctx.clients.claude_code.client import ClaudeFollower
    from jitctx.clients.claude_code.process_release import release_of_process, release_of_program

    package = tmp_path / "node_modules/@anthropic-ai/claude-code"
    (package / "bin").mkdir(parents=True)
    (package / "package.json").write_text(
        json.dumps({"name": "@anthropic-ai/claude-code", "version": "2.1.197"})
    )
    claude = package / "bin" / "claude.exe"
    claude.symlink_to(sys.executable)  # a process whose /proc/PID/cmdline names the package's binary
    assert release_of_program(str(claude)) == (2, 1, 197)
    native = tmp_path / ".local/share/claude/versions/2.1.332"
    native.parent.mkdir(parents=True)
    native.write_text("")
    assert release_of_program(str(native)) == (2, 1, 332)
    assert release_of_program(str(tmp_path / "bin" / "python3")) is None
    child = subprocess.Popen([str(claude), "-c", "import time; time.sleep(30)"])
    try:
        # Until the child has exec'd, /proc shows the forking parent's command line.
        deadline = time.monotonic() + 10
        while str(claude).encode() not in Path(f"/proc/{child.pid}/cmdline").read_bytes():
            assert time.monotonic() < deadline, "the child did not start"
            time.sleep(0.01)
        assert release_of_process(child.pid) == (2, 1, 197)
        follower = ClaudeFollower(str(tmp_path / "not-yet.jsonl"), child.pid)
        assert follower.release == (2, 1, 197)
        assert not follower.follows("Write", {"file_path": "x"})  # 2.1.197 leaves a Write to jitctx
    finally:
        child.kill()
        child.wait()
    assert ClaudeFollower(str(tmp_path / "not-yet.jsonl"), None).release is None
