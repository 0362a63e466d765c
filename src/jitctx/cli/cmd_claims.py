"""`jitctx claims`: facts written in instruction files, checked against the repository."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from jitctx.cli.common import add_common, count, open_project, print_json, table, warn
from jitctx.govern.claims_check import Status, check_claims

if TYPE_CHECKING:
    from jitctx.govern.claims_check import Verdict

HELP = """\
A claim is a number next to an explicit keyword, checked against the repository:
  version      "Version: 2.4.0", "版本 0.20.0", "<project name> v0.20.0"
               -> pyproject.toml [project].version, package.json "version", Cargo.toml [package].version
                  (the nearest of them from the file's directory up to the root)
  test files   "26 test files", "测试文件 26 个"
               -> files named test_*.py, *_test.py, *.test.{js,ts,...}, *.spec.{js,ts,...}, *_test.go
                  in the nearest package directory (git ls-files, or a walk outside git)
  test count   "641 tests", "测试 641 项"   -> pytest --collect-only -q, only with --run
  N/N          "641/641 passing"            -> both sides equal, and equal to the file's other counts
Dates, CSS values (aspect-ratio: 1/1), fractions in prose and dependency versions
("requires Python 3.11") are not claims. Without --run, test counts are "unchecked", not failures.

exit codes: 0 no claim is wrong, 1 some claim is wrong, 2 usage or input error

examples:
  jitctx claims --root examples/monorepo
  jitctx claims --run --json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_common(parser)
    parser.add_argument(
        "--run",
        dest="run_tests",
        action="store_true",
        help="count the tests with 'pytest --collect-only -q' (runs project code)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="give up on pytest's collection after this long (default: 300)",
    )


def run(args: argparse.Namespace) -> int:
    project, _ = open_project(args)
    files, skips = project.all_instruction_files()
    report = check_claims(project.root, files, run_tests=args.run_tests, timeout=args.timeout)
    for skip in skips:
        warn(f"{skip.path}: {skip.why}")
    for note in report.notes:
        warn(note)
    summary = {status.value: report.count(status) for status in Status}
    if args.json:
        print_json(
            {
                "root": project.root,
                "ran_tests": report.ran_tests,
                "claims": [_verdict_json(v) for v in report.verdicts],
                "summary": summary,
                "notes": list(report.notes),
                "ok": not report.wrong,
            }
        )
        return 1 if report.wrong else 0
    if not report.verdicts:
        print(f"no claims found in {count(len(files), 'instruction file')}")
        return 0
    rows = [
        [
            f"{v.file}:{v.claim.line}",
            v.claim.kind.value,
            v.claim.text,
            v.status.value,
            v.found or "-",
            "; ".join(part for part in (v.source, v.note) if part) or "-",
        ]
        for v in report.verdicts
    ]
    print(table(["at", "kind", "claim", "verdict", "found", "evidence"], rows))
    print()
    print(", ".join(f"{count} {status}" for status, count in summary.items()))
    return 1 if report.wrong else 0


def _verdict_json(verdict: Verdict) -> dict[str, Any]:
    claim = verdict.claim
    return {
        "path": verdict.file,
        "line": claim.line,
        "kind": claim.kind.value,
        "text": claim.text,
        "claimed": claim.value,
        "status": verdict.status.value,
        "found": verdict.found,
        "source": verdict.source,
        "note": verdict.note,
    }
