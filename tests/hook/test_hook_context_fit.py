"""The hook's text stays under the host's limit without ever cutting a path in half.

Past the 10,000-character limit the files that do not fit are named for the agent to read; with long
paths the list itself used to be cut mid-path (`- Read /repo/very/lo…`), naming a file that does not exist.
Now a note keeps whole lines only and counts the rest.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.hook.context import CONTEXT_LIMIT, dropped_notes, fit_context, fit_with_notes
from jitctx.model import InstructionFile, Load, LoadReason, Tier

ROOT = "/repo"


def load(display: str, text: str = "rule") -> Load:
    file = InstructionFile(
        path=f"{ROOT}/{display}", display=display, tier=Tier.PROJECT, text=text, size=len(text), mtime_ns=0
    )
    return Load(file=file, reason=LoadReason.NESTED_TRAVERSAL, trigger="src/a.ts")


def deep(index: int, length: int) -> str:
    return f"d{index}/" + "s/" * (length // 2) + "AGENTS.md"


def named(text: str) -> list[str]:
    """The paths the note tells the agent to read."""
    return [m.group(1) for m in re.finditer(r"^- Read (\S+) \(", text, re.MULTILINE)]


def more(text: str) -> int:
    found = re.search(r"^- \.\.\. and (\d+) more", text, re.MULTILINE)
    return int(found.group(1)) if found else 0


def test_long_paths_are_named_whole_or_counted() -> None:
    loads = [load(deep(i, 900), "z" * 20_000) for i in range(30)]
    fitted = fit_context(loads)
    assert len(fitted.text) <= CONTEXT_LIMIT
    paths = {item.file.path for item in loads}
    listed = named(fitted.text)
    assert listed and all(path in paths for path in listed)  # each one whole
    assert len(listed) + more(fitted.text) == len(loads)  # and none forgotten
    assert not fitted.text.endswith("…")


def test_a_path_longer_than_the_limit_is_counted_not_cut() -> None:
    fitted = fit_context([load(deep(0, 12_000), "z" * 20_000)])
    assert len(fitted.text) <= CONTEXT_LIMIT
    assert named(fitted.text) == [] and more(fitted.text) == 1


def test_dropped_notes_are_kept_whole_and_leave_room_for_files() -> None:
    gone = [deep(i, 3000) for i in range(10)]
    text = fit_with_notes([load("AGENTS.md", "keep me")], dropped_notes(gone))
    assert len(text) <= CONTEXT_LIMIT
    assert "keep me" in text  # the file still fits beside the notes
    for line in text.splitlines():
        if line.startswith("note: ") and " left this session" in line and "more" not in line:
            assert line.split("note: ", 1)[1].split(" left this session")[0] in gone
    assert re.search(r"note: \d+ more notes? left out", text)


@settings(max_examples=150, deadline=None)
@given(
    lengths=st.lists(st.integers(0, 6000), min_size=1, max_size=15),
    gone=st.lists(st.integers(0, 6000), max_size=12),
    limit=st.integers(2000, 20_000),
)
def test_no_path_is_ever_cut(lengths: list[int], gone: list[int], limit: int) -> None:
    loads = [load(deep(i, n), "w" * (n * 3)) for i, n in enumerate(lengths)]
    gone_paths = [deep(100 + i, n) for i, n in enumerate(gone)]
    text = fit_with_notes(loads, dropped_notes(gone_paths), limit)
    assert len(text) <= limit
    paths = {item.file.path for item in loads}
    assert all(path in paths for path in named(text))
    for line in text.splitlines():
        if line.startswith("note: ") and " left this session" in line and " more " not in line:
            assert line.split("note: ", 1)[1].split(" left this session")[0] in gone_paths
