"""The paths a client's evidence names, resolved as `os.path.realpath` does, within a bound per reading:
the model writes those paths (a Read's `file_path`), and the hook reads the evidence on every call."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients.claude_code.evidence import delivered
from jitctx.clients.kit.evidence_paths import PATH_MAX, PathResolver


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a/b/c").mkdir(parents=True)
    (tmp_path / "a/b/c/f.md").write_text("x")
    (tmp_path / "rel").symlink_to("a/b")
    (tmp_path / "abs").symlink_to(tmp_path / "a")
    (tmp_path / "a/up").symlink_to("..")
    (tmp_path / "chain").symlink_to("rel/c")
    (tmp_path / "dot").symlink_to(".")
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    return tmp_path


@pytest.mark.parametrize(
    "rel",
    ["a/b/c/f.md", "rel/c/f.md", "abs/b/../b/c", "a/up/a/up/rel", "chain/f.md", "dot/dot/dot/a/b",
     "rel/../x/missing/../../a", "missing/x/y", "a/b/c/f.md/..", "..", "dot/../../a", "a//b/./c/"],
)  # fmt: skip
def test_it_resolves_as_realpath_does(tree: Path, rel: str) -> None:
    path = f"{tree}/{rel}"
    assert PathResolver().real(path) == os.path.realpath(path)


def test_what_it_does_not_resolve_is_none(tree: Path) -> None:
    paths = PathResolver()
    assert paths.real(f"{tree}/loop1/x") is None  # a loop: no real path to take as evidence
    assert paths.real("relative/path") is None and paths.real(None) is None and paths.real("") is None
    assert paths.real("/a\0b") is None and paths.real("/a\udcff") is not None
    assert paths.real("/" + "a" * PATH_MAX) is None  # no file the client could have opened
    assert paths.real("/x\ud800") is None  # a lone surrogate: no name the OS takes
    assert PathResolver(lookups=3).real(f"{tree}/a/b/c/f.md") is None  # the budget is spent


def test_canonical_directories(tree: Path) -> None:
    paths = PathResolver()
    assert paths.is_canonical_dir(str(tree / "a/b"))
    for spelling in (f"{tree}/rel", f"{tree}/a/./b", f"{tree}/a/b/", f"{tree}//a/b", f"/{tree}/a/b"):
        assert not paths.is_canonical_dir(spelling)


def counted_lstat(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real_lstat: Callable[..., Any] = os.lstat

    def lstat(path: Any, *args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real_lstat(path, *args, **kwargs)

    monkeypatch.setattr(os, "lstat", lstat)
    return calls


def read_record(path: str) -> str:
    content = [{"type": "tool_use", "id": "t", "name": "Read", "input": {"file_path": path}}]
    return json.dumps({"type": "assistant", "message": {"content": content}}) + "\n"


def test_a_path_of_100000_parts_costs_no_look_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A model-written Read of a 100,000-part path: realpath looked up every part (seconds per call)."""
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(read_record("/" + "a/" * 100_000 + "x"))
    calls = counted_lstat(monkeypatch)
    seen = delivered(str(transcript))
    assert seen is not None and not seen.tracked and calls[0] == 0


def test_records_through_symlink_hops_cost_a_bounded_number_of_look_ups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two MiB of records whose paths hop a thousand times through a link to `.`: each link is followed
    once per reading, and the reading stops at its budget; the paths past it are no evidence."""
    (tmp_path / "l").symlink_to(".")
    transcript = tmp_path / "t.jsonl"
    records = [read_record(str(tmp_path) + "/l" * 1000 + f"/f{index}") for index in range(1000)]
    transcript.write_text("".join(records))
    calls = counted_lstat(monkeypatch)
    seen = delivered(str(transcript))
    assert seen is not None and seen.tracked and str(tmp_path / "f999") not in seen.tracked
    assert calls[0] < 1500  # realpath made about a million
