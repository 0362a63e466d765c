"""A hook call's cost and I/O after 10 and after 750 earlier touches of a session, in one run.

    python benchmarks/bench_session_length.py [--touches 10,750] [--samples 40]

A hook is one process per tool call: it opens the session from the state dir, discovers the touched
path, and saves the session back (`SessionStore.open`, as `adapters.common` does). Here that cycle runs
in-process on a 20,000-file / 2,000-directory tree: a session is grown by N touches of distinct
directories, then the same warm touch (a file of a directory scanned before) is timed again and again,
with the bytes the cycle read and wrote (system calls, so the rule and instruction files it stats
or reads count too). The figure that matters is the ratio
of the long session to the short one: 1.0 means flat in session length. The fast lane (a warm touch
the hook answers without the engine: read the quick index, check the chain) is timed the same way.

The state keeps each scanned directory's mark in a file of its own, read only when a touch's chain
asks for it (`jitctx.discovery.marks`), so what is left to grow is the list of files the session holds:
bounded by the project's instruction files, not by the touches. Each row says how many it holds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synth import Shape, generate

from jitctx.discovery.quick import quick_file_name, quiet
from jitctx.discovery.store import SessionStore
from jitctx.project import Project
from jitctx.safe_open import read_state_file


def io_counters() -> tuple[int, int]:
    """Bytes this process has read and written through system calls (Linux: /proc/self/io)."""
    with open("/proc/self/io", encoding="ascii") as handle:
        fields = dict(line.split(": ") for line in handle.read().splitlines())
    return int(fields["rchar"]), int(fields["wchar"])


def one_call(store: SessionStore, root: str, path: str, key: str) -> Callable[[], None]:
    def call() -> None:
        project = Project(root, managed_files=())  # each hook process builds its own
        with store.open(project, key, cwd=root, use_git=False) as opened:
            if opened.new:
                opened.session.startup()
            opened.session.discover(path)

    return call


def fast_lane(store: SessionStore, root: str, path: str, key: str) -> Callable[[], None]:
    """What the hook's fast lane does for a warm touch: read the quick index, prove nothing loads."""
    index_path = store.directory / quick_file_name(key)

    def call() -> None:
        index = json.loads(read_state_file(str(index_path)))
        assert quiet(index, root, path) is not None, "the fast lane must answer this warm touch"

    return call


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--touches", default="10,750")
    parser.add_argument("--samples", type=int, default=40)
    args = parser.parse_args()
    counts = [int(c) for c in args.touches.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        root_path = Path(scratch) / "mono"
        generate(root_path, Shape(files=20_000, dirs=2_000, instructions=100, rules=30), use_git=False)
        root = os.path.realpath(root_path)
        by_dir: dict[str, str] = {}
        for current, _, names in os.walk(root):
            if "/." in current:
                continue
            if names:
                by_dir.setdefault(current, os.path.join(current, names[0]))
        files = list(by_dir.values())
        random.Random(1).shuffle(files)
        assert len(files) > max(counts) + 1, len(files)
        store = SessionStore(Path(scratch) / "state" / "sessions")
        warm = files[0]
        results = {}
        for count in counts:
            key = f"s{count}"
            for path in [warm, *files[1:count]]:
                one_call(store, root, path, key)()
            call = one_call(store, root, warm, key)
            call()
            times, read, written = [], [], []
            for _ in range(args.samples):
                started = time.perf_counter()
                call()
                times.append(time.perf_counter() - started)
                before = io_counters()
                call()
                after = io_counters()
                read.append(after[0] - before[0])
                written.append(after[1] - before[1])
            state_bytes = sum(p.stat().st_size for p in store.directory.glob(f"{key}*") if p.is_file())
            marks = sum(1 for _ in store.marks_folder(key).rglob("*.json"))
            held = len(json.loads(store.path_for(key).read_text())["channels"]["main"]["loaded"])
            lane = fast_lane(store, root, warm, key)
            lane_times = []
            for _ in range(args.samples):
                started = time.perf_counter()
                lane()
                lane_times.append(time.perf_counter() - started)
            results[count] = (
                statistics.median(times),
                statistics.median(read),
                statistics.median(written),
                statistics.median(lane_times),
            )
            print(
                f"after {count:>4} touches: per call {results[count][0] * 1000:7.2f} ms, "
                f"read {results[count][1] / 1024:8.1f} KiB, written {results[count][2] / 1024:8.1f} KiB, "
                f"state on disk {state_bytes / 1024:6.1f} KiB + {marks:>4} marks; files held {held:>3}; "
                f"fast lane {results[count][3] * 1e6:6.0f} us"
            )
        first, last = results[counts[0]], results[counts[-1]]

        def ratio(index: int) -> str:
            if first[index] == 0:
                return "0 B both" if last[index] == 0 else f"{last[index]:.0f} B against 0 B"
            return f"{last[index] / first[index]:.2f}x"

        print(
            f"ratio {counts[-1]}/{counts[0]} touches: time {ratio(0)}, read {ratio(1)}, written {ratio(2)}, "
            f"fast lane {ratio(3)} (target: flat, 1.0x)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
