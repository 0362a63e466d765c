"""`jitctx explain PATH`: which instruction files reach an agent touching PATH, and why the others don't."""

from __future__ import annotations

import argparse
import os
from typing import Any

from jitctx.assemble import fit_profile
from jitctx.assemble.budget import BudgetResult
from jitctx.cli.common import add_agent, add_json, path_argument, print_json, root_for_path, table
from jitctx.cli.state import user_config_path, user_home
from jitctx.discovery.explain import Explanation, explain
from jitctx.errors import UsageError
from jitctx.govern.skills import explain_skill, skill_at
from jitctx.profiles import ROOT_MARKERS
from jitctx.project import Project

HELP = """\
Answers "why did (or didn't) my rule reach the agent?" in the order you would check by hand:
  1. was the file's directory touched at all? (nested files load only when a path under them is)
  2. does its scope match the actual path? (globs and path shown side by side)
  3. is the path inside the project? is the frontmatter readable? is the file readable?

A relative PATH is taken from --cwd, else from --root when given, else from the current directory (as in
`jitctx touch`). The root defaults to the nearest ancestor of PATH with a root marker (.git,
.jitctx.toml); the agent's cwd defaults to the root.

examples:
  jitctx explain examples/monorepo/src/ui/Footer.tsx
  jitctx explain src/api/users.ts --agent codex --json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    parser.add_argument("path", metavar="PATH", help="the file or directory an agent touches")
    parser.add_argument("--root", metavar="DIR", help="project root (default: found from PATH)")
    parser.add_argument("--cwd", metavar="DIR", help="the agent's working directory (default: the root)")
    add_agent(parser)
    add_json(parser)
    parser.add_argument("--no-git", action="store_true", help="do not ask git for changed files")


def run(args: argparse.Namespace) -> int:
    target = path_argument(args.path, args.root, args.cwd)
    root = root_for_path(target, args.root, ROOT_MARKERS)
    # The user tier and the user's own config, as the hook reads them.
    project = Project(root, profile=args.agent, home=user_home(), user_config=user_config_path())
    cwd = os.path.join(project.root, args.cwd) if args.cwd else project.root
    if not os.path.isdir(cwd):
        raise UsageError(f"--cwd {args.cwd!r} is not a directory under {project.root}")
    result = explain(project, target, cwd=cwd, use_git=not args.no_git)
    skill = skill_at(project.root, result.rel)  # a SKILL.md: what it is and whether its listing fits
    if args.json:
        document = to_json(result, project)
        if skill is not None:
            document["skill"] = skill.to_dict()
        print_json(document)
    else:
        print(to_text(result, project))
        if skill is not None:
            print("\n" + "\n".join(explain_skill(skill)))
    return 0


def to_json(result: Explanation, project: Project) -> dict[str, Any]:
    budget = fit_profile(result.blocks, project.profile)
    return {
        "path": result.rel if result.rel is not None else result.target,
        "inside": result.rel is not None,
        "root": project.root,
        "agent": project.profile.name,
        "signals": list(result.startup.signals),
        "verdicts": [
            {
                "path": v.path,
                "loads": v.loads,
                "kind": v.kind,
                "reason": v.reason,
                "why": v.why,
                **({"globs": list(v.globs), "against": v.against} if v.globs else {}),
            }
            for v in result.verdicts
        ],
        "notes": list(result.notes),
        "budget": budget.to_dict(),
    }


def to_text(result: Explanation, project: Project) -> str:
    shown = result.rel if result.rel is not None else result.target
    lines = [f"explain {shown}   (agent {project.profile.name}, root {project.root})", ""]
    loads = [v for v in result.verdicts if v.loads]
    misses = [v for v in result.verdicts if not v.loads]
    if loads:
        lines.append("reaches the agent:")
        lines.append(
            _indent(
                table(["file", "when", "reason", "why"], [[v.path, v.kind, v.reason, v.why] for v in loads])
            )
        )
    else:
        lines.append("no instruction file reaches the agent")
    mismatches = [v for v in misses if v.kind == "scope_mismatch"]
    if mismatches:
        lines += ["", "scoped rules that do not match (glob vs path):"]
        rows = [[v.path, ", ".join(v.globs), "vs", v.against or ""] for v in mismatches]
        lines.append(_indent(table(["file", "globs", "", "path"], rows)))
    others = [v for v in misses if v.kind != "scope_mismatch"]
    if others:
        lines += ["", "does not reach the agent:"]
        lines.append(_indent(table(["file", "why"], [[v.path, v.why] for v in others])))
    lines += ["", *budget_lines(fit_profile(result.blocks, project.profile))]
    if result.notes:
        lines.append("")
        lines.extend(f"note: {note}" for note in result.notes)
    return "\n".join(lines)


def budget_lines(budget: BudgetResult) -> list[str]:
    """What the budget does to the files that arrive: cut, dropped, bytes kept and lost."""
    head = (
        f"budget ({budget.mode}): payload {budget.payload_bytes:,} of {budget.limit:,} bytes, "
        f"headroom {budget.headroom:,}"
    )
    rows = [
        [f.display, f.status, f.bytes_kept, f.bytes_lost, f.chars_lost, f.note]
        for f in budget.files
        if f.status != "kept"
    ]
    if not rows:
        return [head + "; every file fits whole"]
    return [
        head,
        _indent(table(["file", "status", "kept", "lost", "chars lost", "note"], rows, right=(2, 3, 4))),
    ]


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())
