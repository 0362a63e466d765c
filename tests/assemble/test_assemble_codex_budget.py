"""`codex` truncation mode: what codex-rs `read_agents_md` does with project_doc_max_bytes.

Root-first, one shared budget of raw file bytes; the overshooting file is cut to the remaining bytes (even
inside a character, decoded lossily to U+FFFD); nothing after it; empty/whitespace files are skipped and use
no budget; a limit of 0 turns project docs off; no notice reaches the model; user-level files are outside.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.assemble import RenderItem, fit_budget
from jitctx.model import Tier


def codex(files: list[tuple[str, str]] | list[RenderItem], limit: int) -> list[tuple[str, int, int, int]]:
    result = fit_budget(files, limit, mode="root-first", style="agents-md")
    return [(f.status, f.bytes_kept, f.bytes_lost, f.chars_lost) for f in result.files]


@pytest.mark.parametrize(
    ("sizes", "limit", "expected"),
    [
        # codex-rs test doc_larger_than_limit_is_truncated: 2 KiB of "A" under a 1 KiB limit keeps 1 KiB
        ([2048], 1024, [("truncated", 1024, 1024, 1024)]),
        ([100, 100], 4096, [("kept", 100, 0, 0), ("kept", 100, 0, 0)]),
        ([100, 100, 100], 150, [("kept", 100, 0, 0), ("truncated", 50, 50, 50), ("dropped", 0, 100, 100)]),
        ([100, 100], 100, [("kept", 100, 0, 0), ("dropped", 0, 100, 100)]),  # nothing remains: stop
        ([100], 0, [("dropped", 0, 100, 100)]),  # zero_byte_limit_disables_docs
    ],
)
def test_root_first_shared_budget(
    sizes: list[int], limit: int, expected: list[tuple[str, int, int, int]]
) -> None:
    files = [(f"{'d/' * i}AGENTS.md", "A" * n) for i, n in enumerate(sizes)]
    assert codex(files, limit) == expected


def test_concatenation_matches_codex_root_then_cwd() -> None:
    # codex-rs concatenates_root_and_cwd_docs: "root doc\n\ncrate doc", inside Codex's fragment wrapper.
    result = fit_budget(
        [("AGENTS.md", "root doc"), ("workspace/crate_a/AGENTS.md", "crate doc")],
        4096,
        mode="root-first",
        style="agents-md",
    )
    assert result.payload == (
        "# AGENTS.md instructions for workspace/crate_a\n\n"
        "<INSTRUCTIONS>\nroot doc\n\ncrate doc\n</INSTRUCTIONS>"
    )
    assert result.counted_bytes == 17
    assert result.headroom == 4096 - 17


def test_a_cut_inside_a_character_arrives_as_a_replacement_character() -> None:
    result = fit_budget([("AGENTS.md", "ab汉字")], 4, mode="root-first", style="agents-md")
    (cut,) = result.files
    assert (cut.status, cut.bytes_kept, cut.bytes_lost, cut.chars_lost) == ("truncated", 4, 4, 2)
    assert cut.text == "ab\ufffd"
    assert "U+FFFD" in cut.note
    assert "jitctx" not in result.payload  # Codex shows the model no notice


def test_whitespace_only_files_are_skipped_and_use_no_budget() -> None:
    files = [("AGENTS.md", "   \n\n"), ("src/AGENTS.md", "x" * 10)]
    assert codex(files, 10) == [("dropped", 0, 5, 5), ("kept", 10, 0, 0)]


def test_a_head_that_is_only_whitespace_is_skipped_and_the_next_file_gets_the_budget() -> None:
    files = [("AGENTS.md", "    body"), ("src/AGENTS.md", "xyz")]
    assert codex(files, 4) == [("dropped", 0, 8, 8), ("kept", 3, 0, 0)]


def test_user_level_files_are_outside_the_project_budget() -> None:
    files = [RenderItem("~/.codex/AGENTS.md", "u" * 50, Tier.USER), RenderItem("AGENTS.md", "p" * 50)]
    result = fit_budget(files, 20, mode="root-first", style="agents-md")
    assert [(f.status, f.bytes_kept) for f in result.files] == [("kept", 50), ("truncated", 20)]
    assert result.counted_bytes == 20
    assert "u" * 50 + "\n\n--- project-doc ---\n\n" + "p" * 20 in result.payload


@settings(max_examples=200, deadline=None)
@given(
    files=st.lists(st.text(alphabet=st.sampled_from(["a", " ", "\n", "汉", "😀"]), max_size=60), max_size=5),
    limit=st.integers(min_value=0, max_value=200),
)
def test_codex_counted_bytes_never_exceed_the_limit(files: list[str], limit: int) -> None:
    items = [(f"{'d/' * i}AGENTS.md", text) for i, text in enumerate(files)]
    result = fit_budget(items, limit, mode="root-first", style="agents-md")
    assert result.counted_bytes <= limit
    statuses = [f.status for f in result.files]
    assert statuses.count("truncated") <= 1
    if "truncated" in statuses:  # the file that overshoots is the last one delivered
        after = statuses[statuses.index("truncated") + 1 :]
        assert all(s == "dropped" for s in after)
