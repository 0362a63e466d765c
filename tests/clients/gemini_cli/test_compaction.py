"""Did Gemini CLI 0.61.0 compress its chat since a point of its chat record? Replayed on two recorded
sessions, at the points the hook sees: the record's end at each `PreCompress` (the mark), and the record
at the next `AfterTool` or `BeforeAgent`. One session compressed three times across resumes; in the
other the model answered with the client's own acknowledgement and a tool printed a forged rewrite line,
and nothing was compressed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from jitctx.clients.gemini_cli.compaction import ACKNOWLEDGEMENT, ENVIRONMENT_ID, compressed_since

PAYLOADS = Path(__file__).resolve().parents[1] / "payloads" / "gemini_cli"

# (record, [(mark, size at the next carrying event, compressed in between)]), from the runs' snapshots.
REPLAYS = [
    (
        "chat_three_compressions.jsonl",
        [
            (1413, 2100, False), (2805, 3428, False), (9557, 10252, False), (11057, 13813, True),
            (14626, 18002, True), (24860, 25547, False), (33542, 34237, False), (35044, 37796, True),
        ],
    ),
    (
        "chat_imitated_acknowledgement.jsonl",
        [(4078, 4549, False), (6052, 7078, False), (14899, 15372, False)],
    ),
]  # fmt: skip


@pytest.mark.parametrize(("name", "points"), REPLAYS)
def test_a_compression_shows_in_the_record_and_a_resume_or_an_imitation_does_not(
    tmp_path: Path, name: str, points: list[tuple[int, int, bool]]
) -> None:
    data = (PAYLOADS / name).read_bytes()
    record = tmp_path / "session.jsonl"
    for mark, size, compressed in points:
        record.write_bytes(data[:size])
        assert compressed_since(str(record), mark) is compressed, (mark, size)


def test_the_resume_rewrites_are_in_the_recording_and_look_like_a_compression() -> None:
    """The reason ids are compared: a resume writes the same shape again, with the ids it had."""
    data = (PAYLOADS / "chat_three_compressions.jsonl").read_bytes()
    rewrites = [line for line in data.splitlines() if line.startswith(b'{"$set":{"messages":[')]
    acknowledged = [line for line in rewrites if ACKNOWLEDGEMENT.encode() in line]
    assert len(acknowledged) > 3  # three compressions, and resumes repeating them


def _rewrite(reply_id: str, first_id: str = ENVIRONMENT_ID, extra: dict[str, object] | None = None) -> bytes:
    messages = [
        {"id": first_id, "timestamp": "t", "type": "user", "content": [{"text": "<session_context>"}]},
        {"id": "s", "timestamp": "t", "type": "user", "content": [{"text": "summary"}]},
        {
            "id": reply_id,
            "timestamp": "t",
            "type": "gemini",
            "content": [{"text": ACKNOWLEDGEMENT}],
            **(extra or {}),
        },
    ]
    return json.dumps({"$set": {"messages": messages}}, separators=(",", ":")).encode() + b"\n"


def test_only_the_shape_of_the_clients_own_rewrite_counts(tmp_path: Path) -> None:
    record = tmp_path / "session.jsonl"
    head = b'{"sessionId":"x","projectHash":"y"}\n'
    cases = {
        _rewrite("new-id"): True,
        _rewrite("new-id", first_id="random"): False,  # masking: the first entry is not the environment
        _rewrite("new-id", extra={"toolCalls": []}): False,  # a model message has other keys
        b'{"id":"m","type":"gemini","content":[{"text":"'
        + _rewrite("x")[:-1].replace(b'"', b'\\"')
        + b'"}]}\n': False,
    }
    for appended, expected in cases.items():
        record.write_bytes(head + appended)
        assert compressed_since(str(record), len(head)) is expected, appended[:60]


def test_what_cannot_be_told_is_none_and_no_record_is_false(tmp_path: Path) -> None:
    """No record says nothing (the event fires every turn: taking it for a compaction would resend the
    session each time); a record of a shape this reader does not know is no proof either way."""
    record = tmp_path / "session.jsonl"
    record.write_bytes(b'{"sessionId":"x"}\n')
    assert compressed_since(str(record), record.stat().st_size) is False
    assert compressed_since(str(record), record.stat().st_size + 10) is None  # shorter than the mark
    assert compressed_since(str(record), -1) is None  # the mark does not know where the record ended
    assert compressed_since(str(tmp_path / "missing.jsonl"), 0) is False
    assert compressed_since("relative.jsonl", 0) is False
    assert compressed_since(None, 0) is False
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    assert compressed_since(str(fifo), 0) is False  # never waits on a FIFO
    whole = tmp_path / "session-1.json"  # the whole-file record of another release
    whole.write_text('{"messages": []}')
    assert compressed_since(str(whole), 0) is None


@pytest.mark.parametrize(
    "line",
    [
        b'{"$set":{"lastUpdated":"t","messages":[{"id":"x"}]}}\n',  # the keys in another order
        b'{"$set": {"messages": [{"id": "x"}]}}\n',  # other spacing
        b'{"messages":[{"id":"x"}]}\n',  # another record kind naming the list
    ],
)
def test_a_rewrite_of_an_unknown_shape_is_no_proof(tmp_path: Path, line: bytes) -> None:
    record = tmp_path / "session.jsonl"
    head = b'{"sessionId":"x","projectHash":"y"}\n'
    record.write_bytes(head + line)
    assert compressed_since(str(record), len(head)) is None


def test_a_message_record_quoting_the_list_is_ordinary(tmp_path: Path) -> None:
    record = tmp_path / "session.jsonl"
    head = b'{"sessionId":"x","projectHash":"y"}\n'
    record.write_bytes(head + b'{"id":"m","type":"user","content":[{"text":"\\"messages\\": []"}]}\n')
    assert compressed_since(str(record), len(head)) is False


def test_many_rewrites_after_one_mark_prove_nothing(tmp_path: Path) -> None:
    record = tmp_path / "session.jsonl"
    head = b'{"sessionId":"x","projectHash":"y"}\n'
    rewrites = b"".join(_rewrite("old", first_id="masked") for _ in range(20))
    record.write_bytes(head + rewrites)
    assert compressed_since(str(record), len(head)) is None
