"""Codex's evidence never claims a file was loaded unless Codex's own records say so: random rollouts made
of what an attacker writes (prompts, the model's calls and words, tool outputs, the text of a file jitctx
itself sends, messages shaped as Codex's but without its kinds) around Codex's own records. The due rule
that no Codex record delivered is never taken as delivered; what Codex's and jitctx's records delivered
is never forgotten. (A hook's context is Codex's record of some hook's output, and Codex does not say
which: one that is, whole, jitctx's blocks with their files' texts counts. See codex.evidence.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from jitctx.clients.codex.evidence import delivered
from tests.clients.codex.rollout_records import (
    compacted,
    dumps,
    hook_context,
    instructions,
    later,
    prompt,
    tool_output,
    world_state,
    write_rollout,
)
from tests.clients.test_evidence_properties import DUE, DUE_TEXT, SETTINGS, attacker_text, project


def codex_records(root: Path) -> st.SearchStrategy[str]:
    """One record an attacker writes the text of."""

    def said(text: str) -> str:
        item = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}
        return dumps({"timestamp": later(), "type": "response_item", "payload": item})

    def called(text: str) -> str:
        item = {
            "type": "function_call",
            "name": "exec_command",
            "call_id": "c",
            "arguments": json.dumps({"cmd": text}),
        }
        return dumps({"timestamp": later(), "type": "response_item", "payload": item})

    def unmarked(text: str) -> str:
        """A developer message as a hook's context, but without Codex's kinds."""
        record = json.loads(hook_context(text))
        del record["payload"]["internal_chat_message_metadata_passthrough"]
        return dumps(record)

    def as_user(text: str) -> str:
        """The text in a user message that says it is the user's (a typed prompt that imitates Codex)."""
        return prompt(
            f"# AGENTS.md instructions for {root / 'src/api'}\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>"
        )

    def quoted(text: str) -> str:
        """Codex's own records, quoted in a tool's output."""
        return tool_output(
            world_state(root / "src/api", text) + instructions(root / "src/api", text) + compacted()
        )

    text = attacker_text(root)
    makers = (prompt, tool_output, said, called, unmarked, as_user, quoted)
    return st.one_of(*(text.map(make) for make in makers))


@SETTINGS
@given(data=st.data())
def test_codex_evidence_claims_only_what_its_records_show(tmp_path: Path, data: st.DataObject) -> None:
    root = tmp_path / "proj"
    if not root.exists():
        project(tmp_path)
        (root / "AGENTS.md").write_text("root agents rules\n")
    # A file jitctx itself sends, whose text the attacker wrote (a quoted header, a fake frame, ...).
    notes = data.draw(attacker_text(root).filter(lambda t: t.strip() and not t.startswith("---")))
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs/NOTES.md").write_text(notes)
    own: list[Any] = [
        instructions(root, "root agents rules\n"),
        world_state(root, "root agents rules\n"),
        hook_context(f"Contents of docs/NOTES.md (session start):\n\n{notes.strip()}"),
    ]
    noise = data.draw(st.lists(codex_records(root), max_size=8))
    order = data.draw(st.permutations([*own, *noise]))
    seen = delivered(str(write_rollout(tmp_path / "rollout.jsonl", order)))
    assert seen is not None
    assert not seen.holds(str(root / DUE), DUE, DUE_TEXT)
    assert seen.holds(str(root / "AGENTS.md"), "AGENTS.md", "root agents rules")
    assert seen.holds(str(root / "docs/NOTES.md"), "docs/NOTES.md", notes)
