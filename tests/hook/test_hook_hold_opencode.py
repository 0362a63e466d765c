"""Before the write (DESIGN §2.11) in OpenCode: jitctx's plugin asks `jitctx hook opencode` about a call
that may write before it runs (`tool.execute.before`); the answer `{"decision": "deny", "reason": R}`
makes it throw `Error(R)`, which stops the call and gives the model R (1.18.33). The engine holds such a
write once; the plugin throws only for that answer, and lets the call run when the hook fails, answers
anything else or takes too long (run under node, as OpenCode runs the plugin under Bun)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients.opencode import plugin
from jitctx.clients.opencode.hooks import HOLD_TOOLS
from tests.hook import holds
from tests.hook.holds import decision_reason as reason

AGENT = "opencode"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return holds.project(tmp_path)


def event(root: Path, name: str, **fields: Any) -> dict[str, Any]:
    return holds.event(root, name, session="ses_1", **fields)


def before(root: Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """As the plugin sends it (jitctx_plugin.js, "tool.execute.before")."""
    return event(root, "tool.execute.before", tool_name=tool, tool_input=args, tool_use_id="call_1")


def write(root: Path) -> dict[str, Any]:
    return before(root, "write", {"filePath": str(root / "src/ui/New.tsx"), "content": "x\n"})


OPENCODE = holds.Hold(AGENT, lambda root: event(root, "session.start", source="startup"), write, reason)
start = OPENCODE.start


def test_a_write_into_a_scope_is_held_once_with_its_rules(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    OPENCODE.held_once(call_hook, root)
    (root / "src/ui/New.tsx").write_text("x\n")
    after = event(
        root,
        "tool.execute.after",
        tool_name="write",
        tool_input={"filePath": str(root / "src/ui/New.tsx"), "content": "x\n"},
        tool_use_id="call_2",
        tool_response={},
    )
    assert call_hook(AGENT, after, use_git=False) == {}  # nothing arrives a second time


def test_a_shell_write_is_held_too(root: Path, call_hook: Any) -> None:
    start(call_hook, root)
    shell = before(root, "bash", {"command": "printf 'x' > src/ui/New.tsx", "description": "write"})
    held = reason(call_hook(AGENT, shell, use_git=False))
    assert "bash call" in held and "Use design tokens." in held


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("read", {"filePath": "src/ui/Old.tsx"}),  # a read is never held
        ("bash", {"command": "cat src/ui/Old.tsx"}),  # nor a shell read
        ("write", {"filePath": "docs/more.txt", "content": "x"}),  # a write no rule governs
    ],
)
def test_anything_else_passes_at_once(root: Path, call_hook: Any, tool: str, args: dict[str, Any]) -> None:
    start(call_hook, root)
    assert call_hook(AGENT, before(root, tool, args), use_git=False) == {}


def test_the_hold_as_a_process(root: Path, run_hook_process: Any) -> None:
    OPENCODE.as_a_process(run_hook_process, root)


def test_the_plugin_asks_only_about_the_calls_that_may_write() -> None:
    """The write tools of its table and its shell, written into the plugin (its own matcher)."""
    from jitctx.clients.opencode.tools import TOOLS, WRITES
    from jitctx.touched.tools import ShellTool

    shells = {name for name, declared in TOOLS.items() if isinstance(declared, ShellTool)}
    assert set(HOLD_TOOLS) == WRITES | shells
    assert f"const HOLD_TOOLS = {json.dumps(list(HOLD_TOOLS))};" in plugin.render("jitctx hook opencode")


# -- the plugin's before-handler, under node ---------------------------------------------------------

NODE = shutil.which("node")
RUNNER = """
import {{ JitctxPlugin }} from {plugin};
const hooks = await JitctxPlugin({{ directory: {directory} }});
const results = [];
for (const tool of ["write", "read"]) {{
  const input = {{ tool, sessionID: "ses_1", callID: "call_1" }};
  const output = {{ args: {{ filePath: "src/ui/New.tsx", content: "x" }} }};
  const started = Date.now();
  try {{
    await hooks["tool.execute.before"](input, output);
    results.push({{ tool, thrown: null, ms: Date.now() - started }});
  }} catch (error) {{
    results.push({{ tool, thrown: String(error?.message ?? error), ms: Date.now() - started }});
  }}
}}
console.log(JSON.stringify(results));
"""
DENY = json.dumps({"decision": "deny", "reason": "jitctx held back this write call: RULES"})


def run_before(tmp_path: Path, script: str | None, timeout_ms: int = 10_000) -> list[dict[str, Any]]:
    """The rendered plugin's before-handler for a write and a read; `script` is the hook (None: the
    hook program does not exist). The hook logs what it was given to `payloads.jsonl`."""
    if NODE is None:
        pytest.skip("node is not on PATH")
    hook = tmp_path / "bin" / "jitctx"
    if script is not None:
        hook.parent.mkdir(parents=True, exist_ok=True)
        log = tmp_path / "payloads.jsonl"
        hook.write_text(f"#!/bin/sh\ncat >> {log}\necho >> {log}\n{script}")
        hook.chmod(0o755)
    text = plugin.render(f"{hook} hook opencode").replace("TIMEOUT_MS = 10000", f"TIMEOUT_MS = {timeout_ms}")
    module = tmp_path / "jitctx.mjs"
    module.write_text(text)
    runner = tmp_path / "run.mjs"
    runner.write_text(RUNNER.format(plugin=json.dumps(str(module)), directory=json.dumps(str(tmp_path))))
    done = subprocess.run([NODE, str(runner)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    results: list[dict[str, Any]] = json.loads(done.stdout)
    return results


def test_the_plugin_throws_the_reason_of_a_deny_and_asks_only_about_writes(tmp_path: Path) -> None:
    write_result, read_result = run_before(tmp_path, f"echo '{DENY}'\n")
    assert write_result["thrown"] == "jitctx held back this write call: RULES"
    assert read_result["thrown"] is None  # a read is not even asked about
    [sent] = [json.loads(line) for line in (tmp_path / "payloads.jsonl").read_text().splitlines() if line]
    assert sent == {
        "hook_event_name": "tool.execute.before",
        "session_id": "ses_1",
        "cwd": str(tmp_path),
        "tool_name": "write",
        "tool_input": {"filePath": "src/ui/New.tsx", "content": "x"},
        "tool_use_id": "call_1",
    }


@pytest.mark.parametrize(
    "script",
    [
        "echo '{}'\n",  # nothing to hold
        "exit 1\n",  # jitctx failed
        f"echo '{DENY}'\nexit 1\n",  # a deny, but the hook failed: not jitctx's answer
        "echo 'not json'\n",  # nonsense
        'echo \'{"decision": "deny"}\'\n',  # a deny without a reason
        json.dumps(
            {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}}
        ).join(["echo '", "'\n"]),  # another client's deny shape
        "sleep 5\n",  # too slow
        None,  # no such program
    ],
    ids=["empty", "failed", "deny-then-failed", "nonsense", "no-reason", "other-shape", "slow", "missing"],
)
def test_the_plugin_lets_the_call_run_unless_jitctx_denies_it(tmp_path: Path, script: str | None) -> None:
    results = run_before(tmp_path, script, timeout_ms=300)
    assert [r["thrown"] for r in results] == [None, None]
    assert results[0]["ms"] < 4000  # the slow one was cut off at the plugin's timeout


def test_doctor_asks_to_reinstall_a_plugin_that_does_not_hold_writes(
    install_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from jitctx.cli.main import main

    assert main(["install", AGENT]) == 0
    path = install_project / ".opencode/plugins/jitctx.js"
    text = path.read_text()
    start, end = text.index('    "tool.execute.before"'), text.index('    "tool.execute.after"')
    path.write_text(text[:start] + text[end:])  # the plugin of a release before the hold
    capsys.readouterr()
    main(["doctor", "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    [found] = [c for c in checks if (c["client"], c["check"]) == (AGENT, "plugin (project)")]
    assert found["status"] == "warn" and "does not hold back a write" in found["detail"]
    assert found["fix"] == "jitctx install opencode --scope project"
    assert main(["install", AGENT]) == 0 and '"tool.execute.before"' in path.read_text()
