"""`jitctx hook AGENT --warm`: the event goes to a daemon of the same user and environment, which answers
as the hook process would; whenever it cannot, the hook answers itself, and a file whose answer the hook
did not confirm is sent again.

Each hook runs as a real process with `-X importtime`, so a test can tell who answered: a hook that the
daemon answered never imports the engine (`jitctx.hook.engine`)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from jitctx.hook.transports.warm.place import identity, key_of, request_head
from jitctx.hook.transports.warm.server import CodeVersions
from tests.conftest import EXAMPLE, git_init, settle

ENGINE = "jitctx.hook.pipeline"  # imported only by a hook process that answers itself
LINUX = sys.platform.startswith("linux")


class Run(NamedTuple):
    code: int
    answer: dict[str, Any]
    stderr: str
    engine: bool  # the hook process imported the engine: it answered by itself
    seconds: float


def context(run: Run) -> str:
    return json.dumps(run.answer)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    return settle(git_init(root))


@pytest.fixture
def warm_env(hook_env: dict[str, str], tmp_path: Path) -> Iterator[dict[str, str]]:
    """The hook's environment, with a daemon that gives up after a few idle seconds; every daemon a test
    started under its temp dir is killed at the end (by the pid it writes next to its lock)."""
    yield {**os.environ, **hook_env, "JITCTX_WARM_IDLE": "8"}
    for pid_file in tmp_path.rglob("*.pid"):
        kill_daemon(pid_file, signal.SIGKILL)


def kill_daemon(pid_file: Path, number: int) -> int | None:
    """Signal the daemon whose pid is in `pid_file` (only if that process is a warm daemon)."""
    try:
        pid = int(pid_file.read_text())
        command = Path(f"/proc/{pid}/cmdline").read_bytes() if LINUX else b"--serve-warm"
    except (OSError, ValueError):
        return None
    if b"--serve-warm" not in command:
        return None
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        return None
    return pid


def hook(
    agent: str, event: dict[str, Any] | bytes, env: dict[str, str], *extra: str, warm: bool = True
) -> Run:
    data = event if isinstance(event, bytes) else json.dumps(event).encode()
    command = [sys.executable, "-X", "importtime", "-m", "jitctx", "hook", agent, *extra]
    started = time.monotonic()
    done = subprocess.run(
        [*command, "--warm"] if warm else command, input=data, capture_output=True, env=env, timeout=30
    )
    stderr = done.stderr.decode()
    return Run(done.returncode, json.loads(done.stdout), stderr, ENGINE in stderr, time.monotonic() - started)


def warm_dir(env: dict[str, str]) -> Path:
    return Path(env["JITCTX_STATE_DIR"]) / "warm"


def key(env: dict[str, str], use_git: bool = True) -> str:
    return key_of(identity(os.path.abspath(env["JITCTX_STATE_DIR"]), use_git, env))


def wait_for(condition: Callable[[], bool], seconds: float = 8.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def daemon_pid(env: dict[str, str], use_git: bool = True) -> int:
    """The pid of the environment's daemon once it listens."""
    name = key(env, use_git)
    directory = warm_dir(env)
    wait_for(lambda: (directory / f"{name}.sock").exists() and (directory / f"{name}.pid").exists())
    return int((directory / f"{name}.pid").read_text())


def listening(path: Path) -> bool:
    """Does a process accept connections on the unix socket at `path` (not a stale file)?"""
    import socket

    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        return False
    finally:
        probe.close()
    return True


def alive(pid: int) -> bool:
    if LINUX:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return False
        return state != "Z"  # a zombie waiting for its parent to read its status is gone for us
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def event(root: Path, name: str, session: str = "w1", **fields: Any) -> dict[str, Any]:
    return {"session_id": session, "cwd": str(root), "hook_event_name": name, **fields}


def read(root: Path, rel: str, session: str = "w1") -> dict[str, Any]:
    return event(root, "PostToolUse", session, tool_name="Read", tool_input={"file_path": str(root / rel)},
                 tool_response={})  # fmt: skip


def shell_read(root: Path, rel: str, session: str = "w1") -> dict[str, Any]:
    return event(root, "PostToolUse", session, tool_name="Bash", tool_input={"command": f"cat {root / rel}"})


def codex_shell(root: Path, command: str) -> dict[str, Any]:
    return event(root, "PostToolUse", "c1", tool_name="Bash", tool_input={"command": command})


def nothing(root: Path) -> dict[str, Any]:
    """An event that touches nothing: it only starts the daemon."""
    return event(root, "UserPromptSubmit", "warm-up", prompt="hello")


def start_daemon(env: dict[str, str], root: Path, *extra: str) -> int:
    first = hook("claude-code", nothing(root), env, *extra)
    assert first.engine and first.answer == {}  # nobody listened: answered here, daemon started
    return daemon_pid(env, "--no-git" not in extra)


def records(env: dict[str, str]) -> list[tuple[Any, ...]]:
    """The event log, without times: what was recorded, for which file, with what loaded."""
    rows = []
    for path in sorted((Path(env["JITCTX_STATE_DIR"]) / "events").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            loaded = sorted(load["file_path"] for load in record.get("loaded", []))
            rows.append((record["kind"], record.get("hit"), record.get("trigger_file_path"), loaded))
    return rows


# -- the same answers -------------------------------------------------------------------------------------


def test_the_daemon_answers_as_the_hook_process_does(project: Path, warm_env: dict[str, str],
                                                     tmp_path: Path) -> None:  # fmt: skip
    plain = {**warm_env, "JITCTX_STATE_DIR": str(tmp_path / "plain-state")}
    steps = [
        ("claude-code", event(project, "SessionStart", source="startup")),
        ("claude-code", read(project, "src/api/users.ts")),  # loads src/api/AGENTS.md
        ("claude-code", read(project, "src/api/users.ts")),  # quiet: the fast lane, in the daemon
        ("claude-code", shell_read(project, "tools/gen.py")),  # a scoped rule, through the shell
        ("codex", event(project, "SessionStart", "c1", source="startup")),
        ("codex", codex_shell(project, "cat src/api/users.ts")),
    ]
    start_daemon(warm_env, project)
    hook("claude-code", nothing(project), plain, warm=False)
    expected = []
    for agent, step in steps:
        alone = hook(agent, step, plain, warm=False)
        got = hook(agent, step, warm_env)
        assert (got.code, got.answer) == (alone.code, alone.answer), step
        assert not got.engine, f"{agent} {step['hook_event_name']} was not answered by the daemon"
        expected.append(alone)
    # Answers worth comparing: files arrive, and the quiet Read brings none.
    assert "src/api/AGENTS.md" in context(expected[1]) and expected[2].answer == {}
    assert "src/api/AGENTS.md" in context(expected[5])
    assert records(warm_env) == records(plain)  # the same discoveries, loads and misses were logged


def test_the_answers_carry_the_files(project: Path, warm_env: dict[str, str]) -> None:
    """Not only equal to the process's answers: the right files arrive through the daemon."""
    start_daemon(warm_env, project, "--no-git")
    start = hook("claude-code", event(project, "SessionStart", source="startup"), warm_env, "--no-git")
    assert "Contents of AGENTS.md" in context(start) and not start.engine
    loading = hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env, "--no-git")
    assert "src/api/AGENTS.md" in context(loading) and not loading.engine
    quiet = hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env, "--no-git")
    assert quiet.answer == {} and not quiet.engine


def test_the_first_call_starts_the_daemon_and_the_next_one_is_answered_by_it(
    project: Path, warm_env: dict[str, str]
) -> None:
    assert not warm_dir(warm_env).exists()
    first = hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env)
    assert first.engine and "src/api/AGENTS.md" in context(first)
    pid = daemon_pid(warm_env)
    assert alive(pid)
    assert oct(warm_dir(warm_env).stat().st_mode & 0o777) == "0o700"
    second = hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env)
    assert (second.answer, second.engine) == ({}, False)  # sent once, and not by this process


def test_the_daemon_keeps_no_descriptor_per_request(project: Path, warm_env: dict[str, str]) -> None:
    if not LINUX:
        pytest.skip("reads /proc")
    pid = start_daemon(warm_env, project)

    def descriptors() -> int:
        return len(os.listdir(f"/proc/{pid}/fd"))

    hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env)
    time.sleep(0.3)  # the daemon finishes a request after its hook exits: the count settles first
    before = descriptors()
    for _ in range(3):
        hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env)
        hook("claude-code", b"not json", warm_env)
    wait_for(lambda: descriptors() == before, seconds=3)


# -- falling back -----------------------------------------------------------------------------------------


def test_a_killed_daemon_is_answered_for_then_replaced(project: Path, warm_env: dict[str, str]) -> None:
    pid = start_daemon(warm_env, project)
    os.kill(pid, signal.SIGKILL)
    wait_for(lambda: not alive(pid))
    stale = warm_dir(warm_env) / f"{key(warm_env)}.sock"
    assert stale.exists()  # left behind: connecting is refused
    after = hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env)
    assert after.engine and "src/api/AGENTS.md" in context(after)
    # A daemon was started less than 30 s ago: not again on every call.
    assert int((warm_dir(warm_env) / f"{key(warm_env)}.pid").read_text()) == pid
    marker = warm_dir(warm_env) / f"{key(warm_env)}.started"
    os.utime(marker, (time.time() - 60, time.time() - 60))
    hook("claude-code", nothing(project), warm_env)
    wait_for(lambda: (warm_dir(warm_env) / f"{key(warm_env)}.pid").read_text().strip() != str(pid))
    # The new daemon writes its pid before it replaces the stale socket with its own.
    wait_for(lambda: listening(stale))
    replaced = daemon_pid(warm_env)
    again = hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env)
    assert (again.answer, again.engine, alive(replaced)) == ({}, False, True)


def test_a_daemon_of_another_environment_is_refused(project: Path, warm_env: dict[str, str]) -> None:
    pid = start_daemon(warm_env, project)
    other = {**warm_env, "XDG_CONFIG_HOME": str(project.parent / "other-config")}
    # A digest collision, simulated: the other environment's socket name leads to this daemon.
    os.link(warm_dir(warm_env) / f"{key(warm_env)}.sock", warm_dir(warm_env) / f"{key(other)}.sock")
    run = hook("claude-code", shell_read(project, "src/api/users.ts"), other)
    assert run.engine and "src/api/AGENTS.md" in context(run)
    assert alive(pid) and not (warm_dir(warm_env) / f"{key(other)}.pid").exists()  # refused, no new daemon


@pytest.mark.parametrize("plant", ["file", "fifo", "link", "foreign"])
def test_only_a_socket_of_ours_is_connected_to(
    project: Path, warm_env: dict[str, str], tmp_path: Path, plant: str
) -> None:
    directory = warm_dir(warm_env)
    path = directory / f"{key(warm_env)}.sock"
    if plant == "foreign":
        if os.getuid() != 0:
            pytest.skip("giving a socket to another user needs root")
        pid = start_daemon(warm_env, project)
        os.chown(path, 65534, 65534, follow_symlinks=False)
    else:
        directory.mkdir(parents=True, mode=0o700)
        if plant == "file":
            path.write_text("not a socket")
        elif plant == "fifo":
            os.mkfifo(path)
        else:  # a link to a listening socket elsewhere
            elsewhere = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            elsewhere.bind(str(tmp_path / "s"))
            elsewhere.listen(1)
            path.symlink_to(tmp_path / "s")
    run = hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env)
    assert run.code == 0 and run.engine and "src/api/AGENTS.md" in context(run)
    if plant == "foreign":
        assert alive(pid)
        return
    # The daemon the call started holds the lock, replaces the planted file and serves.
    daemon_pid(warm_env)
    wait_for(lambda: path.is_socket() and not path.is_symlink())
    again = hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env)
    assert (again.answer, again.engine) == ({}, False)


def test_a_warm_dir_others_can_enter_is_not_used(project: Path, warm_env: dict[str, str]) -> None:
    pid = start_daemon(warm_env, project)
    warm_dir(warm_env).chmod(0o755)
    run = hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env)
    assert run.engine and "src/api/AGENTS.md" in context(run)
    assert alive(pid)


def test_a_state_dir_too_long_for_a_socket_address(project: Path, warm_env: dict[str, str],
                                                   tmp_path: Path) -> None:  # fmt: skip
    state = tmp_path / ("long-state-dir-" * 8) / "state"
    env = {**warm_env, "JITCTX_STATE_DIR": str(state)}
    assert len(str(state / "warm" / "x.sock")) > 108
    first = hook("claude-code", nothing(project), env)
    assert first.code == 0 and first.answer == {}
    if not LINUX:  # no way to name the socket: the hook answers itself, always
        later = hook("claude-code", shell_read(project, "src/api/users.ts"), env)
        assert later.engine and "src/api/AGENTS.md" in context(later)
        return
    daemon_pid(env)  # bound through /proc/self/fd/N/<key>.sock
    run = hook("claude-code", shell_read(project, "src/api/users.ts"), env)
    assert not run.engine and "src/api/AGENTS.md" in context(run)


def test_a_daemon_whose_code_changed_is_stale(project: Path, warm_env: dict[str, str]) -> None:
    """An upgrade or an edit of jitctx under a running daemon: it says so, exits, and the hook answers."""
    import jitctx.hook.transports.warm.server as server_module

    pid = start_daemon(warm_env, project)
    source = Path(server_module.__file__)
    before = source.stat()
    try:
        os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
        run = hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env)
    finally:
        os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert run.engine and "src/api/AGENTS.md" in context(run)
    wait_for(lambda: not alive(pid))
    assert not (warm_dir(warm_env) / f"{key(warm_env)}.sock").exists()


@pytest.mark.parametrize("change", ["edit", "delete"])
def test_code_versions_notice_a_module_edited_or_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    import types

    source = tmp_path / "part.py"
    source.write_text("x = 1\n")
    package, part = types.ModuleType("warmfake"), types.ModuleType("warmfake.part")
    part.__file__ = str(source)
    monkeypatch.setitem(sys.modules, "warmfake", package)
    monkeypatch.setitem(sys.modules, "warmfake.part", part)
    versions = CodeVersions("warmfake")
    assert not versions.changed()
    if change == "edit":
        mtime = source.stat().st_mtime_ns
        os.utime(source, ns=(mtime, mtime + 1))
    else:
        source.unlink()
    assert versions.changed()


# -- confirmation ------------------------------------------------------------------------------------------


def ask_without_confirming(env: dict[str, str], agent: str, payload: dict[str, Any]) -> bytes:
    """What a hook killed between reading the answer and confirming it leaves behind: a read reply."""
    raw = json.dumps(payload).encode()
    ident = identity(os.path.abspath(env["JITCTX_STATE_DIR"]), True, env)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(10)
        client.connect(str(warm_dir(env) / f"{key_of(ident)}.sock"))
        client.sendall(request_head(agent, ident, len(raw)) + raw)
        chunks = []
        while chunk := client.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_an_answer_the_hook_did_not_confirm_is_sent_again(project: Path, warm_env: dict[str, str]) -> None:
    start_daemon(warm_env, project)
    touch = shell_read(project, "src/api/users.ts")
    reply = ask_without_confirming(warm_env, "claude-code", touch)
    assert reply.startswith(b"+OK ") and b"src/api/AGENTS.md" in reply  # taken, then answered
    again = hook("claude-code", touch, warm_env)
    assert "src/api/AGENTS.md" in context(again) and not again.engine  # not counted as sent before
    third = hook("claude-code", touch, warm_env)
    assert third.answer == {}  # confirmed this time: sent once
    log = (Path(warm_env["JITCTX_STATE_DIR"]) / "hook.log").read_text()
    assert "did not confirm" in log


def test_a_request_of_another_shape_is_refused(project: Path, warm_env: dict[str, str]) -> None:
    pid = start_daemon(warm_env, project)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(10)
        client.connect(str(warm_dir(warm_env) / f"{key(warm_env)}.sock"))
        client.sendall(b"GET / HTTP/1.0\r\n\r\n")
        assert client.recv(100) == b"BAD\n"
    run = hook("claude-code", shell_read(project, "src/api/users.ts"), warm_env)
    assert not run.engine and alive(pid)  # the daemon went on


# -- the daemon's life ---------------------------------------------------------------------------------------


def test_the_hook_does_not_wait_for_the_daemon_it_starts(project: Path, warm_env: dict[str, str]) -> None:
    """The daemon holds none of the hook's pipes: `capture_output` returns while it lives on."""
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "claude-code", "--warm"],
        input=json.dumps(nothing(project)).encode(),
        capture_output=True,
        env=warm_env,
        timeout=20,
    )
    assert run.returncode == 0 and json.loads(run.stdout) == {}
    assert time.monotonic() - started < 8  # far below the daemon's idle time
    pid = daemon_pid(warm_env)
    assert alive(pid)
    if LINUX:
        assert {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in (0, 1, 2)} == {os.devnull}
        assert os.getsid(pid) == pid  # its own session: no terminal, no process group of the agent's


def test_the_daemon_exits_when_idle(project: Path, warm_env: dict[str, str]) -> None:
    env = {**warm_env, "JITCTX_WARM_IDLE": "1.5"}
    pid = start_daemon(env, project)
    wait_for(lambda: not alive(pid))
    assert not list(warm_dir(env).glob("*.sock")) and not list(warm_dir(env).glob("*.pid"))


def test_the_daemon_exits_when_its_socket_is_removed(project: Path, warm_env: dict[str, str]) -> None:
    pid = start_daemon(warm_env, project)
    (warm_dir(warm_env) / f"{key(warm_env)}.sock").unlink()
    wait_for(lambda: not alive(pid), seconds=5)


def test_one_daemon_per_environment(project: Path, warm_env: dict[str, str]) -> None:
    pid = start_daemon(warm_env, project)
    state = warm_env["JITCTX_STATE_DIR"]
    second = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "claude-code", "--serve-warm", "--state-dir", state],
        capture_output=True,
        env=warm_env,
        timeout=20,
    )
    assert second.returncode == 0  # found the lock taken and left at once
    assert alive(pid) and int((warm_dir(warm_env) / f"{key(warm_env)}.pid").read_text()) == pid


def test_sigterm_stops_the_daemon_and_clears_its_socket(project: Path, warm_env: dict[str, str]) -> None:
    pid = start_daemon(warm_env, project)
    os.kill(pid, signal.SIGTERM)
    wait_for(lambda: not alive(pid))
    assert not (warm_dir(warm_env) / f"{key(warm_env)}.sock").exists()


# -- bad input ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "through_daemon"),
    [(b"{broken", True), (b"", True), (b"[1, 2]", True), (b"x" * (9 * 1024 * 1024), False)],
)
def test_bad_input_is_answered_with_nothing(
    project: Path, warm_env: dict[str, str], data: bytes, through_daemon: bool
) -> None:
    start_daemon(warm_env, project)
    run = hook("claude-code", data, warm_env)
    assert (run.code, run.answer) == (0, {})
    assert run.engine is not through_daemon  # over 8 MiB is refused here, without shipping it
    assert "(answered {})" in run.stderr  # the same line on stderr as without --warm
    assert (Path(warm_env["JITCTX_STATE_DIR"]) / "hook.log").is_file()


def test_the_command_line_in_process_takes_warm_too(
    project: Path,
    warm_env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`main(argv)` goes through argparse, not the fast lane: --warm works there as well."""
    import io

    from jitctx.cli.main import main

    monkeypatch.setenv("JITCTX_WARM_IDLE", "3")
    raw = json.dumps(shell_read(project, "src/api/users.ts")).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert main(["hook", "claude-code", "--warm", "--no-git"]) == 0
    assert "src/api/AGENTS.md" in capsys.readouterr().out
    env = {**os.environ, "JITCTX_WARM_IDLE": "3"}
    assert alive(daemon_pid(env, use_git=False))  # started by the first call, in the background


def test_the_daemon_is_not_in_the_help() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "--help"], capture_output=True, text=True, timeout=30
    )
    assert "--warm" in done.stdout and "--serve-warm" not in done.stdout


def test_fifos_planted_as_the_daemons_files_neither_hang_a_hook_nor_stop_the_daemon(
    project: Path, warm_env: dict[str, str]
) -> None:
    directory = warm_dir(warm_env)
    directory.mkdir(parents=True, mode=0o700)
    name = key(warm_env)
    for suffix in (".started", ".pid"):
        os.mkfifo(directory / f"{name}{suffix}")
        os.utime(directory / f"{name}{suffix}", (1, 1))  # old: a marker that no longer holds a start back
    first = hook("claude-code", nothing(project), warm_env)
    assert first.code == 0 and first.answer == {} and first.seconds < 10
    assert not (directory / f"{name}.started").exists()  # not a marker of ours: removed
    second = hook("claude-code", nothing(project), warm_env)  # makes a marker, starts the daemon
    assert second.code == 0 and second.engine
    daemon_pid(warm_env)  # its pid file replaced the FIFO
    assert (directory / f"{name}.pid").is_file()


def test_a_request_whose_hook_gave_up_waiting_is_not_worked_on(
    project: Path, warm_env: dict[str, str]
) -> None:
    """The daemon serves one request at a time. A hook that gave up while it was busy answered itself:
    the daemon, coming to its request later, must not do the work (and log it) a second time."""
    start_daemon(warm_env, project)
    address = str(warm_dir(warm_env) / f"{key(warm_env)}.sock")
    touch = json.dumps(shell_read(project, "src/api/users.ts")).encode()
    ident = identity(os.path.abspath(warm_env["JITCTX_STATE_DIR"]), True, warm_env)
    before = records(warm_env)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as busy:
        busy.connect(address)
        busy.sendall(b"JITCTX")  # half a header: the daemon waits for the rest
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as gone:
            gone.connect(address)
            gone.sendall(request_head("claude-code", ident, len(touch)) + touch)
        busy.sendall(b"\n")  # the line is complete, and no request: refused
        busy.settimeout(5)
        assert busy.recv(100) == b"BAD\n"
    time.sleep(0.3)  # the daemon comes to the request whose hook left
    assert records(warm_env) == before
    log = Path(warm_env["JITCTX_STATE_DIR"]) / "hook.log"
    assert "Broken" not in (log.read_text() if log.exists() else "")  # left alone, not written to
    run = hook("claude-code", touch, warm_env)
    assert "src/api/AGENTS.md" in context(run) and not run.engine


def test_git_set_from_the_environment_makes_another_identity() -> None:
    """git's config and repository can come from the environment (`GIT_CONFIG_COUNT`/`_KEY_0`/`_VALUE_0`,
    `GIT_DIR`): a daemon started without them would report other changed files at session start."""
    base = {"HOME": "/home/u", "PATH": "/usr/bin"}
    configured = {**base, "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.excludesFile",
                  "GIT_CONFIG_VALUE_0": "/tmp/ignore"}  # fmt: skip
    plain = identity("/state", True, base)
    assert identity("/state", True, configured) != plain
    assert identity("/state", True, {**base, "GIT_DIR": "/elsewhere/.git"}) != plain
    assert identity("/state", True, {**base, "LANG": "C"}) == plain  # not what jitctx reads
