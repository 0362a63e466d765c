"""Codex 0.171.0 rollouts for the tests: recorded ones (tests/clients/payloads/codex, from real runs against
the scripted model, long texts cut, the project and home folders written @ROOT@ and @HOME@), and single
records in the shapes those runs show.

* session.jsonl: started in sub/ with a user AGENTS.md, the root's and sub/'s; jitctx's hooks answered
  SessionStart (CLAUDE.md) and a read of api/users.ts (api/AGENTS.md); the prompt and a tool's output
  imitate an instructions message for other/; one compaction, after which jitctx sent both again.
* parent_of_forked.jsonl, subagent_forked.jsonl: the main thread and the sub-agent it spawned with
  `fork_turns: "all"` (the sub-agent's rollout starts with a copy of the parent's), pinned docs/pinned.md.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

PAYLOADS = Path(__file__).resolve().parents[1] / "payloads" / "codex"
RELEASE = "0.171.0"

# The files of session.jsonl's project, as they were.
SESSION_FILES = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "AGENTS.md": "# Agents\n\nJX-ROOT-AGENTS: run the linters.\n",
    "CLAUDE.md": "# Project\n\nJX-ROOT-CLAUDE: keep the tests green.\n",
    "sub/AGENTS.md": "# Sub\n\nJX-SUB-AGENTS: sub rules.\n",
    "sub/x.txt": "x\n",
    "api/AGENTS.md": "# API\n\nJX-API-AGENTS: validate input.\n",
    "api/users.ts": "u\n",
    "other/AGENTS.md": "JX-OTHER: imitated rule.\n",
}
USER_AGENTS = "JX-USER-AGENTS: user rules.\n"  # @HOME@/.codex/AGENTS.md

# The files of the sub-agent runs' project (the e2e fixture's, those the records name).
FORKED_FILES = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "AGENTS.md": "# Agents\n\nJX-ROOT-AGENTS: run the linters before you finish.\n",
    "CLAUDE.md": "# Project\n\nJX-ROOT-CLAUDE: keep the tests green.\n",
    "src/api/AGENTS.md": "# API\n\nJX-API-AGENTS: handlers validate their input.\n",
    "src/api/users.ts": "export const users: string[] = [];\n",
    ".claude/rules/api.md": '---\npaths:\n  - "src/api/**"\n---\n\nJX-RULE-API: return typed errors.\n',
    "docs/pinned.md": "# Pinned\n\nJX-PINNED: every agent keeps this.\n",
}


def later(seconds: int = 3600) -> str:
    """A record time after the test's files were written, past a hook's timeout."""
    when = datetime.now(UTC) + timedelta(seconds=seconds)
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def write_project(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def recorded(name: str, root: Path, home: Path, at: str | None = None) -> list[str]:
    """The lines of a recorded rollout, in this project and home; every record (and every message's
    `create_time`) at `at` when given."""
    text = (PAYLOADS / name).read_text(encoding="utf-8")
    text = text.replace("@ROOT@", str(root)).replace("@HOME@", str(home))
    lines = []
    for line in text.splitlines():
        record = json.loads(line)
        if at is not None:
            record["timestamp"] = at
            _set_create_time(record, datetime.fromisoformat(at).timestamp())
        lines.append(dumps(record))
    return lines


def _set_create_time(value: Any, seconds: float) -> None:
    if isinstance(value, dict):
        if "create_time" in value:
            value["create_time"] = seconds
        for item in value.values():
            _set_create_time(item, seconds)
    elif isinstance(value, list):
        for item in value:
            _set_create_time(item, seconds)


def dumps(record: dict[str, Any]) -> str:
    """A record as Codex writes it: compact JSON."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def write_rollout(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _item(
    role: str, texts: list[str], kinds: list[str], provenance: list[dict[str, Any]], at: str
) -> dict[str, Any]:
    return {
        "type": "message",
        "id": "msg_01a23d6b-fb51-7360-a35f-56351d2cbc7b",
        "role": role,
        "content": [{"type": "input_text", "text": text} for text in texts],
        "internal_chat_message_metadata_passthrough": {
            "turn_id": "01a23d6b-fb13-7c52-a4e7-006a296d27c4",
            "create_time": datetime.fromisoformat(at).timestamp(),
            "content_item_kinds": kinds,
            "content_item_metadata": [{"provenance": p} for p in provenance],
        },
    }


def _record(kind: str, payload: dict[str, Any], at: str) -> str:
    return dumps({"timestamp": at, "ordinal": 3, "type": kind, "payload": payload})


def session_meta(
    cwd: Path, release: str = RELEASE, session: str = "01a23d6b-fac8-7d31-98a1-d8a0760f030e"
) -> str:
    payload = {"session_id": session, "id": session, "cwd": str(cwd), "originator": "codex_exec",
               "cli_version": release, "source": "exec"}  # fmt: skip
    return _record("session_meta", payload, later())


def instructions(directory: Path, text: str, at: str | None = None) -> str:
    """Codex's AGENTS.md message for `directory`, with its environment context, as a response_item."""
    at = at or later()
    framed = f"# AGENTS.md instructions for {directory}\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>"
    environment = f"<environment_context>\n  <cwd>{directory}</cwd>\n</environment_context>"
    item = _item(
        "user",
        [framed, environment],
        ["agents_md.instructions", "environments.environment_context"],
        [{"type": "agents_md"}, {"type": "harness", "hook": False}],
        at,
    )
    return _record("response_item", item, at)


def world_state(directory: Path, text: str, at: str | None = None) -> str:
    state = {"agents_md": {"directory": str(directory), "text": text}, "apps_instructions": False}
    return _record("world_state", {"full": True, "state": state}, at or later())


def hook_context(text: str, at: str | None = None) -> str:
    """A hook's additionalContext, as Codex records it: a developer message of its own."""
    at = at or later()
    item = _item("developer", [text], ["hooks.additional_context"], [{"type": "harness", "hook": True}], at)
    return _record("response_item", item, at)


def prompt(text: str) -> str:
    at = later()
    return _record("response_item", _item("user", [text], ["user.text"], [{"type": "user"}], at), at)


def tool_output(text: str) -> str:
    payload = {"type": "function_call_output", "id": "fco_1", "call_id": "call_main_s0_0", "output": text}
    return _record("response_item", payload, later())


def compacted(history: list[dict[str, Any]] | None = None) -> str:
    return _record("compacted", {"message": "summary", "replacement_history": history or []}, later())
