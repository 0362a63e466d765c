"""`jitctx doctor`: is jitctx set up so that the agents actually run it? Exit 1 when something is not."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from jitctx.cli.common import add_json, add_root, count, print_json, table
from jitctx.cli.drift_report import drift_checks, drift_report
from jitctx.cli.state import add_state_dir, user_home
from jitctx.cli.state_paths import state_dir
from jitctx.clients import all_clients
from jitctx.clients.kit.checks import OK, PROBLEM, SKIP, WARN, Check, hook_log_check, state_dir_check
from jitctx.errors import JitctxError, UsageError
from jitctx.govern.lint_links import InstructionPaths, linked_instruction_files
from jitctx.govern.repo_files import list_repo_files
from jitctx.paths import find_root
from jitctx.profiles import PROFILES, ROOT_MARKERS
from jitctx.safe_open import open_state_file

CHECKS = """\
Checks, for every agent (`jitctx profiles` lists them):
  hooks        jitctx's hook entries in each settings file the agent reads (its scopes), every event
               `jitctx install` writes
  command      the hook command's program exists (an absolute path) or is on PATH; where jitctx is
               not on PATH, the committed command answers {} and the agent runs without jitctx's
               context (a warning), while the bare `jitctx hook AGENT` of older installs fails
  portable     the committed command names no path of this machine and answers where jitctx is not
               installed (`jitctx install AGENT` rewrites an older one)
  version      `PROGRAM --version` (skipped when the agent's program is not on PATH)
and what each agent adds of its own:
"""

JITCTX_CHECKS = """\
and for jitctx itself: the state dir is a directory of yours, 0700 and writable, and the hook log
(<state dir>/hook.log) has no errors from the last 24 hours; and
  drift        per agent release, from the transcripts of the last 7 days (20 sessions at most):
               files that reached the model twice, or that jitctx counted as loaded by the agent
               and never arrived (a warning; `jitctx stats --drift` lists them)
  links        a symbolic link in the project that leads to an instruction file outside it: jitctx
               does not read that file, an agent that follows links loads it (`jitctx lint` lists each)

Exit 0 when nothing is wrong, 1 when a check found a problem, 2 on a usage error. Warnings (a folder
an agent never asked about, hooks in two scopes) do not change the exit code.

examples:
  jitctx doctor
  jitctx doctor --root ~/src/app --json
"""


def own_checks() -> str:
    """One paragraph per agent: the checks of its own (`Setup.doctor_note`)."""
    return "".join(
        textwrap.fill(
            setup.doctor_note,
            width=104,
            initial_indent=f"  {setup.name:<13}",
            subsequent_indent=" " * 15,
            break_on_hyphens=False,
        )
        + "\n"
        for setup in all_clients.every_setup()
    )


LOG_TAIL_BYTES = 64 * 1024
# The drift check reads the transcripts of the newest sessions only: doctor should answer in a moment.
DRIFT_DAYS, DRIFT_SESSIONS = 7, 20


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = CHECKS + own_checks() + JITCTX_CHECKS
    add_root(parser)
    add_state_dir(parser)
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    root = _root(args.root)
    checks: list[Check] = []
    installed = 0

    home = user_home()
    setups = all_clients.every_setup()
    for setup in setups:
        client_checks, has_hooks = setup.doctor(root, home, os.environ)
        checks.extend(client_checks)
        installed += has_hooks
    if not installed:
        first, *others = (setup.name for setup in setups)
        checks.append(
            Check(
                "jitctx",
                "hooks",
                PROBLEM,
                "no jitctx hooks for any client, in any scope",
                f"jitctx install {first}   (or: {', '.join(f'jitctx install {o}' for o in others)})",
            )
        )
    checks.append(_links_check(root))
    state = state_dir(args)

    checks.extend(_drift_checks(state, home))  # after the clients' own checks: a line per release
    checks.append(state_dir_check(state, os.getuid()))
    checks.append(hook_log_check(_log_tail(state / "hook.log"), state / "hook.log", time.time()))
    problems = sum(c.status == PROBLEM for c in checks)
    if args.json:
        print_json({"ok": problems == 0, "root": root, "checks": [c.as_json() for c in checks]})
    else:
        _human(checks, problems)
    return 1 if problems else 0


def _root(root_arg: str | None) -> str:
    if root_arg is not None:
        root = os.path.abspath(root_arg)
        if not os.path.isdir(root):
            raise UsageError(f"--root {root_arg!r} is not an existing directory")
        return root

    return find_root(os.getcwd(), ROOT_MARKERS)


def _links_check(root: str) -> Check:
    """Instruction files outside the project that links in it lead to: jitctx never reads them, a client
    that follows links loads them as the project's (`lint` lists each, as a finding)."""
    name = "links"
    if not any(os.path.exists(os.path.join(root, marker)) for marker in ROOT_MARKERS):
        return Check("jitctx", name, SKIP, f"{root} is not a project (no {' or '.join(ROOT_MARKERS)})")
    every_agent = InstructionPaths(PROFILES.values())  # whichever client the project is opened in
    linked = linked_instruction_files(root, list_repo_files(root).paths, every_agent)
    if not linked:
        return Check("jitctx", name, OK, "no link in the project leads to an instruction file outside it")
    shown = "; ".join(f"{item.file} (-> {item.target})" for item in linked[:3])
    more = f"; and {len(linked) - 3} more" if len(linked) > 3 else ""
    return Check(
        "jitctx",
        name,
        WARN,
        f"links in the project lead to instruction files outside it: {shown}{more}. jitctx does not read "
        "them; a client that follows links loads them as the project's",
        "copy what applies into the project and remove the links, or point them inside it "
        "(jitctx lint lists each file)",
    )


def _drift_checks(state: Path, home: str | None) -> list[Check]:
    """The drift of the newest sessions, from the clients' transcripts; warnings only, never a problem:
    a client release loading differently from what jitctx expects costs context, not correctness."""
    window = f"of the last {DRIFT_DAYS} days"
    since = datetime.now(UTC) - timedelta(days=DRIFT_DAYS)
    try:
        report = drift_report(state / "events", since=since, limit=DRIFT_SESSIONS, home=home)
    except (JitctxError, OSError) as exc:
        return [Check("jitctx", "drift", SKIP, f"the event log could not be read: {exc}")]
    return drift_checks(report, window)


def _log_tail(path: Path) -> str | None:
    """The end of the hook log: a regular file of ours, never a link or a FIFO (see open_state_file)."""
    try:
        fd = open_state_file(str(path))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as log:
        size = os.fstat(log.fileno()).st_size
        log.seek(max(0, size - LOG_TAIL_BYTES))
        data = log.read(LOG_TAIL_BYTES)
    text = data.decode("utf-8", "replace")
    return text.split("\n", 1)[1] if size > LOG_TAIL_BYTES and "\n" in text else text


def _human(checks: list[Check], problems: int) -> None:
    rows = [[c.client, c.name, c.status, c.detail] for c in checks]
    print(table(["client", "check", "status", "detail"], rows))
    fixes = [c for c in checks if c.fix and c.status in (PROBLEM, WARN)]
    if fixes:
        print()
        for check in fixes:
            print(f"fix ({check.client} {check.name}): {check.fix}")
    if problems:
        print(f"jitctx: {count(problems, 'problem')} found", file=sys.stderr)
    else:
        print(f"jitctx: no problems ({sum(c.status == OK for c in checks)} checks ok)", file=sys.stderr)
