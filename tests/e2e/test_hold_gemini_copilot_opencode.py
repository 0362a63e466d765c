"""Before the write (DESIGN §2.11), in the real Gemini CLI, GitHub Copilot CLI and OpenCode, with the hooks
(OpenCode: the plugin) that `jitctx install` writes in the project scope, against a scripted model.

The model's first call writes a new file into `src/ui/`, whose folder files (src/ui/CLAUDE.md, and the
AGENTS.md and GEMINI.md of the fixtures that have them) and the `src/ui/**/*.tsx` rule the model has
not seen. jitctx's pre-tool hook denies that call once, its reason carrying those rules; the client
gives the reason to the model as the call's result, the scripted model writes again, and that call runs.
So, on the recorded requests: the request after the first call carries the reason (the rules, "was not
written"); the write that lands was asked for by a model that had the rules; the file holds the model's
content; every rule reached the model exactly once in the whole conversation (the reason is its
arrival), with one exception the client makes: Gemini CLI appends src/ui/GEMINI.md to the result of its
own write_file after the repeated write (its just-in-time load, which no hook can stop), so that file
arrives twice there; and the hold costs one model turn.

What the model reads for the deny (pinned below): Gemini CLI 0.61 a functionResponse `{"error": "Tool
execution blocked: R"}`, Copilot CLI 1.0.102 the tool result `Denied by preToolUse hook: R`, OpenCode
1.18.33 the tool result `R` itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clients as cl
from tests.e2e.copilot_cli_harness import CopilotHarness, copilot_deliveries
from tests.e2e.evidence import Delivery
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import GeminiHarness, Harness, Outcome
from tests.e2e.opencode_harness import OpenCodeHarness
from tests.e2e.opencode_harness import deliveries as opencode_deliveries

pytestmark = pytest.mark.e2e

TARGET = "src/ui/New.tsx"
CONTENT = "export const New = () => null; // JX-WRITTEN-BY-THE-MODEL\n"
FIRST_CALL = "call_main_s0_0"  # the id the fake gives the first call of the main script
NOT_WRITTEN = f"{TARGET} was not written"
HOLD_MARK = "jitctx held back this "


class Client:
    """How one client is driven and read: its harness, its write and shell tools, how its model sees a
    tool result, the markers of the rules that govern `src/ui/New.tsx` in its fixture."""

    def __init__(
        self,
        make: Callable[[cl.Clients, Path], Harness],
        write: Callable[[Path], Call],
        shell: Callable[[str], Call],
        result_of: Callable[[Mapping[str, Any], str], str],
        found: Callable[[Mapping[str, Any], str], Sequence[Delivery | str]],
        rules: Sequence[str],
        shown: str,
        client_reloads: Sequence[str] = (),
    ) -> None:
        self.make = make
        self.write = write
        self.shell = shell
        self.result_of = result_of
        self.found = found
        self.rules = rules
        self.shown = shown  # how the deny's result begins, for the model
        self.client_reloads = client_reloads  # rules the client loads itself after the repeated write


def gemini_result(body: Mapping[str, Any], call_id: str) -> str:
    """The functionResponse of a call, as the model reads it (its `response` object, as JSON)."""
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            response = part.get("functionResponse")
            if isinstance(response, dict) and response.get("id") == call_id:
                return json.dumps(response.get("response"), ensure_ascii=False)
    return ""


def gemini_found(body: Mapping[str, Any], marker: str) -> list[str]:
    """Where `marker` is in a Gemini request, by part. evidence.deliveries reads a functionResponse that
    is not an `output` as escaped JSON, where a marker after a line break follows the `n` of `\\n` and
    goes unseen: the deny's `error` is read as text here."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(marker)}(?![\w-])")
    found = []
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            response = part.get("functionResponse")
            if isinstance(response, dict):
                texts = [v for v in (response.get("response") or {}).values() if isinstance(v, str)]
                where = f"{response.get('name')} result"
            else:
                texts = [part["text"]] if isinstance(part.get("text"), str) else []
                where = f"{content.get('role')} text"
            found += [where for text in texts for _ in pattern.finditer(text)]
    return found


def chat_result(body: Mapping[str, Any], call_id: str) -> str:
    """The `role: tool` message answering a call in a Chat Completions request."""
    for message in body.get("messages") or []:
        if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
            content = message.get("content")
            if isinstance(content, str):
                return content
            return "".join(p.get("text", "") for p in content or [] if isinstance(p, dict))
    return ""


UI_FILES = ("JX-UI-CLAUDE", "JX-UI-AGENTS", "JX-UI-GEMINI", "JX-RULE-COMPONENTS")

CLIENTS: dict[str, Client] = {
    "gemini-cli": Client(
        GeminiHarness,
        lambda root: Call("write_file", {"file_path": str(root / TARGET), "content": CONTENT}),
        lambda command: Call("run_shell_command", {"command": command, "description": "e2e"}),
        gemini_result,
        gemini_found,
        UI_FILES,
        '{"error": "Tool execution blocked: ' + HOLD_MARK + "write_file call",
        client_reloads=("JX-UI-GEMINI",),
    ),
    "copilot-cli": Client(
        CopilotHarness,
        lambda root: Call("create", {"path": str(root / TARGET), "file_text": CONTENT}),
        lambda command: Call("bash", {"command": command, "description": "e2e"}),
        chat_result,
        copilot_deliveries,
        UI_FILES,
        f"Denied by preToolUse hook: {HOLD_MARK}create call",
    ),
    "opencode": Client(
        OpenCodeHarness,
        lambda root: Call("write", {"filePath": str(root / TARGET), "content": CONTENT}),
        lambda command: Call("bash", {"command": command, "description": "e2e"}),
        chat_result,
        opencode_deliveries,
        ("JX-UI-CLAUDE", "JX-RULE-COMPONENTS"),  # its fixture has no AGENTS.md or GEMINI.md in src/ui
        f"{HOLD_MARK}write call",
    ),
}


def run(
    clients: cl.Clients, tmp_path: Path, agent: str, first: Callable[[Path], Call]
) -> tuple[Outcome, Client, Path]:
    """The client with the scripted model: `first` (built for the fixture's root), then the same call
    again, then a final text. Returns the outcome, the client's table row and the fixture's root."""
    client = CLIENTS[agent]
    harness = client.make(clients, tmp_path)
    call = first(harness.root)
    outcome: Outcome = harness.run(f"Add {TARGET}.", [Script([[call], [call]])])  # type: ignore[attr-defined]
    return outcome, client, harness.root


def check_the_hold(outcome: Outcome, client: Client, root: Path, written: str) -> None:
    """The assertions every client shares."""
    requests = outcome.model.model_requests()
    # The first request, the one after the deny, the one after the write that ran: one turn more.
    assert len(requests) == 3, f"{len(requests)} model requests\n{outcome.diagnose()}"
    first, after_deny, after_write = requests
    denied = client.result_of(after_deny, FIRST_CALL)
    assert denied.startswith(client.shown), f"the deny as the model read it: {denied[:400]!r}"
    assert NOT_WRITTEN in denied, denied[:400]
    for marker in client.rules:
        assert marker not in json.dumps(first), f"{marker} before the first call\n{outcome.diagnose(first)}"
        assert marker in denied, f"{marker} not in the deny's reason: {denied[:2000]!r}"
    # The write that ran (the second call) was the answer to the request that carried the reason.
    assert "call_main_s1_0" not in json.dumps(after_deny) and "call_main_s1_0" in json.dumps(after_write)
    assert (root / TARGET).read_text() == written, outcome.diagnose()
    for marker in client.rules:
        found = client.found(after_write, marker)
        times = 2 if marker in client.client_reloads else 1
        assert len(found) == times, f"{marker}: {[str(d) for d in found]}\n{outcome.diagnose(after_write)}"


@pytest.mark.parametrize("agent", list(CLIENTS))
def test_a_first_write_into_a_folder_is_held_once_and_then_runs(
    clients: cl.Clients, tmp_path: Path, agent: str
) -> None:
    outcome, client, root = run(clients, tmp_path, agent, CLIENTS[agent].write)
    check_the_hold(outcome, client, root, CONTENT)
    after_write = outcome.model.model_requests()[-1]
    # The write that ran brought nothing more from jitctx: its result holds no rule of jitctx's.
    ran = client.result_of(after_write, "call_main_s1_0")
    assert HOLD_MARK not in ran and "JX-UI-CLAUDE" not in ran and "JX-RULE-COMPONENTS" not in ran, ran
    if client.client_reloads:  # Gemini CLI's own load after its write_file: the second copy is its own
        assert "--- Context from: " in ran and all(m in ran for m in client.client_reloads), ran


@pytest.mark.parametrize("agent", list(CLIENTS))
def test_a_shell_write_is_held_once_too(clients: cl.Clients, tmp_path: Path, agent: str) -> None:
    """`printf ... > src/ui/New.tsx` in the client's shell tool: held as the file tool's write is (the
    install's matcher, where the client has one, names the shell tool too)."""
    shell = CLIENTS[agent].shell
    outcome, client, root = run(
        clients, tmp_path, agent, lambda root: shell(f"printf 'x\\n' > {root / TARGET}")
    )
    requests = outcome.model.model_requests()
    assert len(requests) == 3, outcome.diagnose()
    denied = client.result_of(requests[1], FIRST_CALL)
    assert NOT_WRITTEN in denied and all(m in denied for m in client.rules), denied[:2000]
    assert (root / TARGET).read_text() == "x\n", outcome.diagnose()
    for marker in client.rules:  # a shell write: no client loads anything after it
        assert len(client.found(requests[-1], marker)) == 1, f"{marker}\n{outcome.diagnose(requests[-1])}"


# -- a broken jitctx never blocks a call -----------------------------------------------------------------

BROKEN = {
    # A jitctx too old to know the agent: argparse's usage error, exit 2 (Gemini CLI denies on it).
    "fails": "echo 'jitctx: error: invalid choice' >&2\nexit 2\n",
    "missing": None,  # gone from where the command names it: exit 127
}


@pytest.mark.parametrize(
    ("agent", "form", "broken", "blocked"),
    [
        ("gemini-cli", "fail-safe", "fails", None),
        ("gemini-cli", "fail-safe", "missing", None),
        ("copilot-cli", "fail-safe", "fails", None),
        ("copilot-cli", "fail-safe", "missing", None),
        # Without the fallback the client blocks: why these two clients get the fail-safe form. Gemini
        # CLI's BeforeAgent hook fails first, and the prompt never reaches the model.
        ("gemini-cli", "bare", "missing", "prompt"),
        ("copilot-cli", "exec", "fails", "call"),
    ],
)
def test_a_broken_jitctx_never_blocks_a_call(
    clients: cl.Clients, tmp_path: Path, agent: str, form: str, broken: str, blocked: str | None
) -> None:
    """Every hook command of the client's settings runs a jitctx at an absolute path (as a user-scope
    install from a virtualenv writes it) that fails or is gone; the model writes src/ui/New.tsx once."""
    from jitctx.clients import all_clients
    from jitctx.clients.kit.hook_command import fail_safe, guard

    harness = CLIENTS[agent].make(clients, tmp_path)
    program = tmp_path / "old-venv" / "bin" / "jitctx"
    script = BROKEN[broken]
    if script is not None:
        program.parent.mkdir(parents=True)
        program.write_text(f"#!/bin/sh\n{script}")
        program.chmod(0o755)
    invocation = f"{program} hook {agent}"
    command = {"fail-safe": fail_safe(invocation), "exec": guard(invocation), "bare": invocation}[form]
    path = all_clients.setup(agent).settings_path("project", str(harness.root), "", {})
    settings = json.loads(path.read_text())
    for groups in settings["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                handler["command"] = command
    path.write_text(json.dumps(settings, indent=2))
    call = CLIENTS[agent].write(harness.root)
    outcome: Outcome = harness.run(f"Add {TARGET}.", [Script([[call]])])  # type: ignore[attr-defined]
    requests = outcome.model.model_requests()
    if blocked is not None:
        assert not (harness.root / TARGET).exists(), outcome.diagnose()
        if blocked == "prompt":
            assert requests == [], outcome.diagnose()
        else:
            result = CLIENTS[agent].result_of(requests[-1], FIRST_CALL)
            assert "Denied by preToolUse hook" in result, f"{result}\n{outcome.diagnose()}"
        return
    result = CLIENTS[agent].result_of(requests[-1], FIRST_CALL)
    assert (harness.root / TARGET).read_text() == CONTENT, f"{result}\n{outcome.diagnose()}"
    assert len(requests) == 2 and "Denied" not in result and "blocked" not in result, result
