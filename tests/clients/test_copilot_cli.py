"""GitHub Copilot CLI as a client: its payloads, what it loads by itself, install, doctor, profile.

The payloads in payloads/copilot_cli/ are those Copilot CLI 1.0.102 sent to a hook in a live run against
the scripted model, in a project at CAPTURED_ROOT; each test moves them into a project of its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.clients.kit.hook_command import is_fail_safe, unguard
from jitctx.hook.event import BEFORE_TOOL, PROMPT, START, TOOLS, HookError
from jitctx.hook.pipeline import respond
from jitctx.touched.calls import affected_paths

COPILOT = all_clients.get("copilot-cli")
PAYLOADS = Path(__file__).parent / "payloads" / "copilot_cli"
CAPTURED_ROOT = "/tmp/copilot-capture/proj"

FILES = {
    "AGENTS.md": "root agents rules\n",
    "CLAUDE.md": "root claude rules\n",
    "CLAUDE.local.md": "root local rules\n",
    ".github/copilot-instructions.md": "repo copilot rules\n",
    ".github/instructions/ts.instructions.md": '---\napplyTo: "src/**/*.ts"\n---\nts rules\n',
    ".claude/rules/components.md": '---\npaths:\n  - "src/ui/**/*.tsx"\n---\ncomponent rules\n',
    ".claude/rules/python.md": '---\npaths:\n  - "**/*.py"\n---\npython rules\n',
    "src/ui/CLAUDE.md": "ui claude rules\n",
    "src/ui/AGENTS.md": "ui agents rules\n",
    "src/ui/Footer.tsx": "export const Footer = () => null;\n",
    "src/api/AGENTS.md": "api agents rules\n",
    "src/api/users.ts": "export const users: string[] = [];\n",
    "tools/CLAUDE.md": "tools claude rules\n",
    "tools/gen.py": "def main() -> None:\n    pass\n",
}


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / ".git").mkdir()
    return root


def captured(name: str, root: Path) -> dict[str, Any]:
    """A payload Copilot CLI sent, moved from the captured project into `root`."""
    text = (PAYLOADS / f"{name}.json").read_text(encoding="utf-8")
    payload: dict[str, Any] = json.loads(text.replace(CAPTURED_ROOT, str(root)))
    return payload


def answer(tmp_path: Path, payload: dict[str, Any]) -> str:
    result = respond(
        COPILOT, json.dumps(payload), state_dir=str(tmp_path / "state"), home=None, use_git=False
    )
    if not result:
        return ""
    assert set(result) == {"additionalContext"}, result  # top level, no hookSpecificOutput
    text: str = result["additionalContext"]
    return text


def started(tmp_path: Path, root: Path) -> str:
    return answer(tmp_path, captured("session_start", root))


# -- the dialect ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "tool", "touched"),
    [
        ("post_tool_use_view", "view", ["src/ui/Footer.tsx"]),
        ("post_tool_use_view_directory", "view", ["src/ui"]),
        ("post_tool_use_create", "create", ["tools/new.py"]),
        ("post_tool_use_edit", "edit", ["tools/gen.py"]),
        ("post_tool_use_bash", "bash", ["src/api/users.ts"]),  # `cat src/api/users.ts`
        ("post_tool_use_glob", "glob", ["src"]),
        ("post_tool_use_grep", "grep", ["src/api"]),
        ("post_tool_use_rg", "rg", ["src/api"]),
        ("post_tool_use_apply_patch", "apply_patch", ["src/api/extra.ts"]),
    ],
)
def test_each_captured_tool_payload_maps_to_the_paths_it_touched(
    tmp_path: Path, name: str, tool: str, touched: list[str]
) -> None:
    root = project(tmp_path)
    payload = captured(name, root)
    event = COPILOT.parse(payload)
    assert (event.kind, event.name, event.session_id, event.cwd) == (
        TOOLS,
        "postToolUse",
        payload["sessionId"],
        str(root),
    )
    call = event.calls[0]
    assert call["tool_name"] == tool  # its own name, read by its own tool table
    found = [p.removeprefix(f"{root}/") for p in affected_paths(tool, call["tool_input"], COPILOT.tools())]
    assert found == touched


def test_the_freeform_patch_arrives_as_text_and_becomes_the_patch_input(tmp_path: Path) -> None:
    payload = captured("post_tool_use_apply_patch", project(tmp_path))
    assert isinstance(payload["toolArgs"], str) and payload["toolArgs"].startswith("*** Begin Patch")
    assert COPILOT.parse(payload).calls[0]["tool_input"] == {"input": payload["toolArgs"]}


def test_tool_args_as_a_json_string_are_decoded(tmp_path: Path) -> None:
    """toolArgs as a JSON string (as earlier releases are described to send it) reads the same."""
    root = project(tmp_path)
    payload = captured("post_tool_use_view", root)
    payload["toolArgs"] = json.dumps(payload["toolArgs"])
    assert COPILOT.parse(payload).calls[0]["tool_input"] == {"path": f"{root}/src/ui/Footer.tsx"}


def test_session_start_and_prompt_payloads(tmp_path: Path) -> None:
    root = project(tmp_path)
    start = COPILOT.parse(captured("session_start", root))
    assert (start.kind, start.name, start.source) == (START, "sessionStart", "startup")  # "new"
    resumed = COPILOT.parse({**captured("session_start", root), "source": "resume"})
    assert resumed.source == "resume"
    prompt = COPILOT.parse(captured("user_prompt_submitted", root))
    assert (prompt.kind, prompt.name, prompt.prompt) == (PROMPT, "userPromptSubmitted", "Tidy the UI.")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"toolResult": None, "toolArgs": None, "toolName": None}, "not a Copilot CLI"),  # fields removed
        ({"toolArgs": 3}, "toolArgs is a int"),
        ({"cwd": "relative/dir"}, "not an existing absolute directory"),
        ({"sessionId": ""}, "no 'session_id' string"),
        ({"toolName": 7}, "no 'tool_name' string"),
    ],
)
def test_a_payload_it_cannot_read_is_a_clear_hook_error(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    payload = {**captured("post_tool_use_view", project(tmp_path)), **change}
    payload = {key: value for key, value in payload.items() if value is not None}
    with pytest.raises(HookError, match=message):
        COPILOT.parse(payload)


def test_a_pre_tool_use_payload_is_not_taken_for_a_post_tool_use(tmp_path: Path) -> None:
    """preToolUse carries toolName and toolArgs but no result (and, like every payload, no event name):
    it is the call before it runs."""
    payload = captured("post_tool_use_view", project(tmp_path))
    del payload["toolResult"]
    event = COPILOT.parse(payload)
    assert (event.name, event.kind) == ("preToolUse", BEFORE_TOOL)
    assert event.calls[0]["tool_name"] == "view" and "tool_response" not in event.calls[0]


def test_render_is_a_top_level_additional_context() -> None:
    assert COPILOT.render("postToolUse", "text") == {"additionalContext": "text"}
    assert COPILOT.render("postToolUse", "") == {}


# -- what it loads itself, and what jitctx adds --------------------------------------------------------


def test_at_start_jitctx_adds_only_what_the_client_does_not_read(tmp_path: Path) -> None:
    root = project(tmp_path)
    start = started(tmp_path, root)
    assert "root local rules" in start  # CLAUDE.local.md: not read by Copilot CLI
    for own in ("root agents rules", "root claude rules", "repo copilot rules"):
        assert own not in start


def test_a_file_its_own_file_imports_is_its_own_too(tmp_path: Path) -> None:
    """1.0.102 inlines `@path` imports of the files it loads (`<imported_custom_instruction>`)."""
    root = project(tmp_path)
    (root / "docs").mkdir()
    (root / "docs/RELEASE.md").write_text("release rules\n", encoding="utf-8")
    (root / "CLAUDE.md").write_text("root claude rules, see @docs/RELEASE.md\n", encoding="utf-8")
    assert "release rules" not in started(tmp_path, root)


def test_a_resume_sends_the_start_files_again_once(tmp_path: Path) -> None:
    """A resumed conversation has lost the first start's context (1.0.102): the first resume sends it
    again, a later one does not."""
    root = project(tmp_path)
    assert "root local rules" in started(tmp_path, root)
    resume = {**captured("session_start", root), "source": "resume"}
    assert "root local rules" in answer(tmp_path, resume)
    assert answer(tmp_path, resume) == ""


def test_after_its_own_view_of_a_file_nothing_is_sent(tmp_path: Path) -> None:
    root = project(tmp_path)
    started(tmp_path, root)
    assert answer(tmp_path, captured("post_tool_use_view", root)) == ""


def test_a_view_of_a_directory_is_not_followed(tmp_path: Path) -> None:
    root = project(tmp_path)
    started(tmp_path, root)
    text = answer(tmp_path, captured("post_tool_use_view_directory", root))
    assert "ui claude rules" in text and "ui agents rules" in text


def test_a_shell_read_sends_the_nested_files_and_matching_rules(tmp_path: Path) -> None:
    root = project(tmp_path)
    started(tmp_path, root)
    text = answer(tmp_path, captured("post_tool_use_bash", root))
    assert "api agents rules" in text and "ts rules" in text


def test_a_new_file_sends_its_folder_and_rule_once(tmp_path: Path) -> None:
    root = project(tmp_path)
    started(tmp_path, root)
    (root / "tools/new.py").write_text("X = 1\n", encoding="utf-8")
    text = answer(tmp_path, captured("post_tool_use_create", root))
    assert "tools claude rules" in text and "python rules" in text
    assert answer(tmp_path, captured("post_tool_use_edit", root)) == ""  # same folder, already sent


WHOLE = [
    pytest.param("all rules\n", id="no-frontmatter"),
    pytest.param("---\ndescription: every file\n---\nall rules\n", id="no-applyTo"),
    pytest.param('---\napplyTo: "**"\n---\nall rules\n', id="applyTo-**"),
    pytest.param('---\napplyTo: "**/*"\n---\nall rules\n', id="applyTo-**/*"),
    pytest.param("---\napplyTo: '*'\n---\nall rules\n", id="applyTo-*"),
]


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    assert main(list(argv)) in (0, 1)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("text", WHOLE)
def test_an_instruction_without_a_scope_or_for_every_file_is_read_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """1.0.102 pastes a `.github/instructions` file with no `applyTo`, or `applyTo` `**`, `**/*` or `*`,
    whole into the first request, as the README says: `rules`, `startup` and `explain` say so too, and
    the hook leaves it to the client, at start and after a call it does not follow (a create). VS Code's
    Copilot (the `copilot` format profile) applies one without `applyTo` only when asked."""
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    root = project(tmp_path)
    rule = ".github/instructions/all.instructions.md"
    (root / rule).write_text(text, encoding="utf-8")
    where = ("--root", str(root), "--agent", "copilot-cli")
    rows = {row["path"]: row for row in _json(capsys, "rules", *where, "--json")["rules"]}
    [reading] = rows[rule]["agents"]
    assert (reading["when"], reading["on"]) == ("start", [])
    start = _json(capsys, "startup", *where, "--no-git", "--json")
    [load] = [load for load in start["loaded"] if load["path"] == rule]
    assert (load["reason"], load["route"]) == ("session_start", "client")
    verdicts = _json(capsys, "explain", "tools/gen.py", *where, "--no-git", "--json")["verdicts"]
    [verdict] = [v for v in verdicts if v["path"] == rule]
    assert (verdict["loads"], verdict["kind"], verdict["route"]) == (True, "startup", "client")
    assert "all rules" not in started(tmp_path, root)
    (root / "tools/new.py").write_text("X = 1\n", encoding="utf-8")
    assert "all rules" not in answer(tmp_path, captured("post_tool_use_create", root))
    if "applyTo" not in text:
        rows = {row["path"]: row for row in _json(capsys, "rules", "--root", str(root), "--json")["rules"]}
        [vscode] = [r for r in rows[rule]["agents"] if r["agent"] == "copilot"]
        assert vscode["when"] == "never"


def test_a_scoped_instruction_still_waits_for_a_view(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path)
    document = _json(capsys, "rules", "--root", str(root), "--agent", "copilot-cli", "--json")
    rows = {row["path"]: row for row in document["rules"]}
    [reading] = rows[".github/instructions/ts.instructions.md"]["agents"]
    assert (reading["when"], reading["on"]) == ("touch", ["src/**/*.ts"])


def test_profile_is_its_own_and_names_what_it_reads() -> None:
    profile = COPILOT.profile()
    assert profile.name == "copilot-cli" and profile.name not in COPILOT.aliases
    assert set(profile.dir_files) == {"AGENTS.md", "CLAUDE.md", "GEMINI.md"}
    assert "CLAUDE.local.md" not in profile.local_files + profile.dir_files
    assert [(d.path, d.nested) for d in profile.rules_dirs] == [
        (".github/instructions", False),
        (".claude/rules", False),
    ]


def test_profiles_lists_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("copilot-cli ")]
    assert len(rows) == 1 and "AGENTS.md, CLAUDE.md, GEMINI.md" in rows[0]


# -- install and doctor --------------------------------------------------------------------------------


def test_install_writes_the_repository_settings_and_uninstall_takes_them_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path)
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    assert main(["install", "copilot-cli", "--root", str(root)]) == 0
    assert "trust the folder" in capsys.readouterr().err  # the install note
    settings = json.loads((root / ".github/copilot/settings.json").read_text(encoding="utf-8"))
    assert list(settings["hooks"]) == [
        "sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "preCompact", "subagentStart",
    ]  # fmt: skip
    for groups in settings["hooks"].values():
        [group] = groups
        [handler] = group["hooks"]
        assert handler["type"] == "command" and unguard(handler["command"]).endswith("hook copilot-cli")
        assert handler["timeout"] == 30  # seconds
        # A preToolUse hook that fails denies the call: every command exits 0 whatever jitctx does.
        assert is_fail_safe(handler["command"]), handler
    # Before the call: only the tools that may write (the whole name must match).
    assert settings["hooks"]["preToolUse"][0]["matcher"] == "^(apply_patch|create|edit|bash)$"
    assert main(["uninstall", "copilot-cli", "--root", str(root)]) == 0
    assert not (root / ".github/copilot").exists()  # jitctx made the file and its folder


def test_install_keeps_the_users_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path)
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    path = root / ".github/copilot/settings.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"model": "gpt-5.4", "hooks": {"postToolUse": [{"hooks": [{"type": "command", '
                    '"command": "./lint.sh"}]}]}}\n', encoding="utf-8")  # fmt: skip
    assert main(["install", "copilot-cli", "--root", str(root)]) == 0
    assert main(["uninstall", "copilot-cli", "--root", str(root)]) == 0
    after = json.loads(path.read_text(encoding="utf-8"))
    assert after == {
        "model": "gpt-5.4",
        "hooks": {"postToolUse": [{"hooks": [{"type": "command", "command": "./lint.sh"}]}]},
    }


def test_user_scope_is_copilot_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("JITCTX_HOME", str(home))
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    assert main(["install", "copilot-cli", "--scope", "user", "--root", str(root)]) == 0
    assert (home / ".copilot/settings.json").is_file()
    moved = tmp_path / "copilot-home"
    monkeypatch.setenv("COPILOT_HOME", str(moved))
    assert main(["install", "copilot-cli", "--scope", "user", "--root", str(root)]) == 0
    assert "postToolUse" in json.loads((moved / "settings.json").read_text(encoding="utf-8"))["hooks"]


def doctor_checks(capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, str]]:
    main(["doctor", "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    return {c["check"]: c for c in checks if c["client"] == "copilot-cli"}


def test_doctor_reads_folder_trust_and_the_hooks_switch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path)
    home = tmp_path / "home"
    (home / ".copilot").mkdir(parents=True)
    for name, value in (("HOME", home), ("JITCTX_HOME", home), ("JITCTX_STATE_DIR", tmp_path / "state")):
        monkeypatch.setenv(name, str(value))
    for name in ("COPILOT_HOME", "COPILOT_ALLOW_ALL", "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(root)
    assert main(["install", "copilot-cli"]) == 0
    capsys.readouterr()
    checks = doctor_checks(capsys)
    assert checks["hooks (project)"]["status"] == "ok"
    assert checks["trust (folder)"]["status"] == "warn"  # never trusted
    assert "jitctx install copilot-cli --scope user" in checks["trust (folder)"]["fix"]
    assert main(["install", "copilot-cli", "--scope", "user"]) == 0
    capsys.readouterr()
    fix = doctor_checks(capsys)["trust (folder)"]["fix"]
    # One piece of advice: user hooks are there (doctor says to keep one scope), so no install of them.
    assert "install copilot-cli --scope user" not in fix and "user scope's jitctx hooks run meanwhile" in fix
    assert main(["uninstall", "copilot-cli", "--scope", "user"]) == 0
    capsys.readouterr()
    config = home / ".copilot/config.json"
    config.write_text(  # as Copilot CLI writes it: comment lines first
        f"// User settings belong in settings.json.\n// This file is managed automatically.\n"
        f'{{\n  "trustedFolders": ["{root.parent / "elsewhere"}"]\n}}\n',
        encoding="utf-8",
    )
    assert doctor_checks(capsys)["trust (folder)"]["status"] == "warn"  # another folder
    config.write_text(f'// managed\n{{"trustedFolders": ["{root.parent}"]}}\n', encoding="utf-8")
    assert doctor_checks(capsys)["trust (folder)"]["status"] == "ok"  # a folder above it
    config.unlink()
    monkeypatch.setenv("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true")
    assert doctor_checks(capsys)["trust (folder)"]["status"] == "ok"
    (home / ".copilot/settings.json").write_text('{"disableAllHooks": true}\n', encoding="utf-8")
    hooks_user = doctor_checks(capsys)["hooks (user)"]
    assert hooks_user["status"] == "problem" and "disableAllHooks" in hooks_user["detail"]
