"""Proof that the scan on raw text agrees with the Markdown tokenizer.

markdown-it gives line ranges for blocks but no positions inside them; extraction scans the raw prose and
maps each token back to its line and column. These tests check that mapping against the source, and that
the linear fallback used for huge blocks finds the same code spans and tags as markdown-it does.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.imports import clear_caches, extract, markdown
from tests.imports.imports_corpus import CORPUS


def assert_located(text: str) -> None:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for found in extract(text):
        assert found.column is not None, found
        assert lines[found.line - 1][found.column - 1 :].startswith("@" + found.token), found


def inline_blocks(text: str) -> list[str]:
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    return [t.content for t in tokens if t.type == "inline"]


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_every_import_is_where_the_source_has_it(name: str) -> None:
    assert_located(CORPUS[name])


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_fallback_finds_the_spans_markdown_it_finds(name: str) -> None:
    for content in inline_blocks(CORPUS[name]):
        assert markdown.fallback_spans(content) == markdown.inline_spans(content), content


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_forcing_the_fallback_gives_the_same_imports(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    clear_caches()
    parsed = extract(CORPUS[name])
    clear_caches()
    monkeypatch.setattr(markdown, "INLINE_PARSE_LIMIT", 0)
    assert extract(CORPUS[name]) == parsed
    clear_caches()


def test_recorded_code_spans_are_markdown_its_code_tokens() -> None:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    for text in CORPUS.values():
        for token in md.parse(text):
            if token.type != "inline":
                continue
            codes = [c.content for c in token.children or [] if c.type == "code_inline"]
            spans = markdown.inline_spans(token.content)
            recorded = [token.content[a:b] for a, b in spans if token.content[a] == "`"]
            assert len(recorded) == len(codes)
            for raw, code in zip(recorded, codes, strict=True):
                assert code.replace(" ", "") in raw.replace("\n", " ").replace(" ", "")


# Text built from what decides code spans, tags and token boundaries. Link brackets are left out: the
# fallback does not model link destinations (see `fallback_spans`).
_PIECES = st.sampled_from(
    [
        *["`", "``", "\\", "@", "@a.md", " ", "\n", "x", "\uff0c", "*", "-", "> ", "#"],
        *["<!--", "-->", "<b>", "<", ">", "<http://a`b>", "<a@b.c>", '<a title="`">'],
    ]
)
_TEXT = st.lists(_PIECES, max_size=40).map("".join)


@settings(max_examples=250, deadline=None)
@given(_TEXT)
def test_fallback_agrees_on_backticks_and_escapes(content: str) -> None:
    for block in inline_blocks(content):
        assert markdown.fallback_spans(block) == markdown.inline_spans(block)


@settings(max_examples=250, deadline=None)
@given(_TEXT)
def test_located_on_generated_text(text: str) -> None:
    assert_located(text)
