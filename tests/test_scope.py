"""Glob semantics per dialect; the seed's Bun.Glob measurements are the first rows."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.glob_prefix import static_prefix
from jitctx.scope import ScopeError, compile_scope, literal_prefix, scope_matches

BUN_SEED_ROWS = [
    ("src/ui/**", "src/ui", False),
    ("src/ui/**", "src/ui/", True),
    ("**/*.py", "src/", False),
    ("src/ui/**", "src/ui/READ.md", True),
    ("src/ui/**/*.tsx", "READ.md", False),
]

BUN_MORE_ROWS = [
    # braces expand
    ("src/{ui,ink}/**", "src/ink/render.ts", True),
    ("src/{ui,ink}/**", "src/api/users.ts", False),
    ("*.{ts,tsx}", "App.tsx", True),
    # classes
    ("src/[ab].ts", "src/a.ts", True),
    ("src/[ab].ts", "src/c.ts", False),
    ("src/[!ab].ts", "src/c.ts", True),
    # ** in the middle spans zero or more segments
    ("src/**/test_*.py", "src/test_a.py", True),
    ("src/**/test_*.py", "src/x/y/z/test_a.py", True),
    ("src/**/test_*.py", "lib/src/test_a.py", False),
    # * and ? stay inside one segment
    ("src/*.ts", "src/ui/a.ts", False),
    ("src/?.ts", "src/a.ts", True),
    ("src/?.ts", "src/ab.ts", False),
    ("*.py", "tools/gen.py", False),
    ("**/*.py", "tools/gen.py", True),
    ("**/*.py", "gen.py", True),
    # dot-files and dot-folders match
    ("**/*.py", ".github/scripts/x.py", True),
    ("src/**", "src/.env", True),
    ("*", ".eslintrc", True),
    # non-ASCII paths
    ("文档/**", "文档/说明.md", True),
    ("docs/*.md", "docs/ドキュメント.md", True),
    ("文档/*.md", "其他/说明.md", False),
    # a leading ./ is relative to the root
    ("./src/ui/**", "src/ui/Badge.tsx", True),
    # plain paths match only themselves
    ("src/ui/Badge.tsx", "src/ui/Badge.tsx", True),
    ("src/ui/Badge.tsx", "src/ui/Badge.tsx.bak", False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), BUN_SEED_ROWS + BUN_MORE_ROWS)
def test_bun_dialect(pattern: str, path: str, expected: bool) -> None:
    assert scope_matches(compile_scope((pattern,), "bun"), path) is expected


GITIGNORE_ROWS = [
    # Claude Code matches `paths:` with the npm `ignore` package: gitignore rules.
    ("*.py", "tools/gen.py", True),  # a slash-less pattern matches at any depth
    # Claude Code 2.1.332 drops a trailing `/**` first: `src/ui` matches the directory marker too, and
    # `docs` (no inner slash left) a `docs` folder at any depth.
    ("src/ui/**", "src/ui/", True),
    ("src/ui/**", "src/uix/a.ts", False),
    ("docs/**", "pkg/docs/a.md", True),
    ("docs/**", "pkg/docsx/a.md", False),
    ("src/ui/**", "src/ui/Badge.tsx", True),
    # any case, as the `ignore` package's default `ignorecase`
    ("src/*.TS", "src/a.ts", True),
    ("SRC/UI/**", "src/ui/Badge.tsx", True),
    ("src/[A-C]x.md", "src/bX.md", True),
    ("src/[!a]x.md", "src/Ax.md", False),
    ("Ézé/*.md", "ézé/a.md", True),
    ("src/{a,b}/x.ts", "src/a/x.ts", True),  # Claude Code expands braces first (tests/test_scope_braces.py)
    ("internal/service/**/*.go", "internal/service/policy/arbiter.go", True),
    ("src/api/**/*.ts", "src/ui/Button.tsx", False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), GITIGNORE_ROWS)
def test_gitignore_dialect(pattern: str, path: str, expected: bool) -> None:
    assert scope_matches(compile_scope((pattern,), "gitignore"), path) is expected


def test_gitignore_negation_excludes() -> None:
    regex = compile_scope(("src/**", "!src/gen/**"), "gitignore")
    assert scope_matches(regex, "src/a.ts")
    assert not scope_matches(regex, "src/gen/a.ts")


COPILOT_ROWS = [
    # Copilot CLI 1.0.102 (globset): a glob without `/` is the file name, at any depth
    ("*.py", "tools/gen.py", True),
    ("*.ts", "src/a.ts", True),
    ("Header.tsx", "src/ui/Header.tsx", True),
    # with a `/`, `*` stays in one directory and `**` spans them
    ("src/*", "src/a.ts", True),
    ("src/*.ts", "src/ui/a.ts", False),
    ("src/**/*.ts", "src/ui/a.ts", True),
    ("**/*.py", "tools/gen.py", True),
    ("./src/*.ts", "src/a.ts", True),
    # braces expand, each alternative by its own shape; case counts
    ("{src/*.ts,*.md}", "docs/x/a.md", True),
    ("{src/*.ts,*.md}", "lib/a.ts", False),
    ("*.ts", "src/a.TS", False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), COPILOT_ROWS)
def test_copilot_dialect(pattern: str, path: str, expected: bool) -> None:
    assert scope_matches(compile_scope((pattern,), "copilot"), path) is expected


@pytest.mark.parametrize(("pattern", "path"), [("src/*.TS", "src/a.ts"), ("SRC/a.ts", "src/a.ts")])
@pytest.mark.parametrize(("dialect", "expected"), [("gitignore", True), ("bun", False), ("copilot", False)])
def test_only_claude_codes_dialect_ignores_case(
    pattern: str, path: str, dialect: str, expected: bool
) -> None:
    assert scope_matches(compile_scope((pattern,), dialect), path) is expected


@pytest.mark.parametrize(
    ("pattern", "dialect", "prefix"),
    [
        ("src/ui/**/*.tsx", "bun", "src/ui/"),
        ("src/a.ts", "bun", "src/a.ts"),
        ("*.py", "bun", ""),
        ("*.py", "gitignore", ""),  # any depth
        ("docs/**", "gitignore", ""),  # `docs` once its trailing `/**` is dropped: any depth
        ("src/ui/**", "gitignore", "src/ui"),
        ("/src/*.ts", "gitignore", "src/"),
        ("*.ts", "copilot", ""),  # the file name, any depth
        ("src/*.ts", "copilot", "src/"),
    ],
)
def test_literal_prefix(pattern: str, dialect: str, prefix: str) -> None:
    assert literal_prefix(pattern, dialect) == prefix


def test_several_patterns_are_one_regex() -> None:
    regex = compile_scope(("src/ui/**", "src/ink/**"), "bun")
    assert scope_matches(regex, "src/ink/renderer.ts")
    assert scope_matches(regex, "src/ui/Badge.tsx")
    assert not scope_matches(regex, "src/api/users.ts")


@pytest.mark.parametrize("dialect", ["bun", "gitignore", "copilot"])
def test_empty_scope_matches_nothing(dialect: str) -> None:
    assert not scope_matches(compile_scope(("", "  "), dialect), "anything")


def test_unknown_dialect_is_an_error() -> None:
    with pytest.raises(ScopeError, match="unknown glob dialect"):
        compile_scope(("*",), "regex")


@pytest.mark.parametrize(
    ("pattern", "prefix"),
    [
        ("src/ui/**/*.tsx", "src/ui"),
        ("src/api/*.ts", "src/api"),
        ("**/*.ts", ""),
        ("src/ui/Badge.tsx", "src/ui/Badge.tsx"),
        ("./docs/{a,b}.md", "docs"),
    ],
)
def test_static_prefix(pattern: str, prefix: str) -> None:
    assert static_prefix(pattern) == prefix


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.sampled_from(["bun", "gitignore", "copilot"]))
def test_any_pattern_compiles_or_raises_scope_error(pattern: str, dialect: str) -> None:
    try:
        regex = compile_scope((pattern,), dialect)
    except ScopeError:
        return
    scope_matches(regex, "src/a.py")
