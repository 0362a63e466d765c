"""A glob translated by its shape gives exactly the regex its own translation gives."""

from __future__ import annotations

from collections.abc import Callable
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx import scope
from jitctx.scope import DIALECTS, ScopeError, compile_scope

PIECES = [
    "src", "a", "B9", "_x", "Q1Q", "Q", "**", "*", "?", ".", "..", "/", "-", "{", "}", ",", "[", "]", "!",
    "#", "\\", " ", "é", "~", "+", "(", ")", "@", "$", "^", "|", ".ts", "{a,b}", "{1..3}", "[a-z]",
]  # fmt: skip


def _direct(patterns: tuple[str, ...], dialect: str) -> str | None:
    """The regex without the shape cache (each glob translated as it is; where case is ignored, with its
    letters folded in the glob itself)."""

    def direct(
        pattern: str, dialect: str, translate: Callable[[str], list[str]], *, fold: bool = False
    ) -> list[str]:
        return translate(scope._fold_glob(pattern) if fold else pattern)

    with mock.patch.object(scope, "_by_shape", direct):
        try:
            return compile_scope(patterns, dialect)
        except ScopeError:
            return None


def _shaped(patterns: tuple[str, ...], dialect: str) -> str | None:
    try:
        return compile_scope(patterns, dialect)
    except ScopeError:
        return None


@settings(max_examples=400, deadline=None)
@given(
    dialect=st.sampled_from(DIALECTS),
    globs=st.lists(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join), max_size=3),
)
def test_shape_translation_is_the_translation(dialect: str, globs: list[str]) -> None:
    patterns = tuple(globs)
    # Twice: once filling the shape cache, once from it.
    assert _shaped(patterns, dialect) == _direct(patterns, dialect)
    assert _shaped(patterns, dialect) == _direct(patterns, dialect)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_same_shape_other_words(dialect: str) -> None:
    first = compile_scope(("pkg/alpha/**/*.ts",), dialect)
    second = compile_scope(("pkg/beta_2/**/*.ts",), dialect)
    # Where case is ignored (Claude Code's gitignore dialect) each letter is a class of its two cases.
    word = scope._fold_word if dialect in scope.FOLDS_CASE else str
    assert second == first.replace(word("alpha"), word("beta_2"))
    assert second == _direct(("pkg/beta_2/**/*.ts",), dialect)
