"""Unconditional instruction files that repeat each other: whole files, or runs of the same lines (pure).

Only lines that carry a rule count: headings, fenced code, table rules and short lines ("## Commands",
"- Build: `pnpm build`") repeat legitimately and would drown the real duplicates. Consecutive repeated
lines are reported as one finding per place, each naming the other places.

A repeat costs something only where both copies load together, so two texts are compared only when one
agent reads both and they sit on one directory chain (the same folder, or one above the other): what an
agent starting anywhere loads at once. Sibling packages' files never load together at start, and moving
their common lines to the parent folder would load them in every session. Whole files are compared as
the agent gets them, imports expanded: two `CLAUDE.md` that both say `@AGENTS.md` differ when the
imports resolve to different files.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from jitctx.govern.findings import Finding, Location, finding
from jitctx.govern.source import lines_outside_fences

MIN_LINE_CHARS = 30
MAX_GAP = 3
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Text:
    """One unconditional file to compare: its display path, body and the line the body starts on."""

    display: str
    body: str
    first_line: int = 1
    expanded: str | None = None  # the body with its imports expanded, as the agent gets it
    # The folders (root-relative POSIX, "" for the root) whose sessions load the file; none: everywhere.
    homes: tuple[str, ...] = ()
    readers: frozenset[str] = frozenset()  # the agents that load it; none: any agent

    @property
    def whole(self) -> str:
        return self.body if self.expanded is None else self.expanded


def load_together(a: Text, b: Text) -> bool:
    """Does some agent get both texts in one session: one reader, one directory chain?"""
    if a.readers and b.readers and not a.readers & b.readers:
        return False
    if not a.homes or not b.homes:
        return True
    return any(_on_chain(x, y) for x in a.homes for y in b.homes)


def _on_chain(x: str, y: str) -> bool:
    return x == y or not x or not y or y.startswith(x + "/") or x.startswith(y + "/")


def _above(x: Text, y: Text) -> bool:
    """Is every folder of `x` above (or the same as) one of `y`'s, so `x` loads wherever `y` does?"""
    if not x.homes:
        return True
    return bool(y.homes) and all(
        any(not h or g == h or g.startswith(h + "/") for h in x.homes) for g in y.homes
    )


def duplicate_findings(texts: Sequence[Text]) -> list[Finding]:
    found: list[Finding] = []
    same_file = _identical_groups(texts)
    for group in same_file:
        for member in group:
            mates = [i for i in group if i != member and load_together(texts[member], texts[i])]
            if not mates:
                continue
            others = [texts[i].display for i in mates]
            found.append(
                finding(
                    "duplicate-rule",
                    texts[member].display,
                    texts[member].first_line,
                    f"same text as {', '.join(others)}",
                    _whole_fix(texts[member], [texts[i] for i in mates]),
                    related=tuple(Location(texts[i].display, texts[i].first_line) for i in mates),
                )
            )
    grouped = {index: frozenset(group) for group in same_file for index in group}
    found.extend(_repeated_lines(texts, grouped))
    return found


def _identical_groups(texts: Sequence[Text]) -> list[list[int]]:
    by_text: dict[str, list[int]] = defaultdict(list)
    for index, text in enumerate(texts):
        normalized = _SPACE.sub(" ", text.whole).strip()
        if normalized:
            by_text[normalized].append(index)
    return [group for group in by_text.values() if len(group) > 1]


def _repeated_lines(texts: Sequence[Text], grouped: dict[int, frozenset[int]]) -> list[Finding]:
    places: dict[str, list[tuple[int, int]]] = defaultdict(list)  # key -> (file index, line)
    keyed: list[list[tuple[int, str]]] = []
    for index, text in enumerate(texts):
        lines = list(_rule_lines(text))
        keyed.append(lines)
        for line, key in lines:
            places[key].append((index, line))
    found: list[Finding] = []
    for index, lines in enumerate(keyed):
        same = grouped.get(index, frozenset())
        run: list[tuple[int, dict[int, list[int]]]] = []  # (line, other file -> its lines)
        for line, key in lines:
            others: dict[int, list[int]] = defaultdict(list)
            for other, other_line in places[key]:
                if other != index and other not in same and load_together(texts[index], texts[other]):
                    others[other].append(other_line)
            # Blank lines and headings between two repeated lines do not split a pasted section.
            if others and run and line - run[-1][0] <= MAX_GAP and others.keys() == run[-1][1].keys():
                run.append((line, others))
                continue
            if run:
                found.append(_run_finding(texts, index, run))
            run = [(line, others)] if others else []
        if run:
            found.append(_run_finding(texts, index, run))
    return found


def _run_finding(texts: Sequence[Text], index: int, run: list[tuple[int, dict[int, list[int]]]]) -> Finding:
    first, last = run[0][0], run[-1][0]
    elsewhere: dict[int, list[int]] = defaultdict(list)
    for _, others in run:
        for other, lines in others.items():
            elsewhere[other].extend(lines)
    where = "; ".join(
        f"{texts[o].display}:{_span(sorted(set(lines)))}" for o, lines in sorted(elsewhere.items())
    )
    count = len(run)
    what = "this line also appears" if count == 1 else f"these {count} lines also appear"
    here, there = texts[index], [texts[o] for o in sorted(elsewhere)]
    return finding(
        "duplicate-text",
        here.display,
        first,
        f"{what} in {where}",
        _lines_fix(here, there),
        end_line=last if last != first else None,
        related=tuple(Location(texts[o].display, min(lines)) for o, lines in sorted(elsewhere.items())),
    )


def _whole_fix(here: Text, others: list[Text]) -> str:
    above = [o for o in others if _above(o, here) and not _above(here, o)]
    if above:
        return f"delete this file: {above[0].display} has the same text and loads wherever this one does"
    below = [o for o in others if _above(here, o) and not _above(o, here)]
    if below:
        names = ", ".join(o.display for o in below)
        return f"keep this file and delete {names}, which loads only where this one does"
    target = os.path.relpath(others[0].display, os.path.dirname(here.display) or ".").replace(os.sep, "/")
    return f"keep one file; if both agents need it, let one import the other (@{target})"


def _lines_fix(here: Text, others: list[Text]) -> str:
    if all(_above(o, here) and not _above(here, o) for o in others):
        names = ", ".join(o.display for o in others)
        return f"delete the lines here: {names} loads wherever this file does and already has them"
    if all(_above(here, o) and not _above(o, here) for o in others):
        return "keep the lines here and delete the copies, which load only where this file does"
    return "keep the lines in one of these files and delete the other copies"


def _span(lines: list[int]) -> str:
    return str(lines[0]) if lines[0] == lines[-1] else f"{lines[0]}-{lines[-1]}"


def _rule_lines(text: Text) -> list[tuple[int, str]]:
    """(line on disk, normalized key) of every line that carries a rule."""
    found: list[tuple[int, str]] = []
    for offset, raw in lines_outside_fences(text.body):
        stripped = raw.strip()
        if not stripped or stripped.startswith(("#", "|", "<!--")):
            continue  # headings, table rows and comments repeat legitimately
        key = _SPACE.sub(" ", _LIST_MARKER.sub("", stripped)).strip().casefold()
        if len(key) >= MIN_LINE_CHARS and any(ch.isalpha() for ch in key):
            found.append((text.first_line + offset, key))
    return found
