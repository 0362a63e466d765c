"""Before the write (DESIGN §2.11), with the real Claude Code, Codex and Qwen Code: the scripted model's
first call writes a new src/ui/New.tsx, whose rules (src/ui/CLAUDE.md, src/ui/AGENTS.md, Qwen's
src/ui/QWEN.md, and the two `.claude/rules` files scoped to `src/ui/**/*.tsx`) it has not seen. jitctx's
pre-tool hook denies that call once, the deny's reason carrying the rules; the model writes again, from a
request that holds them, and that write lands.

Each test asserts on the recorded request bodies: the request after the first call carries the reason
(the rules, "was not written"); the write that lands was issued from a request that held every rule; the
file has the model's content; each rule's text reached the model exactly once across the conversation
(the copy in the reason counts as its arrival), except where the client loads a file itself after the
landing write, which nothing can prevent (Claude Code 2.1.332, asserted and counted); and the hold costs
one model turn (the script's repeated write), no more.

What the model reads in place of the held call's result (the client's framing around jitctx's reason):

* Claude Code 2.1.332: `PreToolUse:Write hook error: jitctx held back this Write call: ...` (is_error).
* Claude Code 2.1.197: `jitctx held back this Write call: ...` (is_error).
* Codex 0.171.0: `Command blocked by PreToolUse hook: jitctx held back this apply_patch call: ...
  Command: *** Begin Patch ...` (the shell: `... this Bash call: ... Command: printf ...`).
* Qwen Code 0.24.4: `jitctx held back this write_file call: ...`, verbatim.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from jitctx.hook.touches import HOLD_MARK
from tests.e2e import clients as cl
from tests.e2e.evidence import Delivery, deliveries
from tests.e2e.fake_api import Call, Script, next_step
from tests.e2e.harness import FILES, ClaudeHarness, CodexHarness, Outcome
from tests.e2e.qwen_code_harness import QWEN_FILES, QwenHarness, qwen_deliveries

pytestmark = pytest.mark.e2e

NEW = "src/ui/New.tsx"
CONTENT = "export const New = () => null;\n"

# The fixture's own src/ui rules, and two more: src/ui/AGENTS.md (which only jitctx brings to Claude
# Code, and Codex does not load below its cwd) and a second rule scoped to the new file.
HOLD_FILES = {
    "src/ui/AGENTS.md": "# UI agents\n\nJX-UI-AGENTS: every component has a story.\n",
    ".claude/rules/ui.md": (
        '---\npaths: ["src/ui/**/*.tsx"]\n---\n\nJX-RULE-UI: export one component per file.\n'
    ),
}
CLAUDE_CODEX_FILES = {**FILES, **HOLD_FILES}
QWEN_HOLD_FILES = {**QWEN_FILES, **HOLD_FILES}
UI_MARKERS = ("JX-UI-CLAUDE", "JX-UI-AGENTS", "JX-RULE-COMPONENTS", "JX-RULE-UI")
QWEN_UI_MARKERS = (*UI_MARKERS, "JX-UI-QWEN")

Count = Callable[[Mapping[str, Any], str], list[Delivery]]


class HoldClaude(ClaudeHarness):
    files = CLAUDE_CODEX_FILES


class HoldCodex(CodexHarness):
    files = CLAUDE_CODEX_FILES


class HoldQwen(QwenHarness):
    files = QWEN_HOLD_FILES


# -- reading the requests -------------------------------------------------------------------------------


def result_of(body: Mapping[str, Any], call_id: str) -> str:
    """The text the model got back for the call `call_id`, in any of the three wire protocols."""
    for message in body.get("messages") or []:  # Anthropic Messages; Chat Completions
        if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
            return "".join(_texts(message.get("content")))
        for part in message.get("content") or [] if isinstance(message.get("content"), list) else []:
            if part.get("type") == "tool_result" and part.get("tool_use_id") == call_id:
                return "".join(_texts(part.get("content")))
    for item in body.get("input") or []:  # Responses
        if (
            item.get("type") in ("function_call_output", "custom_tool_call_output")
            and item.get("call_id") == call_id
        ):
            output = item.get("output")
            return output if isinstance(output, str) else json.dumps(output)
    raise AssertionError(f"no result for {call_id} in the request")


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    return [p["text"] for p in content or [] if isinstance(p, dict) and isinstance(p.get("text"), str)]


def by_step(outcome: Outcome, script: Script) -> dict[int, dict[str, Any]]:
    """The main thread's requests by the step the model answered them with (the last of each step)."""
    return {next_step(body, script): body for body in outcome.model.model_requests(script.name)}


def check_hold(
    outcome: Outcome,
    script: Script,
    call_id: str,
    markers: Sequence[str],
    count: Count,
    client_loads_after: Mapping[str, int] | None = None,
) -> str:
    """The assertions every client shares (module docstring); returns the held call's result text."""
    requests = outcome.model.model_requests(script.name)
    steps = by_step(outcome, script)
    # One turn more than without the hold: the script's repeated write, then its final answer.
    assert len(requests) == len(script.steps) + 1 and set(steps) == {0, 1, 2}, outcome.diagnose()
    first, second = steps[0], steps[1]
    for marker in markers:  # the first write was issued without its rules
        assert count(first, marker) == [], (marker, outcome.diagnose(first))
    held = result_of(second, call_id)
    assert HOLD_MARK in held and f"{NEW} was not written" in held, held
    for marker in markers:
        # The reason carried the rule, so the landing write came from a request that held it.
        assert marker in held, (marker, held)
        assert len(count(second, marker)) == 1, (marker, outcome.diagnose(second))
    last = outcome.last(script.name)
    extra = client_loads_after or {}
    for marker in markers:
        found = count(last, marker)
        assert len(found) == 1 + extra.get(marker, 0), (
            marker,
            [str(d) for d in found],
            outcome.diagnose(last),
        )
    # jitctx's record of the write that landed says its rules came before it.
    writes = [(w.get("path"), w.get("rules_before")) for w in written(outcome.state_dir)]
    assert writes == [(NEW, True)], (writes, outcome.diagnose())
    return held


def written(state_dir: Path) -> list[dict[str, Any]]:
    """The `writes` of every record in jitctx's event log."""
    return [
        write
        for log in sorted((state_dir / "events").glob("*.jsonl"))
        for line in log.read_text(encoding="utf-8").splitlines()
        for write in json.loads(line).get("writes") or []
    ]


# -- Claude Code ----------------------------------------------------------------------------------------


@pytest.fixture
def hold_claude(clients: cl.Clients, tmp_path: Path) -> HoldClaude:
    return HoldClaude(clients, tmp_path)


def test_claude_code_holds_a_new_file_once_then_writes_it(hold_claude: HoldClaude) -> None:
    """Claude Code, newest (2.1.332) and oldest supported (2.1.197) release. 2.1.332 loads the nested
    CLAUDE.md and the matching `.claude/rules` itself after a Write, once the landing Write ran: those
    three reach the model a second time, by the client's own load (nothing jitctx can prevent; the first,
    in the reason, came before the write). 2.1.197 loads nothing after a Write: each arrives once."""
    write = Call("Write", {"file_path": str(hold_claude.root / NEW), "content": CONTENT})
    script = Script([[write], [write]])
    outcome = hold_claude.run("Add a component.", [script])
    assert (hold_claude.root / NEW).read_text() == CONTENT, outcome.diagnose()
    wide = not hold_claude.clients.claude_version.startswith("2.1.197")
    after = {"JX-UI-CLAUDE": 1, "JX-RULE-COMPONENTS": 1, "JX-RULE-UI": 1} if wide else {}
    held = check_hold(outcome, script, "toolu_main_s0_0", UI_MARKERS, deliveries, after)
    prefix = "PreToolUse:Write hook error: " if wide else ""
    assert held.startswith(f"{prefix}{HOLD_MARK}Write call"), held[:200]
    last = outcome.last()
    for marker in UI_MARKERS:  # the first copy is the reason; a second, the client's own after the write
        routes = [d.route for d in deliveries(last, marker)]
        assert routes == ["tool-output", "client"][: 1 + after.get(marker, 0)], (marker, routes)


# -- Codex ----------------------------------------------------------------------------------------------

ADD_NEW = f"*** Begin Patch\n*** Add File: {NEW}\n+{CONTENT}*** End Patch\n"


@pytest.fixture
def hold_codex(clients: cl.Clients, tmp_path: Path) -> HoldCodex:
    return HoldCodex(clients, tmp_path)


@pytest.mark.parametrize(
    ("call", "tool"),
    [
        (Call("apply_patch", {"input": ADD_NEW}), "apply_patch"),
        (Call("shell", {"command": f"printf 'export const New = () => null;\\n' > {NEW}"}), "Bash"),
    ],
    ids=["apply_patch", "shell-redirect"],
)
def test_codex_holds_a_new_file_once_then_writes_it(hold_codex: HoldCodex, call: Call, tool: str) -> None:
    """Codex 0.171.0 (a patch, and `printf > FILE` in its exec_command): it loads nothing below its cwd,
    so each rule arrives once, in the reason."""
    script = Script([[call], [call]])
    outcome = hold_codex.run("Add a component.", [script])
    assert (hold_codex.root / NEW).read_text() == CONTENT, outcome.diagnose()
    held = check_hold(outcome, script, "call_main_s0_0", UI_MARKERS, deliveries)
    assert held.startswith(f"Command blocked by PreToolUse hook: {HOLD_MARK}{tool} call"), held[:200]
    assert ". Command: " in held  # Codex appends the blocked command
    for marker in UI_MARKERS:
        assert [d.route for d in deliveries(outcome.last(), marker)] == ["tool-output"], marker


# -- Qwen Code ------------------------------------------------------------------------------------------


@pytest.fixture
def hold_qwen(clients: cl.Clients, tmp_path: Path) -> HoldQwen:
    return HoldQwen(clients, tmp_path)


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("write_file", lambda root: {"file_path": str(root / NEW), "content": CONTENT}),
        (
            "run_shell_command",
            lambda root: {
                "command": f"printf 'export const New = () => null;\\n' > {NEW}",
                "description": "e2e",
            },
        ),
    ],
    ids=["write_file", "shell-redirect"],
)
def test_qwen_code_holds_a_new_file_once_then_writes_it(
    hold_qwen: HoldQwen, tool: str, arguments: Callable[[Path], dict[str, Any]]
) -> None:
    """Qwen Code 0.24.4: it loads no context file below its cwd and no `.claude/rules`, so each rule,
    src/ui/QWEN.md too, arrives once, in the reason (which it gives the model verbatim, as the `role:
    tool` message of the held call; `qwen_deliveries` names a `Contents of` block there PostToolUse's)."""
    call = Call(tool, arguments(hold_qwen.root))
    script = Script([[call], [call]])
    outcome = hold_qwen.run("Add a component.", [script])
    assert (hold_qwen.root / NEW).read_text() == CONTENT, outcome.diagnose()
    held = check_hold(outcome, script, "call_main_s0_0", QWEN_UI_MARKERS, qwen_deliveries)
    assert held.startswith(f"{HOLD_MARK}{tool} call"), held[:200]
