"""Wall time of `jitctx hook claude-code` as a process, against a bare `python -c pass` in the same run.

    python benchmarks/hook.py [--runs 21] [--importtime]

The hook runs on every tool call, so its cost is mostly interpreter start and imports. Each case is a
PostToolUse on a warm session of a copy of examples/monorepo:

* no-load:  Read of a file whose directory and rules were already resolved (the common case);
* load:     Write into website/, which sends website/CLAUDE.md (state reset before each run);
* no-path:  Bash `ls`, which touches nothing (answered without opening the session);
* no-load, fast: the no-load event through `cmd_hook.fast_main`, skipping the argparse parser of
  jitctx.cli.main (what a fast path for `hook` in main() would save).

Runs alternate (python, no-load, load, no-path, fast, python, ...) so drift in machine load hits all
alike; the figures are medians. Target: no-load <= 2.5x bare python. --importtime prints the slowest
imports of one no-load run (`python -X importtime`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synth import settle

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "monorepo"
FAST_PATH = "import sys; from jitctx.cli.cmd_hook import fast_main; sys.exit(fast_main(['claude-code']))"


def event(root: Path, tool: str, tool_input: dict[str, str]) -> bytes:
    payload = {
        "session_id": "bench",
        "transcript_path": "/tmp/bench.jsonl",
        "cwd": str(root),
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_response": {},
        "tool_use_id": "toolu_bench",
    }
    return json.dumps(payload).encode()


def timed(command: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, bytes, float]:
    """Wall seconds, stdout, and CPU seconds (user + system) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, env=env, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, done.stdout, cpu


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=21, help="runs per case (at least 20 recommended)")
    parser.add_argument("--importtime", action="store_true", help="list the slowest imports of a no-load run")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        root = base / "monorepo"
        shutil.copytree(EXAMPLE, root)
        git = ["git", "-c", "user.email=b@example.invalid", "-c", "user.name=bench"]
        subprocess.run([*git, "init", "-q"], cwd=root, check=True)
        subprocess.run([*git, "add", "-A"], cwd=root, check=True)
        subprocess.run([*git, "commit", "-qm", "bench"], cwd=root, check=True)
        settle(root)  # a repository written before the session, not a second ago
        env = {**os.environ, "JITCTX_STATE_DIR": str(base / "state"), "JITCTX_HOME": str(base / "home")}
        # Installed packages have their bytecode cached; measure that, not compiling every module afresh
        # (the cache goes to the temp dir, not into the source tree).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(base / "pycache")
        hook = [sys.executable, "-m", "jitctx", "hook", "claude-code"]
        bare = [sys.executable, "-c", "pass"]

        start = {
            "session_id": "bench",
            "cwd": str(root),
            "hook_event_name": "SessionStart",
            "source": "startup",
        }
        timed(hook, json.dumps(start).encode(), env)
        no_load = event(root, "Read", {"file_path": str(root / "src/ui/Footer.tsx")})
        timed(hook, no_load, env)  # warm: src/ui and its rules are resolved now
        state = base / "state" / "sessions" / "claude-code.bench.json"
        snapshot = state.read_bytes()
        load = event(root, "Write", {"file_path": str(root / "website/news.md")})
        no_path = event(root, "Bash", {"command": "ls -la src"})

        _, out, _ = timed(hook, no_load, env)
        assert json.loads(out) == {}, out
        _, out, _ = timed(hook, load, env)
        assert "website/CLAUDE.md" in out.decode(), out
        state.write_bytes(snapshot)

        # What a fast path in jitctx.cli.main (no argparse parser for `hook`) would give.
        fast = [sys.executable, "-c", FAST_PATH]
        cases = {
            "python -c pass": (bare, b""),
            "no-load": (hook, no_load),
            "load": (hook, load),
            "no-path": (hook, no_path),
            "no-load, fast": (fast, no_load),
        }
        wall: dict[str, list[float]] = {name: [] for name in cases}
        cpu: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):
            for name, (command, stdin) in cases.items():
                if name == "load":
                    state.write_bytes(snapshot)
                seconds, _, cpu_seconds = timed(command, stdin, env)
                wall[name].append(seconds)
                cpu[name].append(cpu_seconds)

        reference = statistics.median(wall["python -c pass"])
        cpu_reference = statistics.median(cpu["python -c pass"])
        loads = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"load average at the end: {loads} on {os.cpu_count()} CPUs")
        header = f"{'case':<16}{'wall ms':>9}{'min ms':>9}{'x python':>10}{'cpu ms':>9}{'cpu x':>8}"
        print(f"{header}   ({args.runs} runs each)")
        for name in cases:
            median = statistics.median(wall[name])
            cpu_median = statistics.median(cpu[name])
            print(
                f"{name:<16}{median * 1000:>9.1f}{min(wall[name]) * 1000:>9.1f}{median / reference:>10.2f}"
                f"{cpu_median * 1000:>9.1f}{cpu_median / cpu_reference:>8.2f}"
            )
        ratio = statistics.median(wall["no-load"]) / reference
        print(f"\nno-load / python (wall) = {ratio:.2f} (target <= 2.5)")

        if args.importtime:
            done = subprocess.run(
                [sys.executable, "-X", "importtime", "-m", "jitctx", "hook", "claude-code"],
                input=no_load,
                capture_output=True,
                env=env,
                check=True,
            )
            rows = []
            for line in done.stderr.decode().splitlines():
                if not line.startswith("import time:") or "cumulative" in line:
                    continue
                self_us, cumulative_us, name = line.split(":", 1)[1].split("|")
                rows.append((int(cumulative_us), int(self_us), name.rstrip()))
            print("\nslowest imports of one no-load run (cumulative us, self us, module):")
            for cumulative, own, name in sorted(rows, reverse=True)[:25]:
                print(f"{cumulative:>9} {own:>8}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
