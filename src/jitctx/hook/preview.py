"""A session of one client, played through the hook's own engine, to show what each moment brings.

`explain`, `touch` and `startup` ask "what reaches this agent, when, and why" for an agent with jitctx's
hook installed. They do not compute an answer of their own: they play a session start and the touches
(a read, a write, a shell read, ...) as the client's own tool calls through `Engine`, in a state
directory of their own that is thrown away, and show the `hook.decide` verdicts the engine applied. So a
view and the hook cannot disagree: they are one decision.

Nothing is written into the project, the user's state directory or the event log. A preview has no
transcript: it shows what the client's profile predicts, as the hook decides before the client's first
records exist.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from jitctx.hook.engine import Engine, HookEnv
from jitctx.hook.event import START, TOOLS, HookEvent

if TYPE_CHECKING:
    from jitctx.clients.base import Client
    from jitctx.hook.decide import Verdict

# The kinds of touch a preview plays, as `Client.sample_call` knows them.
TOUCH_KINDS = ("read", "write", "edit", "shell_read", "shell_write")
SESSION_ID = "preview"


class Moment(NamedTuple):
    """One event of the previewed session and what the hook decided for it."""

    kind: str  # "start" or one of TOUCH_KINDS
    path: str | None  # the touched path (absolute); None at the start
    tool: str | None  # the client's own tool name for the touch; None at the start or without one
    verdicts: tuple[Verdict, ...]
    answer: Mapping[str, Any]  # the hook's answer, as the client receives it
    note: str = ""  # why nothing was played (the client has no tool of that kind)
    signals: tuple[str, ...] = ()  # at the start: the startup signals

    def to_dict(self) -> dict[str, Any]:
        document: dict[str, Any] = {"kind": self.kind, "path": self.path, "tool": self.tool}
        document["files"] = [verdict.to_dict() for verdict in self.verdicts]
        if self.note:
            document["note"] = self.note
        return document


def preview(
    client: Client,
    cwd: str,
    touches: Sequence[tuple[str, str]] = (),
    *,
    home: str | None,
    use_git: bool = True,
    environ: Mapping[str, str] | None = None,
) -> list[Moment]:
    """The start of a session of `client` in `cwd`, then each (kind, absolute path) of `touches`, as the
    hook decides them."""
    with tempfile.TemporaryDirectory(prefix="jitctx-preview-") as state:
        env = HookEnv(state_dir=Path(state), home=home, use_git=use_git, environ=environ)
        payload = {"session_id": SESSION_ID, "cwd": cwd, "source": "startup"}
        start = HookEvent("SessionStart", START, payload, session_id=SESSION_ID, cwd=cwd, source="startup")
        moments = [_play(client, env, start, "start", None, None)]
        for kind, path in touches:
            call = client.sample_call(kind, path)
            if call is None:
                note = f"{client.title} has no tool for a {kind.replace('_', ' ')}"
                moments.append(Moment(kind, path, None, (), {}, note))
                continue
            tool_name, tool_input = call
            calls: list[Mapping[str, Any]] = [
                {
                    "tool_name": tool_name,
                    "tool_input": dict(tool_input),
                    "tool_use_id": f"preview-{len(moments)}",
                }
            ]
            event = HookEvent(
                "PostToolUse",
                TOOLS,
                {"session_id": SESSION_ID, "cwd": cwd, **calls[0]},
                session_id=SESSION_ID,
                cwd=cwd,
                calls=calls,
            )
            moments.append(_play(client, env, event, kind, path, tool_name))
        return moments


def _play(
    client: Client, env: HookEnv, event: HookEvent, kind: str, path: str | None, tool: str | None
) -> Moment:
    engine = Engine(client, env)
    answer = engine.answer(event)
    return Moment(kind, path, tool, tuple(engine.verdicts), answer, signals=engine.signals)
