"""`jitctx budget`: bytes per layer and for the host, with headroom; exits 1 when any budget is over."""

from __future__ import annotations

import argparse
from typing import Any

from jitctx.cli.common import add_common, open_project, print_json, table
from jitctx.govern.budget import BudgetReport, measure

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
against the agent profile's limit (jitctx 64 KiB, codex 32 KiB). Without layers, the budget is that
limit on what loads at startup from the root. Exit 1 when any budget is exceeded.

examples:
  jitctx budget --root examples/monorepo
  jitctx budget --agent codex --json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_common(parser)


def run(args: argparse.Namespace) -> int:
    project, _ = open_project(args)
    report = measure(project)
    if args.json:
        print_json(to_json(report, project.profile.name))
    else:
        print(to_text(report, project.profile.name))
    return 1 if report.over else 0


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
            "over": report.injected_payload > report.host_limit,
        },
        "over": report.over,
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
    lines = [
        table(
            ["layer", "files", "body bytes", "payload", "budget", "headroom", ""], rows, right=(1, 2, 3, 4, 5)
        )
    ]
    verdict = "OVER" if report.injected_payload > report.host_limit else "ok"
    lines.append("")
    lines.append(
        f"{agent} payload {report.injected_payload:,} bytes (body {report.injected_body:,}) "
        f"of {report.host_limit:,}: headroom {report.host_headroom:,} bytes — {verdict}"
    )
    return "\n".join(lines)
