"""Warm discovery against the number of scoped rules, every scope shape mixed, side by side in one run.

    python benchmarks/bench_warm_rules.py [--counts 10,100,1000,5000] [--samples 4000] [--runs 8]

A monorepo of P packages (P = N / 25, at least 8) of `pkgP/src/modM/fK.ts` and `pkgP/src/modM/View.tsx`
files, with a folder of its own per package (`pkgP/areaP/gK.ts`), gets N scoped rules, shaped as a
monorepo's rules are, each shape a share of N:

* `.claude/rules` (Claude Code's gitignore dialect, any case): `pkgP/**/*.ts`, `**/modM/fK.ts`,
  `pkgP/src/modM/*.{ts,tsx}`, `**/areaP/**`, `**/areaP/*.ts`, and slash-less globs that match at any
  depth (`*.xQ`, `SchemaQ.prisma`, `areaP`);
* `.github/instructions` (Copilot's dialect): `pkgP/src/**/*.ts`, `pkgP/src/modM/**`, `*.yQ`,
  `**/areaP/g*.ts`, `*/areaP/**`;
* and two rules that match every file whatever N (`*.ts`, `**/*.tsx`).

Rules live with their packages, so from about 200 rules on a touch *matches* as many rules at 5,000 as
at 1,000 (fewer below: 8 packages share them): what may grow with N is only what the glob index does not
rule out. Each N gets its own tree and `Session` (a harness's): it starts, touches 200 files of its first
8 packages until the rules watch sets up inotify (their chains are scanned, the rules matching them
held), then the same touches are timed again, where nothing new loads. The touches stay in 8 packages
whatever N, as an agent works in a few places at a time: spread over all 200 packages of the 5,000-rule
tree they would touch 25 times as many rules and folders over a run, and that, not the number of rules,
makes each touch slower (caches hold less of what it reads). The sessions' blocks alternate, so drift in
machine load hits every N alike.

Printed per N: P50 and P95 of a warm touch in microseconds and their ratio to the first N; the P50 of the
part of a touch that the rules cost (`RuleTable.matching`, timed in a pass of its own); the rules the
glob index names per touch (mean and max: each is then tested, or found held and unchanged) against
those that match; the scope shape of the rules it names beyond those that match.
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
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from jitctx.discovery.rule_table import ScopedRule
from jitctx.discovery.session import Session
from jitctx.project import Project
from jitctx.telemetry.results import percentile

MODULES = 10
FILES = 3
NAMES = 100  # `**/modM/fK.ts` draws K from these; only the first FILES exist
TOUCHED_PACKAGES = 8


def glob_for(index: int, rng: random.Random, packages: int) -> tuple[str, str]:
    """The (folder, glob) of rule `index`: the shapes in turn, their literals drawn at random."""
    p, m, k = rng.randrange(packages), rng.randrange(MODULES), rng.randrange(NAMES)
    claude = [
        f"pkg{p}/**/*.ts",
        f"**/mod{m}/f{k}.ts",
        f"pkg{p}/src/mod{m}/*.{{ts,tsx}}",
        f"**/area{p}/**",
        f"**/area{p}/*.ts",
        [f"*.x{index}", f"Schema{index}.prisma", f"area{p}"][index // 10 % 3],
    ]
    copilot = [
        f"pkg{p}/src/**/*.ts",
        f"pkg{p}/src/mod{m}/**",
        f"*.y{index}",
        f"**/area{p}/g*.ts",
        f"*/area{p}/**",
    ]
    shapes = [("claude", glob) for glob in claude] + [("copilot", glob) for glob in copilot]
    return shapes[index % len(shapes)]


def write_rule(root: Path, kind: str, name: str, glob: str) -> None:
    if kind == "claude":
        path = root / ".claude" / "rules" / f"{name}.md"
        text = f'---\npaths: ["{glob}"]\n---\nRule {name}\n'
    else:
        path = root / ".github" / "instructions" / f"{name}.instructions.md"
        text = f'---\napplyTo: "{glob}"\n---\nRule {name}\n'
    path.write_text(text, encoding="utf-8")


def generate(root: Path, rules: int) -> tuple[list[str], dict[str, str]]:
    """The tree and its rules; returns the relative paths of the ordinary files, and each rule's glob."""
    rng = random.Random(rules)
    packages = max(TOUCHED_PACKAGES, rules // 25)
    files = []
    for package in range(packages):
        for module in range(MODULES):
            folder = root / f"pkg{package}" / "src" / f"mod{module}"
            folder.mkdir(parents=True)
            names = [f"f{index}.ts" for index in range(FILES)] + ["View.tsx"]
            for name in names:
                (folder / name).write_text("x\n", encoding="utf-8")
                files.append(f"pkg{package}/src/mod{module}/{name}")
        area = root / f"pkg{package}" / f"area{package}"
        area.mkdir()
        for index in range(FILES):
            (area / f"g{index}.ts").write_text("x\n", encoding="utf-8")
            files.append(f"pkg{package}/area{package}/g{index}.ts")
    (root / "CLAUDE.md").write_text("# Root\n", encoding="utf-8")
    (root / ".claude" / "rules").mkdir(parents=True)
    (root / ".github" / "instructions").mkdir(parents=True)
    globs: dict[str, str] = {}
    for kind, name, glob in (("claude", "all-ts", "*.ts"), ("copilot", "all-tsx", "**/*.tsx")):
        write_rule(root, kind, name, glob)
        globs[name] = glob
    for index in range(rules - len(globs)):
        kind, glob = glob_for(index, rng, packages)
        write_rule(root, kind, f"r{index}", glob)
        globs[f"r{index}"] = glob
    return files, globs


def settle(root: Path) -> None:
    """Date the tree's directories a minute back: a listing younger than 2 s is never trusted."""
    when = time.time_ns() - 60 * 10**9
    for current, dirnames, _ in os.walk(root):
        for name in dirnames:
            os.utime(os.path.join(current, name), ns=(when, when))
    os.utime(root, ns=(when, when))


def shape_of(glob: str) -> str:
    """A rule's glob with its drawn literals left out: `pkg7/**/*.ts` -> `pkgN/**/*.ts`."""
    out, digits = [], False
    for char in glob:
        if char.isdigit():
            if not digits:
                out.append("N")
            digits = True
        else:
            out.append(char)
            digits = False
    return "".join(out)


class Case:
    """One N: its tree, its warm session, the touches timed, what the index names per touch."""

    def __init__(self, scratch: str, count: int) -> None:
        self.count = count
        self.root = Path(os.path.realpath(scratch))
        files, self.globs = generate(self.root, count)
        settle(self.root)
        self.session = Session(Project(self.root, managed_files=()), cwd=self.root, use_git=False)
        self.session.startup()
        self.rng = random.Random(count)
        near = [f for f in files if int(f.split("/")[0].removeprefix("pkg")) < TOUCHED_PACKAGES]
        chosen = self.rng.sample(near, 200)
        self.touched = [os.path.join(self.session.project.root, f) for f in chosen]
        # Scans the chains and loads what matches; the watch sets up inotify after ~2,000 rule stats.
        for _ in range(100):
            for path in self.touched:
                self.session.discover(path)
            if self.session.rules_watch.notified:
                break
        assert self.session.rules_watch.notified, "no inotify here: every touch would stat every rule"
        assert len(self.session.rule_table()) == count, (len(self.session.rule_table()), count)
        self.times: list[float] = []

    def run(self, samples: int) -> None:
        session = self.session
        for path in self.rng.choices(self.touched, k=samples):
            started = time.perf_counter()
            found = session.discover(path)
            self.times.append(time.perf_counter() - started)
            assert not found.loaded, found.loaded  # warm: nothing new loads

    def rules_part(self, samples: int) -> list[float]:
        """Seconds of the part of each warm touch that the rules cost: `RuleTable.matching` as the session
        calls it (the lookups, then each rule named tested or found held); the rest of a touch (the
        chain's stats) is the same whatever the rules. Timed apart: the timer costs a little."""
        table = self.session.rule_table()
        inner = table.matching
        spent: list[float] = []

        def timed(*args: Any, **kwargs: Any) -> tuple[list[ScopedRule], int]:
            started = time.perf_counter()
            answer = inner(*args, **kwargs)
            spent.append(time.perf_counter() - started)
            return answer

        table.matching = timed  # type: ignore[method-assign]
        try:
            for path in self.rng.choices(self.touched, k=samples):
                self.session.discover(path)
        finally:
            del table.matching
        return spent

    def named(self) -> tuple[list[int], list[int], Counter[str]]:
        """Per touch, the rules the index names and those that match; the shapes of the named others."""
        table = self.session.rule_table()
        index = table._index
        assert index is not None
        root = self.session.project.root
        named, matched, extra = [], [], Counter[str]()
        for path in self.touched:
            rel = os.path.relpath(path, root)
            candidates = index.candidates(rel)
            matching = {p for p in candidates if table[p].pattern.match(rel)}
            named.append(len(candidates))
            matched.append(len(matching))
            for position in candidates - matching:
                name = Path(table[position].candidate.path).name.split(".")[0]
                extra[shape_of(self.globs[name])] += 1
        return named, matched, extra


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--counts", default="10,100,1000,5000")
    parser.add_argument("--samples", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=8)
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    with ExitStack() as stack:
        cases = [Case(stack.enter_context(tempfile.TemporaryDirectory()), count) for count in counts]
        gc.collect()
        for _ in range(args.runs):
            for case in cases:
                case.run(args.samples // args.runs)
        parts: dict[int, list[float]] = {case.count: [] for case in cases}
        for _ in range(args.runs):
            for case in cases:
                parts[case.count].extend(case.rules_part(args.samples // args.runs))
        us = 1e6
        first = cases[0]
        first_p50, first_p95 = statistics.median(first.times), percentile(sorted(first.times), 0.95)
        first_part = statistics.median(parts[first.count])
        print(
            f"{'rules':>6}  {'P50':>8}  {'P95':>8}  {'P50/first':>9}  {'P95/first':>9}"
            f"  {'rules part P50 (/first)':>23}  {'named per touch (mean / max)':>28}"
            f"  {'matching (mean)':>15}"
        )
        extras: list[tuple[int, Counter[str], int]] = []
        for case in cases:
            p50, p95 = statistics.median(case.times), percentile(sorted(case.times), 0.95)
            part = statistics.median(parts[case.count])
            named, matched, extra = case.named()
            extras.append((case.count, extra, len(case.touched)))
            print(
                f"{case.count:>6}  {p50 * us:5.1f} us  {p95 * us:5.1f} us  {p50 / first_p50:8.2f}x"
                f"  {p95 / first_p95:8.2f}x  {part * us:13.1f} us ({part / first_part:.2f}x)"
                f"  {statistics.mean(named):20.1f} / {max(named):>5}  {statistics.mean(matched):15.1f}"
            )
        print("\nnamed but not matching, per touch, by shape:")
        for count, extra, touches in extras:
            top = ", ".join(f"{shape} {n / touches:.1f}" for shape, n in extra.most_common(4)) or "none"
            print(f"{count:>6}  {top}")
    print(f"target: P50 and P95 at {counts[-1]:,} rules < 2x those at {counts[0]:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
