"""Markdown documents the import tests run over: every block type, CJK prose, code in all its forms."""

# ruff: noqa: RUF001

from __future__ import annotations

import pytest

# The seed's punctuation table (8 forms), its two sentinels, and the fragment / plain English forms.
# Every row must yield exactly one import with this path; the expansion tests resolve the same rows.
CJK_FORMS = [
    pytest.param("see @NOTE.md, then go", "NOTE.md", id="english-comma-then-text"),
    pytest.param("详见 @NOTE.md，", "NOTE.md", id="cjk-comma-at-end"),
    pytest.param("见 @NOTE.md，然后继续", "NOTE.md", id="cjk-comma-then-text"),
    pytest.param("见 @NOTE.md。然后继续", "NOTE.md", id="cjk-full-stop-then-text"),
    pytest.param("（已脱离 @NOTE.md）。**后续", "NOTE.md", id="paren-stop-emphasis"),
    pytest.param("见 @NOTE.md、以及别的", "NOTE.md", id="enumeration-comma"),
    pytest.param("见「@NOTE.md」后续", "NOTE.md", id="corner-quotes-around"),
    pytest.param("见 @NOTE.md！后续", "NOTE.md", id="cjk-exclamation"),
    pytest.param("见 @文档/说明.md，后续", "文档/说明.md", id="sentinel-non-ascii-path"),
    pytest.param("见 @a.b.md，后续", "a.b.md", id="sentinel-dots-inside-name"),
    pytest.param("见 @NOTE.md#标题，后续", "NOTE.md", id="fragment-cut"),
    pytest.param("See @NOTE.md.", "NOTE.md", id="english-full-stop"),
    pytest.param("Read @./docs/NOTE.md (the guide).", "./docs/NOTE.md", id="english-relative-dir"),
]

CORPUS: dict[str, str] = {
    "plain": "# Rules\n\nSee @docs/conventions.md for naming.\nAlso @./a.md and @../b.md.\n",
    "cjk": (
        "# 说明\n\n"
        "见 @NOTE.md，然后继续。见「@文档/说明.md」后续！（已脱离 @NOTE.md）。**后续\n"
        "ink fork 整套 vendor 进了仓库（……`node_modules` 已无 ink /\n"
        "@jrichman）。**cc 的渲染能力本项目基本都有**……\n"
    ),
    "blocks": (
        "Heading @h1.md\n===\n\n"
        "## ATX @h2.md ##\n\n"
        "> quoted @q.md\n> > nested @qq.md\nlazy @lazy.md\n\n"
        "- item @li.md\n  continued @cont.md\n  1. inner @inner.md\n\n"
        "| col | other |\n|-----|-------|\n| @cell.md | `@code.md` and @cell2.md |\n\n"
        "Hard break @hb.md\\\nnext @next.md  \nlast @last.md\n"
    ),
    "code": (
        "```\n@fenced.md\n```\n\n"
        "~~~md\n@tilde.md\n~~~\n\n"
        "    @indented.md\n\n"
        "Inline `@span.md` and ``@double ` tick.md`` and `` `@edge.md` `` but @real.md.\n"
        "Unclosed `tick @after-tick.md and \\`@escaped-tick.md\\` @tail.md\n"
        "````\n```\n@inner-fence.md\n```\n````\n"
    ),
    "html": (
        "<!-- @comment.md -->\n\n"
        "<!--\nmulti @multi.md\n-->\n\n"
        '<div title="@attr.md">\n@in-div.md <!-- @in-div-comment.md -->\n</div>\n\n'
        "<pre>\n@pre.md\n</pre>\n\n"
        'Text <!-- @inline-comment.md --> @after-comment.md <span data-x="@tag.md">@in-span.md</span>\n'
    ),
    "not-imports": (
        "Mail user@example.com or a=@b.json or x.@y.md.\n"
        "Escaped \\@not.md and [@label.md](target.md) and <@angle.md>.\n"
        "Decorators: `@property` and `@dataclass(frozen=True)`.\n"
    ),
    "tokens": (
        "@start.md at line start, @my\\ notes.md with a space, @notes(v2).md) in parens,\n"
        "**@bold.md** and *@em.md*, @NOTE.md#标题 with a fragment, @~/home.md and @/abs/x.md.\n"
        "\t@tab.md after a tab, @a.b.md，后续, @a,b.md; and @Component, @media {\n"
    ),
    "mixed": (
        "---\nnot: frontmatter here\n---\n\n"
        "1. first @one.md\n2. second `@two.md` @three.md\n\n"
        "* [ ] task @task.md\n\n"
        "Term @x.md<br>@y.md\n\n"
        "    code @not-code?.md\n"
        "paragraph @para.md\n"
    ),
    "crlf": "line one @one.md\r\nline two @two.md\r\n\r\n```\r\n@no.md\r\n```\r\n",
}
