# Full-width punctuation in these strings is the subject under test, not a look-alike typo.
# ruff: noqa: RUF001
"""Finding claims in text: what counts as a claim, and the seed's false positives that must not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.govern.claims import Claim, ClaimKind, find_claims

V, COUNT, FILES, RATIO = ClaimKind.VERSION, ClaimKind.TEST_COUNT, ClaimKind.TEST_FILES, ClaimKind.RATIO


def kinds_values(text: str, names: tuple[str, ...] = ()) -> list[tuple[ClaimKind, str]]:
    return [(c.kind, c.value) for c in find_claims(text, names=names)]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # the seed's three figures, as written there
        ("版本：0.20.0", [(V, "0.20.0")]),
        ("测试：641 项", [(COUNT, "641")]),
        ("测试文件：26 个", [(FILES, "26")]),
        # English and other shapes
        ("Version: 2.4.0", [(V, "2.4.0")]),
        ("- **Version**: v0.20.0", [(V, "0.20.0")]),
        ("当前版本 0.20.0", [(V, "0.20.0")]),
        ("The current version is 1.2.3", [(V, "1.2.3")]),
        ("| Version | 2.4.0 |", [(V, "2.4.0")]),
        ("Version 2.4.0", [(V, "2.4.0")]),
        ("This project is at version 2.4.0.", [(V, "2.4.0")]),
        ("当前版本 0.20.0（稳定）", [(V, "0.20.0")]),
        ("Latest release: 2.5.0-rc.1", [(V, "2.5.0-rc.1")]),
        ("641 tests", [(COUNT, "641")]),
        ("1,234 unit tests", [(COUNT, "1234")]),
        ("Tests: 641", [(COUNT, "641")]),
        ("Total tests: 641", [(COUNT, "641")]),
        ("641 项测试", [(COUNT, "641")]),
        ("26 test files", [(FILES, "26")]),
        ("Test files: 26", [(FILES, "26")]),
        ("26 个测试文件", [(FILES, "26")]),
        ("641/641 passing", [(RATIO, "641/641")]),
        ("Tests: 641/641", [(RATIO, "641/641")]),
        ("641/641 通过", [(RATIO, "641/641")]),
        ("640 / 641 tests pass", [(RATIO, "640/641")]),
        # several on one line, in the order written
        ("641 tests in 26 test files", [(COUNT, "641"), (FILES, "26")]),
        ("测试：641 项，测试文件：26 个", [(COUNT, "641"), (FILES, "26")]),
        ("Version: 2.4.0, 641/641 passing", [(V, "2.4.0"), (RATIO, "641/641")]),
    ],
)
def test_claims_found(line: str, expected: list[tuple[ClaimKind, str]]) -> None:
    assert kinds_values(line) == expected


@pytest.mark.parametrize(
    "line",
    [
        # the seed's false positive: a CSS ratio is not a test count
        "aspect-ratio: 1/1;",
        "  aspect-ratio: 1/1; width: 100%;",
        # dates
        "Updated 2026-08-08.",
        "Measured on 8/8 and again on 8/9.",
        "2026/08/08 release notes",
        # fractions in prose
        "About 1/2 of the tests are slow.",
        "Use 3/4 of the width for the sidebar.",
        # versions of dependencies, not of the project
        "requires Python 3.11",
        "Python version: 3.11",
        "Python 版本：3.11",
        "React 18.2.0 is used for the UI.",
        "Node version 20.11.1 or newer.",
        "release 2.4.0 fixed the parser",
        "- Version 0.19.0 added the router",
        "latest release 2.4.0",
        # advice, not a statement of fact
        "Add at least 2 tests per bug fix.",
        "Write 3 tests for each new handler.",
        "每个模块至少 3 个测试",
        "Run the tests: 3 steps, in order.",
        # numbers next to other nouns
        "see tests/ and 3 tests/fixtures folders",
        "A 3-column table.",
    ],
)
def test_not_claims(line: str) -> None:
    assert find_claims(line) == ()


def test_claims_inside_fenced_code_are_ignored() -> None:
    text = "intro\n```css\n.box { aspect-ratio: 1/1; }\nVersion: 9.9.9\n```\nVersion: 1.0.0\n"
    assert kinds_values(text) == [(V, "1.0.0")]


def test_line_numbers_are_shifted_by_first_line() -> None:
    text = "# Guide\n\n- Version: 2.4.0\n- 641 tests\n"
    claims = find_claims(text, first_line=4)
    assert [(c.kind, c.line) for c in claims] == [(V, 6), (COUNT, 7)]


def test_project_name_anchors_a_bare_version() -> None:
    assert kinds_values("dsh-knit v0.20.0 ships the router", names=("dsh-knit",)) == [(V, "0.20.0")]
    assert kinds_values("dsh-knit v0.20.0 ships the router") == []
    assert kinds_values("React 18.2.0 next to dsh-knit", names=("dsh-knit",)) == []


def test_family_of_test_file_is_kept() -> None:
    (claim,) = find_claims("26 Python test files")
    assert claim == Claim(FILES, 1, "26 Python test files", "26", "python")
    assert claim.numbers == (26,)


def test_ratio_numbers() -> None:
    (claim,) = find_claims("640/641 passing")
    assert claim.numbers == (640, 641)


@settings(max_examples=250, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300), st.integers(min_value=1, max_value=50))
def test_any_text_gives_claims_on_real_lines(text: str, first_line: int) -> None:
    lines = text.split("\n")
    for claim in find_claims(text, first_line=first_line):
        assert first_line <= claim.line < first_line + len(lines)
        assert claim.text.replace(" ", "") != ""
        if claim.kind is not ClaimKind.VERSION:
            assert all(n >= 0 for n in claim.numbers)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=99), st.integers(min_value=1, max_value=99))
def test_css_and_dates_never_become_claims(a: int, b: int) -> None:
    for text in (f"aspect-ratio: {a}/{b};", f"2026-{a:02d}-{b:02d}", f"on {a}/{b}", f"{a}/{b} of the width"):
        assert find_claims(text) == ()
