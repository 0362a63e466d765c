"""An instruction file that jitctx sent and the model then edits, in the real Gemini CLI and Qwen Code.

Both clients' edit tools answer with the edited file's new lines: Gemini CLI 0.61.0's `replace` with
"Here is the updated code:" and the changed lines with five around them (the whole file when it is that
short), Qwen Code 0.24.4's `edit` with "Showing lines a-b of N from the edited file:" and four around
them. Where that result shows the whole new text, the model has it once, there, and jitctx sends no
"Updated contents" block after it; where it shows a window of a longer file, the new version goes out
from jitctx, once. The instruction files edited here are nested AGENTS.md files, which neither client
loads itself below the cwd: jitctx sent them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.e2e.clients import Clients
from tests.e2e.evidence import Delivery, deliveries
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import GEMINI_FILES, GeminiHarness, Outcome
from tests.e2e.qwen_code_harness import QWEN_FILES, QwenHarness, qwen_deliveries

pytestmark = pytest.mark.e2e

# The fixture's src/api/AGENTS.md (three lines) and the line the model changes in it.
SHORT = "src/api/AGENTS.md"
SHORT_OLD = "JX-API-AGENTS: handlers validate their input."
SHORT_NEW = "JX-API-EDITED: handlers validate every input."
# A long one, edited in the middle: neither client's result shows all of it.
LONG = "docs/AGENTS.md"
LONG_TEXT = "# Docs\n\n" + "".join(f"- JX-LONG-{i:02}: rule number {i}.\n" for i in range(44))
LONG_OLD = "- JX-LONG-22: rule number 22."
LONG_NEW = "- JX-LONG-CHANGED: rule number 22, changed."
EXTRA = {LONG: LONG_TEXT, "docs/guide.md": "# Guide\n"}
UPDATED = "Updated contents of "


WITH_GEMINI = {**GEMINI_FILES, **EXTRA}
WITH_QWEN = {**QWEN_FILES, **EXTRA}


class Gemini(GeminiHarness):
    files = WITH_GEMINI


class Qwen(QwenHarness):
    files = WITH_QWEN


def edit(root: Path, rel: str, old: str, new: str) -> Call:
    """Qwen Code's `edit`; Gemini CLI's `replace` takes the same arguments and an `instruction`."""
    return Call("edit", {"file_path": str(root / rel), "old_string": old, "new_string": new})


def read(root: Path, rel: str) -> Call:
    return Call("read_file", {"file_path": str(root / rel)})


def gemini_run(clients: Clients, tmp_path: Path, touch: str, rel: str, old: str, new: str) -> Outcome:
    """Gemini CLI: read_file `touch` (jitctx sends the nested AGENTS.md), then `replace` in it."""
    gemini = Gemini(clients, tmp_path)
    change = edit(gemini.root, rel, old, new)
    replace = Call("replace", {**change.args, "instruction": "Change one rule."})
    steps = [[read(gemini.root, touch)], [replace]]
    outcome = gemini.run("Fix the rules.", [Script(steps)])
    assert new in (gemini.root / rel).read_text(), outcome.diagnose()
    return outcome


def qwen_run(clients: Clients, tmp_path: Path, touch: str, rel: str, old: str, new: str) -> Outcome:
    """Qwen Code: read_file `touch` (jitctx sends the nested AGENTS.md), read_file the AGENTS.md itself
    (its `edit` refuses a file not read in the session), then `edit` it."""
    qwen = Qwen(clients, tmp_path)
    steps = [[read(qwen.root, touch)], [read(qwen.root, rel)], [edit(qwen.root, rel, old, new)]]
    outcome = qwen.run("Fix the rules.", [Script(steps)])
    assert new in (qwen.root / rel).read_text(), outcome.diagnose()
    return outcome


class Client(NamedTuple):
    run: Callable[[Clients, Path, str, str, str, str], Outcome]
    deliveries: Callable[[Mapping[str, Any], str], Sequence[Delivery]]
    reads_first: int  # how many copies of the instruction file the model read before its edit


RUNS = {"gemini-cli": Client(gemini_run, deliveries, 0), "qwen-code": Client(qwen_run, qwen_deliveries, 1)}


def texts(body: Mapping[str, Any]) -> list[str]:
    """Every text of a request, as the model reads it: Gemini's parts and its functionResponses' string
    values, a Chat Completions request's message contents."""
    found: list[str] = []
    for content in body.get("contents") or []:  # Gemini
        for part in content.get("parts") or []:
            response = part.get("functionResponse")
            values = (
                (response.get("response") or {}).values()
                if isinstance(response, dict)
                else [part.get("text")]
            )
            found += [value for value in values if isinstance(value, str)]
    for message in body.get("messages") or []:  # Qwen Code
        content = message.get("content")
        parts = content if isinstance(content, list) else [{"text": content}]
        found += [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return found


# Where one of jitctx's blocks ends: the next block, the end of Gemini's hook context, Qwen's own rules.
_BLOCK_END = re.compile(r"\n\n(?:Updated contents|Contents) of |</hook_context>|<system-reminder>")


def updated_blocks(body: Mapping[str, Any]) -> list[str]:
    """jitctx's "Updated contents" blocks in the request, each from its header to its end."""
    blocks = []
    for text in texts(body):
        for start in (m.start() for m in re.finditer(re.escape(UPDATED), text)):
            end = _BLOCK_END.search(text, start + len(UPDATED))
            blocks.append(text[start : end.start() if end else len(text)])
    return blocks


def count(body: Mapping[str, Any], text: str) -> int:
    return sum(one.count(text) for one in texts(body))


@pytest.mark.parametrize("agent", list(RUNS))
def test_a_short_instruction_file_edited_is_shown_once_by_the_edit_itself(
    clients: Clients, tmp_path: Path, agent: str
) -> None:
    """src/api/AGENTS.md arrives from jitctx after the read; the model edits one line of it. The edit's
    own result shows the whole new file (three lines): its new text reaches the model once, in that
    result, and jitctx sends no "Updated contents" block."""
    outcome = RUNS[agent].run(clients, tmp_path, "src/api/users.ts", SHORT, SHORT_OLD, SHORT_NEW)
    body = outcome.last()
    arrived = [str(d) for d in RUNS[agent].deliveries(body, "JX-API-AGENTS")]
    assert arrived and arrived[0].startswith("hook"), f"{arrived}\n{outcome.diagnose(body)}"
    edited = RUNS[agent].deliveries(body, "JX-API-EDITED")
    assert [d.route for d in edited] == ["tool-output"], f"{edited}\n{outcome.diagnose(body)}"
    assert count(body, SHORT_NEW) == 1 and updated_blocks(body) == [], outcome.diagnose(body)


@pytest.mark.parametrize("agent", list(RUNS))
def test_a_long_instruction_file_edited_in_the_middle_arrives_again_from_jitctx_once(
    clients: Clients, tmp_path: Path, agent: str
) -> None:
    """docs/AGENTS.md (46 lines) arrives from jitctx after a read in docs/; the model edits line 25. The
    edit's result shows only the lines around it, so the whole new version goes out from jitctx, once:
    the changed line in the result and in jitctx's block, a line far from it in the first copy and in
    the new version."""
    outcome = RUNS[agent].run(clients, tmp_path, "docs/guide.md", LONG, LONG_OLD, LONG_NEW)
    body = outcome.last()
    blocks = updated_blocks(body)
    assert len(blocks) == 1 and blocks[0].startswith(f"{UPDATED}{LONG} "), (
        f"{blocks}\n{outcome.diagnose(body)}"
    )
    new = LONG_TEXT.replace(LONG_OLD, LONG_NEW)
    assert new.strip() in blocks[0], blocks[0]
    # The changed line: in the edit's result and in jitctx's block; a line far from it: in the first
    # copy (and the model's own read of the file, in Qwen Code) and in jitctx's block.
    far = 2 + RUNS[agent].reads_first
    assert count(body, LONG_NEW) == 2 and count(body, "JX-LONG-43") == far, outcome.diagnose(body)
