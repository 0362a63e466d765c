"""Scope regexes run in linear time with Python's meaning: exact against `re` on random globs and paths,
and hostile globs answered at once."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.linear_regex import UnsafeRegex, linear_pattern, linear_union
from jitctx.scope import DIALECTS, ScopeError, compile_scope, compiled_scope, scope_matches
from tests.guard import finishes_within

PIECES = [
    "src", "a", "b", "**", "*", "?", ".", "..", "/", "//", "{a,b}", "{1..2}", "[ab]", "[!a]", "[.]",
    "[a-z]*", ".x", "x.", "é", "\\*", "!", "*.ts", "#",
]  # fmt: skip
SEGMENTS = ["src", "a", "b", ".", "..", "", ".x", "x.", "a.ts", "é", "ab", "...", "*", "\udcff", "\U000f0001"]

globs = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map("".join)
negatable = st.tuples(st.sampled_from(["", "", "!"]), globs).map("".join)
paths = st.tuples(
    st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=5).map("/".join), st.sampled_from(["", "/"])
).map("".join)


def _scope(patterns: tuple[str, ...], dialect: str) -> str | None:
    try:
        return compile_scope(patterns, dialect)
    except ScopeError:
        return None


@settings(max_examples=400, deadline=None)
@given(
    dialect=st.sampled_from(DIALECTS),
    patterns=st.lists(negatable, min_size=1, max_size=3),
    tried=st.lists(paths, min_size=1, max_size=12),
)
def test_matches_exactly_where_python_re_does(dialect: str, patterns: list[str], tried: list[str]) -> None:
    regex = _scope(tuple(patterns), dialect)
    if regex is None:
        return
    python = re.compile(regex, re.DOTALL)
    linear = linear_pattern(regex)  # never refused for a regex our compilers wrote
    for path in tried:
        assert linear.match(path) is (python.match(path) is not None), (patterns, path)
        assert linear.fullmatch(path) is (python.fullmatch(path) is not None), (patterns, path)


@settings(max_examples=150, deadline=None)
@given(
    dialect=st.sampled_from(DIALECTS),
    scopes=st.lists(st.lists(negatable, min_size=1, max_size=2), min_size=1, max_size=5),
    tried=st.lists(paths, min_size=1, max_size=12),
)
def test_a_union_matches_where_any_of_its_regexes_does(
    dialect: str, scopes: list[list[str]], tried: list[str]
) -> None:
    regexes = tuple(r for r in (_scope(tuple(s), dialect) for s in scopes) if r is not None)
    if not regexes:
        return
    python = re.compile("|".join(f"(?:{r})" for r in regexes), re.DOTALL)
    union = linear_union(regexes)
    for path in tried:
        expected = python.match(path) is not None
        assert union.match(path) is expected
        assert union.may_match(path) or not expected  # the superset never misses a match


# A glob in a cloned repository decides the regex; backtracking made these run for minutes or more (the
# first, from the bug report: 30 s and more at every touch of a twenty-character name).
HOSTILE = [
    ("gitignore", "**/" + "*" * 20 + "x", "a" * 20, False),
    ("gitignore", "**/" + "*" * 20 + "x", "a" * 19 + "x", True),
    ("gitignore", "**/" + "*" * 60 + "x", "abcd", False),
    ("gitignore", "a*" * 15 + "b", "a" * 60 + "c", False),
    ("gitignore", "**/" + "?*" * 8 + "x", "a" * 40 + "y", False),
    ("gitignore", "**/" + "[a]*" * 8 + "x", "a" * 40 + "y", False),
    ("bun", "**/a/" * 8 + "**/b", "/".join(["a"] * 40) + "/c", False),
    ("bun", "**/a/" * 8 + "**/b", "/".join(["a"] * 40) + "/b", True),
    ("copilot", "**/a/" * 8 + "**/b", "/".join(["a"] * 40) + "/c", False),
    ("gitignore", "**/a/" * 8 + "**/b", "/".join(["a"] * 40) + "/c", False),
    ("bun", "**/" + "*" * 60 + "x", "a" * 3000 + "x", True),
    ("bun", "**/*", "/".join([".."] * 1000), False),
]


@pytest.mark.parametrize(("dialect", "glob", "path", "expected"), HOSTILE)
def test_hostile_globs_are_answered_at_once(dialect: str, glob: str, path: str, expected: bool) -> None:
    regex = compile_scope((glob,), dialect)
    with finishes_within(20, f"matching {glob!r}"):
        assert scope_matches(regex, path) is expected


def test_a_gitignore_negation_may_be_any_glob() -> None:
    """The negation is a lookahead at the start whose body is a whole regex, not a short one."""
    regex = compile_scope(("src/**", "!src/gen/**", "!**/*.py", "!" + "*" * 30 + "z"), "gitignore")
    assert [scope_matches(regex, p) for p in ("src/a.ts", "src/gen/a.ts", "src/x/a.py", "src/yz")] == [
        True,
        False,
        False,
        False,
    ]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_paths_of_any_characters(dialect: str) -> None:
    regex = compile_scope(("**/*",), dialect)
    for path in ("a\udcff", "文档/说明.md", "x/\U000f0001\U000f1001\U0010ffff", "é/\n/x"):
        assert scope_matches(regex, path) is (re.match(regex, path, re.DOTALL) is not None), path


def test_dollar_is_the_end_of_the_path() -> None:
    """Deliberately not Python's `$`, which also matches before a final newline: `a.py\\n` is another
    name than `a.py`, and no glob means it."""
    regex = compile_scope(("*.py",), "gitignore")
    assert re.match(regex, "a.py\n", re.DOTALL) is not None
    assert not scope_matches(regex, "a.py\n")


@pytest.mark.parametrize("regex", [r"(a)\1", r"(?i)abc", r"\d+", r"\bword", r"(?(1)a|b)", "a{2000}", "("])
def test_what_cannot_be_read_is_refused(regex: str) -> None:
    with pytest.raises(UnsafeRegex):
        linear_pattern(regex)
    assert not compiled_scope(regex).match("abc")


@pytest.mark.parametrize(
    ("regex", "path"), [(r"a(?=.*x)b", "abx"), (r"a(?=(?:bb|cc|dd){1,12})", "abb"), (r"a(?=b+)", "ab")]
)
def test_a_lookaround_that_cannot_be_run_so_matches_nothing(regex: str, path: str) -> None:
    """A body that is not a short finite language (never one our compilers write): refused when first
    needed, not at every path."""
    assert re.match(regex, path) is not None
    pattern = compiled_scope(regex)
    assert not pattern.match(path)
    assert not pattern.may_match(path)


def test_an_atomic_group_matches_as_a_plain_one() -> None:
    """wcmatch makes a star atomic only where that changes nothing; read as a plain group it is exact."""
    regex = compile_scope(("a*b*c",), "bun")
    assert "(?>" in regex
    assert [scope_matches(regex, p) for p in ("abbc", "abxbxc", "ab/c")] == [True, True, False]
