"""An instruction file the model itself writes or edits reaches it as an instruction, on every release.

Seen against Claude Code 2.1.332: a CLAUDE.md the model Wrote or Edited is "current in your context" for
the client, which never loads it as memory (not on that call, not on later reads there), though it does
load the nested files of other paths a Write touches. So jitctx sends the written file itself, once per
version, whatever the release follows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def event(root: Path, transcript: str, name: str, **fields: Any) -> dict[str, Any]:
    return {"session_id": "w1", "transcript_path": transcript, "cwd": str(root), "hook_event_name": name,
            **fields}  # fmt: skip


def tool(root: Path, transcript: str, name: str, **tool_input: Any) -> dict[str, Any]:
    return event(root, transcript, "PostToolUse", tool_name=name, tool_input=tool_input, tool_response={})


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "src/ui").mkdir(parents=True)
    (root / "src/api").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("root\n")
    (root / "src/ui/CLAUDE.md").write_text("ui version 1\n")
    (root / "src/ui/Footer.tsx").write_text("x\n")
    return root


def test_a_claude_md_the_model_edits_or_creates_is_sent(
    tmp_path: Path, call_hook: Any, answers: Any, release: tuple[str, bool]
) -> None:
    transcript, _ = release
    root = project(tmp_path)
    call_hook("claude-code", event(root, transcript, "SessionStart", source="startup"))
    call_hook("claude-code", tool(root, transcript, "Read", file_path=str(root / "src/ui/Footer.tsx")))
    (root / "src/ui/CLAUDE.md").write_text("ui version 2, longer\n")
    edited = call_hook(
        "claude-code", tool(root, transcript, "Edit", file_path=str(root / "src/ui/CLAUDE.md"))
    )
    assert "ui version 2" in answers.context(edited)
    (root / "src/api/CLAUDE.md").write_text("api rules\n")
    created = call_hook(
        "claude-code", tool(root, transcript, "Write", file_path=str(root / "src/api/CLAUDE.md"))
    )
    assert answers.sent(created) == ["src/api/CLAUDE.md"]
    again = call_hook(
        "claude-code", tool(root, transcript, "Read", file_path=str(root / "src/api/CLAUDE.md"))
    )
    assert answers.sent(again) == []  # once per version


def test_other_files_a_write_brings_are_still_left_to_a_release_that_follows_writes(
    tmp_path: Path, call_hook: Any, answers: Any, release: tuple[str, bool]
) -> None:
    transcript, follows_writes = release
    root = project(tmp_path)
    call_hook("claude-code", event(root, transcript, "SessionStart", source="startup"))
    (root / "src/ui/New.tsx").write_text("y\n")
    written = call_hook(
        "claude-code", tool(root, transcript, "Write", file_path=str(root / "src/ui/New.tsx"))
    )
    assert answers.sent(written) == ([] if follows_writes else ["src/ui/CLAUDE.md"])
