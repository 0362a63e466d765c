"""Bad import targets and hostile text: a defined status for each, no hang, no traceback."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jitctx.imports import MAX_IMPORTS_PER_FILE, Expansion, ImportStatus, clear_caches, expand, extract
from tests.conftest import Tree


class Hung(BaseException):
    """Not an OSError (TimeoutError is one), so no `except OSError` in the code under test can swallow it."""


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    """A read that blocks (FIFO, /dev/zero) would hang the suite; fail it after a generous limit instead."""

    def expire(signum: int, frame: object) -> None:
        raise Hung("import expansion hung")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def run(root: Path, text: str, **options: object) -> Expansion:
    (root / "CLAUDE.md").write_text(text, encoding="utf-8")
    return expand(text, root / "CLAUDE.md", root=root, **options)  # type: ignore[arg-type]


def only(result: Expansion) -> tuple[ImportStatus, str]:
    [single] = result.imports
    return single.status, single.message


def test_directory(tree: Tree) -> None:
    root = tree({"docs/": ""})
    assert only(run(root, "@docs/\n")) == (ImportStatus.DIRECTORY, "is a directory; import a file inside it")


def test_binary_file(tree: Tree) -> None:
    root = tree({"logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00"})
    assert only(run(root, "@logo.png\n"))[0] is ImportStatus.BINARY


def test_ten_megabyte_file(tree: Tree) -> None:
    root = tree({})
    with open(root / "big.md", "wb") as handle:
        handle.truncate(10 * 1024 * 1024)
    status, message = only(run(root, "@big.md\n"))
    assert status is ImportStatus.TOO_LARGE
    assert message.startswith("10,485,760 bytes is over the 4 MiB limit")


def test_dev_zero(tree: Tree) -> None:
    root = tree({})
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    assert only(run(root, "@/dev/zero\n"))[0] is ImportStatus.OUTSIDE
    # Even where outside imports are allowed, only Markdown outside the project is read.
    assert only(run(root, "@/dev/zero\n", allow_outside=True))[0] is ImportStatus.OUTSIDE
    (root / "zero").symlink_to("/dev/zero")
    assert only(run(root, "@zero\n", allow_outside=True))[0] is ImportStatus.OUTSIDE


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo(tree: Tree) -> None:
    root = tree({})
    os.mkfifo(root / "pipe.md")
    assert only(run(root, "@pipe.md\n"))[0] is ImportStatus.NOT_A_FILE


def test_symlink_loop(tree: Tree) -> None:
    root = tree({})
    (root / "a.md").symlink_to(root / "b.md")
    (root / "b.md").symlink_to(root / "a.md")
    (root / "self.md").symlink_to(root / "self.md")
    result = run(root, "@a.md @self.md\n")
    assert [r.status for r in result.imports] == [ImportStatus.SYMLINK_LOOP] * 2


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root reads everything")
def test_unreadable_file(tree: Tree) -> None:
    root = tree({"secret.md": "x"})
    (root / "secret.md").chmod(0)
    assert only(run(root, "@secret.md\n"))[0] is ImportStatus.UNREADABLE


def test_path_through_a_file_is_missing(tree: Tree) -> None:
    root = tree({"NOTE.md": "x"})
    assert only(run(root, "@NOTE.md/inner.md\n"))[0] is ImportStatus.MISSING


def test_ten_thousand_imports_in_one_file(tree: Tree) -> None:
    root = tree({"real.md": "r"})
    text = "@real.md\n" + "".join(f"see @docs/missing{i}.md\n" for i in range(10_000))
    result = run(root, text)
    assert len(extract(text)) == 10_001
    assert [r.status for r in result.imports[:2]] == [ImportStatus.OK, ImportStatus.MISSING]
    assert len(result.imports) == MAX_IMPORTS_PER_FILE + 1
    last = result.imports[-1]
    assert (last.status, last.line, last.token) == (ImportStatus.TOO_MANY, 1001, "docs/missing999.md")
    assert result.warnings[-1] == (
        f"CLAUDE.md:1001: more than {MAX_IMPORTS_PER_FILE} imports in one file; this one and the 9000 "
        "after it are not followed and stay as text"
    )


def test_one_megabyte_single_line(tree: Tree) -> None:
    root = tree({"NOTE.md": "n"})
    line = ("见 @NOTE.md\uff0c" + "x" * 1000 + " `@code.md` ") * 900
    assert len(line.encode("utf-8")) > 900_000
    clear_caches()
    result = run(root, line + "\n")
    assert [r.status for r in result.imports[:2]] == [ImportStatus.OK, ImportStatus.DUPLICATE]
    assert len(result.imports) == 900


def test_one_megabyte_token(tree: Tree) -> None:
    root = tree({})
    assert only(run(root, "@" + "a" * 1_000_000))[0] is ImportStatus.NOT_A_PATH
    assert only(run(root, "@" + "a/" * 500_000))[0] is ImportStatus.MISSING


@pytest.mark.parametrize(
    "text",
    [
        "[" * 20_000 + "@x.md" + "]" * 20_000,
        "*_" * 30_000 + " @x.md",
        "`" * 100_000 + " @x.md",
        "<" * 100_000 + " @x.md",
        '<a x="' * 30_000 + " @x.md",
        "> " * 10_000 + "@x.md",
        "\n".join(">" * i + " @x.md" for i in range(300)),
    ],
    ids=["brackets", "emphasis", "backticks", "angles", "open-attributes", "quotes", "deep-quotes"],
)
def test_walls_of_punctuation_finish(text: str) -> None:
    clear_caches()
    for found in extract(text):
        assert found.path.endswith("x.md")


@pytest.mark.parametrize("token", ["a\x00b.md", "\ud800.md", "~", "~/", "//", "..", "."])
def test_odd_tokens_get_a_status(tree: Tree, token: str) -> None:
    root = tree({})
    result = expand(f"@{token}\n", root / "CLAUDE.md", root=root)
    assert all(isinstance(r.status, ImportStatus) for r in result.imports)


MARKDOWN = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "```",
                "~~~",
                "    ",
                "`",
                "``",
                "<!--",
                "-->",
                "<div>",
                "</div>",
                "<pre>",
                "> ",
                "- ",
                "1. ",
                "| a |",
                "|---|",
                "#",
                "\n",
                "\n\n",
                "\r\n",
                "\t",
                " ",
                "\\",
                "\\ ",
                "@",
                "@@",
                "@a.md",
                "@../x",
                "@~/x",
                "@/",
                "@docs/",
                "@CLAUDE.md",
                "@loop.md",
                "**",
                "_",
                "[",
                "](",
                ")",
                "<http://a>",
                "\x00",
                "\ufeff",
                "\u3000",
                "\uff0c",
                "。",
                "「",
                "」",
                "#frag",
                "---\n",
            ]
        ),
        st.text(max_size=12),
    ),
    max_size=60,
).map("".join)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(MARKDOWN)
def test_random_markdown_never_raises(tree: Tree, text: str) -> None:
    root = tree({"a.md": "@CLAUDE.md @b.md", "b.md": "@a.md", "docs/x.md": "x"})
    if not (root / "loop.md").is_symlink():
        (root / "loop.md").symlink_to(root / "loop.md")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "\ufffd").split("\n")
    for found in extract(text, first_line=3):
        assert found.column is not None
        assert lines[found.line - 3][found.column - 1 :].startswith("@" + found.token)
    result = expand(text, root / "CLAUDE.md", root=root, home=root)
    for item in result.imports:
        assert (item.status is ImportStatus.OK) == (item.text is not None)
        assert item.status is ImportStatus.OK or item.message
