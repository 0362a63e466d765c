"""JIT discovery latency and filesystem calls on a 100k-file monorepo, against a naive reference.

    python benchmarks/discovery.py [--keep DIR] [--samples 2000]

* warm: the touched file's chain is already scanned (the common case: the agent keeps working in a place),
  touched again within a second, so the directories' watch lists are trusted;
* warm, list due: the same, with every chain directory's watch list compared (a stat each) to notice a
  new instruction file, as on touches a second apart and in every hook process;
* first touch: a directory never touched before in this session (its chain partly scanned above it);
* naive: walk up, `exists()` each candidate name, re-read and re-parse every file and rule, every time;
* gemini: Gemini CLI's own JIT discovery (`loadJitSubdirectoryMemory` of @google/gemini-cli-core, which
  its `discoverJitContext` calls), run by node on the same first and warm touches with the same file
  names (benchmarks/gemini_jit.mjs). Install it once, outside the project's dependencies:
  `npm install --prefix benchmarks/_work/gemini --ignore-scripts --omit=optional @google/gemini-cli-core`.
  Without node or the package the case is skipped with a line that says so.

Filesystem calls are counted by wrapping os.stat, os.lstat and open in the same run (warm touches are
timed without the wrappers and counted in a repeat of the same touch). The minimum possible
for a warm discovery, given that edits must be noticed, is one stat per loaded file on the chain; to
notice a file created on the chain (a new CLAUDE.md), one more per chain directory.
"""

from __future__ import annotations

import argparse
import builtins
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synth import Shape, generate

from jitctx.discovery import session as session_module
from jitctx.discovery.session import Session
from jitctx.frontmatter import scope_of, split_frontmatter
from jitctx.profiles import get_profile
from jitctx.project import Project
from jitctx.scope import compile_scope, scope_matches


def naive_discover(root: str, path: str, rules: list[str]) -> int:
    """The reference: no state, no cache. Returns the number of files it would load."""
    profile = get_profile("jitctx")
    loaded = 0
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    directory = os.path.dirname(path)
    while True:
        for name in profile.dir_files:
            candidate = os.path.join(directory, name)
            if os.path.exists(candidate):
                with open(candidate, encoding="utf-8") as handle:
                    front = split_frontmatter(handle.read())
                spec = scope_of(front.data or {}, profile.scope_keys)
                if not spec.patterns or scope_matches(compile_scope(spec.patterns), rel):
                    loaded += 1
        if directory == root:
            break
        directory = os.path.dirname(directory)
    for rule in rules:
        with open(rule, encoding="utf-8") as handle:
            front = split_frontmatter(handle.read())
        spec = scope_of(front.data or {}, profile.scope_keys)
        if spec.patterns and scope_matches(compile_scope(spec.patterns), rel):
            loaded += 1
    return loaded


@contextmanager
def counting() -> Iterator[list[int]]:
    """Count os.stat, os.lstat and open calls made inside the block."""
    counter = [0]
    originals: dict[str, Callable[..., Any]] = {"stat": os.stat, "lstat": os.lstat}
    original_open = builtins.open

    def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            counter[0] += 1
            return function(*args, **kwargs)

        return counted

    os.stat, os.lstat = wrap(originals["stat"]), wrap(originals["lstat"])  # type: ignore[assignment]
    builtins.open = wrap(original_open)
    try:
        yield counter
    finally:
        os.stat, os.lstat = originals["stat"], originals["lstat"]  # type: ignore[assignment]
        builtins.open = original_open


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(label: str, times: list[float], calls: list[int]) -> None:
    us = 1e6
    print(
        f"{label:<18} P50 {percentile(times, 0.5) * us:8.1f} us   P99 {percentile(times, 0.99) * us:8.1f} us"
        f"   MAX {max(times) * us:9.1f} us   fs calls/discovery {statistics.mean(calls):5.1f}"
    )


def warm_touches(session: Session, paths: list[str]) -> tuple[list[float], list[int]]:
    """Seconds and filesystem calls per touch of already-scanned paths."""
    times: list[float] = []
    calls_made: list[int] = []
    for path in paths:
        # Timed without the counting wrappers (they cost more than a warm discovery itself) ...
        started = time.perf_counter()
        session.discover(path)
        times.append(time.perf_counter() - started)
        # ... and counted in a second, identical touch.
        with counting() as calls:
            session.discover(path)
        calls_made.append(calls[0])
    return times, calls_made


def gemini_run(prefix: Path, root: str, first: list[str], warm: list[str]) -> dict[str, Any] | str:
    """Gemini CLI's JIT discovery on the same touches (benchmarks/gemini_jit.mjs), or why it did not run."""
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        return "node is not on PATH"
    if not (prefix / "node_modules" / "@google" / "gemini-cli-core").is_dir():
        return f"@google/gemini-cli-core is not installed under {prefix} (see this script's docstring)"
    names = list(get_profile("jitctx").dir_files)
    request = json.dumps({"root": root, "names": names, "first": first, "warm": warm})
    script = Path(__file__).resolve().parent / "gemini_jit.mjs"
    done = subprocess.run(
        [node, str(script), str(prefix)],
        input=request,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        return f"node failed: {done.stderr.strip()[-300:]}"
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--keep", type=Path, help="generate into (or reuse) this directory")
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument(
        "--gemini",
        type=Path,
        default=Path(__file__).resolve().parent / "_work" / "gemini",
        help="the npm prefix holding @google/gemini-cli-core (default: benchmarks/_work/gemini)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root_path = args.keep or Path(scratch) / "mono"
        if not (root_path / ".git").exists():
            generate(root_path, Shape())
        root = os.path.realpath(root_path)
        files = [os.path.join(cur, f) for cur, _, names in os.walk(os.path.join(root, "src")) for f in names]
        rng = random.Random(3)
        rng.shuffle(files)
        rules = sorted(str(p) for p in Path(root, ".claude/rules").glob("*.md"))
        project = Project(root, managed_files=())
        session = Session(project, cwd=root, use_git=False)
        session.startup()

        # first touch: one file from each directory never touched before
        first: list[float] = []
        first_calls: list[int] = []
        seen_dirs: set[str] = set()
        fresh = [
            f for f in files if not (os.path.dirname(f) in seen_dirs or seen_dirs.add(os.path.dirname(f)))
        ]
        for path in fresh[: args.samples]:
            with counting() as calls:
                started = time.perf_counter()
                session.discover(path)
                first.append(time.perf_counter() - started)
            first_calls.append(calls[0])

        # warm: touch again files whose chains were scanned above
        warm_paths = rng.choices(fresh[: args.samples], k=args.samples)
        warm, warm_calls = warm_touches(session, warm_paths)
        gemini = gemini_run(args.gemini, root, fresh[: args.samples], warm_paths)
        chains = [session._chain(os.path.dirname(p)) for p in fresh[:200]]
        # warm, each directory's watch list due (touches a second or more apart, as an agent's are; and
        # every hook call, which is a new process): one more stat per chain directory.
        session_module.WATCH_RECHECK_NS = 0
        due, due_calls = warm_touches(session, rng.choices(fresh[: args.samples], k=args.samples))
        minimum = statistics.mean(
            sum(len(session.channels["main"].by_directory.get(d, ())) for d in chain) for chain in chains
        )
        depth = statistics.mean(len(chain) for chain in chains)

        naive: list[float] = []
        naive_calls: list[int] = []
        for path in rng.choices(fresh[: args.samples], k=args.samples // 4):
            with counting() as calls:
                started = time.perf_counter()
                naive_discover(root, path, rules)
                naive.append(time.perf_counter() - started)
            naive_calls.append(calls[0])

    print(f"tree: 100k files / 10k dirs, {len(rules)} rules; {len(first)} first touches, {len(warm)} warm")
    report("warm discovery", warm, warm_calls)
    report("warm, list due", due, due_calls)
    report("first touch", first, first_calls)
    report("naive reference", naive, naive_calls)
    if isinstance(gemini, str):
        print(f"gemini cli: skipped ({gemini})")
    else:
        for label, values in (("first touch", gemini["first"]), ("warm", gemini["warm"])):
            p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
            print(f"gemini cli {label:12} P50 {p50:8.1f} us  P99 {p99:8.1f} us")
        warm_ratio = percentile(gemini["warm"], 0.5) / (percentile(warm, 0.5) * 1e6)
        first_ratio = percentile(gemini["first"], 0.5) / (percentile(first, 0.5) * 1e6)
        print(f"ratio gemini/jitctx P50: warm {warm_ratio:.1f}x, first touch {first_ratio:.1f}x")
    naive_p50 = percentile(naive, 0.5)
    print(
        f"ratio naive/warm P50 {naive_p50 / percentile(warm, 0.5):.1f}x, "
        f"naive/warm-list-due P50 {naive_p50 / percentile(due, 0.5):.1f}x, "
        f"naive/first P50 {naive_p50 / percentile(first, 0.5):.1f}x"
    )
    print(
        f"minimum fs calls for a warm discovery: {minimum:.1f} (one stat per loaded file on the chain), "
        f"{minimum + depth:.1f} with one per chain directory to notice new files"
    )
    print("targets: warm P50 <= 50 us, P99 <= 500 us; first touch P50 <= 2 ms (seed: P50 3 ms, MAX 6 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
