"""`explain` as JSON and as text: why each instruction file does or does not reach the agent, and what the
budget does to the ones that do."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jitctx.assemble import fit_profile
from jitctx.assemble.budget import BudgetResult
from jitctx.discovery.explain import Explanation
from jitctx.govern.skills import explain_skill, skill_at
from jitctx.project import Project
from jitctx.reports.table import plain_table

Table = Callable[..., str]


def to_json(result: Explanation, project: Project) -> dict[str, Any]:
    budget = fit_profile(result.blocks, project.profile)
    document: dict[str, Any] = {
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
    document["twins"] = [{"path": twin, "twin_of": first} for twin, first in twins_held(result)]
    skill = skill_at(project.root, result.rel)  # a SKILL.md: what it is and whether its listing fits
    if skill is not None:
        document["skill"] = skill.to_dict()
    return document


def twins_held(result: Explanation) -> list[tuple[str, str]]:
    """(twin, first): files that reach the agent with the body of one that reached it first; a hook
    sends only the first of them."""
    from jitctx.twins import twin_groups

    bodies = {file.display: file.text for file in result.blocks}
    groups = twin_groups(list(bodies), bodies.get)
    order = list(bodies)
    return [
        (display, min(group, key=order.index))
        for display, group in groups.items()
        if order.index(min(group, key=order.index)) < order.index(display)
    ]


def to_text(result: Explanation, project: Project, table: Table = plain_table) -> str:
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
    lines += ["", *budget_lines(fit_profile(result.blocks, project.profile), table)]
    limit = project.profile.startup_limit()
    if not limit.cuts:  # the agent loads its files whole: say whose limit the figure is
        lines.append(f"  (the limit is {limit.owner}'s {limit.name}: {limit.effect})")
    if result.notes:
        lines.append("")
        lines.extend(f"note: {note}" for note in result.notes)
    for twin, first in twins_held(result):
        lines.append(f"twin: {twin} has the text of {first}: a hook sends that text once")
    skill = skill_at(project.root, result.rel)
    if skill is not None:
        lines += ["", *explain_skill(skill)]
    return "\n".join(lines)


def budget_lines(budget: BudgetResult, table: Table = plain_table) -> list[str]:
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
