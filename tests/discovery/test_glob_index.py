"""The glob index answers exactly what testing each rule's regex answers, in every dialect."""

from __future__ import annotations

import random
import re
from functools import partial
from pathlib import Path
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.discovery.glob_index import GlobIndex, IndexedScope, scope_options
from jitctx.linear_regex import LinearPattern
from jitctx.model import Scope
from jitctx.scope import DIALECTS, ScopeError, compile_scope, compiled_scope

# Upper case too: Claude Code's dialect ignores case, and its rules are filed under lower-cased keys.
SEGMENTS = ["src", "ui", "a.ts", "b.py", "Makefile", ".env", "x.test.ts", "docs", "{a,b}", "a", "b", "é",
            "SRC", "A.TS", "Docs", "É"]  # fmt: skip
GLOB_PARTS = [
    "src", "ui", "docs", "a", "b", "**", "*", "*.ts", "*.py", "?.ts", "x.*", "[ab]", "[!a]*", "{a,b}",
    "{src,docs}", "*.{ts,py}", "{a,{b,c}}", "{1..3}", "Makefile", ".env", "*.test.ts", "test_*.py",
    "\\*", "a\\,b", ".", "..", "", "é", "!a", "#x", "SRC", "*.TS", "Docs", "[A-B]",
]  # fmt: skip


def _scope(patterns: tuple[str, ...], dialect: str) -> Scope | None:
    try:
        regex = compile_scope(patterns, dialect)
    except ScopeError:
        return None
    return Scope(patterns, "paths", dialect, regex)


def _index(scopes: list[Scope]) -> GlobIndex:
    return GlobIndex(IndexedScope(i, s, partial(compiled_scope, s.regex)) for i, s in enumerate(scopes))


def _compare(scopes: list[Scope], paths: list[str]) -> None:
    index = _index(scopes)
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
        ("src/ui/a.ts", "bun", [("prefix", "src/ui/a.ts")]),  # a literal path
        ("src/ui/**", "bun", [("prefix", "src/ui")]),
        ("**/*.ts", "bun", [("ext", "ts")]),
        ("src/**/test_*.py", "bun", [("prefix", "src"), ("ext", "py")]),
        ("**/Makefile", "bun", [("name", "Makefile")]),
        ("*.py", "gitignore", [("ext", "py")]),  # unanchored: any depth, so no prefix
        ("src/", "gitignore", [("name", "src")]),
        ("/src", "gitignore", [("prefix", "src")]),
        ("docs/**", "gitignore", [("name", "docs")]),  # `docs` once the trailing `/**` is dropped
        ("SRC/UI/**", "gitignore", [("prefix", "src/ui")]),  # any case: keys lower-cased
        ("*.ts", "copilot", [("ext", "ts")]),  # the file name at any depth
        ("src/*.ts", "copilot", [("prefix", "src"), ("ext", "ts")]),
        ("src/\\*", "bun", [("prefix", "src")]),  # an escape ends the literal part
        ("./x", "bun", [("prefix", "x")]),
        # Literal segments anywhere, and two in a row: a path must hold each.
        ("**/mod3/f2.ts", "gitignore", [("name", "mod3/f2.ts"), ("name", "mod3"), ("name", "f2.ts")]),
        ("*/x/**", "bun", [("name", "x")]),
        ("**/Area7/*.ts", "gitignore", [("name", "area7"), ("ext", "ts")]),
        (
            "pkg7/**/mod3/x.ts",
            "bun",
            [("prefix", "pkg7"), ("name", "mod3/x.ts"), ("name", "mod3"), ("name", "x.ts")],
        ),
        ("Schema1.prisma", "gitignore", [("name", "schema1.prisma")]),  # the name at any depth
        ("src/*.d/**", "bun", [("prefix", "src"), ("ext", "d")]),  # an extension of any segment
        ("**/x/**", "copilot", [("name", "x")]),
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


@pytest.mark.parametrize("pattern", ["**", "*/x*/**", "{1..3}/a", "*", "**/*"])
def test_what_is_not_understood_is_tested_every_time(pattern: str) -> None:
    scope = _scope((pattern,), "bun")
    assert scope is not None and scope_options(scope) is None
    index = _index([scope])
    assert index.chunks and index.chunks[0][1] == (0,)


def test_a_claude_code_glob_is_found_in_any_case() -> None:
    scope = _scope(("src/*.ts", "Docs/**"), "gitignore")
    assert scope is not None
    _compare([scope], ["SRC/A.TS", "src/a.ts", "Src/b/a.ts", "pkg/DOCS/x.md", "docs/x", "lib/a.ts"])
    index = _index([scope])
    assert index.matching("SRC/A.TS") == [0] and index.matching("pkg/DOCS/x.md") == [0]


def test_case_folding_scope_is_tested_every_time() -> None:
    scope = Scope(("SRC/**",), "paths", "bun", "(?i)src/.*")
    assert scope_options(scope) is None
    # Python's `re` stands in for the linear matcher, which takes no inline flag.
    index = GlobIndex([IndexedScope(0, scope, lambda: cast(LinearPattern, re.compile(scope.regex)))])
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


# -- the index stays a superset, and flat in the number of rules, for the shapes of a monorepo's rules -----

# Literal segments (some in other cases: Claude Code's dialect ignores case), and wildcard segments:
# extensions, brace alternatives, classes (one with a `/`), escapes.
SHAPE_LITERALS = ["pkg1", "src", "mod3", "f2.ts", "Area7", "schema.prisma", "a", "b.py", "View.tsx", "docs"]
SHAPE_WILDCARDS = ["*", "**", "*.ts", "*.{ts,tsx}", "f*.ts", "{src,lib}", "?.py", "*.d.ts", "[ab]", "x[/]y",
                   "a\\", "\\*.ts", "{a,b}", "*.PRISMA"]  # fmt: skip
# Path segments, some in other cases, and "" for a `//` in the path.
PATH_SEGMENTS = ["pkg1", "PKG1", "src", "Src", "mod3", "MOD3", "f2.ts", "F2.TS", "area7", "Area7", "a", "b",
                 "schema.prisma", "Schema.PRISMA", "b.py", "View.tsx", "view.tsx", "docs", "x.d.ts", "a.ts",
                 "lib", "x[", "]y", "y", "x", "a\\", "*.ts", ""]  # fmt: skip

shape_segment = st.one_of(st.sampled_from(SHAPE_LITERALS), st.sampled_from(SHAPE_WILDCARDS))
shape_glob = st.one_of(
    # a literal prefix, then anything (`pkg1/src/**/*.ts`, `pkg1/src/mod3/*.{ts,tsx}`)
    st.tuples(
        st.lists(st.sampled_from(SHAPE_LITERALS), min_size=1, max_size=3), st.lists(shape_segment, max_size=2)
    ).map(lambda parts: "/".join([*parts[0], *parts[1]])),
    # literal segments anywhere (`**/mod3/f2.ts`, `*/Area7/**`)
    st.lists(shape_segment, min_size=1, max_size=3).map(lambda parts: "**/" + "/".join(parts)),
    st.lists(shape_segment, min_size=1, max_size=3).map(lambda parts: "*/" + "/".join(parts) + "/**"),
    # slash-less: any depth in gitignore and Copilot (`*.prisma`, `View.tsx`, `*.{ts,tsx}`)
    shape_segment,
    # anything, with the leads and ends a rule writes
    st.tuples(
        st.sampled_from(["", "/", "./", "**/"]),
        st.lists(shape_segment, min_size=1, max_size=4).map("/".join),
        st.sampled_from(["", "/", "/**"]),
    ).map("".join),
)
shape_path = st.tuples(
    st.lists(st.sampled_from(PATH_SEGMENTS), min_size=1, max_size=6).map("/".join), st.sampled_from(["", "/"])
).map("".join)


@settings(max_examples=400, deadline=None)
@given(
    dialect=st.sampled_from(DIALECTS),
    scopes=st.lists(st.lists(shape_glob, min_size=1, max_size=3), min_size=1, max_size=12),
    negated=st.lists(shape_glob, max_size=2),
    paths=st.lists(shape_path, min_size=1, max_size=25),
)
def test_every_matching_rule_is_a_candidate(
    dialect: str, scopes: list[list[str]], negated: list[str], paths: list[str]
) -> None:
    """The index names every rule whose compiled scope matches, in every dialect, as the engine asks it
    (`candidates`) and as the hook's fast lane does (its lookups, and the rules tested every time)."""
    from jitctx.discovery.glob_keys import keyed_candidates

    compiled = [
        _scope((*globs, *(f"!{g}" for g in negated if dialect == "gitignore")), dialect) for globs in scopes
    ]
    rules = [scope for scope in compiled if scope is not None]
    index = _index(rules)
    always = set(index.unkeyed())
    for path in paths:
        matching = {i for i, scope in enumerate(rules) if compiled_scope(scope.regex).match(path)}
        assert matching <= index.candidates(path), (path, [rules[i].patterns for i in matching])
        fast_lane = keyed_candidates(path, index.by_prefix, index.by_name, index.by_ext) | always
        assert matching <= fast_lane, (path, [rules[i].patterns for i in matching])


@pytest.mark.parametrize(
    ("dialect", "glob", "path"),
    [
        ("bun", "x/a/b/**", "x//a/b/y"),  # wcmatch reads a run of slashes as one
        ("bun", "**/mod3/f2.ts", "pkg//mod3//f2.ts"),
        ("copilot", "src/ui/*.ts", "src//ui/a.ts"),
        ("gitignore", "**/a/b", "x//a/b/y"),
    ],
)
def test_a_run_of_slashes_in_the_path_loses_no_rule(dialect: str, glob: str, path: str) -> None:
    scope = _scope((glob,), dialect)
    assert scope is not None and compiled_scope(scope.regex).match(path)
    assert _index([scope]).matching(path) == [0]


# Per shape: rule i's literals are drawn from i, and `path` matches rule 7 alone. However many rules of the
# shape there are, a touch of `path` names rule 7 and no other.
FLAT_SHAPES = [
    ("gitignore", "pkg{i}/**/*.ts", "pkg7/src/mod1/f0.ts"),
    ("gitignore", "**/mod{m}/f{k}.ts", "pkg2/src/mod7/f0.ts"),  # mod7 is in 1 rule of 10, f0.ts in 1 of 100
    ("gitignore", "pkg{i}/src/mod{i}/*.{{ts,tsx}}", "pkg7/src/mod7/View.tsx"),
    ("gitignore", "**/area{i}/**", "pkg3/area7/g1.ts"),
    ("gitignore", "**/area{i}/*.ts", "pkg3/AREA7/g1.ts"),
    ("gitignore", "*.x{i}", "deep/er/down/a.x7"),  # slash-less: at any depth
    ("gitignore", "Schema{i}.prisma", "db/SCHEMA7.PRISMA"),  # and in any case
    ("gitignore", "area{i}", "pkg3/area7/g1.ts"),
    ("copilot", "pkg{i}/src/**/*.ts", "pkg7/src/mod1/f0.ts"),
    ("copilot", "*.y{i}", "a/b/c.y7"),
    ("copilot", "**/area{i}/g*.ts", "pkg3/area7/g1.ts"),
    ("copilot", "*/area{i}/**", "pkg3/area7/g1.ts"),
    ("bun", "{{src,lib}}/mod{i}/*.ts", "lib/mod7/a.ts"),
    ("bun", "**/mod{m}/f{k}.ts", "pkg2/src/mod7/f0.ts"),
]


@pytest.mark.parametrize(("dialect", "template", "path"), FLAT_SHAPES)
@pytest.mark.parametrize("count", [10, 1000])
def test_a_touch_names_the_same_few_rules_however_many_there_are(
    dialect: str, template: str, path: str, count: int
) -> None:
    rules = [_scope((template.format(i=i, m=i % 10, k=i // 10),), dialect) for i in range(count)]
    index = _index([rule for rule in rules if rule is not None])
    assert len(index.patterns) == count
    assert not index.unkeyed()
    assert index.candidates(path) == {7}
    assert index.matching(path) == [7]


def test_mixed_shapes_name_only_what_may_match() -> None:
    """All the shapes in one table of 5,000 rules: a touch names its few matches and hardly more."""
    scopes: list[Scope] = []
    for i in range(5000 // len(FLAT_SHAPES)):
        for dialect, template, _ in FLAT_SHAPES:
            scope = _scope((template.format(i=i, m=i % 10, k=i // 10),), dialect)
            assert scope is not None
            scopes.append(scope)
    index = _index(scopes)
    for _, _, path in FLAT_SHAPES:
        matching = index.matching(path)
        assert matching and len(index.candidates(path)) <= len(matching) + 3, path
