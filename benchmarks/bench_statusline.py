"""`jitctx statusline` as the process Claude Code starts after every message, against `python -c pass` and
the hook's fast lane, in one run.

    python benchmarks/bench_statusline.py [--runs 41] [--importtime]

Each session is recorded by the real hook engine (in-process, before timing) on a synthetic tree whose
folders each hold an AGENTS.md that jitctx sends on a Read there:

* 10 files / 200 files:  a session holding that many instruction files, its records the end of the log;
* 200, busy log:  the same, followed by 6 MB of other sessions' records (tool calls that loaded
          nothing): the status line reads the log backwards and stops at its bound (4 MiB), so this is
          its worst case, and the line then gives the latest file's reason from the state alone;
* 200, --json:  every file's arrival, looked up in the log within the same bound;
* script:  the `jitctx` console script (what `install --statusline` writes), which does not import
          runpy as `python -m` does;
* hook, quick:  `jitctx hook claude-code` for a Read the fast lane answers (a warm session's tool
          call), the other process an agent starts all the time.

Runs alternate between the cases so drift in machine load hits all alike; the figures are wall times,
P50 and P95, and the P50 as a multiple of `python -c pass`. Target: the status line of a 200-file session
(script) no slower than the hook's fast lane (hook, quick), which an agent waits for on every tool call;
the status line runs beside the model's reply instead. Both import json (and re with it), which is most
of what they cost beyond python's own start (--importtime).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jitctx.hook.engine import HookEnv
from jitctx.hook.pipeline import run_hook
from jitctx.telemetry.records import append_record, discovery_record


def tree(root: Path, folders: int) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# Root\nRun the tests.\n")
    for n in range(folders):
        folder = root / "packages" / f"pkg{n:03d}"
        folder.mkdir(parents=True)
        (folder / "AGENTS.md").write_text(f"# Package {n}\n" + "Keep the public API small.\n" * 20)
        (folder / "index.ts").write_text("export {}\n")
    return root


def record_session(root: Path, state: Path, home: Path, session: str, folders: int) -> None:
    """A Claude Code session that started and read a file in each of `folders` packages."""
    env = HookEnv(state_dir=state, home=str(home), use_git=False)

    def send(name: str, **fields: object) -> None:
        run_hook("claude-code", json.dumps({"session_id": session, "cwd": str(root), "hook_event_name": name,
                                            **fields}), env)  # fmt: skip

    send("SessionStart", source="startup")
    send(
        "InstructionsLoaded",
        file_path=str(root / "CLAUDE.md"),
        memory_type="Project",
        load_reason="session_start",
    )
    for n in range(folders):
        path = root / "packages" / f"pkg{n:03d}" / "index.ts"
        send("PostToolUse", tool_name="Read", tool_input={"file_path": str(path)}, tool_use_id=f"t{n}")


def busy_log(state: Path, megabytes: int) -> None:
    """Other sessions' tool calls that loaded nothing, after everything else in the log."""
    events = state / "events"
    record = discovery_record(
        session_id="someone-else", root="/src/other", trigger_file_path="/src/other/" + "a" * 200,
        hit=False, elapsed_ms=0.4, scope_skipped=3, cumulative_bytes=12_000, agent="claude-code",
    )  # fmt: skip
    line = len(json.dumps(record)) + 1
    for _ in range(megabytes * 1024 * 1024 // line):
        append_record(events, record)


def run(command: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, bytes]:
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, env=env, check=True)
    return time.perf_counter() - started, done.stdout


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=41)
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        home = base / "home"
        states = {name: base / f"state-{name}" for name in ("10", "200", "busy")}
        for name, folders in (("10", 10), ("200", 200), ("busy", 200)):
            record_session(tree(base / f"repo-{name}", folders), states[name], home, "bench", folders)
        busy_log(states["busy"], 6)
        env = {**os.environ, "JITCTX_HOME": str(home)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # installed packages have their bytecode cached
        env["PYTHONPYCACHEPREFIX"] = str(base / "pycache")
        status = json.dumps({"session_id": "bench", "cwd": str(base), "model": {"id": "m"}}).encode()
        line = [sys.executable, "-m", "jitctx", "statusline"]
        script = Path(sys.executable).with_name("jitctx")
        quick = json.dumps({
            "session_id": "bench", "cwd": str(base / "repo-10"), "hook_event_name": "PostToolUse",
            "tool_name": "Read", "tool_input": {"file_path": str(base / "repo-10/packages/pkg000/index.ts")},
            "tool_use_id": "t-quick",
        }).encode()  # fmt: skip
        cases: dict[str, tuple[list[str], bytes, dict[str, str]]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], b"", env),
            "10 files": (line, status, {**env, "JITCTX_STATE_DIR": str(states["10"])}),
            "200 files": (line, status, {**env, "JITCTX_STATE_DIR": str(states["200"])}),
            "200, busy log": (line, status, {**env, "JITCTX_STATE_DIR": str(states["busy"])}),
            "200, --json": ([*line, "--json"], status, {**env, "JITCTX_STATE_DIR": str(states["200"])}),
        }
        if script.is_file():
            cases["200, script"] = ([str(script), "statusline"], status, cases["200 files"][2])
            cases["hook, quick"] = (
                [str(script), "hook", "claude-code", "--no-git"],
                quick,
                cases["10 files"][2],
            )
        for name, (command, stdin, case_env) in cases.items():  # warm the bytecode cache; show each line
            _, out = run(command, stdin, case_env)
            if name.endswith(("files", "log")):
                print(f"{name:<16}{out.decode().strip()}")
        wall: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):
            for name, (command, stdin, case_env) in cases.items():
                wall[name].append(run(command, stdin, case_env)[0])
        reference = statistics.median(wall["python -c pass"])
        print(f"\nload average {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
        print(f"{'case':<16}{'P50 ms':>9}{'P95 ms':>9}{'x python':>10}   ({args.runs} runs each)")
        for name in cases:
            median = statistics.median(wall[name])
            p95 = percentile(wall[name], 0.95)
            print(f"{name:<16}{median * 1000:>9.1f}{p95 * 1000:>9.1f}{median / reference:>10.2f}")
        print("target: 200, script <= hook, quick")
        if args.importtime:
            command, stdin, case_env = cases["200 files"]
            done = subprocess.run([command[0], "-X", "importtime", *command[1:]], input=stdin,
                                  capture_output=True, env=case_env, check=True)  # fmt: skip
            rows = []
            for text in done.stderr.decode().splitlines():
                if text.startswith("import time:") and "cumulative" not in text:
                    own, cumulative, module = text.split(":", 1)[1].split("|")
                    rows.append((int(cumulative), int(own), module.rstrip()))
            print("\n200 files: slowest imports (cumulative us, self us, module)")
            for cumulative, own, module in sorted(rows, reverse=True)[:12]:
                print(f"{cumulative:>9} {own:>8}  {module}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
