"""Codex's dialect: its tool names, and nested AGENTS.md files it never finds by itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jitctx.clients.claude_code import hooks as claude_code
from jitctx.clients.codex import hooks as codex
from jitctx.clients.codex.client import CLIENT as CODEX
from jitctx.touched.calls import affected_paths
from jitctx.touched.tools import REGISTRY

PATCH = "*** Begin Patch\n*** Add File: svc/b/new.py\n+x = 1\n*** End Patch\n"


@pytest.mark.parametrize(
    ("tool_name", "tool_input", "paths"),
    [
        ("Bash", {"command": "echo hi > svc/a/out.txt"}, ("svc/a/out.txt",)),
        ("Bash", {"command": "touch x.py", "workdir": "svc/a"}, ("svc/a/x.py",)),
        ("apply_patch", {"command": PATCH}, ("svc/b/new.py",)),
        ("apply_patch", {"input": PATCH}, ("svc/b/new.py",)),
        ("mcp__fs__read", {"path": "svc/a/x.py"}, ()),  # unknown tools touch nothing
    ],
)
def test_codex_tool_names_reach_the_registry(
    tool_name: str, tool_input: dict[str, Any], paths: tuple[str, ...]
) -> None:
    assert affected_paths(tool_name, tool_input, CODEX.tools()) == paths


def test_every_tool_in_the_installed_matchers_has_a_declaration() -> None:
    assert set(claude_code.TOOLS) <= set(REGISTRY)
    # Claude Code: one PostToolBatch per batch of tool calls (it takes no matcher), no PostToolUse.
    claude_events = {e.event: e.matcher for e in claude_code.ENTRIES}
    assert claude_events["PostToolBatch"] is None and "PostToolUse" not in claude_events
    codex_matcher = next(e for e in codex.ENTRIES if e.event == "PostToolUse").matcher
    assert codex_matcher is not None
    for name in codex_matcher.split("|"):
        assert name in CODEX.tools()


@pytest.fixture
def services(tree: Any) -> Path:
    root: Path = tree(
        {
            ".git/HEAD": "x\n",
            "AGENTS.md": "# Root guide\n",
            "svc/a/AGENTS.md": "# Service A guide\n",
            "svc/a/main.py": "",
            "svc/b/AGENTS.md": "# Service B guide\n",
            "svc/b/AGENTS.override.md": "# Service B override\n",
        }
    )
    return root


def codex_event(cwd: Path, name: str, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": "cx",
        "transcript_path": None,
        "cwd": str(cwd),
        "hook_event_name": name,
        "model": "gpt-5-codex",
        "permission_mode": "default",
        **fields,
    }


def test_codex_started_in_a_service_gets_only_what_it_lacks(
    services: Path, call_hook: Any, answers: Any
) -> None:
    cwd = services / "svc" / "a"
    start = call_hook("codex", codex_event(cwd, "SessionStart", source="startup"), use_git=False)
    assert start == {}  # AGENTS.md from the root to svc/a: Codex read them itself
    patch = codex_event(
        cwd, "PostToolUse", tool_name="apply_patch", tool_input={"command": PATCH}, tool_response=""
    )
    # The patch path is relative to the cwd (svc/a): svc/a/svc/b/new.py does not exist, so nothing nested.
    assert call_hook("codex", patch, use_git=False) == {}
    shell = codex_event(
        cwd, "PostToolUse", tool_name="Bash", tool_input={"command": "touch ../b/x.py"}, tool_response=""
    )
    # svc/b holds AGENTS.override.md beside AGENTS.md: Codex takes the override only, so does jitctx.
    assert answers.sent(call_hook("codex", shell, use_git=False)) == ["svc/b/AGENTS.override.md"]


def test_codex_started_where_an_override_is_holds_the_override_only(
    services: Path, call_hook: Any, answers: Any
) -> None:
    """Started in svc/b, Codex itself reads the root's AGENTS.md and svc/b's override, not svc/b's
    AGENTS.md: nothing goes out at start, and a touch there sends neither."""
    cwd = services / "svc" / "b"
    assert call_hook("codex", codex_event(cwd, "SessionStart", source="startup"), use_git=False) == {}
    shell = codex_event(cwd, "PostToolUse", tool_name="Bash", tool_input={"command": "touch x.py"})
    assert answers.sent(call_hook("codex", shell, use_git=False)) == []


def test_codex_config_fallback_names_and_budget(
    services: Path, call_hook: Any, answers: Any, tmp_path: Path
) -> None:
    """`project_doc_fallback_filenames` names files Codex reads where no AGENTS.md is; jitctx reads them
    as Codex does, one per directory, after AGENTS.override.md and AGENTS.md."""
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text('project_doc_fallback_filenames = ["TEAM.md"]\n')
    (services / "svc" / "c").mkdir()
    (services / "svc" / "c" / "TEAM.md").write_text("# Team C\n")
    (services / "svc" / "a" / "TEAM.md").write_text("# Team A, behind AGENTS.md\n")
    environ = {"CODEX_HOME": str(codex_home)}
    call_hook(
        "codex", codex_event(services, "SessionStart", source="startup"), use_git=False, environ=environ
    )
    touch = codex_event(
        services, "PostToolUse", tool_name="Bash", tool_input={"command": "touch svc/c/x.py svc/a/x.py"}
    )
    assert sorted(answers.sent(call_hook("codex", touch, use_git=False, environ=environ))) == [
        "svc/a/AGENTS.md",
        "svc/c/TEAM.md",
    ]


def test_what_codex_cuts_past_its_budget_is_sent(
    services: Path, call_hook: Any, answers: Any, tmp_path: Path
) -> None:
    """Codex reads its files from the root down within `project_doc_max_bytes` and drops or cuts the
    rest: started in svc/a, a root AGENTS.md that fills the budget leaves svc/a's to jitctx."""
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text("project_doc_max_bytes = 64\n")
    (services / "AGENTS.md").write_text("# Root guide\n" + "Keep the build green.\n" * 2)  # 55 bytes
    environ = {"CODEX_HOME": str(codex_home)}
    cwd = services / "svc" / "a"
    start = call_hook(
        "codex", codex_event(cwd, "SessionStart", source="startup"), use_git=False, environ=environ
    )
    assert answers.sent(start) == ["svc/a/AGENTS.md"]  # 55 + 18 bytes: past 64, Codex cut it
    (codex_home / "config.toml").write_text("")  # the default 32 KiB holds both
    again = codex_event(cwd, "SessionStart", source="startup", session_id="cx2")
    assert call_hook("codex", again, use_git=False, environ=environ) == {}


def test_codex_profile_follows_its_config(tmp_path: Path) -> None:
    from jitctx.clients import all_clients

    (tmp_path / "config.toml").write_text(
        'project_doc_max_bytes = 4096\nproject_doc_fallback_filenames = ["TEAM.md", "../x", 3]\n'
    )
    host = all_clients.get("codex").host_profile(str(tmp_path), {"CODEX_HOME": str(tmp_path)}, None)
    assert host.max_bytes == 4096
    assert host.dir_files == ("AGENTS.override.md", "AGENTS.md", "TEAM.md")  # odd entries left out
    (tmp_path / "config.toml").write_text("not = [toml\n")
    assert (
        all_clients.get("codex").host_profile(str(tmp_path), {"CODEX_HOME": str(tmp_path)}, None).max_bytes
        == 32768
    )


def test_codex_compaction_resends_what_it_did_not_load_itself(
    services: Path, call_hook: Any, answers: Any
) -> None:
    call_hook("codex", codex_event(services, "SessionStart", source="startup"), use_git=False)
    shell = codex_event(
        services,
        "PostToolUse",
        tool_name="Bash",
        tool_input={"command": "touch svc/a/y.py"},
        tool_response="",
    )
    assert answers.sent(call_hook("codex", shell, use_git=False)) == ["svc/a/AGENTS.md"]
    compact = call_hook("codex", codex_event(services, "SessionStart", source="compact"), use_git=False)
    assert answers.sent(compact) == ["svc/a/AGENTS.md"]


def test_codex_events_it_was_not_installed_for_are_logged(
    services: Path, call_hook: Any, tmp_path: Path
) -> None:
    assert call_hook("codex", codex_event(services, "Stop"), use_git=False) == {}
    assert (
        "codex: HookError: unknown hook event 'Stop' for codex"
        in (tmp_path / "state" / "hook.log").read_text()
    )


def test_a_claude_md_named_as_a_codex_fallback_beside_agents_md_is_still_sent(
    services: Path, call_hook: Any, answers: Any, tmp_path: Path
) -> None:
    """Codex reads AGENTS.md where both are; CLAUDE.md, one of jitctx's own formats, is jitctx's to send."""
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text('project_doc_fallback_filenames = ["CLAUDE.md"]\n')
    (services / "svc" / "a" / "CLAUDE.md").write_text("# Service A Claude rules\n")
    environ = {"CODEX_HOME": str(codex_home)}
    call_hook(
        "codex", codex_event(services, "SessionStart", source="startup"), use_git=False, environ=environ
    )
    touch = codex_event(services, "PostToolUse", tool_name="Bash", tool_input={"command": "touch svc/a/x.py"})
    sent = answers.sent(call_hook("codex", touch, use_git=False, environ=environ))
    assert sorted(sent) == ["svc/a/AGENTS.md", "svc/a/CLAUDE.md"]


@pytest.mark.parametrize("client", ["codex", "qwen-code"])
def test_an_agents_md_the_client_loads_itself_is_not_sent_as_an_import(
    tree: Any, call_hook: Any, answers: Any, client: str
) -> None:
    """A root CLAUDE.md that only imports AGENTS.md: the client loads AGENTS.md itself at start, so the
    import brings nothing (it was sent, or named as a file to read, in every session)."""
    root: Path = tree(
        {
            ".git/HEAD": "x\n",
            "CLAUDE.md": "All working instructions live in @AGENTS.md\n",
            "AGENTS.md": "# The one guide\nUse tabs.\n",
            "src/a.py": "",
        }
    )
    start = call_hook(client, codex_event(root, "SessionStart", source="startup"), use_git=False)
    assert answers.sent(start) == ["CLAUDE.md"]  # its own line still arrives, naming the import
    assert "Use tabs." not in str(start) and "Read " not in str(start)


@pytest.mark.parametrize("client", ["codex", "qwen-code"])
def test_a_claude_md_linked_to_the_agents_md_the_client_loads_is_not_sent(
    tree: Any, call_hook: Any, answers: Any, client: str
) -> None:
    """`CLAUDE.md -> AGENTS.md`: one file under two names. The client loads it as AGENTS.md at start, so
    jitctx, which found it as CLAUDE.md, sends nothing."""
    root: Path = tree({".git/HEAD": "x\n", "AGENTS.md": "# The one guide\nUse tabs.\n", "src/a.py": ""})
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    start = call_hook(client, codex_event(root, "SessionStart", source="startup"), use_git=False)
    assert answers.sent(start) == []
    assert "Use tabs." not in str(start)
