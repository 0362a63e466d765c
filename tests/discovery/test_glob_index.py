"""The glob index answers exactly what testing each rule's regex answers, in every dialect."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.discovery.glob_index import GlobIndex, IndexedScope, scope_options
from jitctx.model import Scope
from jitctx.scope import DIALECTS, ScopeError, compile_scope, compiled_scope

SEGMENTS = ["src", "ui", "a.ts", "b.py", "Makefile", ".env", "x.test.ts", "docs", "{a,b}", "a", "b", "é"]
GLOB_PARTS = [
    "src", "ui", "docs", "a", "b", "**", "*", "*.ts", "*.py", "?.ts", "x.*", "[ab]", "[!a]*", "{a,b}",
    "{src,docs}", "*.{ts,py}", "{a,{b,c}}", "{1..3}", "Makefile", ".env", "*.test.ts", "test_*.py",
    "\\*", "a\\,b", ".", "..", "", "é", "!a", "#x",
]  # fmt: skip


def _scope(patterns: tuple[str, ...], dialect: str) -> Scope | None:
    try:
        regex = compile_scope(patterns, dialect)
    except ScopeError:
        return None
    return Scope(patterns, "paths", dialect, regex)


def _compare(scopes: list[Scope], paths: list[str]) -> None:
    index = GlobIndex(IndexedScope(i, s, lambda s=s: compiled_scope(s.regex)) for i, s in enumerate(scopes))
    for path in paths:
        expected = [i for i, s in enumerate(scopes) if compiled_scope(s.regex).match(path)]
        assert index.matching(path) == expected, (path, [scopes[i].patterns for i in expected])


def _random_glob(rng: random.Random) -> str:
    glob = "/".join(rng.choice(GLOB_PARTS) for _ in range(rng.randint(1, 4)))
    return rng.choice(["", "/", "./", "**/"]) + glob + rng.choice(["", "", "/", "/**"])


def _random_path(rng: random.Random) -> str:
    path = "/".join(rng.choice(SEGMENTS) for _ in range(rng.randint(1, 5)))
    return path + rng.choice(["", "", "/"])


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("seed", range(6))
def test_index_agrees_with_each_rule_on_random_globs(dialect: str, seed: int) -> None:
    rng = random.Random(seed)
    scopes: list[Scope] = []
    while len(scopes) < 300:
        # Several globs in one scope, as a Cursor `globs: a, b` or a YAML list gives them.
        patterns = tuple(_random_glob(rng) for _ in range(rng.choice([1, 1, 1, 2, 3])))
        if dialect == "gitignore" and rng.random() < 0.2:
            patterns += ("!" + _random_glob(rng),)  # a negation narrows the scope
        scope = _scope(patterns, dialect)
        if scope is not None:
            scopes.append(scope)
    paths = [_random_path(rng) for _ in range(400)] + ["", "src/", "src/ui/a.ts", "a", "a/b/c/d/e/f.py"]
    _compare(scopes, paths)


@settings(max_examples=150, deadline=None)
@given(
    dialect=st.sampled_from(DIALECTS),
    globs=st.lists(
        st.lists(st.sampled_from(GLOB_PARTS), min_size=1, max_size=4).map("/".join), min_size=1, max_size=3
    ),
    paths=st.lists(
        st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=5).map("/".join), min_size=1, max_size=20
    ),
)
def test_index_agrees_with_each_rule(dialect: str, globs: list[str], paths: list[str]) -> None:
    scopes = [s for s in (_scope((g,), dialect) for g in globs) if s is not None]
    combined = _scope(tuple(globs), dialect)
    if combined is not None:
        scopes.append(combined)
    _compare(scopes, paths + [p + "/" for p in paths])


@pytest.mark.parametrize(
    ("pattern", "dialect", "options"),
    [
        ("src/ui/a.ts", "bun", [("prefix", "src/ui/a.ts"), ("name", "a.ts")]),  # a literal path
        ("src/ui/**", "bun", [("prefix", "src/ui")]),
        ("**/*.ts", "bun", [("ext", "ts")]),
        ("src/**/test_*.py", "bun", [("prefix", "src"), ("ext", "py")]),
        ("**/Makefile", "bun", [("name", "Makefile")]),
        ("*.py", "gitignore", [("ext", "py")]),  # unanchored: any depth, so no prefix
        ("src/", "gitignore", [("name", "src")]),
        ("/src", "gitignore", [("prefix", "src"), ("name", "src")]),
        ("src/\\*", "bun", [("prefix", "src")]),  # an escape ends the literal part
        ("./x", "bun", [("prefix", "x"), ("name", "x")]),  # braces are literal there: no extension
    ],
)
def test_strategies(pattern: str, dialect: str, options: list[tuple[str, str]]) -> None:
    scope = _scope((pattern,), dialect)
    assert scope is not None
    assert scope_options(scope) == [options]


def test_gitignore_braces_are_filed_as_expanded() -> None:
    """Claude Code expands braces before matching, so each option is filed under its own keys."""
    scope = _scope(("src/*.{ts,tsx}",), "gitignore")
    assert scope is not None
    assert scope_options(scope) == [[("prefix", "src"), ("ext", "ts")], [("prefix", "src"), ("ext", "tsx")]]


@pytest.mark.parametrize("pattern", ["**", "*/x/**", "{1..3}/a", "*", "**/*"])
def test_what_is_not_understood_is_tested_every_time(pattern: str) -> None:
    scope = _scope((pattern,), "bun")
    assert scope is not None and scope_options(scope) is None
    index = GlobIndex([IndexedScope(0, scope, lambda: compiled_scope(scope.regex))])
    assert index.chunks and index.chunks[0][1] == (0,)


def test_case_folding_scope_is_tested_every_time() -> None:
    scope = Scope(("SRC/**",), "paths", "bun", "(?i)src/.*")
    assert scope_options(scope) is None
    index = GlobIndex([IndexedScope(0, scope, lambda: re.compile(scope.regex))])
    assert index.matching("Src/a.ts") == [0]


def test_bun_braces_file_each_alternative() -> None:
    scope = _scope(("{src,lib}/**/*.{ts,tsx}",), "bun")
    assert scope is not None
    assert scope_options(scope) == [
        [("prefix", "src"), ("ext", "ts")],
        [("prefix", "src"), ("ext", "tsx")],
        [("prefix", "lib"), ("ext", "ts")],
        [("prefix", "lib"), ("ext", "tsx")],
    ]


def test_a_long_lived_process_indexes_a_rule_set_once_and_again_when_a_scope_changes(tmp_path: Path) -> None:
    from jitctx.discovery.rule_table import build_rule_table
    from jitctx.project import Project
    from tests.conftest import write_tree

    root = write_tree(tmp_path / "proj", {".claude/rules/a.md": '---\npaths: ["src/**"]\n---\nA\n'})
    first = build_rule_table(Project(root, managed_files=()), {})
    first.matching("src/x.ts", (), lambda rule: False)  # builds its index
    again = build_rule_table(Project(root, managed_files=()), {})  # a new event's session
    assert again is first
    write_tree(root, {".claude/rules/a.md": '---\npaths: ["docs/**"]\n---\nA\n'})
    changed = build_rule_table(Project(root, managed_files=()), {})
    assert changed is not first
    assert changed.matching("docs/x.md", (), lambda rule: False)[0] == list(changed)
    assert changed.matching("src/x.ts", (), lambda rule: False)[0] == []
