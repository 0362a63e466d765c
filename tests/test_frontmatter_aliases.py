"""YAML aliases in frontmatter stay within bounds: a "billion laughs" chain leaves its rule unread, as any
unreadable frontmatter does (conditional on nothing), and lint and explain say why with path:line."""

from __future__ import annotations

import pytest

from jitctx.cli.main import main
from jitctx.frontmatter import MAX_ALIAS_VALUES, scope_of, split_frontmatter
from jitctx.govern.findings import Severity
from jitctx.govern.lint import lint_project
from jitctx.project import Project
from tests.conftest import Tree
from tests.guard import finishes_within


def bomb(key: str, extra: str = "") -> str:
    """Nine levels of nine aliases: 9^9 (387,420,489) values once built, from ten lines."""
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{','.join([f'*{previous}'] * 9)}]")
    return "---\n" + "\n".join([*lines, f"{key}: *i", *([extra] if extra else [])]) + "\n---\nBOMB\n"


# The ASCII text is read by libyaml's loader, the other by PyYAML's own: both are bounded.
@pytest.mark.parametrize("extra", ["", 'note: "é"'])
@pytest.mark.parametrize("key", ["paths", "globs", "applyTo"])
def test_an_alias_bomb_is_not_read(key: str, extra: str) -> None:
    with finishes_within(20, "reading an alias bomb"):
        front = split_frontmatter(bomb(key, extra))
    assert front.present and front.data is None
    assert front.error is not None
    # `e` is the first key past the bound (9^5 values), on the fifth line after `---`.
    assert f"aliases expand to more than {MAX_ALIAS_VALUES:,} values at frontmatter line 5" in front.error


@pytest.mark.parametrize("front", ["a: &a [*a]\npaths: *a", "a: &a {k: *a}\npaths: ['x']"])
def test_an_alias_inside_what_it_names_is_not_read(front: str) -> None:
    parsed = split_frontmatter(f"---\n{front}\n---\nbody\n")
    assert parsed.data is None and parsed.error is not None
    assert "refers to itself at frontmatter line 1" in parsed.error


def test_aliases_within_bounds_read_as_before() -> None:
    parsed = split_frontmatter('---\ncommon: &c ["src/**", "docs/**"]\npaths: *c\nmore: [*c, *c]\n---\nx\n')
    assert parsed.error is None and parsed.data is not None
    assert scope_of(parsed.data, ("paths",)).patterns == ("src/**", "docs/**")


def test_a_nested_list_is_named_briefly() -> None:
    """The error for a scope item that is not a string quotes the item, cut short."""
    parsed = split_frontmatter("---\npaths: [[" + ", ".join(['"x"'] * 5000) + "]]\n---\nx\n")
    assert parsed.data is not None
    error = scope_of(parsed.data, ("paths",)).error
    assert error is not None and "items must be strings" in error and len(error) < 200


def test_lint_and_explain_say_why_with_the_line(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    root = tree({".git/HEAD": "x\n", ".claude/rules/bomb.md": bomb("paths"), "src/a.ts": ""})
    with finishes_within(60, "lint and explain"):
        findings = lint_project(Project(root), use_git=False).findings
        assert main(["explain", "src/a.ts", "--root", str(root), "--no-git"]) == 0
    [found] = [f for f in findings if f.rule == "frontmatter-unreadable"]
    assert (found.file, found.line, found.severity) == (".claude/rules/bomb.md", 6, Severity.ERROR)
    assert "aliases expand" in found.message and "never injected" in found.message
    assert found.fix is not None and "without aliases" in found.fix
    explained = capsys.readouterr().out
    assert ".claude/rules/bomb.md" in explained and "aliases expand" in explained


def test_a_session_start_over_many_bombs_is_quick(tree: Tree) -> None:
    from jitctx.discovery.session import Session

    files: dict[str, str | bytes] = {f".claude/rules/b{i}.md": bomb("paths") for i in range(60)}
    root = tree({".git/HEAD": "x\n", "CLAUDE.md": "# guide\n", **files})
    with finishes_within(60, "a session start over 60 alias bombs"):
        started = Session(Project(str(root)), use_git=False).startup()
    assert [load.file.display for load in started.loaded] == ["CLAUDE.md"]


def test_the_bound_is_on_the_values_aliases_add() -> None:
    """Frontmatter without aliases is not counted against it, however long."""
    many = "paths:\n" + "".join(f'  - "dir{i}/**"\n' for i in range(MAX_ALIAS_VALUES + 100))
    parsed = split_frontmatter(f"---\n{many}---\nx\n")
    assert parsed.error is None and parsed.data is not None
    assert len(scope_of(parsed.data, ("paths",)).patterns) == MAX_ALIAS_VALUES + 100
