"""The process hook's start: `python -m jitctx hook claude-code` against `python -c pass`, in one run.

    python benchmarks/bench_hook_start.py [--runs 21] [--importtime]

Each case is one hook process fed one PostToolUse of a warm session of a copy of examples/monorepo:

* quick:  a Read in src/ui/, whose directory chain and rules were settled earlier: the fast lane
          (`hook.fast_lane`) proves nothing loads, without the engine;
* shell:  the same for a shell read through a pipe (`cat src/ui/Footer.tsx | head -5`), which also
          runs the shell lexer;
* slow:   a Read in docs/summary/, a directory this session has not scanned: the engine runs, reads
          the session state, walks the new directory, saves (the state is reset before each run);
* pre, pass:  a PreToolUse of a Write into src/ui/, whose rules the model holds: no hold, `{}` (the
          figure to set beside quick: a write that needs no hold costs no more than a post-tool hook
          that loads nothing);
* pre, hold:  a PreToolUse of a Write into docs/summary/, whose CLAUDE.md the model has not seen: the
          write is held back, the rules in the deny's reason (the state is reset before each run);
* quick, script / slow, script: the same through the `jitctx` console script (what `install` writes),
          which does not import runpy as `python -m` does;
* quick, warm / slow, warm: the console script with --warm (what `install --warm` writes): the hook
          hands the event to the warm daemon, started and warmed up before timing and stopped after.

Runs alternate (python, quick, slow, python, ...) so drift in machine load hits all alike; the figures
are medians of wall time. Targets: slow <= 3x python, quick <= 2x. --importtime lists, for each path, the
modules with the largest cumulative import time in one run (`python -X importtime`): what the path pays
for. The hook's modules import at the top (DESIGN §3): a module on a path that does not need it is a
structure to fix (what the fast lane loads is the client's dialect, not the client), never a reason to
defer an import.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "monorepo"


def event(root: Path, name: str, **fields: object) -> bytes:
    return json.dumps({"session_id": "bench", "cwd": str(root), "hook_event_name": name, **fields}).encode()


def read(root: Path, rel: str) -> bytes:
    return event(
        root,
        "PostToolUse",
        tool_name="Read",
        tool_input={"file_path": str(root / rel)},
        tool_response={},
        tool_use_id="toolu_bench",
    )


def pre_write(root: Path, rel: str) -> bytes:
    return event(
        root,
        "PreToolUse",
        tool_name="Write",
        tool_input={"file_path": str(root / rel), "content": "x\n"},
        tool_use_id="toolu_bench_write",
    )


def shell_read(root: Path, rel: str) -> bytes:
    return event(
        root,
        "PostToolUse",
        tool_name="Bash",
        tool_input={"command": f"cat {root / rel} | head -5"},
        tool_response={},
        tool_use_id="toolu_bench",
    )


def run(command: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, bytes, bytes]:
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, env=env, check=True)
    return time.perf_counter() - started, done.stdout, done.stderr


def state_files(directory: Path) -> list[Path]:
    """The session state and events; not the warm daemon's socket, lock and pid in warm/."""
    return [p for p in directory.rglob("*") if p.is_file() and "warm" not in p.relative_to(directory).parts]


def snapshot(directory: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in state_files(directory)}


def restore(directory: Path, files: dict[Path, bytes]) -> None:
    """Put the state back as `snapshot` found it, once no process holds a session's lock: the warm daemon
    saves a session after the hook it answered has gone, so it may still be writing."""
    locks = [os.open(path, os.O_RDWR) for path in (directory / "sessions").glob("*.lock")]
    try:
        for lock in locks:
            fcntl.flock(lock, fcntl.LOCK_EX)
        for path in [p for p in state_files(directory) if p not in files]:
            path.unlink(missing_ok=True)
        for path, data in files.items():
            path.write_bytes(data)
    finally:
        for lock in locks:
            os.close(lock)  # and with it the lock


def start_warm_daemon(command: list[str], stdin: bytes, env: dict[str, str], state: Path) -> int:
    """Start the daemon with one call, wait until it listens, and warm it up; its pid."""
    run(command, stdin, env)
    deadline = time.monotonic() + 30
    while not (list((state / "warm").glob("*.sock")) and list((state / "warm").glob("*.pid"))):
        if time.monotonic() > deadline:
            raise SystemExit("the warm daemon did not start; see <state dir>/hook.log")
        time.sleep(0.05)
    for _ in range(5):
        run(command, stdin, env)
    return int(next((state / "warm").glob("*.pid")).read_text())


def stop_warm_daemon(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


def slowest_imports(stderr: bytes, count: int = 12) -> list[tuple[int, int, str]]:
    rows = []
    for line in stderr.decode().splitlines():
        if line.startswith("import time:") and "cumulative" not in line:
            own, cumulative, name = line.split(":", 1)[1].split("|")
            rows.append((int(cumulative), int(own), name.rstrip()))
    return sorted(rows, reverse=True)[:count]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        root = base / "monorepo"
        shutil.copytree(EXAMPLE, root)
        state = base / "state"
        env = {**os.environ, "JITCTX_STATE_DIR": str(state), "JITCTX_HOME": str(base / "home")}
        # Installed packages have their bytecode cached: measure that (cached in the temp dir).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(base / "pycache")
        env["JITCTX_WARM_IDLE"] = "600"  # stopped at the end; this only bounds a run that was interrupted
        hook = [sys.executable, "-m", "jitctx", "hook", "claude-code", "--no-git"]
        bare = [sys.executable, "-c", "pass"]
        run(hook, event(root, "SessionStart", source="startup"), env)
        quick, slow = read(root, "src/ui/Footer.tsx"), read(root, "docs/summary/a.md")
        shell = shell_read(root, "src/ui/Footer.tsx")
        run(hook, quick, env)  # src/ui is settled from here on
        run(hook, quick, env)
        run(hook, shell, env)
        saved = snapshot(state)
        cases = {
            "python -c pass": (bare, b""),
            "quick": (hook, quick),
            "shell": (hook, shell),
            "slow": (hook, slow),
            "pre, pass": (hook, pre_write(root, "src/ui/New.tsx")),
            "pre, hold": (hook, pre_write(root, "docs/summary/new.md")),
        }
        script = Path(sys.executable).with_name("jitctx")
        daemon: int | None = None
        if script.is_file():  # the console script installed hooks run: no runpy, as `-m` has
            command = [sys.executable, str(script), *hook[3:]]
            cases.update({"quick, script": (command, quick), "shell, script": (command, shell)})
            cases["slow, script"] = (command, slow)
            warm = [*command, "--warm"]
            cases.update(
                {"quick, warm": (warm, quick), "shell, warm": (warm, shell), "slow, warm": (warm, slow)}
            )
            daemon = start_warm_daemon(warm, quick, env, state)
            restore(state, saved)
        wall: dict[str, list[float]] = {name: [] for name in cases}
        try:
            for _ in range(args.runs):
                for name, (command, stdin) in cases.items():
                    restore(state, saved)
                    wall[name].append(run(command, stdin, env)[0])
        finally:
            if daemon is not None:
                stop_warm_daemon(daemon)
        reference = statistics.median(wall["python -c pass"])
        print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
        print(f"{'case':<16}{'median ms':>10}{'min ms':>9}{'x python':>10}   ({args.runs} runs each)")
        for name in cases:
            median, fastest = statistics.median(wall[name]), min(wall[name])
            print(f"{name:<16}{median * 1000:>10.1f}{fastest * 1000:>9.1f}{median / reference:>10.2f}")
        print(
            "targets: slow <= 3x python, quick <= 2x; a warm hook (quick or shell) <= 2.5x; "
            "pre, pass <= quick"
        )
        if args.importtime:
            for name in ("quick", "shell", "slow"):
                restore(state, saved)
                command, stdin = cases[name]
                _, _, stderr = run([command[0], "-X", "importtime", *command[1:]], stdin, env)
                print(f"\n{name}: slowest imports (cumulative us, self us, module)")
                for cumulative, own, module in slowest_imports(stderr):
                    print(f"{cumulative:>9} {own:>8}  {module}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
