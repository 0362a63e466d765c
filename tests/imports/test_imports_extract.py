"""Extraction of `@imports`: the seed's CJK forms, Markdown code and HTML, token shapes, line numbers."""

# ruff: noqa: RUF001

from __future__ import annotations

import pytest

from jitctx.imports import Import, clean_token, clear_caches, extract, looks_like_path
from tests.imports.imports_corpus import CJK_FORMS


@pytest.mark.parametrize(("text", "path"), CJK_FORMS)
def test_cjk_table_form_yields_the_path(text: str, path: str) -> None:
    assert [i.path for i in extract(text)] == [path]


@pytest.mark.parametrize(
    ("text", "paths"),
    [
        ("```\n@a.md\n```\n", []),
        ("~~~\n@a.md\n~~~\n", []),
        ("````\n```\n@a.md\n```\n````\n", []),
        ("para\n\n    @a.md\n", []),
        ("use `@a.md` here", []),
        ("use ``@a.md ` x`` here", []),
        ("<!-- @a.md -->\n", []),
        ("<!--\n@a.md\n-->\n", []),
        ("text <!-- @a.md --> more", []),
        ("<pre>\n@a.md\n</pre>\n", []),
        ('<div title="@a.md">\n', []),
        ("mail user@example.com", []),
        ("curl -d a=@body.json", []),
        ("escaped \\@a.md", []),
        ("[@a.md](a.md)", []),
        ("<div>\n@a.md\n</div>\n", ["a.md"]),
        ("<div>\n<span>@x.md</span> @a.md</b> <!-- @c.md -->\n</div>\n", ["a.md"]),
        ("text `code` @a.md", ["a.md"]),
        ("unclosed `tick @a.md", ["a.md"]),
        ("@a.md`code`", ["a.md"]),
        ("@a.md<!-- c -->", ["a.md"]),
        ("**@a.md**", ["a.md"]),
        ("- @a.md\n", ["a.md"]),
        ("> @a.md\n", ["a.md"]),
        ("| x |\n|---|\n| @a.md |\n", ["a.md"]),
        ("line one\n@a.md\n", ["a.md"]),
        ("@a.md @b.md\n@c.md", ["a.md", "b.md", "c.md"]),
    ],
)
def test_markdown_decides_what_is_prose(text: str, paths: list[str]) -> None:
    assert [i.path for i in extract(text)] == paths


@pytest.mark.parametrize(
    ("token", "path"),
    [
        ("NOTE.md", "NOTE.md"),
        ("NOTE.md.", "NOTE.md"),
        ("NOTE.md),", "NOTE.md"),
        ("notes(v2).md)", "notes(v2).md"),
        ("a.b.md", "a.b.md"),
        ("NOTE.md#标题", "NOTE.md"),
        ("NOTE.md#", "NOTE.md"),
        ("my\\ notes.md", "my notes.md"),
        ("trailing\\ ", "trailing"),
        ("docs/", "docs/"),
        ("~/x.md", "~/x.md"),
        ("#only-fragment", ""),
        ("!!!", ""),
        ("bold.md**", "bold.md"),
    ],
)
def test_clean_token(token: str, path: str) -> None:
    assert clean_token(token) == path


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("NOTE.md", True),
        ("docs/x", True),
        ("~/x", True),
        (".env", True),
        ("Component", False),
        ("media", False),
        ("jrichman", False),
        ("", False),
        ("https://example.com/a.md", False),
    ],
)
def test_looks_like_path(path: str, expected: bool) -> None:
    assert looks_like_path(path) is expected


def test_line_and_column_point_at_the_at_sign() -> None:
    text = (
        "# T\n\n> quote\n> with @q.md\n\n- item\n  and @l.md，后续\n\n"
        "| a | b |\n|---|---|\n| @x.md | @x.md |\n"
    )
    found = extract(text)
    assert found == (
        Import(4, 8, "q.md", "q.md"),
        Import(7, 7, "l.md", "l.md"),
        Import(11, 3, "x.md", "x.md"),
        Import(11, 11, "x.md", "x.md"),
    )


def test_first_line_shifts_lines_for_a_body_after_frontmatter() -> None:
    assert extract("x\n@a.md\n", first_line=5) == (Import(6, 1, "a.md", "a.md"),)


def test_crlf_and_cr_keep_line_numbers() -> None:
    assert [i.line for i in extract("a\r\n@x.md\rb\r\n@y.md")] == [2, 4]


def test_seed_probe_line_gives_jrichman_not_the_garbage_tail() -> None:
    text = (
        "ink fork 整套 vendor 进了仓库（……`node_modules` 已无 ink /\n"
        "@jrichman）。**cc 的渲染能力本项目基本都有**……\n"
    )
    assert extract(text) == (Import(2, 1, "jrichman", "jrichman"),)


def test_extraction_is_cached_on_the_text() -> None:
    clear_caches()
    text = "see @cached.md"
    first = extract(text)
    assert extract(text) is first
    clear_caches()
    assert extract(text) is not first
    assert extract(text) == first


def test_text_without_at_sign_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    from jitctx.imports import extraction

    def fail(source: str) -> None:
        raise AssertionError("parsed a text without @")

    monkeypatch.setattr(extraction, "prose_blocks", fail)
    assert extract("# nothing to import here\n\n```\ncode\n```\n") == ()
