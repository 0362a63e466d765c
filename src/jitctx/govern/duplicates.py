"""Unconditional instruction files that repeat each other: whole files, or runs of the same lines (pure).

Only lines that carry a rule count: headings, fenced code, table rules and short lines ("## Commands",
"- Build: `pnpm build`") repeat legitimately and would drown the real duplicates. Consecutive repeated
lines are reported as one finding per place, each naming the other places.
"""

from __future__ import annotations

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


def duplicate_findings(texts: Sequence[Text]) -> list[Finding]:
    found: list[Finding] = []
    same_file = _identical_groups(texts)
    for group in same_file:
        for member in group:
            others = [texts[i].display for i in group if i != member]
            found.append(
                finding(
                    "duplicate-rule",
                    texts[member].display,
                    texts[member].first_line,
                    f"same text as {', '.join(others)}",
                    f"keep one file; if both agents need it, let one import the other (@{others[0]})",
                    related=tuple(
                        Location(texts[i].display, texts[i].first_line) for i in group if i != member
                    ),
                )
            )
    grouped = {index: frozenset(group) for group in same_file for index in group}
    found.extend(_repeated_lines(texts, grouped))
    return found


def _identical_groups(texts: Sequence[Text]) -> list[list[int]]:
    by_text: dict[str, list[int]] = defaultdict(list)
    for index, text in enumerate(texts):
        normalized = _SPACE.sub(" ", text.body).strip()
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
                if other != index and other not in same:
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
    return finding(
        "duplicate-text",
        texts[index].display,
        first,
        f"{what} in {where}",
        "keep the text in one file (the nearest common folder's) and delete the copy",
        end_line=last if last != first else None,
        related=tuple(Location(texts[o].display, min(lines)) for o, lines in sorted(elsewhere.items())),
    )


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
