"""`explain` as JSON and as text: why each instruction file does or does not reach the agent, and what the
budget does to the ones that do."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from jitctx.assemble import fit_profile
from jitctx.assemble.budget import BudgetResult
from jitctx.discovery.explain import Explanation, Verdict
from jitctx.govern.skills import explain_skill, skill_at
from jitctx.project import Project
from jitctx.reports.table import plain_table
from jitctx.twins import twin_groups

Table = Callable[..., str]
BY = {"client": "the client itself", "jitctx": "jitctx's hook", "none": "nobody"}


class Reached(NamedTuple):
    """What the hook decided for one file at one moment of a previewed session (`hook.preview`)."""

    path: str  # display
    route: str  # "client" | "jitctx" | "none"
    when: str  # "startup" | "touch"
    why: str
    reason: str
    globs: tuple[str, ...] = ()
    trigger: str | None = None


def with_routes(result: Explanation, reached: Sequence[Reached]) -> Explanation:
    """`result` (what discovery finds, read as the hook reads the tree) with each file's route as the
    hook decided it: who brings it, when and why. A file found at start that the hook left to the
    client's first read in its folder, and not decided here, is the client's, later."""
    first: dict[str, Reached] = {}
    for each in reached:
        first.setdefault(each.path, each)
    verdicts: list[Verdict] = []
    for verdict in result.verdicts:
        one = first.pop(verdict.path, None)
        if one is not None:
            kind = one.when if one.route != "none" else "withheld"
            verdicts.append(
                replace(verdict, loads=one.route != "none", kind=kind, why=one.why, reason=one.reason,
                        route=one.route)
            )  # fmt: skip
        elif verdict.loads:
            # Found at start, left by the hook to the client's first read in its folder, which this touch
            # was not (or no call of the client touched the path at all).
            why = "the client loads it itself when it first reads a file in its folder"
            verdicts.append(replace(verdict, loads=False, kind="later", why=why, route="client"))
        else:
            verdicts.append(verdict)
    for rest in first.values():
        kind = rest.when if rest.route != "none" else "withheld"
        verdicts.append(
            Verdict(
                rest.path,
                rest.route != "none",
                kind,
                rest.why,
                rest.reason,
                rest.globs,
                rest.trigger,
                rest.route,
            )
        )
    return replace(result, verdicts=tuple(verdicts))


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
                **({"route": v.route} if v.route is not None else {}),
                **({"globs": list(v.globs), "against": v.against} if v.globs else {}),
            }
            for v in result.verdicts
        ],
        "notes": list(result.notes),
        "budget": budget.to_dict(),
    }
    document["twins"] = [{"path": twin, "twin_of": first} for twin, first in twins_held(result)]
    skill = skill_at(
        project.root, result.rel, project.profile.name
    )  # a SKILL.md: what it is and whether its listing fits
    if skill is not None:
        document["skill"] = skill.to_dict()
    return document


def twins_held(result: Explanation) -> list[tuple[str, str]]:
    """(twin, first): files that reach the agent with the body of one that reached it first; a hook
    sends only the first of them."""
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
    routed = any(v.route is not None for v in result.verdicts)
    if loads and routed:
        lines.append("reaches the agent (with jitctx's hook):")
        rows = [[v.path, BY.get(v.route or "", ""), v.kind, v.why] for v in loads]
        lines.append(_indent(table(["file", "brought by", "when", "why"], rows)))
    elif loads:
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
    skill = skill_at(project.root, result.rel, project.profile.name)
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
