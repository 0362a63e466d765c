"""Statistics of the log on disk, read by several processes when the log is large.

Parsing JSON is most of the cost, so lines are read by the fast reader (`fast_read`, msgspec) where it can
be imported, and by several processes: the figures are sums, counts and multisets that merge exactly, so
the log is cut into byte spans on line boundaries, each process folds its spans into a
`StatsAccumulator`, and the parent merges them in log order.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime
from pathlib import Path

from jitctx.telemetry.log_reader import (
    Filter,
    ReadReport,
    Span,
    event_files,
    make_filter,
    plan_spans,
    prefers_exact,
    read_span,
)
from jitctx.telemetry.stats import Stats, StatsAccumulator

try:
    from jitctx.telemetry.fast_read import scan_spans_fast
except ImportError:  # msgspec cannot be imported: the exact reader alone, which gives the same figures
    FAST_READ = False
else:
    FAST_READ = True

# Below this many bytes starting processes costs more than it saves.
PARALLEL_MIN_BYTES = 16 * 1024 * 1024


Scanner = Callable[[list[Span], Filter], tuple[StatsAccumulator, ReadReport]]


def scan_spans(spans: list[Span], keep: Filter) -> tuple[StatsAccumulator, ReadReport]:
    """The exact reader: every line parsed by `json` into a dict."""
    accumulator = StatsAccumulator()
    report = ReadReport()
    for span in spans:
        accumulator.add_all(read_span(span, keep, report))
    return accumulator, report


def stats_from_log(
    directory: str | os.PathLike[str],
    *,
    since: datetime | None = None,
    session: str | None = None,
    workers: int | None = None,
    exact: bool = False,
) -> Stats:
    """Statistics of the records in `directory`; `workers` processes (default: one per CPU) when the
    log is larger than PARALLEL_MIN_BYTES. `session`: an id or its first characters (see
    `store.prefers_exact`; `exact`: a whole id only)."""
    keep = make_filter(since, session, exact=exact)
    accumulator, report = _scan_log(directory, keep, since, workers)
    if not exact and prefers_exact(session, accumulator.sessions):
        keep = make_filter(since, session, exact=True)
        accumulator, report = _scan_log(directory, keep, since, workers)
    return accumulator.result(report, keep)


def _scan_log(
    directory: str | os.PathLike[str], keep: Filter, since: datetime | None, workers: int | None
) -> tuple[StatsAccumulator, ReadReport]:
    files = event_files(directory, since)
    total = sum(_size(path) for path in files)
    parts = workers if workers is not None else (os.cpu_count() or 1)
    scan = scanner()
    results = None
    if parts > 1 and files and total >= PARALLEL_MIN_BYTES:
        try:
            results = _in_processes(scan, plan_spans(files, parts), keep)
        except (OSError, BrokenProcessPool):
            results = None  # no processes to be had here (a sandbox, a limit): read it in this one
    if results is None:
        results = [scan([Span(str(path), 0, _size(path)) for path in files], keep)]
    accumulator, report = results[0]
    for later, later_report in results[1:]:
        accumulator.merge(later)
        report.merge(later_report)
    return accumulator, report


def scanner() -> Scanner:
    """The fast reader when msgspec can be imported, else the exact one (both give the same figures)."""
    return scan_spans_fast if FAST_READ else scan_spans


def _in_processes(
    scan: Scanner, groups: list[list[Span]], keep: Filter
) -> list[tuple[StatsAccumulator, ReadReport]]:
    # fork starts a worker in milliseconds and needs no re-import; it is only safe without other threads.
    methods = multiprocessing.get_all_start_methods()
    use_fork = "fork" in methods and threading.active_count() == 1 and sys.platform != "darwin"
    context = multiprocessing.get_context("fork" if use_fork else None)
    with ProcessPoolExecutor(max_workers=len(groups), mp_context=context) as pool:
        futures = [pool.submit(scan, group, keep) for group in groups]
        return [future.result() for future in futures]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
