"""What the tests of holding a write back (DESIGN §2.11) share, client by client: the project, the hook
event's envelope, the `{"decision": "deny", "reason": R}` answer, and the checks every client's hold
passes (`Hold`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.conftest import write_tree

# src/ui/ is governed by a nested CLAUDE.md and a scoped rule; docs/ by nothing.
UI = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "CLAUDE.md": "# Root\n",
    "src/ui/CLAUDE.md": "# UI\nUse design tokens.\n",
    ".claude/rules/ui.md": '---\npaths: ["src/ui/**/*.tsx"]\n---\nComponents are functions.\n',
    "src/ui/Old.tsx": "export const Old = 1\n",
    "docs/notes.txt": "x\n",
}

Event = dict[str, Any]


def project(tmp_path: Path) -> Path:
    """The `UI` project, written under `tmp_path`."""
    return write_tree(tmp_path / "p", UI)


def event(root: Path, name: str, session: str = "s1", **fields: Any) -> Event:
    """A hook event `name` of `session` fired in `root`, in the envelope the Claude-shaped clients share;
    the client's other fields in `fields`."""
    return {"session_id": session, "cwd": str(root), "hook_event_name": name, **fields}


def decision_reason(answer: dict[str, Any]) -> str:
    """The reason of a `{"decision": "deny", "reason": R}` answer, checked to hold nothing else."""
    assert set(answer) == {"decision", "reason"} and answer["decision"] == "deny", answer
    text: str = answer["reason"]
    return text


@dataclass(frozen=True)
class Hold:
    """One client's hold: its events and its deny, for the checks every client's hold passes."""

    agent: str
    start_event: Callable[[Path], Event]  # its session-start event in the project
    write_event: Callable[[Path], Event]  # its pre-tool event for a write of src/ui/New.tsx
    reason: Callable[[dict[str, Any]], str]  # the reason of its deny, its shape checked

    def start(self, call_hook: Any, root: Path) -> dict[str, Any]:
        """A session starts in the project; returns the hook's answer."""
        answer: dict[str, Any] = call_hook(self.agent, self.start_event(root), use_git=False)
        return answer

    def held_once(self, call_hook: Any, root: Path) -> str:
        """The write is held with the rules of src/ui/ in the reason (returned); repeated, it passes."""
        held = self.reason(call_hook(self.agent, self.write_event(root), use_git=False))
        assert "src/ui/New.tsx was not written" in held
        assert "Use design tokens." in held and "Components are functions." in held
        assert call_hook(self.agent, self.write_event(root), use_git=False) == {}  # the repeated write passes
        return held

    def as_a_process(self, run_hook_process: Any, root: Path, rule: str = "Use design tokens.") -> str:
        """The same through `jitctx hook AGENT` as a process: the held write's reason names `rule`, and
        the repeat passes. Returns what the held call wrote to stderr."""
        code, _, _ = run_hook_process(self.agent, self.start_event(root), "--no-git")
        assert code == 0
        code, answer, err = run_hook_process(self.agent, self.write_event(root), "--no-git")
        assert code == 0 and rule in self.reason(answer)
        assert run_hook_process(self.agent, self.write_event(root), "--no-git")[:2] == (0, {})
        stderr: str = err
        return stderr
