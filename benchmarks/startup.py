"""Startup time on a 100k-file / 10k-directory monorepo, as a ratio to `git status` on the same tree.

    python benchmarks/startup.py [--files 100000] [--dirs 10000] [--runs 7] [--keep DIR]

Startup asks git for changed files, so git status is its floor; the figure that matters is how much jitctx
adds on top. Both are timed in the same run, alternating, and the median of each is reported. The engine is
timed in-process (what a harness pays); the CLI figure adds the Python interpreter start.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synth import Shape, generate

from jitctx.discovery.session import Session
from jitctx.project import Project


def time_git(root: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        ["git", "--no-optional-locks", "status", "--porcelain", "-z", "-uall"],
        cwd=root,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


def time_engine(root: Path) -> tuple[float, int]:
    started = time.perf_counter()
    result = Session(Project(root, managed_files=()), cwd=root).startup()
    return time.perf_counter() - started, len(result.loaded)


def time_cli(root: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "jitctx", "startup", "--root", str(root), "--json"],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--dirs", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="generate into (or reuse) this directory")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep or Path(scratch) / "mono"
        if not (root / ".git").exists():
            started = time.perf_counter()
            generate(root, Shape(files=args.files, dirs=args.dirs))
            print(f"generated {args.files} files in {args.dirs} dirs in {time.perf_counter() - started:.1f}s")
        time_git(root)  # warm the index and the page cache for both contenders
        git_times, engine_times, cli_times = [], [], []
        loaded = 0
        for _ in range(args.runs):
            git_times.append(time_git(root))
            elapsed, loaded = time_engine(root)
            engine_times.append(elapsed)
            cli_times.append(time_cli(root))
        git_ms = statistics.median(git_times) * 1000
        engine_ms = statistics.median(engine_times) * 1000
        cli_ms = statistics.median(cli_times) * 1000
        print(f"tree: {args.files} files, {args.dirs} dirs; startup loaded {loaded} files")
        print(f"git status --porcelain -z -uall  median {git_ms:8.1f} ms")
        print(
            f"jitctx startup (in-process)      median {engine_ms:8.1f} ms   ratio {engine_ms / git_ms:.2f}x"
        )
        print(f"jitctx startup (CLI subprocess)  median {cli_ms:8.1f} ms   ratio {cli_ms / git_ms:.2f}x")
        print("target: in-process ratio <= 1.30x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
