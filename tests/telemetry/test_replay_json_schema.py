"""`jitctx replay --json` validates against schemas/replay.json whatever the transcript lacks: a value the
transcript does not record (a timestamp, the API's usage) or that has no denominator (a hit rate without
discoveries, a ratio without a full load) is null, and the schema says so."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main

jsonschema = pytest.importorskip("jsonschema")

FIXTURE = Path(__file__).parent / "fixtures" / "session.jsonl"
PLACEHOLDER = "/home/dev/acme"


def without_times_or_usage(target: Path) -> Path:
    """The fixture as a client that records neither timestamps nor usage writes it."""
    lines = []
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            lines.append(line)  # the fixture's malformed line stays malformed
            continue
        record.pop("timestamp", None)
        if isinstance(record.get("message"), dict):
            record["message"].pop("usage", None)
        lines.append(json.dumps(record))
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def replay_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    main(["replay", *args, "--json"])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def errors(document: dict[str, Any]) -> list[str]:
    text = resources.files("jitctx").joinpath("schemas", "replay.json").read_text(encoding="utf-8")
    validator = jsonschema.Draft202012Validator(json.loads(text))
    found = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in found]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))


@pytest.mark.usefixtures("home")
def test_a_transcript_without_timestamps_or_usage_matches_the_schema(
    example_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = without_times_or_usage(tmp_path / "bare.jsonl")
    document = replay_json(capsys, "--root", str(example_copy), "--from-root", PLACEHOLDER, str(transcript))
    assert errors(document) == []
    (report,) = document["transcripts"]
    assert report["per_turn"] and all(t["timestamp"] is None for t in report["per_turn"])
    assert all(t["api_usage"] is None for t in report["per_turn"]) and report["api_usage"] is None
    assert report["hits"] == 6  # the replay itself is the fixture's, times or not


@pytest.mark.usefixtures("home")
def test_rates_without_a_denominator_are_null_and_match_the_schema(
    example_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prompt_only = tmp_path / "prompt.jsonl"
    prompt_only.write_text(
        json.dumps({"type": "user", "sessionId": "p", "message": {"role": "user", "content": "hi"}}) + "\n",
        encoding="utf-8",
    )
    document = replay_json(capsys, "--root", str(example_copy), str(prompt_only))
    assert errors(document) == []
    (report,) = document["transcripts"]
    assert (report["turns"], report["hit_rate"], report["totals"]["ratio"]) == (0, None, None)
    assert (document["totals"]["hit_rate"], document["totals"]["ratio"]) == (None, None)

    only_errors = replay_json(capsys, "--root", str(example_copy), str(tmp_path / "missing.jsonl"))
    assert only_errors["transcripts"] == [] and errors(only_errors) == []
