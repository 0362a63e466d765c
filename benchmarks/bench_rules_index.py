"""Warm discovery with 10 to 10,000 scoped rules: the glob index against testing each rule, in one run.

    python benchmarks/bench_rules_index.py [--counts 10,100,1000,10000] [--samples 2000] [--runs 5]

A tree of 300 directories and 3,000 files gets N rules in `.claude/rules/`, shaped as a monorepo's rules
are: most scoped to one directory (`pkg/x/**`, `pkg/x/**/*.ts`, `pkg/x/*.{ts,tsx}`, a literal file),
some by name or extension anywhere (`**/N12.md`, `**/*.x12`), and one in a hundred that no strategy
can file (`*/z12/**`), matched through combined regexes. Six rules apply everywhere (`**/*.ts` ...).

* old: each rule tested in turn (a literal-prefix prefilter, then its regex), as before the index;
* new: `RuleTable.matching`, the index (strategy lookups, then a regex per candidate).

Both answer the same touches of the same session, alternating in blocks, after the touched files' chains
were scanned (the warm case: nothing new loads). How the session notices an edited rule (a stat of every
rule per touch, or inotify) is timed by bench_warm_discovery.py.

Startup with 1,000 rules is timed in-process, with a fresh session each run (every rule read, its
frontmatter parsed and its scope translated), old (PyYAML's pure loader, each glob translated by wcmatch)
against new (JSON-shaped frontmatter read by json, other frontmatter by libyaml, a translation per glob
shape), and with the scope cache a hook process gets from the saved session.

The hook's fast lane (`jitctx.discovery.quick`) answers a warm touch from the quick index: with the index's
lookups it tests only the rules they name (the others cost a stat each, to notice an edit), against
testing every rule's regex, in one run.
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
from collections.abc import Callable, Collection
from functools import cache
from pathlib import Path
from unittest import mock

from jitctx import frontmatter, scope
from jitctx.discovery import rule_table
from jitctx.discovery.quick import quick_file_name, quiet
from jitctx.discovery.rule_table import RuleTable, ScopedRule
from jitctx.discovery.session import Session
from jitctx.discovery.store import SessionStore
from jitctx.model import Scope
from jitctx.project import Project
from jitctx.scope import static_prefix

EXTENSIONS = ["ts", "tsx", "py", "md", "go", "json", "rs", "java"]
EVERYWHERE = ["**/*.ts", "**/*.py", "**/Makefile", "docs/**", "**/*.md", "**/test_*.go"]


def generate(root: Path, rules: int) -> list[str]:
    """The tree and its rules; returns the relative paths of the ordinary files."""
    rng = random.Random(5)
    dirs = ["src", "docs", "pkg", "tools"]
    while len(dirs) < 300:
        parent = rng.choice(dirs)
        if parent.count("/") < 5:
            dirs.append(f"{parent}/d{len(dirs)}")
    for directory in dirs:
        (root / directory).mkdir(parents=True, exist_ok=True)
    files = []
    for index in range(3000):
        rel = f"{rng.choice(dirs)}/f{index}.{rng.choice(EXTENSIONS)}"
        (root / rel).write_text("x\n", encoding="utf-8")
        files.append(rel)
    (root / "CLAUDE.md").write_text("# Root\n", encoding="utf-8")
    folder = root / ".claude" / "rules"
    folder.mkdir(parents=True)
    for index in range(rules):
        # Rules of a monorepo live with their packages: sub-directories of the tree's own directories.
        place = f"{rng.choice(dirs)}/p{index}"
        ext = rng.choice(EXTENSIONS)
        if index < len(EVERYWHERE):
            glob = EVERYWHERE[index]
        elif index % 100 == 99:
            glob = f"*/z{index}/**"  # no strategy: combined regexes
        else:
            glob = [
                f"{place}/**",
                f"{place}/**/*.{ext}",
                f"{place}/*.{{ts,tsx}}",
                f"{place}/f{index}.{ext}",
                f"**/N{index}.md",
                f"**/*.x{index}",
                f"{place}/**/test_*.py",
            ][index % 7]
        (folder / f"r{index}.md").write_text(f'---\npaths: ["{glob}"]\n---\nRule {index}\n', "utf-8")
    return files


@cache
def literal_prefixes(scope: Scope) -> tuple[str, ...]:
    """Before the index, each rule kept the strings every path it matches starts with (`""`: no prefix
    known): a path that starts with none of them cannot match."""
    prefixes: list[str] = []
    for pattern in scope.patterns:
        pattern = pattern.strip()
        if scope.dialect == "gitignore" and (pattern.startswith("!") or "/" not in pattern.rstrip("/")):
            prefixes.append("")
            continue
        prefixes.append(static_prefix(pattern.lstrip("/")))
    return tuple(prefixes)


def linear_matching(
    self: RuleTable,
    rel: str,
    loaded: Collection[str],
    match_other: Callable[[ScopedRule], bool],
    held: int | None = None,
    settled: Callable[[ScopedRule], bool] | None = None,
) -> tuple[list[ScopedRule], int]:
    """Before the index: every rule tested, with the literal-prefix prefilter (and every held rule that
    matches refreshed: `held` and `settled` are not used)."""
    matched: list[ScopedRule] = []
    skipped = 0
    for rule in self:
        if rule.candidate.base == "root":
            hit = rel.startswith(literal_prefixes(rule.scope)) and rule.pattern.match(rel)
        else:
            hit = match_other(rule)
        if hit:
            matched.append(rule)
        elif rule.candidate.path not in loaded:
            skipped += 1
    return matched, skipped


def warm(session: Session, paths: list[str]) -> list[float]:
    times = []
    for path in paths:
        started = time.perf_counter()
        session.discover(path)
        times.append(time.perf_counter() - started)
    return times


def measure(count: int, samples: int, runs: int) -> tuple[float, float, int]:
    indexed = rule_table.RuleTable.matching
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        files = generate(root, count)
        session = Session(Project(root, managed_files=()), cwd=root, use_git=False)
        session.startup()
        rng = random.Random(count)
        touched = [os.path.join(session.project.root, f) for f in rng.sample(files, 200)]
        for path in touched:
            session.discover(path)
        assert len(session.rule_table()) == count, len(session.rule_table())
        # Same answers from both, on every touched path.
        for path in touched[:50]:
            rel = os.path.relpath(path, session.project.root)
            loaded = session.channels["main"].loaded
            other = indexed(session.rule_table(), rel, loaded, lambda rule: False)
            assert linear_matching(session.rule_table(), rel, loaded, lambda rule: False) == other
        old: list[float] = []
        new: list[float] = []
        for _ in range(runs):
            block = rng.choices(touched, k=samples // runs)
            rule_table.RuleTable.matching = linear_matching  # type: ignore[method-assign]
            old.extend(warm(session, block))
            rule_table.RuleTable.matching = indexed  # type: ignore[method-assign]
            new.extend(warm(session, block))
        loads = len(session.channels["main"].loaded)
    return statistics.median(old), statistics.median(new), loads


def settle(root: Path) -> None:
    """Date the tree's directories a minute back: a listing younger than 2 s is never trusted."""
    when = time.time_ns() - 60 * 10**9
    for current, dirnames, _ in os.walk(root):
        for name in dirnames:
            os.utime(os.path.join(current, name), ns=(when, when))
    os.utime(root, ns=(when, when))


def fast_lane(count: int, samples: int) -> tuple[float, float, int]:
    """Median seconds of the hook's fast lane (`quick.quiet` on the saved quick index) for warm touches,
    with the index's lookups and with every rule tested, and how many of the touches it answered."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "mono"
        files = generate(root, count)
        settle(root)
        store = SessionStore(Path(scratch) / "state")
        rng = random.Random(count)
        touched = rng.sample(files, 100)
        with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
            opened.session.startup()
            for path in touched:
                opened.session.discover(path)
        index = json.loads((store.directory / quick_file_name("s")).read_text())
        every = {**index, "lookups": {**index["lookups"], "always": list(range(len(index["rules"])))}}
        cwd = os.path.realpath(root)
        answered = [path for path in touched if quiet(index, cwd, path) is not None]
        assert all(quiet(every, cwd, path) == quiet(index, cwd, path) for path in answered)
        with_lookups: list[float] = []
        each_rule: list[float] = []
        for path in rng.choices(answered, k=samples):
            for chosen, times in ((index, with_lookups), (every, each_rule)):
                started = time.perf_counter()
                quiet(chosen, cwd, path)
                times.append(time.perf_counter() - started)
    return statistics.median(each_rule), statistics.median(with_lookups), len(answered)


def fresh_startup(root: Path) -> float:
    rule_table._TABLES.clear()  # a new process has built no table yet
    started = time.perf_counter()
    Session(Project(root, managed_files=()), cwd=root, use_git=False).startup()
    return time.perf_counter() - started


def startup(count: int, runs: int) -> tuple[float, float, float]:
    """Median seconds of a fresh startup without and with the shape cache and libyaml, and of restoring
    a saved session (the scope cache a hook process gets) and building the index."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        generate(root, count)
        fresh_startup(root)  # imports, page cache
        old: list[float] = []
        new: list[float] = []
        cached: list[float] = []
        for _ in range(runs):
            with (
                mock.patch.object(scope, "_by_shape", lambda pattern, dialect, translate: translate(pattern)),
                mock.patch.object(frontmatter, "_fast_load", lambda yaml, raw: frontmatter._NOT_LOADED),
                mock.patch.object(frontmatter, "_json_lines", lambda raw: None),
            ):
                scope._SHAPES.clear()
                old.append(fresh_startup(root))
            scope._SHAPES.clear()  # each process starts without shapes
            new.append(fresh_startup(root))
            session = Session(Project(root, managed_files=()), cwd=root, use_git=False)
            session.startup()
            session.discover("CLAUDE.md")  # as the first hook call does: the rules' scopes are cached
            saved = session.to_state()
            rule_table._TABLES.clear()  # a hook process: its first event, with nothing built yet
            started = time.perf_counter()
            session = Session(Project(root, managed_files=()), cwd=root, use_git=False)
            session.restore(saved)
            session.rule_table().matching("src/x.ts", (), lambda rule: False)
            cached.append(time.perf_counter() - started)
    return statistics.median(old), statistics.median(new), statistics.median(cached)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--counts", default="10,100,1000,10000")
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    us = 1e6
    print(f"{'rules':>6}  {'old P50':>10}  {'new P50':>10}  {'old/new':>7}   files loaded")
    for count in (int(c) for c in args.counts.split(",")):
        old, new, loads = measure(count, args.samples, args.runs)
        print(f"{count:>6}  {old * us:7.1f} us  {new * us:7.1f} us  {old / new:6.1f}x   {loads}")
    print(f"\nthe hook's fast lane, a warm touch: {'rules':>6}  {'each rule':>10}  {'lookups':>10}  ratio")
    for count in (int(c) for c in args.counts.split(",")):
        each, looked, answered = fast_lane(count, max(50, args.samples // 10))
        print(
            f"{'':35}{count:>6}  {each * 1000:7.2f} ms  {looked * 1000:7.2f} ms  {each / looked:5.1f}x"
            f"   ({answered} of 100 touches answered)"
        )
    old, new, cached = startup(1000, args.runs)
    print(
        f"startup with 1000 rules (every rule read, its scope translated): old {old * 1000:.1f} ms, "
        f"new {new * 1000:.1f} ms, old/new {old / new:.1f}x; "
        f"restoring a saved session and building the index {cached * 1000:.1f} ms"
    )
    print("targets: new P50 <= 60 us at 1,000 rules, <= 100 us at 10,000; startup with 1,000 rules <= 100 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
