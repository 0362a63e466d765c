"""Factual claims written in instruction files: versions, test counts, test file counts, "N/N" pairs (pure).

A number only counts as a claim when an explicit keyword stands right next to it (`Version: 2.4.0`,
`641 tests`, `测试文件 26 个`, `641/641 passing`). That anchoring is the whole defence against false
positives: the first checker in the seed read the CSS `aspect-ratio: 1/1` as a test count, and dates
(`2026-08-08`, `8/8`), fractions in prose and dependency versions (`requires Python 3.11`, `React 18.2.0`)
must not be read as claims about this repository either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from jitctx.govern.source import lines_outside_fences


class ClaimKind(StrEnum):
    VERSION = "version"
    TEST_COUNT = "test_count"
    TEST_FILES = "test_files"
    RATIO = "ratio"  # "641/641 passing": both sides must agree, and with every other count in the file


@dataclass(frozen=True)
class Claim:
    kind: ClaimKind
    line: int  # 1-based, in the text the claim was found in (shifted by `first_line`)
    text: str  # the words that make the claim, as written
    value: str  # "2.4.0", "641", "641/641"
    family: str | None = None  # test files only: "python", "js" or "go" when the claim names one

    @property
    def numbers(self) -> tuple[int, ...]:
        """The counts a test or ratio claim states; empty for versions."""
        if self.kind is ClaimKind.VERSION:
            return ()
        return tuple(int(part) for part in self.value.split("/"))


_NUM = r"\d{1,3}(?:,\d{3})+|\d+"
_VERSION = r"\d+\.\d+(?:\.\d+){0,2}(?:(?:-|\+)[0-9A-Za-z][0-9A-Za-z.-]*|(?:a|b|rc|\.dev|\.post)\d+)?"

# A version label and its value: "Version: 2.4.0", "**Version**: v0.20.0", "版本 0.20.0", "release: 1.2.0".
_VERSION_LABEL = re.compile(
    r"(?P<kw>\bversion\b|\bver\.|版本号?|\brelease\b)"
    r"(?P<sep>[\s*_`|]*(?:[:\uff1a=]|\bis\b)?[\s*_`|]*)"
    rf"(?P<v>v?(?:{_VERSION}))(?![\w.]*\d)(?!\.\w)",
    re.IGNORECASE,
)
# Words allowed right before the label; anything else ("Python version 3.11") names another thing.
_EN_QUALIFIERS = frozenset(
    {"current", "project", "package", "app", "latest", "our", "this", "the", "release", "at"}
)
# Before a test label, only words that keep it about the suite: "Total tests: 641", not "Run the tests: 3".
_TEST_QUALIFIERS = frozenset({"current", "total", "project", "our", "all"})
_CJK_QUALIFIERS = ("当前", "项目", "本项目", "最新", "发布")

# (pattern, label): a label ("Tests: 641") must lead its line or follow a qualifier, or "Run the tests: 3
# steps" would count; a number followed by its noun ("641 tests") may stand anywhere.
_TEST_FILES: tuple[tuple[re.Pattern[str], bool], ...] = (
    (
        re.compile(
            rf"(?<![\d.,/:-])(?P<n>{_NUM})\s+(?:(?P<fam>python|pytest|typescript|javascript|ts|js|go|unit)\s+)?"
            r"test\s+(?:files|modules)\b",
            re.IGNORECASE,
        ),
        False,
    ),
    (re.compile(rf"\btest\s+files\s*[:\uff1a=]\s*(?P<n>{_NUM})(?![\d/.])", re.IGNORECASE), True),
    (re.compile(rf"测试文件(?:数量?)?\s*[:\uff1a]?\s*(?P<n>{_NUM})(?![\d/.])\s*个?"), True),
    (re.compile(rf"(?<![\d.,/:-])(?P<n>{_NUM})\s*个\s*测试文件"), False),
)

_TEST_COUNT: tuple[tuple[re.Pattern[str], bool], ...] = (
    (
        re.compile(
            rf"(?<![\d.,/:-])(?P<n>{_NUM})\s+(?:(?:unit|passing|green|pytest|python)\s+)?"
            r"(?:tests|test\s+cases)\b(?![/.\w])(?!\s*(?:files|modules|per\b|for\s+each|each\b))",
            re.IGNORECASE,
        ),
        False,
    ),
    (
        re.compile(
            rf"\btests?\s*[:\uff1a=]\s*(?P<n>{_NUM})(?![\d/.,])(?!\s*(?:files|个文件))", re.IGNORECASE
        ),
        True,
    ),
    (
        re.compile(
            rf"测试(?:用例)?(?:数量?)?\s*[:\uff1a]\s*(?P<n>{_NUM})(?![\d/.,])\s*(?:项|个|条)?(?!\s*文件)"
        ),
        True,
    ),
    (re.compile(rf"测试\s*(?P<n>{_NUM})\s*(?:项|个|条)(?!\s*文件)"), False),
    (re.compile(rf"(?<![\d.,/:-])(?P<n>{_NUM})\s*(?:项|个|条)\s*测试(?!文件)(?:用例)?"), False),
)

# "641/641 passing", "641/641 tests", "641/641 通过", "Tests: 641/641". Never a bare "1/1" or "8/8".
_RATIO: tuple[tuple[re.Pattern[str], bool], ...] = (
    (
        re.compile(
            rf"(?:\btests?|测试|\bpassing|\bpassed|通过)\s*[:\uff1a]\s*(?P<a>{_NUM})\s*/\s*(?P<b>{_NUM})(?![\d/.])",
            re.IGNORECASE,
        ),
        True,
    ),
    (
        re.compile(
            rf"(?<![\d/.:-])(?P<a>{_NUM})\s*/\s*(?P<b>{_NUM})(?![\d/.])"
            r"\s*(?:tests?\s+)?(?:pass(?:ing|ed|es)?\b|green\b|tests\b|通过|测试)",
            re.IGNORECASE,
        ),
        False,
    ),
)

# Quantities that are advice, not a statement of fact: "add at least 2 tests", "每个模块至少 3 个测试".
_ADVICE_BEFORE = re.compile(
    r"(?:\bat\s+(?:least|most)|\bmore\s+than|\b(?:less|fewer)\s+than|\bup\s+to|\babout|\baround|\bover|\bunder"
    r"|\beach|\bper|\bevery|\badd|\bwrite|\bneeds?|\brequires?|\bmin(?:imum)?|\bmax(?:imum)?"
    r"|至少|最多|最少|每个?|超过|不少于|不超过|新增|补充|[≥≤<>~≈])[\s:\uff1a]*$",
    re.IGNORECASE,
)
_CLAUSE_END = ".,;:!?)(|\uff0c\uff1b\u3002\u3001\uff08\uff09\uff01\uff1f"
_CLAUSE = re.compile("[,;\uff0c\uff1b\u3002\u3001]")
_MARKUP = " \t-*+>#|_`[]()\uff08\uff09「」"


def find_claims(text: str, *, first_line: int = 1, names: tuple[str, ...] = ()) -> tuple[Claim, ...]:
    """Claims in `text`, outside fenced code. `names` are the project's own names (`jitctx 0.1.0`)."""
    claims: list[Claim] = []
    name_version = _name_version_pattern(names)
    for offset, line in lines_outside_fences(text):
        number = first_line + offset
        claims.extend(_claims_of_line(line, number, name_version))
    return tuple(claims)


def _claims_of_line(line: str, number: int, name_version: re.Pattern[str] | None) -> list[Claim]:
    found: list[tuple[int, Claim]] = []
    taken: list[tuple[int, int]] = []  # spans already read, so "641/641 tests" is not also "641 tests"

    def free(span: tuple[int, int]) -> bool:
        return all(span[1] <= s or span[0] >= e for s, e in taken)

    def add(claim: Claim, span: tuple[int, int]) -> None:
        found.append((span[0], claim))
        taken.append(span)

    for match in _VERSION_LABEL.finditer(line):
        if not _has_separator(match.group("sep")) and not _ends_clause(line[match.end() :]):
            continue  # "Version 0.19.0 added the router" is history, not the current version
        if match.group("kw").lower() == "release" and not _has_separator(match.group("sep")):
            continue  # "latest release 2.4.0" reads as an event; "Release: 2.4.0" as a label
        if _leads(line[: match.start()], _EN_QUALIFIERS):
            value = match.group("v").removeprefix("v").removeprefix("V")
            add(Claim(ClaimKind.VERSION, number, match.group(0).strip(), value), match.span())
    if name_version is not None:
        for match in name_version.finditer(line):
            if free(match.span()):
                add(Claim(ClaimKind.VERSION, number, match.group(0), match.group("v")), match.span())
    for kind, table in (
        (ClaimKind.RATIO, _RATIO),
        (ClaimKind.TEST_FILES, _TEST_FILES),
        (ClaimKind.TEST_COUNT, _TEST_COUNT),
    ):
        for pattern, label in table:
            for match in pattern.finditer(line):
                before = line[: match.start()]
                if (
                    not free(match.span())
                    or _is_advice(before)
                    or (label and not _leads(before, _TEST_QUALIFIERS))
                ):
                    continue
                groups = match.groupdict()
                if kind is ClaimKind.RATIO:
                    value = f"{_int(groups['a'])}/{_int(groups['b'])}"
                else:
                    value = str(_int(groups["n"]))
                family = _family(groups.get("fam"))
                add(Claim(kind, number, match.group(0).strip(), value, family), match.span())
    return [claim for _, claim in sorted(found, key=lambda item: item[0])]


def _has_separator(separator: str) -> bool:
    return any(ch in separator for ch in ":\uff1a=|") or "is" in separator.lower()


def _ends_clause(rest: str) -> bool:
    """Nothing but punctuation (ASCII or full-width) follows: "Version 2.4.0." or "Version 2.4.0 (stable)"."""
    stripped = rest.strip(" \t*_`")
    return not stripped or stripped[0] in _CLAUSE_END


def _leads(before: str, qualifiers: frozenset[str]) -> bool:
    """Does a label stand for the project itself? Only markup or a qualifier ("current") may precede it."""
    clause = _CLAUSE.split(before)[-1]  # a new clause starts after a comma, ASCII or full-width
    stripped = clause.rstrip(_MARKUP + "0123456789.")
    if not stripped:
        return True
    if stripped.endswith(_CJK_QUALIFIERS):
        return True
    words = stripped.split()
    return words[-1].lower().strip(_MARKUP) in qualifiers


def _name_version_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    usable = sorted({n for n in names if n and len(n) >= 2}, key=len, reverse=True)
    if not usable:
        return None
    alternatives = "|".join(re.escape(n) for n in usable)
    return re.compile(
        rf"(?<![\w/.@-])(?:{alternatives})\s+v?(?P<v>{_VERSION})(?![\w.]*\d)(?!\.\w)", re.IGNORECASE
    )


def _is_advice(before: str) -> bool:
    return _ADVICE_BEFORE.search(before) is not None


def _family(word: str | None) -> str | None:
    if word is None:
        return None
    lowered = word.lower()
    if lowered in ("python", "pytest"):
        return "python"
    if lowered in ("typescript", "javascript", "ts", "js"):
        return "js"
    if lowered == "go":
        return "go"
    return None


def _int(text: str) -> int:
    return int(text.replace(",", ""))
