"""`jitctx provenance`: sha256, size and mtime of every instruction file, as a lock file CI can check."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from jitctx.cli.common import add_common, count, open_project, print_json, table, warn
from jitctx.errors import UsageError
from jitctx.govern.provenance import (
    LOCK_FILE,
    LockError,
    NewerLockError,
    compare,
    fingerprints,
    merge_for_write,
    provenance_sources,
    read_base_lock,
    read_lock,
    render_lock,
    write_lock,
)

if TYPE_CHECKING:
    from jitctx.govern.provenance import Change, Fingerprint, Lock

HELP = """\
Without --write or --check, prints the table of instruction files (and, when a lock file exists, how
each differs from it). --write records the table in the lock file (atomic; nothing is written when
nothing changed). --check compares the tree with the lock: a changed sha256 or size, an added or a
removed file fails; a changed mtime alone is only a note (CI clones reset mtimes).

With --check --base REF (in CI: the pull request's base branch), the tree is compared with the lock as
committed in REF (read with 'git show REF:<lock>'), so an edit cannot pass by re-hashing the lock in the
same change: every instruction file that differs from the base lock is reported, and the working lock
must match the tree as well.

`size` is the whole file on disk in bytes, frontmatter included (what sha256 covers); it is not the
`bytes` of startup, touch, budget and stats, which count the body an agent receives.

The lock file defaults to .jitctx.lock.json at the project root; a relative --lock is taken from the
current directory. Commit it next to the instruction files.

exit codes: 0 ok, 1 --check found changes, 2 no lock to check, a malformed lock, a lock from a newer
jitctx, or another usage error

examples:
  jitctx provenance --root examples/monorepo
  jitctx provenance --write
  jitctx provenance --check --json
  jitctx provenance --check --base origin/main
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_common(parser)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write the lock file")
    mode.add_argument("--check", action="store_true", help="exit 1 when files changed since the lock")
    parser.add_argument("--lock", metavar="FILE", help="lock file (default: .jitctx.lock.json at the root)")
    parser.add_argument(
        "--base",
        metavar="REF",
        help="with --check: compare with the lock as committed in this git revision (e.g. origin/main)",
    )


def run(args: argparse.Namespace) -> int:
    if args.base is not None and not args.check:
        raise UsageError("--base REF compares with a base branch's lock; use it with --check")
    project, _ = open_project(args)
    lock_path = os.path.abspath(args.lock) if args.lock else os.path.join(project.root, LOCK_FILE)
    current = fingerprints(provenance_sources(project))
    if args.check and args.base is not None:
        base = read_base_lock(lock_path, args.base)
        return _check_base(args, lock_path, read_lock(lock_path), base, current)
    if args.check:
        lock = read_lock(lock_path)
        if lock is None:
            raise LockError(f"no lock file at {lock_path}; create it with 'jitctx provenance --write'")
        return _check(args, lock_path, lock, current)
    if args.write:
        try:
            lock = read_lock(lock_path)
        except NewerLockError:
            raise
        except LockError as exc:
            warn(f"{exc}; replacing it")
            lock = None
        return _write(args, lock_path, lock, current)
    try:
        lock = read_lock(lock_path)
    except LockError as exc:
        warn(str(exc))
        lock = None
    return _show(args, lock_path, lock, current)


def _check(args: argparse.Namespace, lock_path: str, lock: Lock, current: tuple[Fingerprint, ...]) -> int:
    drift = compare(lock, current)
    if args.json:
        print_json(
            {
                "lock": lock_path,
                "ok": not drift.failing,
                "changes": [_change_json(c) for c in drift.changes],
                "files": [f.to_json() for f in current],
            }
        )
        return 1 if drift.failing else 0
    for change in drift.notes:
        warn(f"{change.path}: mtime changed, content did not (not a failure)")
    if not drift.failing:
        print(f"{count(len(current), 'instruction file')} match {lock_path}")
        return 0
    rows = [
        [
            c.kind.value,
            c.path,
            _short(c.before.sha256) if c.before else "-",
            _short(c.after.sha256) if c.after else "-",
            c.before.size if c.before else "-",
            c.after.size if c.after else "-",
        ]
        for c in drift.failing
    ]
    print(
        table(
            ["change", "file", "locked sha256", "now sha256", "locked bytes", "now bytes"], rows, right=(4, 5)
        )
    )
    print()
    print(
        f"{count(len(drift.failing), 'change')} since {lock_path}; "
        "review them, then run 'jitctx provenance --write'"
    )
    return 1


def _check_base(
    args: argparse.Namespace,
    lock_path: str,
    lock: Lock | None,
    base: Lock,
    current: tuple[Fingerprint, ...],
) -> int:
    """Changes since the base branch's lock fail even when the working lock was re-hashed to match."""
    since_base = compare(base, current).failing
    stale = compare(lock, current).failing if lock is not None else ()
    relocked = {f.path: f for f in lock.files} if lock is not None else {}
    failed = bool(since_base or stale or lock is None)

    def state(change: Change) -> str:
        if lock is None:
            return "no lock"
        after, locked = change.after, relocked.get(change.path)
        if after is None:
            return "removed" if locked is None else "stale"
        same = locked is not None and (locked.sha256, locked.size) == (after.sha256, after.size)
        return "re-hashed" if same else "stale"

    if args.json:
        print_json(
            {
                "lock": lock_path,
                "base": args.base,
                "ok": not failed,
                "changes": [{**_change_json(c), "working_lock": state(c)} for c in since_base],
                "working_changes": [_change_json(c) for c in stale],
                "files": [f.to_json() for f in current],
            }
        )
        return 1 if failed else 0
    where = f"{args.base}:{os.path.basename(lock_path)}"
    if lock is None:
        warn(f"no lock file at {lock_path}; the tree was compared with {where} only")
    if not failed:
        print(f"{count(len(current), 'instruction file')} match {where} and {lock_path}")
        return 0
    if since_base:
        rows = [
            [
                c.kind.value,
                c.path,
                _short(c.before.sha256) if c.before else "-",
                _short(c.after.sha256) if c.after else "-",
                state(c),
            ]
            for c in since_base
        ]
        print(table(["change", "file", "base sha256", "now sha256", "working lock"], rows))
        print()
        print(
            f"{count(len(since_base), 'change')} since {where}: instruction files edited in this change; "
            "review them (re-hashing the lock does not hide an edit)"
        )
    for change in stale:
        print(f"{change.path}: {change.kind.value} since {lock_path}; run 'jitctx provenance --write'")
    return 1


def _write(
    args: argparse.Namespace, lock_path: str, lock: Lock | None, current: tuple[Fingerprint, ...]
) -> int:
    recorded = merge_for_write(lock, current)
    written = write_lock(lock_path, render_lock(recorded))
    if args.json:
        print_json({"lock": lock_path, "written": written, "files": [f.to_json() for f in recorded]})
        return 0
    if written:
        print(f"wrote {lock_path} ({count(len(recorded), 'instruction file')})")
    else:
        print(f"{lock_path} is up to date ({count(len(recorded), 'instruction file')}); nothing written")
    return 0


def _show(
    args: argparse.Namespace, lock_path: str, lock: Lock | None, current: tuple[Fingerprint, ...]
) -> int:
    states: dict[str, str] = {}
    if lock is not None:
        states = {c.path: c.kind.value for c in compare(lock, current).changes}
    if args.json:
        document: dict[str, Any] = {
            "lock": lock_path if lock is not None else None,
            "files": [
                {**f.to_json(), **({"state": states.get(f.path, "locked")} if lock else {})} for f in current
            ],
        }
        if lock is not None:
            document["removed"] = [p for p, s in states.items() if s == "removed"]
        print_json(document)
        return 0
    if not current:
        print("no instruction files found")
        return 0
    headers = ["file", "size", "sha256", "mtime (UTC)"]
    rows: list[list[object]] = [[f.path, f.size, _short(f.sha256), f.mtime] for f in current]
    if lock is not None:
        headers.append("vs lock")
        for row, fp in zip(rows, current, strict=True):
            row.append(states.get(fp.path, "locked"))
        rows.extend([path, "-", "-", "-", "removed"] for path, s in states.items() if s == "removed")
    print(table(headers, rows, right=(1,)))
    return 0


def _short(sha: str) -> str:
    return sha[:12]


def _change_json(change: Change) -> dict[str, Any]:
    return {
        "path": change.path,
        "change": change.kind.value,
        "before": change.before.to_json() if change.before else None,
        "after": change.after.to_json() if change.after else None,
    }
