"""`jitctx budget`: bytes per layer and per start directory, with headroom; exits 1 when any is over."""

from __future__ import annotations

import argparse
from typing import Any

from jitctx.cli.common import add_common, count, open_project, print_json, table
from jitctx.cli.routes import BY, hooked_client, moments
from jitctx.govern.budget import BudgetReport, StartUsage, measure
from jitctx.govern.repo_files import list_repo_files
from jitctx.govern.skills import LISTING_MAX
from jitctx.profiles import SizeLimit

SHOWN_STARTS = 10  # rows of the start-directory table; JSON lists them all

HELP = """\
Layers come from the config (.jitctx.toml or [tool.jitctx]); each is a set of globs over instruction
files with a byte budget for their body text:

  [layers.L0]                  # every turn
  globs = ["AGENTS.md"]
  max_bytes = 16384
  [layers.L1]                  # scoped: loads where it applies
  globs = ["src/**/AGENTS.md"]
  max_bytes = 40960
  [layers.L3]                  # history: read on demand, never injected
  globs = ["docs/history/**"]
  inject = false
  [[budgets]]                  # several layers together
  layers = ["L0", "L1"]
  max_bytes = 57344

The injected layers together are also measured as rendered payload (headers, wrappers, blank lines)
against the agent profile's limit (jitctx 64 KiB, codex 32 KiB).

Every limit is reported with its owner. Codex cuts at its own project_doc_max_bytes (32 KiB unless its
config says otherwise). Claude Code cuts none of its files: past 40,000 characters in one file, or
120,000 in all, it only warns, so those are shown as warnings and never fail the budget; for Claude
Code the 64 KiB is jitctx's own model (what 'jitctx render' assembles), not a cut. What jitctx's hook
sends goes out in answers of at most 10,000 characters, Claude Code's limit for hook context: a file
larger than that is named for the agent to read, not sent.

What loads at startup depends on where the agent starts (Codex joins AGENTS.md files from the root down
to its start directory and stops at 32 KiB), so every directory an agent can start in is measured: the
root, each folder holding an instruction file, and the deepest folders of the repository. The worst one
is reported with what gets cut there; --cwd DIR measures that one only ('jitctx render --cwd DIR' shows
the same cut). Agent Skills (SKILL.md) are listed by name and description at every session start;
Claude Code shows at most 1,536 characters per skill, and a longer listing is cut. Exit 1 when any
budget is exceeded, anything is cut in any start directory, or a skill's listing is cut.

examples:
  jitctx budget --root examples/monorepo
  jitctx budget --agent codex --json
  jitctx budget --agent codex --cwd tests
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_common(parser, cwd=True)
    parser.add_argument(
        "--no-git", action="store_true", help="list the repository's folders by walking, not with git"
    )


def run(args: argparse.Namespace) -> int:
    project, cwd = open_project(args)
    repo = list_repo_files(project.root, use_git=not args.no_git)
    if args.cwd is not None:
        report = measure(project, cwd=cwd, paths=repo.paths)
    else:
        report = measure(project, directories=repo.directories, paths=repo.paths)
    routes = _start_routes(args, cwd)
    if args.json:
        print_json({**to_json(report, project.profile.name), **({"routes": routes} if routes else {})})
    else:
        print(to_text(report, project.profile.name))
        if routes:
            files = count(len(routes["files"]), "file")
            print(
                f"with jitctx's hook, at start: {routes['client_bytes']:,} bytes the client loads itself, "
                f"{routes['jitctx_bytes']:,} bytes jitctx's hook sends ({files})"
            )
    return 1 if report.over else 0


def _start_routes(args: argparse.Namespace, cwd: str) -> dict[str, Any] | None:
    """For a live client: who brings the start's files with jitctx's hook, and their bytes, as the hook
    decides it (the start of a session played through it, `cli.routes`)."""
    client = hooked_client(args)
    if client is None:
        return None
    start = moments(client, cwd, (), use_git=not args.no_git)[0]
    weigh = {route: sum(v.load.file.body_bytes for v in start.verdicts if v.route == route) for route in BY}
    return {
        "client_bytes": weigh["client"],
        "jitctx_bytes": weigh["jitctx"],
        "files": [v.to_dict() for v in start.verdicts],
    }


def to_json(report: BudgetReport, agent: str) -> dict[str, Any]:
    return {
        "agent": agent,
        "configured": report.configured,
        "layers": [
            {
                "name": u.name,
                "files": list(u.files),
                "body_bytes": u.body_bytes,
                "payload_bytes": u.payload_bytes,
                "limit": u.limit,
                "headroom": u.headroom,
                "inject": u.inject,
                "over": u.over,
            }
            for u in report.layers
        ],
        "host": {
            "style": report.style,
            "body_bytes": report.injected_body,
            "payload_bytes": report.injected_payload,
            "limit": report.host_limit,
            "headroom": report.host_headroom,
            "over": report.host_over,
            **_owner_json(report.startup_limit),
        },
        "start_dirs": [_start_json(s) for s in report.starts],
        "worst": _start_json(report.worst) if report.worst is not None else None,
        "skills": {
            "count": len(report.skills.skills),
            "listed": len(report.skills.listed),
            "listing_chars": report.skills.total_chars,
            "listing_max_per_skill": LISTING_MAX,
            "cut": [s.to_dict() for s in report.skills.cut],
        },
        "limits": [limit.to_dict() for limit in report.limits],
        "hook": report.hook.to_dict(),
        "ok": not report.over,
    }


def _owner_json(limit: SizeLimit | None) -> dict[str, Any]:
    if limit is None:
        return {}
    return {"limit_owner": limit.owner, "limit_name": limit.name, "limit_cuts": limit.cuts}


def _start_json(start: StartUsage) -> dict[str, Any]:
    return {
        "path": start.path,
        "files": list(start.files),
        "need_bytes": start.need,
        "limit": start.limit,
        "headroom": start.headroom,
        "over": start.over,
        "cut": [f.to_dict() for f in start.cut],
        **_owner_json(start.limit_info),
        "chars": start.chars,
        "warnings": [w.to_dict() for w in start.warnings],
    }


def to_text(report: BudgetReport, agent: str) -> str:
    rows: list[list[object]] = []
    for u in report.layers:
        limit = f"{u.limit:,}" if u.limit is not None else "-"
        headroom = f"{u.headroom:,}" if u.headroom is not None else "-"
        verdict = "OVER" if u.over else ("" if u.inject else "not injected")
        rows.append(
            [u.name, len(u.files), f"{u.body_bytes:,}", f"{u.payload_bytes:,}", limit, headroom, verdict]
        )
    lines: list[str] = []
    if report.configured:
        headers = ["layer", "files", "body bytes", "payload", "budget", "headroom", ""]
        lines.append(table(headers, rows, right=(1, 2, 3, 4, 5)))
        verdict = "OVER" if report.host_over else "ok"
        lines.append("")
        lines.append(
            f"{agent} injected layers: payload {report.injected_payload:,} bytes (body "
            f"{report.injected_body:,}) of {report.host_limit:,}: headroom {report.host_headroom:,} bytes "
            f"— {verdict}"
        )
    if report.starts:
        if lines:
            lines.append("")
        lines.append(_starts_table(report.starts))
        lines.append("")
        lines.extend(_worst_lines(report, agent))
    if report.skills.skills:
        listing = report.skills
        lines.append("")
        lines.append(
            f"skills: {count(len(listing.skills), 'skill')} ({len(listing.listed)} listed), "
            f"{listing.total_chars:,} characters of listing per session, at most {LISTING_MAX:,} "
            "per skill — " + (f"{len(listing.cut)} cut" if listing.cut else "ok")
        )
        for skill in listing.cut:
            lines.append(f"  {skill.path}: {skill.listing_chars:,} characters, {skill.listing_cut:,} cut")
    lines.extend(_hook_lines(report))
    if report.limits:
        lines.append("")
        lines.append("limits, whose they are and what happens past them:")
        lines.extend(f"  {_limit_text(limit)}" for limit in report.limits)
    return "\n".join(lines)


def _worst_lines(report: BudgetReport, agent: str) -> list[str]:
    worst = report.starts[0]
    measured = f" ({len(report.starts)} start directories measured)" if len(report.starts) > 1 else ""
    info = worst.limit_info
    if not worst.cuts:
        verdict = "warnings" if worst.warnings else "ok"
        model = f"; {worst.limit:,} bytes is {info.owner}'s own model, not {agent}'s limit" if info else ""
        lines = [
            f"{agent} worst start directory {_dir(worst.path)}: {worst.need:,} bytes, {worst.chars:,} "
            f"characters in {count(len(worst.files), 'file')}; {agent} cuts none of them{model} — "
            f"{verdict}{measured}"
        ]
    else:
        whose = f" ({info.owner}'s {info.name})" if info else ""
        verdict = "OVER" if worst.over else "ok"
        lines = [
            f"{agent} worst start directory {_dir(worst.path)}: {worst.need:,} of {worst.limit:,} bytes"
            f"{whose}, headroom {worst.headroom:,} — {verdict}{measured}"
        ]
    for f in worst.cut:
        lines.append(f"  {f.display}: {f.status}, {f.bytes_kept:,} bytes kept, {f.bytes_lost:,} lost")
    lines.extend(f"  warning: {w.describe()}" for w in worst.warnings)
    return lines


def _hook_lines(report: BudgetReport) -> list[str]:
    hook = report.hook
    if hook.limit is None or not hook.too_large:
        return []
    limit = hook.limit
    lines = [
        "",
        f"hook: {count(len(hook.too_large), 'file')} over the {limit.value:,} characters of one hook "
        f"answer ({limit.owner}'s {limit.name}); jitctx's hook names them instead of sending them",
    ]
    lines.extend(f"  {w.file}: {w.size:,} characters" for w in hook.too_large)
    return lines


def _limit_text(limit: SizeLimit) -> str:
    unit = "characters" if limit.unit == "chars" else "bytes"
    where = {"file": "per file", "startup": "at startup", "hook": "per hook answer"}.get(
        limit.applies_to, limit.applies_to
    )
    kind = "cuts" if limit.cuts else ("no cut" if limit.owner == "jitctx" else "warns")
    return f"{limit.owner}: {limit.name}, {limit.value:,} {unit} {where} ({kind}: {limit.effect})"


def _dir(path: str) -> str:
    return "(root)" if path == "." else path


def _starts_table(starts: tuple[StartUsage, ...]) -> str:
    if not starts[0].cuts:
        return _warn_table(starts)
    rows: list[list[object]] = []
    for s in starts[:SHOWN_STARTS]:
        cut = ", ".join(f"{f.display} {f.status} (-{f.bytes_lost:,})" for f in s.cut)
        rows.append([_dir(s.path), len(s.files), f"{s.need:,}", f"{s.limit:,}", f"{s.headroom:,}", cut])
    text = table(["start dir", "files", "bytes", "limit", "headroom", "cut"], rows, right=(1, 2, 3, 4))
    hidden = len(starts) - SHOWN_STARTS
    return text + (f"\n… and {hidden} more (see --json)" if hidden > 0 else "")


def _warn_table(starts: tuple[StartUsage, ...]) -> str:
    """Start directories of an agent that cuts nothing: sizes, and the warnings it would show."""
    rows: list[list[object]] = []
    for s in starts[:SHOWN_STARTS]:
        warned = ", ".join(w.file or "all files" for w in s.warnings)
        rows.append([_dir(s.path), len(s.files), f"{s.need:,}", f"{s.chars:,}", warned])
    text = table(["start dir", "files", "bytes", "characters", "warnings"], rows, right=(1, 2, 3))
    hidden = len(starts) - SHOWN_STARTS
    return text + (f"\n… and {hidden} more (see --json)" if hidden > 0 else "")
