"""In-process warm discovery with 1,000 and 5,000 scoped rules: noticing rule edits by inotify against a
stat of every rule on every touch, in one run.

    python benchmarks/bench_warm_discovery.py [--counts 1000,5000] [--samples 4000] [--runs 8]

A monorepo of P packages (P = rules / 25) of `pkgN/src/modM/fK.ts` files gets N rules in
`.claude/rules/`, a third of each shape: `pkg7/**/*.ts`, `**/mod3/f2.ts`, `pkg7/src/mod3/*.{ts,tsx}`.
One `Session` (a harness's) starts, touches 200 of the files, so that their chains are scanned and the
rules matching them held; then the same touches are timed again, where nothing new loads:

* old: every rule file stat'ed on every touch and compared with the version the table was built from
  (an edit in place is noticed; a rule file added is not);
* stat: `RulesWatch(notify=False)`, the rules folders listed again and every rule file stat'ed on every
  touch (the way every session starts, and the one where inotify cannot be had);
* notified: the session's own watch, once it set up inotify (a poll per touch, stats only for the rule
  files no folder watch vouches for, no regex run for a held rule it vouches for).

The three alternate in blocks over the same touches of the same session. Then the cost of noticing: the
first touch after a rule that matched nothing is edited in place to match it (the table is built again).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from jitctx.discovery.rule_table import ScopeCache
from jitctx.discovery.rules_watch import RulesWatch
from jitctx.discovery.session import Session
from jitctx.project import Project

MODULES = 10
FILES = 3


class EveryRuleStat(RulesWatch):
    """The old full-stat check: a stat of every rule file per touch, nothing else."""

    def __init__(self, project: Project, cache: ScopeCache) -> None:
        super().__init__(project, notify=False)
        self.versions = {path: entry[:3] for path, entry in cache.items()}

    def changed(self) -> bool:
        for path, version in self.versions.items():
            info = os.stat(path)
            if [info.st_mtime_ns, info.st_size, info.st_ino] != version:
                return True
        return False


def generate(root: Path, rules: int) -> list[str]:
    """The tree and its rules; returns the relative paths of the ordinary files."""
    rng = random.Random(rules)
    packages = max(20, rules // 25)
    files = []
    for package in range(packages):
        for module in range(MODULES):
            folder = root / f"pkg{package}" / "src" / f"mod{module}"
            folder.mkdir(parents=True)
            for index in range(FILES):
                (folder / f"f{index}.ts").write_text("x\n", encoding="utf-8")
                files.append(f"pkg{package}/src/mod{module}/f{index}.ts")
    (root / "CLAUDE.md").write_text("# Root\n", encoding="utf-8")
    folder = root / ".claude" / "rules"
    folder.mkdir(parents=True)
    for index in range(rules):
        glob = [
            f"pkg{rng.randrange(packages)}/**/*.ts",
            f"**/mod{rng.randrange(MODULES)}/f{rng.randrange(100)}.ts",
            f"pkg{rng.randrange(packages)}/src/mod{rng.randrange(MODULES)}/*.{{ts,tsx}}",
        ][index % 3]
        (folder / f"r{index}.md").write_text(f'---\npaths: ["{glob}"]\n---\nRule {index}\n', "utf-8")
    return files


def settle(root: Path) -> None:
    """Date the tree's directories a minute back: a listing younger than 2 s is never trusted."""
    when = time.time_ns() - 60 * 10**9
    for current, dirnames, _ in os.walk(root):
        for name in dirnames:
            os.utime(os.path.join(current, name), ns=(when, when))
    os.utime(root, ns=(when, when))


def timed(session: Session, paths: list[str]) -> list[float]:
    times = []
    for path in paths:
        started = time.perf_counter()
        found = session.discover(path)
        times.append(time.perf_counter() - started)
        assert not found.loaded, found.loaded  # warm: nothing new loads
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def noticing(session: Session, root: Path, path: str) -> float:
    """Seconds of the first touch of `path` after a rule file that matched nothing was edited in place
    (same inode, same size) to match it; checks that the touch loads it."""
    held = session.channels["main"].loaded
    target = next(r for r in sorted((root / ".claude" / "rules").iterdir()) if str(r) not in held)
    text = target.read_text(encoding="utf-8")
    edited = f'---\npaths: ["**/{os.path.basename(path)}"]\n---\nEdited'
    edited += " " * (len(text) - len(edited) - 1) + "\n"
    assert len(edited) == len(text), (text, edited)
    with open(target, "r+", encoding="utf-8") as handle:
        handle.write(edited)
    started = time.perf_counter()
    found = session.discover(path)
    took = time.perf_counter() - started
    assert str(target) in [load.file.path for load in found.loaded], found.loaded
    return took


def measure(count: int, samples: int, runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(os.path.realpath(scratch))
        files = generate(root, count)
        settle(root)
        project = Project(root, managed_files=())
        session = Session(project, cwd=root, use_git=False)
        session.startup()
        rng = random.Random(count)
        touched = [os.path.join(project.root, f) for f in rng.sample(files, 200)]
        for path in touched * 3:  # scans the chains, loads what matches; the watch sets up inotify
            session.discover(path)
        notified = session.rules_watch
        assert notified.notified, "inotify is not available here: both rows would be the stat way"
        stat_way = RulesWatch(project, notify=False)
        stat_way.begin(session.scope_cache)
        stat_way.built(session.scope_cache)
        old_way = EveryRuleStat(project, session.scope_cache)
        old: list[float] = []
        stat: list[float] = []
        new: list[float] = []
        gc.collect()
        for _ in range(runs):
            block = rng.choices(touched, k=samples // runs)
            for watch, times in ((old_way, old), (stat_way, stat), (notified, new)):
                session.rules_watch = watch
                times.extend(timed(session, block))
        assert len(session.rule_table()) == count
        held = len(session.channels["main"].loaded)
        session.rules_watch = stat_way
        stat_notice = noticing(session, root, touched[0])
        session.rules_watch = notified
        notified_notice = noticing(session, root, touched[1])
    return {
        "old_p50": statistics.median(old),
        "old_p95": percentile(old, 0.95),
        "stat_p50": statistics.median(stat),
        "stat_p95": percentile(stat, 0.95),
        "p50": statistics.median(new),
        "p95": percentile(new, 0.95),
        "held": held,
        "stat_notice": stat_notice,
        "notice": notified_notice,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--counts", default="1000,5000")
    parser.add_argument("--samples", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=8)
    args = parser.parse_args()
    us = 1e6
    print(
        f"{'rules':>6}  {'old P50':>9}  {'old P95':>9}  {'stat P50':>9}  {'stat P95':>9}"
        f"  {'notified P50':>12}  {'notified P95':>12}  {'old/notified':>12}  held"
        "  first touch after an edit (stat / notified)"
    )
    for count in (int(c) for c in args.counts.split(",")):
        row = measure(count, args.samples, args.runs)
        print(
            f"{count:>6}  {row['old_p50'] * us:6.1f} us  {row['old_p95'] * us:6.1f} us"
            f"  {row['stat_p50'] * us:6.1f} us  {row['stat_p95'] * us:6.1f} us"
            f"  {row['p50'] * us:9.1f} us  {row['p95'] * us:9.1f} us"
            f"  {row['old_p50'] / row['p50']:11.1f}x  {row['held']:>4}"
            f"  {row['stat_notice'] * 1000:.1f} ms / {row['notice'] * 1000:.1f} ms"
        )
    print("targets: notified P50 <= 60 us at 1,000 rules, <= 100 us at 5,000")
    return 0


if __name__ == "__main__":
    sys.exit(main())
