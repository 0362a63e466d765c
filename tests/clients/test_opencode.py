"""OpenCode as a client: the payloads its jitctx plugin sends, what OpenCode loads by itself (and shows
it loaded), the plugin file install and uninstall write, the plugin's own behaviour (run under node),
doctor and the profile.

The payloads in payloads/opencode/ are those jitctx's plugin handed over in a live run of OpenCode
1.18.33 (tests/e2e has the run itself), with the project's path written as `{root}`."""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.clients.kit.settings_file import SettingsError
from jitctx.clients.opencode import plugin
from jitctx.clients.opencode.loading import host_profile
from jitctx.hook.event import START, SUBAGENT, TOOLS, HookError
from jitctx.hook.pipeline import respond
from jitctx.touched.calls import affected_paths

OPENCODE = all_clients.get("opencode")
PAYLOADS = Path(__file__).parent / "payloads" / "opencode"


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    files = {
        "AGENTS.md": "root agents rules\n",
        "CLAUDE.md": "root claude rules\n",
        "src/ui/CLAUDE.md": "ui claude rules\n",
        "src/ui/Footer.tsx": "x\n",
        "src/api/AGENTS.md": "api agents rules\n",
        "src/api/users.ts": "x\n",
        "tools/AGENTS.md": "tools agents rules\n",
        "tools/CLAUDE.md": "tools claude rules\n",
        "tools/gen.py": "x\n",
        ".claude/rules/api.md": '---\npaths: ["src/api/**"]\n---\napi rule\n',
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / ".git").mkdir()
    return root


def payload(name: str, root: Path, **changes: Any) -> dict[str, Any]:
    text = (PAYLOADS / f"{name}.json").read_text(encoding="utf-8").replace("{root}", str(root))
    return {**json.loads(text), **changes}


def answer(tmp_path: Path, event: dict[str, Any]) -> str:
    result = respond(OPENCODE, json.dumps(event), state_dir=str(tmp_path / "state"), home=None, use_git=False)
    if not result:
        return ""
    text: str = result["hookSpecificOutput"]["additionalContext"]
    return text


def test_its_payloads_become_canonical_events(tmp_path: Path) -> None:
    root = project(tmp_path)
    start = OPENCODE.parse(payload("session_start", root))
    assert (start.kind, start.source, start.cwd) == (START, "startup", str(root))
    read = OPENCODE.parse(payload("read", root))
    assert (read.kind, read.calls[0]["tool_name"]) == (TOOLS, "read")
    with pytest.raises(HookError, match="unknown hook event 'PostToolUse' for opencode"):
        OPENCODE.parse(payload("read", root, hook_event_name="PostToolUse"))


def test_at_start_jitctx_sends_the_root_claude_md_that_an_agents_md_hides(tmp_path: Path) -> None:
    """OpenCode loads the root AGENTS.md and, with it there, not the root CLAUDE.md."""
    root = project(tmp_path)
    text = answer(tmp_path, payload("session_start", root))
    assert "root claude rules" in text and "root agents rules" not in text


def test_after_its_read_only_what_it_did_not_attach_itself(tmp_path: Path) -> None:
    root = project(tmp_path)
    answer(tmp_path, payload("session_start", root))
    assert answer(tmp_path, payload("read", root)) == ""  # src/ui/CLAUDE.md came with the read
    shown = [str(root / "tools/AGENTS.md")]
    read_tools = payload("read", root, tool_input={"filePath": str(root / "tools/gen.py")})
    text = answer(tmp_path, {**read_tools, "tool_response": {"loaded": shown}})
    assert "tools claude rules" in text and "tools agents rules" not in text  # one file per folder


def test_a_file_it_was_expected_to_attach_but_did_not_show_is_sent(tmp_path: Path) -> None:
    """`loaded` is empty when OpenCode attached the file to another call of the message: jitctx sends it
    (a possible duplicate, never a lost rule)."""
    root = project(tmp_path)
    answer(tmp_path, payload("session_start", root))
    assert "ui claude rules" in answer(tmp_path, payload("read", root, tool_response={"loaded": []}))


def test_only_its_read_tools_own_list_shows_a_load(tmp_path: Path) -> None:
    """`loaded` is the read tool's metadata, never its output's text; another tool's list, and a path no
    file could have, show nothing."""
    root = project(tmp_path)
    follower = OPENCODE.follower(None, str(root))
    ui = str(root / "src/ui/CLAUDE.md")
    call = payload("read", root, tool_response={"loaded": [ui, "relative.md", "/" + "a/" * 50_000, 7]})
    assert follower.shown_loaded(call) == frozenset({ui})
    assert follower.shown_loaded({**call, "tool_name": "grep"}) == frozenset()
    assert follower.shown_loaded({**call, "tool_response": {"output": f"Instructions from: {ui}"}}) is None


def test_shell_write_and_edit_calls_get_everything_from_jitctx(tmp_path: Path) -> None:
    root = project(tmp_path)
    answer(tmp_path, payload("session_start", root))
    cat = answer(tmp_path, payload("bash_cat", root))
    assert "api agents rules" in cat and "api rule" in cat
    (root / "tools/made.py").write_text("X = 1\n")
    written = answer(tmp_path, payload("write", root))
    assert "tools agents rules" in written and "tools claude rules" in written
    assert answer(tmp_path, payload("edit", root)) == ""  # the same folder: sent once


def test_a_shell_workdir_places_the_command_s_paths(tmp_path: Path) -> None:
    root = project(tmp_path)
    answer(tmp_path, payload("session_start", root))
    assert "api agents rules" in answer(tmp_path, payload("bash_workdir", root))


def test_a_read_outside_the_folder_it_runs_in_is_not_followed(tmp_path: Path) -> None:
    """Started in src/api, its read walks no folder outside it: src/ui/CLAUDE.md is jitctx's to send."""
    root = project(tmp_path)
    cwd = str(root / "src/api")
    answer(tmp_path, payload("session_start", root, cwd=cwd))
    text = answer(tmp_path, payload("read", root, cwd=cwd, tool_response={}))
    assert "ui claude rules" in text


def test_a_sub_agent_is_a_channel_of_its_parent_with_a_start_of_its_own(tmp_path: Path) -> None:
    """A `task` child's events name the parent's session and the child as `agent_id`: its start brings
    what the parent's did (the root CLAUDE.md, not the AGENTS.md the child loads itself), and its
    touches are its own: a folder the parent was sent goes to the child too, once, and back."""
    root = project(tmp_path)
    parent = payload("session_start", root)["session_id"]
    start = OPENCODE.parse(payload("subagent_start", root, session_id=parent))
    child = start.channel
    assert (start.kind, start.session_id) == (SUBAGENT, parent) and child not in ("", "main", parent)
    answer(tmp_path, payload("session_start", root))
    assert "api agents rules" in answer(tmp_path, payload("bash_cat", root))
    text = answer(tmp_path, payload("subagent_start", root, session_id=parent))
    assert "root claude rules" in text and "root agents rules" not in text
    assert answer(tmp_path, payload("subagent_start", root, session_id=parent)) == ""  # started once
    as_child = {"session_id": parent, "agent_id": child}
    assert answer(tmp_path, payload("subagent_read", root, **as_child)) == ""  # its read attached it
    assert "api agents rules" in answer(tmp_path, payload("bash_cat", root, **as_child))
    assert answer(tmp_path, payload("bash_cat", root, **as_child)) == ""
    assert answer(tmp_path, payload("bash_cat", root)) == ""  # the parent's own copy still holds


def test_its_tool_table_reads_its_patch_and_list_tools() -> None:
    patch = "*** Begin Patch\n*** Add File: src/new.py\n+x\n*** End Patch\n"
    assert affected_paths("apply_patch", {"patchText": patch}, OPENCODE.tools()) == ("src/new.py",)
    assert affected_paths("list", {"path": "src"}, OPENCODE.tools()) == ("src",)
    assert affected_paths("read", {"filePath": "a"}, OPENCODE.tools()) == ("a",)


def test_host_profile_follows_its_startup_rule_per_name(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "src/api/CLAUDE.md").write_text("api claude\n")
    home = tmp_path / "home"
    assert host_profile(str(root), {}, None, str(root)).dir_files == ("AGENTS.md", "CLAUDE.md", "CONTEXT.md")
    (root / "AGENTS.md").unlink()
    # Started in src/api: AGENTS.md there wins over the root's CLAUDE.md, which OpenCode then leaves out.
    assert host_profile(str(root), {}, None, str(root / "src/api")).dir_files == ("AGENTS.md",)
    off = host_profile(str(root), {"OPENCODE_DISABLE_CLAUDE_CODE": "1"}, None, str(root))
    assert off.dir_files == ("AGENTS.md", "CONTEXT.md")
    no_project = {"OPENCODE_DISABLE_PROJECT_CONFIG": "true"}
    assert host_profile(str(root), no_project, None, str(root)).dir_files == ()
    (home / ".claude").mkdir(parents=True)
    (home / ".claude/CLAUDE.md").write_text("mine\n")
    assert host_profile(str(root), {}, str(home), None).user_files == (".claude/CLAUDE.md",)
    (home / ".config/opencode").mkdir(parents=True)
    (home / ".config/opencode/AGENTS.md").write_text("mine\n")
    assert host_profile(str(root), {}, str(home), None).user_files == (".config/opencode/AGENTS.md",)


def test_profile_is_its_own() -> None:
    profile = OPENCODE.profile()
    assert profile.name == "opencode" and profile.first_match_per_dir and not profile.rules_dirs


# -- install, uninstall, doctor ----------------------------------------------------------------------------


def test_install_writes_the_plugin_and_uninstall_takes_it_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path)
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    assert main(["install", "opencode", "--root", str(root), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    path = root / ".opencode/plugins/jitctx.js"
    assert document["settings_path"] == str(path) and document["changed"]
    text = path.read_text()
    assert plugin.is_ours(text) and plugin.command_of(text) == "jitctx hook opencode"
    assert "__JITCTX_COMMAND__" not in text
    assert main(["install", "opencode", "--root", str(root), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["changed"] is False  # twice changes nothing
    assert main(["uninstall", "opencode", "--root", str(root)]) == 0
    assert not (root / ".opencode").exists()  # jitctx made the folders, and they are empty again


def test_user_scope_goes_to_the_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("JITCTX_HOME", str(home))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert main(["install", "opencode", "--scope", "user", "--root", str(project(tmp_path))]) == 0
    assert plugin.is_ours((home / ".config/opencode/plugins/jitctx.js").read_text())
    xdg = tmp_path / "xdg"
    assert all_clients.setup("opencode").settings_path(
        "user", "/r", str(home), {"XDG_CONFIG_HOME": str(xdg)}
    ) == (xdg / "opencode/plugins/jitctx.js")


def test_a_plugin_file_that_is_not_ours_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path)
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    path = root / ".opencode/plugins/jitctx.js"
    path.parent.mkdir(parents=True)
    path.write_text("export const Mine = async () => ({});\n")
    assert main(["install", "opencode", "--root", str(root)]) == 2
    assert main(["uninstall", "opencode", "--root", str(root)]) == 2
    assert "is not jitctx's plugin" in capsys.readouterr().err
    assert path.read_text() == "export const Mine = async () => ({});\n"
    with pytest.raises(SettingsError):
        plugin.install_file(path, None, tmp_path / "state", False, ("tool.execute.after",))


def test_doctor_reads_the_plugin_and_its_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path)
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(root)

    def checks() -> dict[str, str]:
        main(["doctor", "--json"])
        found = json.loads(capsys.readouterr().out)["checks"]
        return {c["check"]: c["status"] for c in found if c["client"] == "opencode"}

    assert checks()["plugin"] == "skip"  # installed nowhere: one line, not a warning per scope
    assert main(["install", "opencode", "--command", f"{tmp_path}/bin/jitctx hook opencode"]) == 0
    capsys.readouterr()
    found = checks()
    assert found["plugin (project)"] == "ok" and found["command (project)"] == "problem"  # no such program
    assert "plugin (user)" not in found  # one scope is enough: the other is no warning
    assert main(["install", "opencode", "--scope", "user", "--command", "jitctx hook opencode"]) == 0
    capsys.readouterr()
    assert checks()["plugin"] == "warn"  # both: each runs the hook
    assert main(["uninstall", "opencode", "--scope", "user"]) == 0
    capsys.readouterr()
    path = root / ".opencode/plugins/jitctx.js"
    path.write_text(path.read_text().replace("TIMEOUT_MS = 10000", "TIMEOUT_MS = 5"))
    assert checks()["plugin (project)"] == "warn"  # another release's plugin
    monkeypatch.setenv("OPENCODE_PURE", "1")
    assert checks()["plugins"] == "problem"


# -- the plugin itself, under node (OpenCode runs it under Bun, which has the same child_process) -----------

NODE = shutil.which("node")
RUNNER = """
import {{ JitctxPlugin }} from {plugin};
const hooks = await JitctxPlugin({{ directory: {directory} }});
const output = {{ title: "t", output: "file text", metadata: {{ loaded: [] }} }};
const input = {{ tool: "read", sessionID: "s1", callID: "c1", args: {{ filePath: "a.py" }} }};
const started = Date.now();
await hooks["tool.execute.after"](input, output);
const system = ["base"];
await hooks.event({{ event: {{ type: "session.created", properties: {{ sessionID: "s1" }} }} }});
await hooks["experimental.chat.system.transform"]({{ sessionID: "s1" }}, {{ system }});
await hooks["experimental.chat.system.transform"]({{ sessionID: "s1" }}, {{ system }});
console.log(JSON.stringify({{ output: output.output, system, ms: Date.now() - started }}));
"""


def run_plugin(tmp_path: Path, script: str, timeout_ms: int = 10_000) -> dict[str, Any]:
    """The rendered plugin, its command a shell script, driven as OpenCode drives it."""
    if NODE is None:
        pytest.skip("node is not on PATH")
    hook = tmp_path / "bin" / "jitctx"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("#!/bin/sh\n" + textwrap.dedent(script))
    hook.chmod(0o755)
    text = plugin.render(f"{hook} hook opencode").replace("TIMEOUT_MS = 10000", f"TIMEOUT_MS = {timeout_ms}")
    module = tmp_path / "jitctx.mjs"
    module.write_text(text)
    runner = tmp_path / "run.mjs"
    runner.write_text(RUNNER.format(plugin=json.dumps(str(module)), directory=json.dumps(str(tmp_path))))
    done = subprocess.run([NODE, str(runner)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_plugin_appends_the_answer_and_keeps_the_start_context(tmp_path: Path) -> None:
    log = tmp_path / "payloads.jsonl"
    answer_text = json.dumps({"hookSpecificOutput": {"additionalContext": "RULES"}})
    result = run_plugin(tmp_path, f"cat >> {log}; echo >> {log}; echo '{answer_text}'\n")
    assert result["output"] == "file text\n\n<system-reminder>\nRULES\n</system-reminder>"
    assert result["system"] == ["base", "RULES", "RULES"]  # each request's system prompt gets it
    sent = [json.loads(line) for line in log.read_text().splitlines() if line]
    assert [p["hook_event_name"] for p in sent] == ["tool.execute.after", "session.start"]  # asked once
    assert sent[0]["tool_input"] == {"filePath": "a.py"} and sent[0]["tool_response"] == {"loaded": []}
    assert sent[1]["source"] == "startup"


@pytest.mark.parametrize(
    "script",
    [
        "exit 3\n",  # fails
        "echo 'not json'\n",  # answers nonsense
        'echo \'{"hookSpecificOutput": {"additionalContext": 5}}\'\n',  # the wrong shape
        "sleep 5\n",  # too slow
    ],
)
def test_a_failing_or_slow_hook_leaves_everything_as_it_was(tmp_path: Path, script: str) -> None:
    result = run_plugin(tmp_path, script, timeout_ms=300)
    assert result["output"] == "file text" and result["system"] == ["base"]
    assert result["ms"] < 4000  # the slow one was cut off at the plugin's timeout, not waited for


def test_a_missing_hook_program_leaves_everything_as_it_was(tmp_path: Path) -> None:
    if NODE is None:
        pytest.skip("node is not on PATH")
    module = tmp_path / "jitctx.mjs"
    module.write_text(plugin.render(f"{tmp_path}/nowhere/jitctx hook opencode"))
    runner = tmp_path / "run.mjs"
    runner.write_text(RUNNER.format(plugin=json.dumps(str(module)), directory=json.dumps(str(tmp_path))))
    done = subprocess.run([NODE, str(runner)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["output"] == "file text"


COMPACTING = """
import {{ JitctxPlugin }} from {plugin};
const hooks = await JitctxPlugin({{ directory: {directory} }});
const one = ["base"], two = ["base"];
await hooks.event({{ event: {{ type: "session.created", properties: {{ sessionID: "s1" }} }} }});
await hooks["experimental.chat.system.transform"]({{ sessionID: "s1" }}, {{ system: one }});
await hooks.event({{ event: {{ type: "session.compacted", properties: {{ sessionID: "s1" }} }} }});
await hooks["experimental.chat.system.transform"]({{ sessionID: "s1" }}, {{ system: two }});
console.log(JSON.stringify({{ one, two }}));
"""


def test_after_compaction_the_start_text_is_replaced_not_grown(tmp_path: Path) -> None:
    """The compact answer holds everything the session held, the start files too: each request's system
    prompt carries it once, not beside the start text it repeats."""
    if NODE is None:
        pytest.skip("node is not on PATH")
    hook = tmp_path / "jitctx"
    answer = '{"hookSpecificOutput": {"additionalContext": "%s"}}'
    hook.write_text(
        '#!/bin/sh\nif grep -q \'"source":"compact"\'; then echo \''
        + answer % "ALL HELD"
        + "'; else echo '"
        + answer % "START"
        + "'; fi\n"
    )
    hook.chmod(0o755)
    module = tmp_path / "jitctx.mjs"
    module.write_text(plugin.render(f"{hook} hook opencode"))
    runner = tmp_path / "run.mjs"
    runner.write_text(COMPACTING.format(plugin=json.dumps(str(module)), directory=json.dumps(str(tmp_path))))
    done = subprocess.run([NODE, str(runner)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"one": ["base", "START"], "two": ["base", "ALL HELD"]}


SUBAGENT_RUN = """
import {{ JitctxPlugin }} from {plugin};
const hooks = await JitctxPlugin({{ directory: {directory} }});
const created = (id, parentID) =>
  hooks.event({{ event: {{ type: "session.created", properties: {{ info: {{ id, parentID }} }} }} }});
const transform = (sessionID) =>
  hooks["experimental.chat.system.transform"]({{ sessionID }}, {{ system: [] }});
const read = (sessionID, callID) => hooks["tool.execute.after"](
  {{ tool: "read", sessionID, callID, args: {{ filePath: "a.py" }} }},
  {{ title: "t", output: "x", metadata: {{}} }},
);
await created("parent");
await transform("parent");
await created("child", "parent");
await transform("child");
await read("child", "c1");
await hooks["tool.execute.before"](
  {{ tool: "write", sessionID: "child", callID: "c2" }}, {{ args: {{ filePath: "b.py", content: "" }} }},
);
await hooks.event({{ event: {{ type: "session.compacted", properties: {{ sessionID: "child" }} }} }});
await transform("child");
await read("child", "c3");
await read("parent", "c4");
await created("grandchild", "child");
await read("grandchild", "c5");
"""


def test_the_plugin_hands_a_child_session_over_as_a_sub_agent_of_its_parent(tmp_path: Path) -> None:
    """`session.created` names the child's parent: the child's start is a `subagent.start` and its calls
    carry the parent's session id with its own as `agent_id`; after the child's compaction a fresh
    channel (`child#1`) starts again, and the parent's events stay its own; a child's child is a
    sub-agent of the top session too."""
    if NODE is None:
        pytest.skip("node is not on PATH")
    log = tmp_path / "payloads.jsonl"
    hook = tmp_path / "jitctx"
    hook.write_text(f"#!/bin/sh\ncat >> {log}; echo >> {log}; echo '{{}}'\n")
    hook.chmod(0o755)
    module = tmp_path / "jitctx.mjs"
    module.write_text(plugin.render(f"{hook} hook opencode"))
    runner = tmp_path / "run.mjs"
    runner.write_text(
        SUBAGENT_RUN.format(plugin=json.dumps(str(module)), directory=json.dumps(str(tmp_path)))
    )
    done = subprocess.run([NODE, str(runner)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    sent = [json.loads(line) for line in log.read_text().splitlines() if line]
    seen = [(p["hook_event_name"], p["session_id"], p.get("agent_id"), p.get("tool_use_id")) for p in sent]
    assert seen == [
        ("session.start", "parent", None, None),
        ("subagent.start", "parent", "child", None),
        ("tool.execute.after", "parent", "child", "c1"),
        ("tool.execute.before", "parent", "child", "c2"),
        ("subagent.start", "parent", "child#1", None),
        ("tool.execute.after", "parent", "child#1", "c3"),
        ("tool.execute.after", "parent", None, "c4"),
        ("tool.execute.after", "parent", "grandchild", "c5"),
    ]
