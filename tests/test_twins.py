"""Twins: files whose body (the text after frontmatter) is the same, whatever frontmatter each carries."""

from __future__ import annotations

from pathlib import Path

import pytest

from jitctx.twins import body_of_text, normalized_body, read_body, twin_groups

BODY = "# API rules\n\nValidate every request body.\nReturn problem+json on errors.\n"
CURSOR = f'---\nglobs: ["src/api/**/*.ts"]\nalwaysApply: false\n---\n{BODY}'
CLAUDE = f"---\npaths:\n  - src/api/**/*.ts\n---\n\n{BODY}"


def write(root: Path, files: dict[str, str | bytes]) -> list[str]:
    paths = []
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def test_an_mdc_with_globs_and_an_md_with_paths_are_twins(tmp_path: Path) -> None:
    mdc, md, other = write(
        tmp_path,
        {".cursor/rules/api.mdc": CURSOR, ".claude/rules/api.md": CLAUDE, ".claude/rules/ui.md": "# UI\n"},
    )
    assert twin_groups([mdc, md, other], read_body) == {mdc: (md,), md: (mdc,)}


def test_crlf_and_lf_copies_are_twins(tmp_path: Path) -> None:
    lf, crlf = write(tmp_path, {"a/AGENTS.md": BODY, "b/AGENTS.md": BODY.replace("\n", "\r\n").encode()})
    assert twin_groups([lf, crlf], read_body) == {lf: (crlf,), crlf: (lf,)}


def test_trailing_spaces_and_final_blank_lines_do_not_count() -> None:
    bodies = {"x": "one\ntwo\n", "y": "\n\none   \ntwo\t\n\n\n"}
    assert twin_groups(bodies, bodies.get) == {"x": ("y",), "y": ("x",)}


@pytest.mark.parametrize(
    "changed",
    [
        BODY.replace("every", "evrey"),  # one letter
        BODY.replace("Validate", "validate"),  # case
        BODY.replace("\nReturn", "\n Return"),  # indentation counts
        BODY.replace("body.\n", "body.\n\n"),  # a blank line between paragraphs counts
    ],
)
def test_a_body_that_differs_by_one_character_is_not_a_twin(tmp_path: Path, changed: str) -> None:
    one, two = write(tmp_path, {"one.md": CLAUDE, "two.mdc": f"---\nglobs: src/**\n---\n{changed}"})
    assert twin_groups([one, two], read_body) == {}
    assert normalized_body(read_body(one) or "") != normalized_body(changed)


def test_three_copies_each_name_the_other_two() -> None:
    bodies = {"a": BODY, "b": BODY, "c": BODY, "d": "something else"}
    twins = twin_groups(bodies, bodies.get)
    assert twins == {"a": ("b", "c"), "b": ("a", "c"), "c": ("a", "b")}


def test_empty_unreadable_and_repeated_paths_have_no_twins(tmp_path: Path) -> None:
    bodies: dict[str, str | None] = {"empty1": "", "empty2": "\n  \n", "gone": None, "real": BODY}
    assert twin_groups([*bodies, "real"], bodies.get) == {}
    assert read_body(str(tmp_path / "missing.md")) is None


def test_a_file_without_frontmatter_is_its_whole_text() -> None:
    assert body_of_text(BODY) == BODY
    assert normalized_body(body_of_text(CURSOR)) == normalized_body(BODY)


def test_a_fifo_is_no_body_and_does_not_block(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "CLAUDE.md"
    os.mkfifo(fifo)
    assert read_body(str(fifo)) is None
