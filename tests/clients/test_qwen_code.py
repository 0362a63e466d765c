"""Qwen Code as a client: its payloads, what it loads by itself, install, doctor and its profile.

The payloads under `payloads/qwen_code/` are those Qwen Code 0.24.4 sent to a hook in a live run against
a scripted model (paths replaced by `{root}` and `{home}`); tests/e2e has the run itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.clients.kit.hook_command import unguard
from jitctx.hook.event import HOST_LOAD, PROMPT, START, TOOLS, HookError
from jitctx.hook.pipeline import respond

QWEN = all_clients.get("qwen-code")
PAYLOADS = Path(__file__).parent / "payloads" / "qwen_code"

FILES = {
    "QWEN.md": "root qwen rules\n",
    "AGENTS.md": "root agents rules\n",
    "CLAUDE.md": "root claude rules\n",
    ".qwen/QWEN.local.md": "local qwen rules\n",
    ".qwen/rules/ts.md": '---\npaths: ["src/**/*.ts"]\n---\nqwen ts rule\n',
    ".qwen/rules/always.md": "qwen baseline rule\n",
    ".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\npython rules\n',
    "src/ui/QWEN.md": "ui qwen rules\n",
    "src/ui/AGENTS.md": "ui agents rules\n",
    "src/ui/CLAUDE.md": "ui claude rules\n",
    "src/ui/Footer.tsx": "export const Footer = () => null;\n",
    "src/api/AGENTS.md": "api agents rules\n",
    "src/api/users.ts": "export const users = [];\n",
    "tools/CLAUDE.md": "tools claude rules\n",
    "tools/gen.py": "x = 1\n",
}
ROOT_OWN = ("root qwen rules", "root agents rules", "local qwen rules", "qwen baseline rule")


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / ".git").mkdir()
    return root


def payload(name: str, root: Path, home: Path | None = None) -> dict[str, Any]:
    """A captured payload, placed in this test's project (and home)."""
    text = (PAYLOADS / f"{name}.json").read_text(encoding="utf-8")
    text = text.replace("{root}", str(root)).replace("{home}", str(home or root.parent / "home"))
    data: dict[str, Any] = json.loads(text)
    data["session_id"] = "q1"  # the captures come from two runs; here they are one session
    return data


def answer(tmp_path: Path, event: dict[str, Any], home: Path | None = None, **environ: str) -> str:
    result = respond(
        QWEN,
        json.dumps(event),
        state_dir=str(tmp_path / "state"),
        home=str(home) if home else None,
        use_git=False,
        environ=environ,
    )
    if not result:
        return ""
    output = result["hookSpecificOutput"]
    assert output["hookEventName"] == event["hook_event_name"]
    text: str = output["additionalContext"]
    return text


def started(tmp_path: Path, root: Path, home: Path | None = None, **environ: str) -> str:
    return answer(tmp_path, payload("session_start", root), home, **environ)


def test_its_payloads_become_canonical_events(tmp_path: Path) -> None:
    root = project(tmp_path)
    read = QWEN.parse(payload("post_tool_use_read_file", root))
    assert (read.kind, read.channel, read.calls[0]["tool_name"]) == (TOOLS, "main", "read_file")
    assert QWEN.parse(payload("session_start", root)).kind == START
    prompt = QWEN.parse(payload("user_prompt_submit", root))
    assert (prompt.kind, prompt.prompt) == (PROMPT, "Do it.")
    assert QWEN.parse(payload("user_prompt_submit_next_turn", root)).prompt == ""
    sub = QWEN.parse(payload("post_tool_use_in_subagent", root))
    assert sub.channel == "general-purpose-call_main_s2_0"
    assert QWEN.parse(payload("instructions_loaded", root)).kind == HOST_LOAD


def test_subagent_start_is_not_answered(tmp_path: Path) -> None:
    """0.24.4 drops a SubagentStart answer before the sub-agent's model sees it: jitctx does not take the
    event, so it never counts files as sent to a sub-agent that did not get them."""
    root = project(tmp_path)
    with pytest.raises(HookError, match="unknown hook event 'SubagentStart' for qwen-code"):
        QWEN.parse(payload("subagent_start", root))
    assert "SubagentStart" not in {entry.event for entry in all_clients.setup("qwen-code").entries()}


def test_start_sends_what_it_does_not_load_itself(tmp_path: Path) -> None:
    root = project(tmp_path)
    start = started(tmp_path, root)
    assert "root claude rules" in start
    assert not any(own in start for own in ROOT_OWN)  # QWEN.md, AGENTS.md, QWEN.local.md, .qwen/rules
    assert "ui qwen rules" not in start and "python rules" not in start


def test_a_read_brings_every_nested_file_it_never_loads(tmp_path: Path) -> None:
    """read_file src/ui/Footer.tsx: Qwen Code loads nothing of src/ui/ itself, its own QWEN.md included."""
    root = project(tmp_path)
    started(tmp_path, root)
    text = answer(tmp_path, payload("post_tool_use_read_file", root))
    assert all(rules in text for rules in ("ui qwen rules", "ui agents rules", "ui claude rules"))
    assert "root claude rules" not in text and not any(own in text for own in ROOT_OWN)


def test_a_shell_read_brings_the_nested_files_and_the_rules_qwen_code_leaves_out(tmp_path: Path) -> None:
    """0.24.4 matches its scoped `.qwen/rules` against the paths of its file tools only
    (FS_PATH_TOOL_NAMES): after a shell read none arrives but jitctx's."""
    root = project(tmp_path)
    started(tmp_path, root)
    text = answer(tmp_path, payload("post_tool_use_shell", root))  # cat src/api/users.ts
    assert "api agents rules" in text
    assert "qwen ts rule" in text


def test_after_its_own_read_the_scoped_qwen_rule_is_its_own(tmp_path: Path) -> None:
    root = project(tmp_path)
    started(tmp_path, root)
    read = payload("post_tool_use_read_file", root)
    read["tool_input"] = {"file_path": str(root / "src/api/users.ts")}
    text = answer(tmp_path, read)
    assert "api agents rules" in text
    assert "qwen ts rule" not in text


def test_a_written_file_brings_its_directory_and_scoped_rules(tmp_path: Path) -> None:
    root = project(tmp_path)
    started(tmp_path, root)
    (root / "tools/made.py").write_text("X = 1\n", encoding="utf-8")
    text = answer(tmp_path, payload("post_tool_use_write_file", root))
    assert "tools claude rules" in text and "python rules" in text


def test_a_sub_agent_gets_the_root_files_in_its_own_channel(tmp_path: Path) -> None:
    """Its first tool call (with `agent_id`) brings the root CLAUDE.md the main thread already holds,
    and never what Qwen Code puts into the sub-agent's own system prompt."""
    root = project(tmp_path)
    started(tmp_path, root)
    text = answer(tmp_path, payload("post_tool_use_in_subagent", root))  # read_file src/api/users.ts
    assert "root claude rules" in text and "api agents rules" in text
    assert not any(own in text for own in ROOT_OWN)
    assert answer(tmp_path, payload("post_tool_use_in_subagent", root)) == ""  # held now


def test_the_empty_prompt_of_a_further_turn_brings_nothing(tmp_path: Path) -> None:
    root = project(tmp_path)
    started(tmp_path, root)
    assert answer(tmp_path, payload("user_prompt_submit_next_turn", root)) == ""


def test_its_own_loads_are_recorded_and_not_answered(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert answer(tmp_path, payload("instructions_loaded", root)) == ""
    lines = [
        json.loads(line)
        for log in (tmp_path / "state" / "events").glob("*.jsonl")
        for line in log.read_text().splitlines()
    ]
    loads = [record for record in lines if record.get("kind") == "load"]
    assert [record["file_path"] for record in loads] == [str(root / "AGENTS.md")], lines


def test_every_resume_sends_the_start_files_again(tmp_path: Path) -> None:
    """Qwen Code 0.24 keeps the SessionStart answer in the system prompt it rebuilds on each run: every
    resume gets the start files again, never what a tool call brought (the resumed history holds that)."""
    root = project(tmp_path)
    assert "root claude rules" in started(tmp_path, root)
    assert "ui claude rules" in answer(tmp_path, payload("post_tool_use_read_file", root))
    resume = {**payload("session_start", root), "source": "resume"}
    for _ in range(2):
        again = answer(tmp_path, resume)
        assert "root claude rules" in again and "ui claude rules" not in again
        assert not any(own in again for own in ROOT_OWN)


def test_context_file_name_replaces_its_own_names(tmp_path: Path) -> None:
    """`context.fileName: ["CONTEXT.md"]`: it no longer reads QWEN.md or AGENTS.md (jitctx sends them), and a
    nested CONTEXT.md, which it does not load either, arrives after a read."""
    root = project(tmp_path)
    (root / ".qwen/settings.json").write_text(
        '{\n  // JSON with comments, as Qwen Code reads it\n  "context": {"fileName": ["CONTEXT.md"]},\n}\n'
    )
    (root / "CONTEXT.md").write_text("root context rules\n")
    (root / "src/ui/CONTEXT.md").write_text("ui context rules\n")
    start = started(tmp_path, root)
    assert "root qwen rules" in start and "root agents rules" in start
    assert "root context rules" not in start
    assert "ui context rules" in answer(tmp_path, payload("post_tool_use_read_file", root))


def test_in_an_untrusted_folder_it_reads_no_project_file(tmp_path: Path) -> None:
    """With folder trust on and the folder not trusted, Qwen Code reads none of the project's files (and
    none of its settings): a user-scope hook gets them all from jitctx."""
    root = project(tmp_path)
    home = tmp_path / "home"
    (home / ".qwen").mkdir(parents=True)
    (home / ".qwen/settings.json").write_text('{"security": {"folderTrust": {"enabled": true}}}')
    (home / ".qwen/trustedFolders.json").write_text(json.dumps({str(root): "DO_NOT_TRUST"}))
    start = started(tmp_path, root, home)
    assert "root qwen rules" in start and "root agents rules" in start and "root claude rules" in start


def test_install_and_uninstall_in_both_scopes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("JITCTX_HOME", str(home))
    monkeypatch.delenv("QWEN_HOME", raising=False)
    assert main(["install", "qwen", "--root", str(root), "--json"]) == 0  # the alias installs qwen-code
    document = json.loads(capsys.readouterr().out)
    assert document["agent"] == "qwen-code"
    settings = json.loads((root / ".qwen/settings.json").read_text())
    assert set(settings["hooks"]) == {
        "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "InstructionsLoaded"
    }  # fmt: skip
    post = settings["hooks"]["PostToolUse"][0]
    assert (
        post["matcher"].split("|")[:2] == ["read_file", "write_file"]
        and "run_shell_command" in post["matcher"]
    )
    handler = post["hooks"][0]
    assert handler["timeout"] == 10 and unguard(handler["command"]).endswith("hook qwen-code")  # seconds
    assert main(["install", "qwen-code", "--scope", "user", "--root", str(root)]) == 0
    assert "folder trust" in capsys.readouterr().err.lower()  # the install note names the trust step
    user = json.loads((home / ".qwen/settings.json").read_text())
    assert "PostToolUse" in user["hooks"]
    assert main(["uninstall", "qwen-code", "--root", str(root)]) == 0
    assert not (root / ".qwen/settings.json").exists()  # jitctx created it, and it is empty again
    assert main(["uninstall", "qwen-code", "--scope", "user", "--root", str(root)]) == 0
    assert not (home / ".qwen/settings.json").exists()


def test_the_user_scope_follows_qwen_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    elsewhere = tmp_path / "qwen-home"
    assert (
        all_clients.setup("qwen-code").settings_path("user", "/p", str(home), {})
        == home / ".qwen/settings.json"
    )
    assert (
        all_clients.setup("qwen-code").settings_path("user", "/p", str(home), {"QWEN_HOME": str(elsewhere)})
        == elsewhere / "settings.json"
    )
    assert all_clients.setup("qwen-code").settings_path("project", "/p", str(home), {}) == Path(
        "/p/.qwen/settings.json"
    )


def doctor_checks(capsys: pytest.CaptureFixture[str], name: str) -> list[dict[str, Any]]:
    """Qwen Code's checks called `name` in `jitctx doctor --json`."""
    main(["doctor", "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    return [c for c in checks if c["client"] == "qwen-code" and c["check"] == name]


def trust(capsys: pytest.CaptureFixture[str]) -> str:
    (check,) = doctor_checks(capsys, "trust (folder)")
    status: str = check["status"]
    return status


def test_doctor_reads_trust_and_a_switch_that_turns_hooks_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path)
    home = tmp_path / "home"
    (home / ".qwen").mkdir(parents=True)
    for name, value in (("HOME", home), ("JITCTX_HOME", home), ("JITCTX_STATE_DIR", tmp_path / "state")):
        monkeypatch.setenv(name, str(value))
    monkeypatch.delenv("QWEN_HOME", raising=False)
    monkeypatch.delenv("QWEN_CODE_TRUSTED_FOLDERS_PATH", raising=False)
    monkeypatch.chdir(root)
    assert main(["install", "qwen-code"]) == 0
    capsys.readouterr()
    assert [c["status"] for c in doctor_checks(capsys, "hooks (project)")] == ["ok"]
    assert trust(capsys) == "ok"  # folder trust is off by default
    (home / ".qwen/settings.json").write_text('{"security": {"folderTrust": {"enabled": true}}}')
    assert trust(capsys) == "warn"  # never asked
    (home / ".qwen/trustedFolders.json").write_text(json.dumps({str(root): "DO_NOT_TRUST"}))
    assert trust(capsys) == "problem"
    (home / ".qwen/trustedFolders.json").write_text(json.dumps({str(root.parent / "x"): "TRUST_PARENT"}))
    assert trust(capsys) == "ok"
    settings = json.loads((root / ".qwen/settings.json").read_text())
    (root / ".qwen/settings.json").write_text(json.dumps({**settings, "disableAllHooks": True}))
    problems = [c for c in doctor_checks(capsys, "hooks (project)") if c["status"] == "problem"]
    assert len(problems) == 1 and "disableAllHooks" in problems[0]["detail"]


def test_its_profile_says_what_it_loads_itself(capsys: pytest.CaptureFixture[str]) -> None:
    profile = QWEN.profile()
    assert profile.name == "qwen-code" and profile.dir_files == ("QWEN.md", "AGENTS.md")
    assert not profile.native_jit  # it loads no context file below the cwd
    assert main(["profiles"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("qwen-code "))
    assert "QWEN.md" in row and ".qwen/rules" in row


def test_a_write_is_held_with_the_scoped_qwen_rule_it_would_bring_only_after_it_lands(tmp_path: Path) -> None:
    """Qwen Code adds a matching `.qwen/rules` file itself only after the write_file landed: the hold
    carries it before the write."""
    root = project(tmp_path)
    started(tmp_path, root)
    write = payload("post_tool_use_write_file", root)
    write.update(
        hook_event_name="PreToolUse", tool_input={"file_path": str(root / "src/api/new.ts"), "content": "x"}
    )
    write.pop("tool_response", None)
    result = respond(QWEN, json.dumps(write), state_dir=str(tmp_path / "state"), use_git=False, environ={})
    held = result["hookSpecificOutput"]["permissionDecisionReason"]
    assert "qwen ts rule" in held and "api agents rules" in held
