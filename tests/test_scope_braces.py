"""Braces in the gitignore dialect, expanded as Claude Code expands `paths:` globs (its 2.1.332 bundle;
the expansion arrived in 2.1.217). The first rows are the real repositories' globs that went wrong."""

from __future__ import annotations

import pytest

from jitctx.scope import MAX_BRACE_RESULTS, compile_scope, expand_braces, scope_matches

GITIGNORE_BRACE_ROWS = [
    # GrowthBook's `.claude/rules/*.md`
    ("packages/front-end/**/*.{ts,tsx}", "packages/front-end/components/ActivityList.tsx", True),
    ("packages/front-end/**/*.{ts,tsx}", "packages/front-end/services/api.ts", True),
    ("packages/front-end/**/*.{ts,tsx}", "packages/front-end/styles/a.scss", False),
    ("packages/front-end/**/*.{ts,tsx}", "packages/back-end/src/api.ts", False),
    # a slash-less glob still matches at any depth once expanded
    ("*.{py,pyi}", "src/pkg/types.pyi", True),
    # groups anywhere, several of them
    ("{src,lib}/**/*.{js,jsx}", "lib/a/b.jsx", True),
    ("{src,lib}/**/*.{js,jsx}", "test/a.js", False),
    # options are trimmed; a one-option group is its option
    ("src/{ a , b }/x.ts", "src/b/x.ts", True),
    ("src/{a}/x.ts", "src/a/x.ts", True),
    # an empty group is no group: the braces stay literal
    ("src/{}/x.ts", "src/{}/x.ts", True),
    ("src/{}/x.ts", "src/a/x.ts", False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), GITIGNORE_BRACE_ROWS)
def test_gitignore_dialect_expands_braces(pattern: str, path: str, expected: bool) -> None:
    assert scope_matches(compile_scope((pattern,), "gitignore"), path) is expected


@pytest.mark.parametrize(
    ("patterns", "expanded"),
    [
        (("a/{b,c}/{d,e}.md",), ("a/b/d.md", "a/b/e.md", "a/c/d.md", "a/c/e.md")),
        # a group inside a group splits at the first `}`, as Claude Code's expansion does
        (("{a,{b,c}}",), ("a}", "b", "c}")),
        (("plain/**", "x.{ts,tsx}"), ("plain/**", "x.ts", "x.tsx")),
    ],
)
def test_expansion_order_and_shape(patterns: tuple[str, ...], expanded: tuple[str, ...]) -> None:
    assert expand_braces(patterns) == expanded


def test_a_glob_over_the_budget_stays_unexpanded_and_the_others_keep_theirs() -> None:
    ten = "{" + ",".join("abcdefghij") + "}"
    fills = f"{ten}/{ten}/{ten}/x"  # exactly the 1,000 results the budget allows
    over = "{a,b}/y"
    result = expand_braces((fills, over, "z"))
    assert len(result) == MAX_BRACE_RESULTS + 2
    assert result[-2:] == (over, "z")
    regex = compile_scope((fills, over), "gitignore")
    assert scope_matches(regex, "j/j/j/x")
    assert scope_matches(regex, "{a,b}/y")  # literal braces, as the `ignore` package reads them
    assert not scope_matches(regex, "a/y")


@pytest.mark.parametrize(
    ("pattern", "path"),
    [("src/{a,b}.ts", "src/a.ts"), ("*.{md,mdx}", "docs/x.mdx")],
)
def test_bun_and_gitignore_agree_on_plain_brace_groups(pattern: str, path: str) -> None:
    """Where both dialects expand, a rule matches under both: `--agent jitctx` and `--agent claude-code`
    differ in gitignore's own rules (depth, directories), never in braces."""
    assert scope_matches(compile_scope((pattern,), "gitignore"), path)
    assert scope_matches(compile_scope(("**/" + pattern if "/" not in pattern else pattern,), "bun"), path)
