"""The fast reader (msgspec) gives exactly the figures of the exact reader (json), whatever the lines hold."""

from __future__ import annotations

import importlib
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jitctx.telemetry
from jitctx.telemetry import scan
from jitctx.telemetry.fast_read import scan_spans_fast
from jitctx.telemetry.log_reader import Span, make_filter, plan_spans
from jitctx.telemetry.scan import scan_spans, stats_from_log

SIDS = ["s-one", "s-two", "sub-3"]
TS = ["2026-08-07T23:59:59.000Z", "2026-08-08T00:00:00.500Z", "2026-08-08T09:30:00.000Z"]

# Values of every type a field can hold in a damaged or foreign log.
ODD = st.sampled_from([None, True, False, 0, 3, -1, 2.5, 1e300, "7", [], {}, [1], {"a": 1}])


def miss(draw: st.DrawFn) -> dict[str, object]:
    record: dict[str, object] = {
        "v": 1,
        "kind": "discovery",
        "ts": draw(st.sampled_from(TS)),
        "session_id": draw(st.sampled_from(SIDS)),
    }
    good = {
        "channel": st.sampled_from(["main", "subagent"]),
        "hit": st.booleans(),
        "elapsed_ms": st.sampled_from([0, 1, 0.5, 2.25, -0.0, 3]),
        "scope_skipped": st.integers(0, 4),
        "rules_scanned": st.integers(0, 4),
        "cumulative_bytes": st.integers(-1, 9000),
        "loaded": st.sampled_from([[], None, {}, ""]),
    }
    for key, values in good.items():
        if draw(st.booleans()):
            # Mostly a value of the right type; now and then one of any type.
            record[key] = draw(ODD if draw(st.integers(0, 7)) == 0 else values)
    if draw(st.integers(0, 9)) == 0:  # a field that is not the record's (either reader ignores it)
        record["extra"] = draw(ODD)
    if draw(st.integers(0, 9)) == 0:
        record["v"] = draw(st.sampled_from([2, True, 1.0, "1"]))
    return record


def other(draw: st.DrawFn) -> dict[str, object]:
    item = {
        "file_path": draw(st.sampled_from(["/p/CLAUDE.md", "/p/.claude/rules/a.md"])),
        "load_reason": draw(st.sampled_from(["session_start", "path_glob_match", "nested_traversal"])),
        "bytes": draw(st.one_of(st.integers(0, 5000), ODD)),
    }
    kind = draw(st.sampled_from(["startup", "discovery", "load", "skill", "nonsense"]))
    record: dict[str, object] = {
        "v": 1,
        "kind": kind,
        "ts": draw(st.sampled_from(TS)),
        "session_id": draw(st.sampled_from(SIDS)),
        "root": "/p",
        "cumulative_bytes": draw(st.integers(0, 9000)),
    }
    if kind == "load":
        record.update(item, source=draw(st.sampled_from(["jitctx", "claude-code"])))
    elif kind == "skill":  # a skill use: no loaded[], like a miss, but never one for the fast reader
        del record["cumulative_bytes"]
        record["skill"] = draw(st.one_of(st.sampled_from(["commit", "plugin:review"]), ODD))
        if draw(st.booleans()):
            record["path"] = draw(st.one_of(st.just(".claude/skills/commit/SKILL.md"), ODD))
        if draw(st.booleans()):
            record["loaded"] = []
    else:
        record["loaded"] = [item]
        record["hit"] = True
    return record


@st.composite
def line(draw: st.DrawFn) -> bytes:
    record = miss(draw) if draw(st.integers(0, 3)) else other(draw)
    text = json.dumps(record, separators=(",", ":"))
    damage = draw(st.integers(0, 20))
    if damage == 1:
        text = " " + text  # json's scanner refuses a leading space
    elif damage == 2:
        text += "  "
    elif damage == 3:
        text = text.replace('"elapsed_ms":', '"elapsed_ms":NaN,"x":', 1)
    elif damage == 4:
        text = text.replace('"ts":"', '"ts":"\\ud800', 1)  # a lone surrogate: json takes it
    elif damage == 5:
        text = text[: len(text) // 2]  # torn
    elif damage == 6:
        text = ""
    elif damage == 7:
        text = text.replace('"session_id":', '"session_id":"dup","session_id":', 1)
    elif damage == 8:
        text = text.replace('"kind"', '"k\\u0069nd"', 1)
    elif damage == 9:
        text = text.replace('"elapsed_ms":', '"elapsed_ms":1e400,"y":', 1)
    elif damage == 10:
        text = "[" + text + "]"
    elif damage == 11:
        text += " trailing"
    elif damage == 14 and text.endswith("}"):
        depth = draw(st.sampled_from([50, 990, 1200, 5000]))  # json's limit is near 1000
        text = text[:-1] + ',"x":' + "[" * depth + "]" * depth + "}"
    elif damage == 15 and text.endswith("}"):
        digits = draw(st.sampled_from([19, 21, 4301]))  # past int64; past Python's str->int limit
        field = draw(st.sampled_from(["x", "scope_skipped", "elapsed_ms"]))
        text = text[:-1] + f',"{field}":' + "9" * digits + "}"
    elif damage == 17:
        text = text.replace('"ts":"2026', '"ts":"x2026', 1)  # not the stored form of a time
    data = text.encode("utf-8", "surrogatepass")
    if damage == 12:
        data = data.replace(b"s-", b"s\xff-", 1)  # not UTF-8, in a field both readers decode
    elif damage == 13:
        data += b"\r"
    elif damage == 16 and data.endswith(b"}"):
        # not UTF-8 in a field the fast reader would not need (json refuses the whole line)
        data = data[:-1] + draw(
            st.sampled_from([b',"x":"\xff"}', b',"x\xc0\xaf":1}', b',"x":"\xed\xa0\x80"}'])
        )
    return data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(line(), max_size=40),
    final_newline=st.booleans(),
    since=st.sampled_from([None, datetime(2026, 8, 8, tzinfo=UTC)]),
    session=st.sampled_from([None, "s-", "sub"]),
)
def test_fast_and_exact_readers_agree(
    tmp_path: Path, lines: list[bytes], final_newline: bool, since: datetime | None, session: str | None
) -> None:
    path = tmp_path / "2026-08-08.jsonl"
    path.write_bytes(b"\n".join(lines) + (b"\n" if final_newline and lines else b""))
    span = [Span(str(path), 0, path.stat().st_size)]
    keep = make_filter(since, session)
    exact, exact_report = scan_spans(span, keep)
    fast, fast_report = scan_spans_fast(span, keep)
    # repr, not ==: 1 and 1.0 are equal but print differently in `stats --json`.
    assert repr(fast.result(fast_report, keep)) == repr(exact.result(exact_report, keep))
    assert vars(fast_report) == vars(exact_report)


def test_a_large_log_goes_the_fast_way(tmp_path: Path) -> None:
    """Nearly every line of a real log is a miss; those must not be parsed into dicts."""
    path = tmp_path / "2026-08-08.jsonl"
    misses = [
        {"v": 1, "kind": "discovery", "ts": TS[1], "session_id": "s", "hit": False, "loaded": []}
        for _ in range(50)
    ]
    hit = dict(misses[0], hit=True, loaded=[{"file_path": "/p/a.md", "load_reason": "x", "bytes": 3}])
    path.write_text("".join(json.dumps(r) + "\n" for r in [*misses, hit]), encoding="utf-8")
    calls = []
    original = scan_spans_fast.__globals__["read_block"]

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(args[0])
        return original(*args, **kwargs)

    scan_spans_fast.__globals__["read_block"] = counting
    try:
        accumulator, report = scan_spans_fast([Span(str(path), 0, path.stat().st_size)], make_filter())
    finally:
        scan_spans_fast.__globals__["read_block"] = original
    assert len(calls) == 1 and b'"hit": true' in calls[0]  # only the hit went through json
    assert accumulator.result(report).discoveries == 51 and accumulator.result(report).hits == 1


def test_the_corrupt_line_is_named_by_its_byte_offset(tmp_path: Path) -> None:
    good = json.dumps({"v": 1, "kind": "discovery", "ts": TS[1], "session_id": "s"}) + "\n"
    path = tmp_path / "2026-08-08.jsonl"
    path.write_bytes(good.encode() + b"\xff\xfe not json\n" + good.encode() + b"torn{\n")
    stats = stats_from_log(tmp_path)
    assert stats.window.corrupt == 2
    offset = len(good) + len(b"\xff\xfe not json\n") + len(good)
    assert stats.window.corrupt_at == (f"{path.name}@{len(good)}", f"{path.name}@{offset}")


def test_without_msgspec_stats_use_the_exact_reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = json.dumps({"v": 1, "kind": "discovery", "ts": TS[1], "session_id": "s", "elapsed_ms": 2}) + "\n"
    (tmp_path / "2026-08-08.jsonl").write_text(good * 3 + "torn{\n", encoding="utf-8")
    with_msgspec = stats_from_log(tmp_path)
    assert scan.scanner() is scan_spans_fast
    monkeypatch.setitem(sys.modules, "msgspec", None)  # import msgspec now raises ImportError
    monkeypatch.delitem(sys.modules, "jitctx.telemetry.fast_read")
    monkeypatch.delitem(sys.modules, "jitctx.telemetry.scan")
    monkeypatch.setattr(jitctx.telemetry, "scan", scan)  # put back after the test, like sys.modules
    without = importlib.import_module("jitctx.telemetry.scan")  # scan as imported without msgspec
    assert without.scanner() is without.scan_spans
    assert without.stats_from_log(tmp_path) == with_msgspec
    assert with_msgspec.discoveries == 3 and with_msgspec.window.corrupt == 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(line(), max_size=30), parts=st.integers(2, 5))
def test_a_log_cut_into_spans_gives_the_figures_of_one_pass(
    tmp_path: Path, lines: list[bytes], parts: int
) -> None:
    """What several processes do, in one: each group of spans read alone, then merged in log order."""
    path = tmp_path / "2026-08-08.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    keep = make_filter()
    whole, whole_report = scan_spans_fast([Span(str(path), 0, path.stat().st_size)], keep)
    pieces = [scan_spans_fast(group, keep) for group in plan_spans([path], parts)] or [scan_spans([], keep)]
    merged, report = pieces[0]
    for later, later_report in pieces[1:]:
        merged.merge(later)
        report.merge(later_report)
    assert repr(merged.result(report, keep)) == repr(whole.result(whole_report, keep))


@pytest.mark.parametrize(
    "tail",
    [
        b',"a":' + b"[" * 1000,  # nested past any parser's depth, unterminated
        b',"loaded":' + b"[" * 5000 + b"]" * 5000,
        b',"x":' + b"[" * 994 + b"]" * 994,  # json gives up near its recursion limit
        b',"x":"\xff"',  # not UTF-8 where the fast reader would not look
        b',"x\xc0\xaf":1',
        b',"x":"\xed\xa0\x80"',  # a surrogate encoded in UTF-8
        b',"x":' + b"1" * 4301,  # more digits than Python turns into an int
    ],
)
def test_lines_only_json_refuses_are_corrupt_for_both_readers(tmp_path: Path, tail: bytes) -> None:
    head = b'{"v":1,"kind":"discovery","ts":"2026-08-08T00:00:00.500Z","session_id":"s"'
    path = tmp_path / "2026-08-08.jsonl"
    path.write_bytes(head + tail + b"}\n" + head + b"}\n")
    span = [Span(str(path), 0, path.stat().st_size)]
    exact, exact_report = scan_spans(span, make_filter())
    fast, fast_report = scan_spans_fast(span, make_filter())
    assert repr(fast.result(fast_report)) == repr(exact.result(exact_report))
    assert vars(fast_report) == vars(exact_report)
    assert exact.result(exact_report).discoveries >= 1  # the good line after it still counts


def test_skill_lines_go_to_the_exact_reader(tmp_path: Path) -> None:
    """A skill use has no loaded[] either, but it is no miss: the fast reader must not take it for one."""
    path = tmp_path / "2026-08-08.jsonl"
    miss_line = {"v": 1, "kind": "discovery", "ts": TS[1], "session_id": "s", "loaded": []}
    used = {"v": 1, "kind": "skill", "ts": TS[2], "session_id": "s", "root": "/p", "skill": "commit"}
    path.write_text("".join(json.dumps(r) + "\n" for r in [miss_line, used, used]), encoding="utf-8")
    span = [Span(str(path), 0, path.stat().st_size)]
    fast, report = scan_spans_fast(span, make_filter())
    stats = fast.result(report)
    assert (stats.discoveries, [tuple(r) for r in stats.by_skill]) == (1, [("commit", 2, 1, "/p", None)])
    exact, exact_report = scan_spans(span, make_filter())
    assert repr(exact.result(exact_report)) == repr(stats)
