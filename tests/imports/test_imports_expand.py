"""Expansion of `@imports`: resolution, depth, cycles, the project boundary, missing targets, resolvers."""

# ruff: noqa: RUF001

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jitctx.imports import (
    Expansion,
    FileResolver,
    ImportStatus,
    ReadResult,
    clear_caches,
    decode_text,
    expand,
    expansion,
)
from tests.conftest import Tree
from tests.imports.imports_corpus import CJK_FORMS

NOTES = {"NOTE.md": "note", "文档/说明.md": "说明", "a.b.md": "ab", "docs/NOTE.md": "docs note"}


def run(root: Path, name: str = "CLAUDE.md", **options: object) -> Expansion:
    path = root / name
    return expand(path.read_text(encoding="utf-8"), path, root=root, **options)  # type: ignore[arg-type]


def statuses(result: Expansion) -> list[tuple[str, str, str | None]]:
    return [(r.token, r.status.value, r.display) for r in result.imports]


@pytest.mark.parametrize(("text", "path"), CJK_FORMS)
def test_cjk_table_form_resolves_to_the_file(tree: Tree, text: str, path: str) -> None:
    root = tree({**NOTES, "CLAUDE.md": text + "\n"})
    result = run(root)
    [only] = result.imports
    assert (only.status, only.display) == (ImportStatus.OK, os.path.normpath(path))
    assert only.text == NOTES[os.path.normpath(path)]


def test_relative_to_the_importing_file_nested_in_order(tree: Tree) -> None:
    root = tree(
        {
            "CLAUDE.md": "top @docs/a.md then @b.md\n",
            "docs/a.md": "a imports @sub/c.md and @../b.md\n",
            "docs/sub/c.md": "c\n",
            "b.md": "b\n",
        }
    )
    result = run(root)
    assert [(r.display, r.status.value, r.parent, r.depth) for r in result.imports] == [
        ("docs/a.md", "ok", "CLAUDE.md", 1),
        ("docs/sub/c.md", "ok", "docs/a.md", 2),
        ("b.md", "ok", "docs/a.md", 2),
        ("b.md", "duplicate", "CLAUDE.md", 1),
    ]
    assert [r.display for r in result.included] == ["docs/a.md", "docs/sub/c.md", "b.md"]
    assert (
        result.expanded_text()
        == "top @docs/a.md then @b.md\n\n\na imports @sub/c.md and @../b.md\n\n\nc\n\n\nb\n"
    )
    assert result.expanded_bytes == len(result.expanded_text().encode("utf-8"))
    assert result.warnings == ()


def chain(length: int) -> dict[str, str]:
    files = {"CLAUDE.md": "@f1.md\n"}
    for index in range(1, length + 1):
        files[f"f{index}.md"] = f"level {index} @f{index + 1}.md\n" if index < length else "end\n"
    return files


def test_depth_five_is_followed_and_the_sixth_is_reported(tree: Tree) -> None:
    root = tree(chain(7))
    result = run(root)
    assert [(r.token, r.status.value, r.depth) for r in result.imports] == [
        ("f1.md", "ok", 1),
        ("f2.md", "ok", 2),
        ("f3.md", "ok", 3),
        ("f4.md", "ok", 4),
        ("f5.md", "ok", 5),
        ("f6.md", "too_deep", 6),
    ]
    assert result.warnings == (
        "f5.md:1: @f6.md: more than 5 levels of imports; not followed (config: [imports] max_depth)",
    )


@pytest.mark.parametrize(("depth", "followed"), [(0, 0), (1, 1), (2, 2), (20, 7)])
def test_max_depth_option(tree: Tree, depth: int, followed: int) -> None:
    result = run(tree(chain(7)), max_depth=depth)
    assert len(result.included) == followed


def test_self_import_and_cycles_are_stopped_and_reported(tree: Tree) -> None:
    root = tree(
        {"CLAUDE.md": "@CLAUDE.md @a.md\n", "a.md": "@b.md\n", "b.md": "back to @a.md and @CLAUDE.md\n"}
    )
    result = run(root)
    assert statuses(result) == [
        ("CLAUDE.md", "cycle", "CLAUDE.md"),
        ("a.md", "ok", "a.md"),
        ("b.md", "ok", "b.md"),
        ("a.md", "cycle", "a.md"),
        ("CLAUDE.md", "cycle", "CLAUDE.md"),
    ]
    assert "b.md:1: @a.md: import cycle a.md -> b.md -> a.md; not followed" in result.warnings


class CountingResolver:
    def __init__(self) -> None:
        self.inner = FileResolver(cache=False)
        self.reads: list[str] = []

    def read(self, real_path: str) -> ReadResult:
        self.reads.append(real_path)
        return self.inner.read(real_path)


def test_each_file_is_read_once_per_expansion(tree: Tree) -> None:
    root = tree(
        {
            "CLAUDE.md": "@a.md @b.md @a.md @missing.md @missing.md\n",
            "a.md": "@shared.md\n",
            "b.md": "@shared.md @./shared.md\n",
            "shared.md": "s\n",
        }
    )
    resolver = CountingResolver()
    result = run(root, resolver=resolver)
    assert sorted(os.path.basename(p) for p in resolver.reads) == ["a.md", "b.md", "missing.md", "shared.md"]
    assert [r.display for r in result.included] == ["a.md", "shared.md", "b.md"]


class MemoryResolver:
    """Files that exist only in a dict: the session or a test can supply its own reads."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def read(self, real_path: str) -> ReadResult:
        if real_path not in self.files:
            return ReadResult(ImportStatus.MISSING, message="no such file")
        return decode_text(self.files[real_path].encode("utf-8"))


def test_a_resolver_supplies_the_text(tmp_path: Path) -> None:
    root = str(tmp_path / "virtual")
    resolver = MemoryResolver({f"{root}/x.md": "---\npaths: [a]\n---\nX body @y.md\n", f"{root}/y.md": "Y"})
    result = expand("see @x.md", f"{root}/CLAUDE.md", root=root, resolver=resolver)
    assert [(r.display, r.text) for r in result.included] == [("x.md", "X body @y.md\n"), ("y.md", "Y")]


@pytest.mark.parametrize("token", ["Component", "media", "jrichman"])
def test_words_that_are_not_paths_keep_the_text_and_warn(tree: Tree, token: str) -> None:
    text = f"# Title\n\nUse @{token} here.\n"
    root = tree({"CLAUDE.md": text})
    result = run(root)
    [only] = result.imports
    assert (only.status, only.path, only.line) == (ImportStatus.NOT_A_PATH, None, 3)
    assert result.expanded_text() == text
    assert result.warnings[0].startswith(f"CLAUDE.md:3: @{token}: not a path and no such file")


def test_a_word_that_names_an_existing_file_is_imported(tree: Tree) -> None:
    root = tree({"CLAUDE.md": "see @Makefile\n", "Makefile": "all:\n"})
    assert statuses(run(root)) == [("Makefile", "ok", "Makefile")]


def test_seed_jrichman_line_warns_with_file_and_line(tree: Tree) -> None:
    root = tree({"src/ui/CLAUDE.md": "intro\nink /\n@jrichman）。**cc 的渲染能力\n"})
    result = run(root, "src/ui/CLAUDE.md")
    assert statuses(result) == [("jrichman", "not_a_path", None)]
    assert result.warnings[0].startswith("src/ui/CLAUDE.md:3: @jrichman: ")


def test_missing_path_keeps_text_and_names_file_and_line(tree: Tree) -> None:
    root = tree({"CLAUDE.md": "a\nb\nsee @docs/gone.md\n"})
    result = run(root)
    assert statuses(result) == [("docs/gone.md", "missing", "docs/gone.md")]
    assert result.warnings == ("CLAUDE.md:3: @docs/gone.md: no such file; the text stays as written",)
    assert result.expanded_bytes == len(b"a\nb\nsee @docs/gone.md\n")


def test_outside_the_root_is_refused_unless_allowed(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (tmp_path / "outside.md").write_text("secret", encoding="utf-8")
    (tmp_path / "proj-evil").mkdir()
    (tmp_path / "proj-evil" / "x.md").write_text("evil", encoding="utf-8")
    (root / "docs" / "link.md").symlink_to(tmp_path / "outside.md")
    (root / "CLAUDE.md").write_text("@../outside.md @docs/link.md @../proj-evil/x.md\n", encoding="utf-8")
    refused = run(root)
    assert [r.status.value for r in refused.imports] == ["outside"] * 3
    assert refused.included == ()
    assert refused.imports[0].display == str(tmp_path / "outside.md")
    allowed = run(root, allow_outside=True)
    assert [r.status.value for r in allowed.imports] == ["ok", "duplicate", "ok"]
    assert allowed.included[0].text == "secret"


def test_home_and_absolute_imports(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    home = root / "home"
    home.mkdir(parents=True)
    (home / "std.md").write_text("std", encoding="utf-8")
    (root / "abs.md").write_text("abs", encoding="utf-8")
    text = f"@~/std.md @{root / 'abs.md'}\n"
    result = expand(text, root / "CLAUDE.md", root=root, home=home)
    assert statuses(result) == [("~/std.md", "ok", "home/std.md"), (f"{root / 'abs.md'}", "ok", "abs.md")]
    without_home = expand(text, root / "CLAUDE.md", root=root)
    assert without_home.imports[0].status is ImportStatus.MISSING


def test_imported_frontmatter_is_stripped_and_lines_stay_true(tree: Tree) -> None:
    root = tree({"CLAUDE.md": "@rule.md\n", "rule.md": "---\npaths: ['src/**']\n---\nbody\n@gone.md\n"})
    result = run(root)
    assert result.included[0].text == "body\n@gone.md\n"
    assert result.warnings == ("rule.md:5: @gone.md: no such file; the text stays as written",)


def test_first_line_numbers_the_root_body(tree: Tree) -> None:
    root = tree({"CLAUDE.md": "---\na: 1\n---\n@gone.md\n"})
    result = expand("@gone.md\n", root / "CLAUDE.md", root=root, first_line=4)
    assert result.imports[0].line == 4


def test_bom_crlf_and_bad_utf8_in_a_target(tree: Tree) -> None:
    root = tree(
        {
            "CLAUDE.md": "@bom.md @latin.md\n",
            "bom.md": b"\xef\xbb\xbfone\r\ntwo\r\n",
            "latin.md": b"caf\xe9\n",
        }
    )
    clear_caches()
    result = run(root)
    assert [r.text for r in result.included] == ["one\ntwo\n", "caf\ufffd\n"]
    assert result.warnings == (
        "latin.md: not valid UTF-8 (first bad byte at offset 3); bad bytes shown as U+FFFD, "
        "save the file as UTF-8",
    )


def test_expansion_size_limit(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tree({"CLAUDE.md": "@a.md @b.md\n", "a.md": "a" * 50, "b.md": "b" * 50})
    monkeypatch.setattr(expansion, "MAX_EXPANDED_BYTES", 90)
    result = run(root)
    assert [r.status.value for r in result.imports] == ["ok", "too_large"]


def test_default_resolver_cache_sees_edits(tree: Tree) -> None:
    root = tree({"CLAUDE.md": "@a.md\n", "a.md": "one"})
    assert run(root).included[0].text == "one"
    (root / "a.md").write_text("two!", encoding="utf-8")
    assert run(root).included[0].text == "two!"


def test_allow_outside_reads_only_markdown_outside(tmp_path: Path) -> None:
    from jitctx.imports import ImportStatus, expand

    outside = tmp_path / "home"
    outside.mkdir()
    (outside / "notes.md").write_text("NOTES")
    (outside / "credentials").write_text("SECRET")
    root = tmp_path / "proj"
    root.mkdir()
    text = f"see @{outside}/notes.md and @{outside}/credentials\n"
    result = expand(text, root / "CLAUDE.md", root=root, allow_outside=True)
    statuses = {r.token.rsplit("/", 1)[-1]: r.status for r in result.imports}
    assert statuses == {"notes.md": ImportStatus.OK, "credentials": ImportStatus.OUTSIDE}
    assert "SECRET" not in result.expanded_text()
