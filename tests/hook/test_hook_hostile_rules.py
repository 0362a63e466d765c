"""A cloned repository's rules cannot stall a hook call: a glob that backtracks and YAML aliases that
expand to a billion values are answered at once, with what the rules mean.

Codex is the receiving client: it reads no `.claude/rules` itself, so what jitctx sends shows in the
answer; the globs are matched in Claude Code's dialect all the same (the format decides).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.guard import finishes_within

# From the bug report: past 30 s at session start and at every touch of a twenty-character name, in
# Claude Code's dialect (gitignore); and a chain of globstars that backtracks in the others.
STARS = "**/" + "*" * 20 + "x"
NAME = "a" * 20
GLOBSTARS = "**/a/" * 8 + "**/b"
DEEP = "/".join(["a"] * 40)


def codex_event(cwd: Path, name: str, **fields: Any) -> dict[str, Any]:
    return {"session_id": "cx", "transcript_path": None, "cwd": str(cwd), "hook_event_name": name,
            "model": "gpt-5-codex", "permission_mode": "default", **fields}  # fmt: skip


def touch(cwd: Path, name: str) -> dict[str, Any]:
    command = {"command": f"touch {name}"}
    return codex_event(cwd, "PostToolUse", tool_name="Bash", tool_input=command, tool_response="")


def alias_bomb(key: str) -> str:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{','.join([f'*{previous}'] * 9)}]")
    return "---\n" + "\n".join([*lines, f"{key}: *i"]) + "\n---\nBOMB-RULE\n"


def test_a_backtracking_glob_is_matched_at_once(tree: Any, call_hook: Any, answers: Any) -> None:
    rules = {f".claude/rules/x{i}.md": f'---\npaths: ["{GLOBSTARS}"]\n---\nX-RULE-{i}\n' for i in range(30)}
    root: Path = tree({".git/HEAD": "x\n", f"{DEEP}/keep": "", **rules})
    cwd = root / DEEP  # its cwd marker, `a/a/…/a/`, is matched against every rule at the start
    with finishes_within(60, "three hook calls"):
        start = call_hook("codex", codex_event(cwd, "SessionStart", source="startup"), use_git=False)
        missed = call_hook("codex", touch(cwd, "c"), use_git=False)
        hit = call_hook("codex", touch(cwd, "b"), use_git=False)
    assert "X-RULE" not in answers.context(start)
    assert "X-RULE" not in answers.context(missed)
    assert sorted(answers.sent(hit)) == sorted(rules)


def test_twenty_stars_in_claude_codes_dialect(tree: Any, call_hook: Any, hook_env: dict[str, str]) -> None:
    """Claude Code loads its `.claude/rules` itself: what matched shows in the event log."""
    root: Path = tree(
        {".git/HEAD": "x\n", f"{NAME}/keep": "", ".claude/rules/x.md": f'---\npaths: ["{STARS}"]\n---\nX\n'}
    )
    cwd = root / NAME

    def event(name: str, **fields: Any) -> dict[str, Any]:
        return {"session_id": "cc", "cwd": str(cwd), "hook_event_name": name, **fields}

    def write(name: str) -> dict[str, Any]:
        tool = {"file_path": str(cwd / name), "content": ""}
        return event("PostToolUse", tool_name="Write", tool_input=tool, tool_response={})

    with finishes_within(60, "three hook calls"):
        call_hook("claude-code", event("SessionStart", source="startup"), use_git=False)
        call_hook("claude-code", write(NAME), use_git=False)
        call_hook("claude-code", write(NAME[:-1] + "x"), use_git=False)
    records = [
        json.loads(line)
        for log in (Path(hook_env["JITCTX_STATE_DIR"]) / "events").glob("*.jsonl")
        for line in log.read_text("utf-8").splitlines()
    ]
    matched = {
        Path(record["trigger_file_path"]).name: {load["file_path"] for load in record.get("loaded", [])}
        | set(record.get("host_loaded", []))
        for record in records
        if record.get("trigger_file_path")
    }
    rule = str(root / ".claude/rules/x.md")
    assert rule not in matched[NAME]
    assert rule in matched[NAME[:-1] + "x"]


def test_alias_bombs_in_every_rule_format_are_not_read(tree: Any, call_hook: Any, answers: Any) -> None:
    files = {
        **{f".claude/rules/bomb{i}.md": alias_bomb("paths") for i in range(20)},
        ".cursor/rules/bomb.mdc": alias_bomb("globs"),
        ".github/instructions/bomb.instructions.md": alias_bomb("applyTo"),
        ".claude/rules/fine.md": '---\npaths: ["src/**"]\n---\nFINE-RULE\n',
    }
    root: Path = tree({".git/HEAD": "x\n", "src/keep": "", **files})
    with finishes_within(60, "two hook calls"):
        start = call_hook("codex", codex_event(root, "SessionStart", source="startup"), use_git=False)
        touched = call_hook("codex", touch(root, "src/a.py"), use_git=False)
    # Unreadable frontmatter leaves a rule conditional on nothing: never sent, whatever is touched.
    assert "BOMB-RULE" not in answers.context(start) + answers.context(touched)
    assert answers.sent(touched) == [".claude/rules/fine.md"]
