"""Live sessions: the shell moves (`cd`, a Codex exec's `workdir`) and reads through `cat`, `sed`, `rg`.

The event's cwd places that call's relative paths; the session keeps the directory it started in, which
is where the host loaded its own files. Shell reads are touches like Read calls, and for Claude Code a file
brought by a shell read is jitctx's to send where the release does not load it itself: 2.1.197 loaded
nested files only on its Read tool, 2.1.332 also after a shell command that reads one file (`cat f`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.hook.events import hook_event as event

TREE: dict[str, str] = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "CLAUDE.md": "# Root\n",
    "tools/CLAUDE.md": "# Tools rules\n",
    "tools/gen.py": "pass\n",
    "src/api/AGENTS.md": "# API agents guide\n",
    "src/api/CLAUDE.md": "# API Claude rules\n",
    "src/api/users.ts": "export {}\n",
    "src/ui/Footer.tsx": "export {}\n",
    ".claude/rules/tsx.md": '---\npaths: ["src/ui/**/*.tsx"]\n---\n# TSX rule\n',
}


@pytest.fixture
def project(tree: Any) -> Path:
    root: Path = tree(TREE)
    return root


def bash(cwd: Path, session: str, command: str, transcript: str = "/t.jsonl") -> dict[str, Any]:
    return event(cwd, session, "PostToolUse", transcript, tool_name="Bash", tool_input={"command": command})


def test_a_write_after_cd_sends_the_directorys_file(project: Path, call_hook: Any, answers: Any) -> None:
    """The reproduction: start at the root, the shell moves to tools/, a write there. Before, jitctx took
    tools/ as the start directory and believed Claude Code already held tools/CLAUDE.md."""
    start = call_hook("claude-code", event(project, "s", "SessionStart", source="startup"), use_git=False)
    assert answers.sent(start) == []  # Claude Code loads the root CLAUDE.md itself
    write = call_hook("claude-code", bash(project / "tools", "s", "echo 'X = 1' > made.py"), use_git=False)
    assert answers.sent(write) == ["tools/CLAUDE.md"]
    assert "applies to tools/made.py" in answers.context(write)


def test_relative_paths_resolve_against_the_events_cwd(
    project: Path, call_hook: Any, answers: Any, release: tuple[str, bool]
) -> None:
    transcript, wide = release
    call_hook("claude-code", event(project, "s", "SessionStart", transcript, source="startup"), use_git=False)
    cat = bash(project / "tools", "s", "cat ../src/api/users.ts", transcript)
    read = call_hook("claude-code", cat, use_git=False)
    # The newer release loads src/api/CLAUDE.md after a one-file `cat` itself; AGENTS.md it never does.
    assert answers.sent(read) == [*([] if wide else ["src/api/CLAUDE.md"]), "src/api/AGENTS.md"]


def test_the_start_directory_survives_events_from_elsewhere(
    project: Path, call_hook: Any, answers: Any
) -> None:
    """A session started in tools/ holds tools/CLAUDE.md (Claude Code loaded it); an event from the root
    does not make jitctx think the session started there."""
    call_hook("claude-code", event(project / "tools", "s", "SessionStart", source="startup"), use_git=False)
    assert call_hook("claude-code", bash(project, "s", "cat tools/gen.py"), use_git=False) == {}
    resumed = call_hook("claude-code", event(project, "s", "SessionStart", source="resume"), use_git=False)
    assert resumed == {}
    assert call_hook("claude-code", bash(project / "src", "s", "cat ../tools/gen.py"), use_git=False) == {}


def test_a_new_window_takes_the_new_start_directory(project: Path, call_hook: Any, answers: Any) -> None:
    call_hook("claude-code", event(project / "tools", "s", "SessionStart", source="startup"), use_git=False)
    call_hook("claude-code", event(project, "s", "SessionStart", source="clear"), use_git=False)
    # `nl -ba` is a read no Claude Code release follows itself; the new window (at the root) lacks
    # tools/CLAUDE.md.
    assert answers.sent(
        call_hook("claude-code", bash(project, "s", "nl -ba tools/gen.py"), use_git=False)
    ) == ["tools/CLAUDE.md"]


def test_a_shell_read_is_sent_and_a_later_read_tool_sends_nothing_again(
    project: Path, call_hook: Any, answers: Any, release: tuple[str, bool]
) -> None:
    transcript, wide = release
    call_hook("claude-code", event(project, "s", "SessionStart", transcript, source="startup"), use_git=False)
    sed = bash(project, "s", "sed -n '1,80p' src/ui/Footer.tsx", transcript)
    shell = call_hook("claude-code", sed, use_git=False)
    # 2.1.197 loads no rule on a Bash read; 2.1.332 does after a one-file `sed -n` itself.
    assert answers.sent(shell) == ([] if wide else [".claude/rules/tsx.md"])
    read = event(
        project,
        "s",
        "PostToolUse",
        transcript,
        tool_name="Read",
        tool_input={"file_path": str(project / "src/ui/Footer.tsx")},
    )
    assert call_hook("claude-code", read, use_git=False) == {}  # Claude Code loads it now; we sent it once


def test_codex_exec_with_a_workdir(project: Path, call_hook: Any, answers: Any) -> None:
    """Codex sends an exec's workdir as the event's cwd, and its reads are shell commands."""
    call_hook("codex", event(project, "c", "SessionStart", source="startup"), use_git=False)
    data = event(
        project / "src" / "api",
        "c",
        "PostToolUse",
        tool_name="Bash",
        tool_input={"command": "nl -ba users.ts"},
    )
    assert answers.sent(call_hook("codex", data, use_git=False)) == ["src/api/CLAUDE.md", "src/api/AGENTS.md"]
    listing = event(project, "c", "PostToolUse", tool_name="Bash", tool_input={"command": "rg -n TODO"})
    assert call_hook("codex", listing, use_git=False) == {}  # no path named: nothing touched


def test_a_shell_read_outside_the_project_loads_nothing(
    project: Path, tmp_path: Path, call_hook: Any
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "CLAUDE.md").write_text("# not ours\n", encoding="utf-8")
    (outside / "a.txt").write_text("a\n", encoding="utf-8")
    call_hook("claude-code", event(project, "s", "SessionStart", source="startup"), use_git=False)
    assert call_hook("claude-code", bash(project, "s", f"cat {outside / 'a.txt'}"), use_git=False) == {}


def test_nested_rules_are_claude_codes_own_where_it_reads_them(
    tree: Any, call_hook: Any, answers: Any
) -> None:
    """Claude Code reads a directory's `.claude/rules`: the unconditional ones for the directories from
    the root to where it started, the scoped ones after its Read. jitctx sends them after other tools."""
    root: Path = tree(
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "pkg/.claude/rules/always.md": "# Pkg always\n",
            "pkg/.claude/rules/tsx.md": '---\npaths: ["src/**/*.tsx"]\n---\n# Pkg TSX\n',
            "pkg/src/a.tsx": "",
            "pkg/src/b.tsx": "",
        }
    )
    call_hook("claude-code", event(root / "pkg", "s", "SessionStart", source="startup"), use_git=False)
    assert call_hook("claude-code", bash(root / "pkg", "s", "touch src/new.py"), use_git=False) == {}
    # A two-file `cat` is a read no release follows itself.
    write = call_hook("claude-code", bash(root / "pkg", "s", "cat src/a.tsx src/b.tsx"), use_git=False)
    assert answers.sent(write) == ["pkg/.claude/rules/tsx.md"]

    call_hook("claude-code", event(root, "r", "SessionStart", source="startup"), use_git=False)
    read = event(
        root, "r", "PostToolUse", tool_name="Read", tool_input={"file_path": str(root / "pkg/src/b.tsx")}
    )
    assert call_hook("claude-code", read, use_git=False) == {}  # Claude Code loaded both on its Read
