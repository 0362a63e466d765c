"""The real Gemini CLI compressing its chat in a resumed session, with jitctx's hooks (PreCompress).

Gemini CLI 0.61.0 fires PreCompress before every model turn, compressing or not, and its answer reaches
no model. It compresses when the last reply reported a prompt of half its window (524,288 of 1,048,576
tokens) and the history holds a user prompt to split at: a headless run's only prompt shares its content
with the environment context, so it takes a resumed session (`-r latest -p ...`). It then asks for a
summary (two `:generateContent` calls), and its next request holds a fresh environment context (with the
root GEMINI.md), the summary, "Got it. Thanks for the additional context!", and everything from the
latest prompt on; what the earlier runs' tool results brought (jitctx's context, the client's own loads
after read_file) is gone, and no SessionStart fires. jitctx marks the session at PreCompress, and at the
next AfterTool its chat record shows the compression: that answer carries what the session held, once.

Here the first run reads src/api/users.ts (src/api/GEMINI.md from the client; src/api/AGENTS.md and the
src/api/** rule from jitctx) and cats tools/gen.py (tools/CLAUDE.md, tools/GEMINI.md and the **/*.py rule
from jitctx); jitctx sends the root CLAUDE.md and AGENTS.md and the pinned file at start. The resumed run
makes a call whose reply reports 600,000 tokens, then (after the compression) reads docs/notes.txt,
which brings nothing of its own, and answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clients as cl
from tests.e2e.evidence import deliveries, summary
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import GEMINI_FILES, GEMINI_MARKERS, GeminiHarness, Outcome

pytestmark = pytest.mark.e2e

PINNED = "JX-PINNED"
FILES = {
    **GEMINI_FILES,
    ".jitctx.toml": '[pin]\npaths = ["docs/pinned.md"]\n',
    "docs/pinned.md": "# Pinned\n\nJX-PINNED: name every public function in the changelog.\n",
    "docs/notes.txt": "Plain notes, under no instruction file.\n",
}
MARKERS = (*GEMINI_MARKERS, PINNED)
# Over half of Gemini CLI's window (`DEFAULT_COMPRESSION_TOKEN_THRESHOLD` 0.5 of 1,048,576 tokens).
HUGE = 600_000
ACKNOWLEDGEMENT = "Got it. Thanks for the additional context!"
RESENT = "(re-sent after compaction)"  # the reason jitctx's blocks name after a compaction
# The compression's summary calls (the model's turns are `:streamGenerateContent`).
SUMMARY_CALL = ":generateContent"
# What reached the model during the first run, after its tool calls: gone with the compression.
CLIENT_LOADED = "JX-API-GEMINI"  # the client's own load after read_file
SENT_DURING = (
    CLIENT_LOADED,
    "JX-API-AGENTS",
    "JX-RULE-API",
    "JX-TOOLS-CLAUDE",
    "JX-TOOLS-GEMINI",  # jitctx's: the client loads nothing after a shell command
    "JX-RULE-PYTHON",
)
# What jitctx sent at start, and again at the resume (the resumed history lost the first run's prompt).
SENT_AT_START = ("JX-ROOT-CLAUDE", "JX-ROOT-AGENTS", PINNED)
UNTOUCHED = ("JX-UI-GEMINI", "JX-UI-AGENTS", "JX-UI-CLAUDE", "JX-RULE-COMPONENTS")


class PinningGemini(GeminiHarness):
    files = FILES


@dataclass
class Compressed:
    """The two runs of one session: `first` (plain `-p`) and `resumed` (`-r latest`, which compresses)."""

    harness: PinningGemini
    first: Outcome
    resumed: Outcome

    @property
    def turns(self) -> list[dict[str, Any]]:
        """The resumed run's streamed turns, in order: [0] before the compression, [1:] after it."""
        return self.resumed.model.model_requests("again")

    def fail(self, body: dict[str, Any], what: str) -> str:
        return f"{what}\nwhat arrived, by marker:\n{summary(body, MARKERS)}\n{self.resumed.diagnose()}"

    def expect(
        self, body: dict[str, Any], marker: str, which: str, route: str | None, times: int = 1
    ) -> None:
        found = deliveries(body, marker)
        wanted = f"{times}x via {route or 'any route'}"
        got = [str(d) for d in found]
        assert len(found) == times and all(route in (None, d.route) for d in found), self.fail(
            body, f"{marker} in {which}: expected {wanted}, got {got}"
        )


def read(harness: GeminiHarness, rel: str) -> Call:
    return Call("read_file", {"file_path": str(harness.root / rel)})


def shell(command: str) -> Call:
    return Call("run_shell_command", {"command": command, "description": "e2e"})


def compress(clients: cl.Clients, tmp: Path, before: Callable[[GeminiHarness], Call]) -> Compressed:
    """The session: the first run, then the resumed one, whose call `before` reports HUGE tokens (Gemini
    CLI compresses before the next turn), then a read of docs/notes.txt, then a text."""
    gemini = PinningGemini(clients, tmp)
    first_steps = [[read(gemini, "src/api/users.ts")], [shell("cat tools/gen.py")]]
    first = gemini.run("First.", [Script(first_steps)])
    assert first.session_id, first.diagnose()
    again = Script([[before(gemini)], [read(gemini, "docs/notes.txt")]], name="again", tokens={0: HUGE})
    resumed = gemini.run("Again.", [again], "-r", "latest")
    assert resumed.session_id == first.session_id, resumed.diagnose()
    return Compressed(gemini, first, resumed)


def function_response(body: dict[str, Any], call_id: str) -> str:
    """The last functionResponse output of call `call_id` in a request (a resumed history repeats them)."""
    outputs = [
        json.dumps(part["functionResponse"].get("response"))
        for content in body.get("contents") or []
        for part in content.get("parts") or []
        if isinstance(part.get("functionResponse"), dict) and part["functionResponse"].get("id") == call_id
    ]
    assert outputs, f"no result of {call_id} in the request"
    return outputs[-1]


def compact_records(state_dir: Path) -> list[dict[str, Any]]:
    """jitctx's startup records with the `compact` signal: one per time it sent the session again."""
    records = [
        json.loads(line)
        for log in sorted((state_dir / "events").glob("*.jsonl"))
        for line in log.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    return [r for r in records if r.get("kind") == "startup" and "compact" in (r.get("signals") or [])]


@pytest.fixture(scope="module")
def session(clients: cl.Clients, tmp_path_factory: pytest.TempPathFactory) -> Compressed:
    return compress(clients, tmp_path_factory.mktemp("gemini-compaction"), lambda _: shell("echo one"))


def test_gemini_cli_compresses_in_the_resumed_run(session: Compressed) -> None:
    """The resumed run's requests: its first turn (which still holds the first run, replayed), the two
    summary calls, then the turns after the compression: the environment context, the summary and the
    client's acknowledgement, the resumed prompt on; the first run's calls are gone."""
    paths = [r.path.rsplit("/", 1)[-1] for r in session.resumed.model.requests]
    model = cl.GEMINI_MODEL
    stream = f"{model}:streamGenerateContent"
    assert paths == [stream, f"{model}{SUMMARY_CALL}", f"{model}{SUMMARY_CALL}", stream, stream], (
        session.resumed.diagnose()
    )
    before, *after = session.turns
    assert "call_main_s0_0" in json.dumps(before) and ACKNOWLEDGEMENT not in json.dumps(before)
    for body in after:
        text = json.dumps(body["contents"])
        assert ACKNOWLEDGEMENT in text and "call_main_s" not in text, session.fail(body, "not compressed")
        assert "call_again_s0_0" in text, session.fail(body, "the resumed run's own call was not kept")


def test_before_the_compression_nothing_is_sent_twice(session: Compressed) -> None:
    """Every turn before the compression (the first run's, the resumed run's first) holds each file at
    most once and nothing jitctx sent as after a compaction: PreCompress, which fired before each of
    them, marked the session, and the chat record proved at each AfterTool that nothing was compressed.
    The last of them holds everything of the first run once, by the route that brought it."""
    bodies = [*session.first.model.model_requests(), session.turns[0]]
    for index, body in enumerate(bodies):
        which = f"request {index} before the compression"
        assert RESENT not in json.dumps(body), session.fail(body, f"{which}: a re-send with no compression")
        for marker in MARKERS:
            assert len(deliveries(body, marker)) <= 1, session.fail(body, f"{which}: {marker} twice")
    last = session.turns[0]
    which = "the last request before the compression"
    for marker in (*SENT_DURING, *SENT_AT_START):
        session.expect(last, marker, which, "client" if marker == CLIENT_LOADED else "hook")
    session.expect(last, "JX-ROOT-GEMINI", which, "client")


def test_the_compression_dropped_what_the_first_run_brought(session: Compressed) -> None:
    """The first turn after the compression holds none of the first run's files; the root GEMINI.md is
    in the client's new environment context; the resumed prompt (with what jitctx sent at the resume) and
    the call made before the compression are kept, and that call's AfterTool answer was empty."""
    first_after = session.turns[1]
    which = "the first request after the compression"
    for marker in SENT_DURING:
        session.expect(first_after, marker, which, None, times=0)
    for marker in SENT_AT_START:
        session.expect(first_after, marker, which, "hook")
    session.expect(first_after, "JX-ROOT-GEMINI", which, "client")
    assert "<hook_context>" not in function_response(first_after, "call_again_s0_0"), session.fail(
        first_after, "the AfterTool before the compression carried something"
    )


def test_the_next_tool_call_brings_back_what_the_compression_dropped_once(session: Compressed) -> None:
    """The read of docs/notes.txt after the compression touches nothing new; jitctx's answer to it
    brings back every file of the first run, the client's own src/api/GEMINI.md too (it does not load it
    again in this process), each once, from that AfterTool; the root GEMINI.md only from the client;
    nothing of a folder never touched; and jitctx recorded one compaction."""
    last = session.turns[-1]
    which = "the request after the compression's next tool result"
    result = function_response(last, "call_again_s1_0")
    assert RESENT in result, session.fail(last, "the read after the compression carried nothing again")
    for marker in SENT_DURING:
        session.expect(last, marker, which, "hook")
        assert marker in result, session.fail(last, f"{marker} is not in the read's result")
    session.expect(last, "JX-ROOT-GEMINI", which, "client")
    for marker in UNTOUCHED:
        session.expect(last, marker, which, None, times=0)
    records = compact_records(session.harness.state_dir)
    assert len(records) == 1, f"jitctx sent the session again {len(records)} times: {records}"


def test_what_jitctx_sent_at_the_resume_is_kept_and_not_sent_again(session: Compressed) -> None:
    """The files jitctx sent at the resume are in the prompt the compression kept: after it, each is
    there once."""
    last = session.turns[-1]
    for marker in SENT_AT_START:
        session.expect(last, marker, "the request after the compression's next tool result", "hook")


def test_what_the_call_before_the_compression_brought_is_kept_and_not_sent_again(
    clients: cl.Clients, tmp_path: Path
) -> None:
    """The resumed run's call that reports the huge prompt reads src/ui/Footer.tsx: its result (with
    src/ui/GEMINI.md from the client, src/ui/AGENTS.md, src/ui/CLAUDE.md and the src/ui/**/*.tsx rule
    from jitctx) comes after the prompt the compression kept, so it stays; after the compression each of
    those files is there once."""
    kept = compress(clients, tmp_path, lambda gemini: read(gemini, "src/ui/Footer.tsx"))
    last = kept.turns[-1]
    which = "the request after the compression's next tool result"
    for marker in SENT_DURING:
        kept.expect(last, marker, which, "hook")
    kept.expect(last, "JX-UI-GEMINI", which, "client")
    for marker in ("JX-UI-AGENTS", "JX-UI-CLAUDE", "JX-RULE-COMPONENTS"):
        kept.expect(last, marker, which, "hook")
