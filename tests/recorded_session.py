"""A session recorded by the real hook engine, in-process: the session state and event log that
`jitctx statusline` and `jitctx log --session` read, made the way an agent's hooks make them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jitctx.hook.engine import HookEnv
from jitctx.hook.pipeline import run_hook
from tests.conftest import write_tree

# A root CLAUDE.md (Claude Code loads it itself), an AGENTS.md (jitctx sends it at start), a nested
# CLAUDE.md (Claude Code loads it on a Read there) and a Cursor rule (jitctx sends it on that Read).
UI = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "CLAUDE.md": "# Root\n",
    "AGENTS.md": "# Agents\nUse pnpm.\n",
    "src/ui/CLAUDE.md": "# UI\nUse design tokens.\n",
    ".cursor/rules/react.mdc": '---\nglobs: "src/**/*.tsx"\n---\nHooks at the top.\n',
    "src/ui/Footer.tsx": "export const Footer = 1\n",
    "src/api/CLAUDE.md": "# API\nValidate input.\n",
    "src/api/users.ts": "export {}\n",
}


class Agent:
    """Claude Code's hook events for one session, answered by the engine in-process."""

    def __init__(
        self, root: Path, state: Path, home: Path, session: str = "s-1", client: str = "claude-code"
    ):
        self.root, self.state, self.home, self.session, self.client = root, state, home, session, client

    def __call__(self, name: str, **fields: Any) -> dict[str, Any]:
        event = {"session_id": self.session, "cwd": str(self.root), "hook_event_name": name, **fields}
        env = HookEnv(state_dir=self.state, home=str(self.home), use_git=False)
        return run_hook(self.client, json.dumps(event), env)

    def start(self, source: str = "startup") -> dict[str, Any]:
        return self("SessionStart", source=source)

    def loads_itself(self, rel: str, reason: str, trigger: str | None = None) -> None:
        """Claude Code's own load of `rel`, reported through InstructionsLoaded."""
        fields = {"file_path": str(self.root / rel), "memory_type": "Project", "load_reason": reason}
        if trigger is not None:
            fields["trigger_file_path"] = str(self.root / trigger)
        self("InstructionsLoaded", **fields)

    def reads(self, rel: str) -> dict[str, Any]:
        call = {"file_path": str(self.root / rel)}
        return self("PostToolUse", tool_name="Read", tool_input=call, tool_use_id=f"read-{rel}")

    def compacts(self) -> None:
        self.start("compact")
        self.loads_itself("CLAUDE.md", "compact")


def recorded(tmp_path: Path, session: str = "s-1") -> Agent:
    """A session that started (CLAUDE.md by Claude Code, AGENTS.md by jitctx) and read src/ui/Footer.tsx
    (src/ui/CLAUDE.md by Claude Code, reported before the hook's answer; the Cursor rule by jitctx)."""
    root = write_tree(tmp_path / "proj", UI)
    agent = Agent(root, tmp_path / "state", tmp_path / "home", session)
    agent.start()
    agent.loads_itself("CLAUDE.md", "session_start")
    agent.loads_itself("src/ui/CLAUDE.md", "nested_traversal", trigger="src/ui/Footer.tsx")
    agent.reads("src/ui/Footer.tsx")
    return agent
