"""The paths one hook event touched (a tool call, a batch of them, or a prompt's `@path`s), each marked
with whether the client follows it itself (loads its nested files as after its own read tool)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from jitctx.touched.calls import touched_and_written

if TYPE_CHECKING:
    from typing import Any

    from jitctx.clients.base import Follower
    from jitctx.touched.tools import Declaration


HOLD_MARK = "jitctx held back this "  # how the reason of a held write begins (Engine._before_tool)


def held_back(call: Mapping[str, Any]) -> bool:
    """Was this call held back by jitctx? A client that reports a denied call after the fact (Claude
    Code's PostToolBatch) gives the deny's reason as its result, a plain string where a call that ran
    has an object: it ran nothing and wrote nothing."""
    response = call.get("tool_response")
    return isinstance(response, str) and HOLD_MARK in response


class Touched:
    """The paths one event touched, placed against the shell's directory, and for each whether the
    client follows it itself. Which calls it follows, the client's `Follower` says."""

    def __init__(
        self,
        follower: Follower,
        transcript: object,
        cwd: str,
        tools: Mapping[str, Declaration] | None = None,
        writes: frozenset[str] = frozenset(),
    ) -> None:
        self.cwd = cwd
        self.tools = tools  # the client's tool table (`Client.tools()`); None: any name jitctx knows
        self.writes = writes  # the client's write tools (`Client.writes()`)
        self.wrote: dict[str, None] = {}  # the files the calls wrote, in order
        self.paths: list[str] = []
        self.followed: dict[str, bool] = {}
        # Paths a call wrote that the client leaves out as instructions (it holds them as its own edit).
        self.written: set[str] = set()
        # Real paths a shell command of the event wrote: files the client has neither read nor edited.
        self.shell_written: set[str] = set()
        # Per path, the files the client's own result showed it loading (None: no such evidence).
        self.shown: dict[str, frozenset[str] | None] = {}
        # Per real path a call wrote, the text of that call's result the model reads (`Follower.result_text`).
        self.results: dict[str, str] = {}
        self.label = "prompt"
        self.follower = follower
        self.transcript = transcript
        self._names: list[str] = []

    def _add(self, path: str, followed: bool) -> None:
        if path not in self.followed:
            self.paths.append(path)
            self.followed[path] = followed
        elif followed:
            self.followed[path] = True  # loaded by the client through one call of the batch: held

    def add_call(
        self,
        tool_name: str,
        tool_input: Mapping[str, Any],
        shown: frozenset[str] | None = None,
        result: str | None = None,
    ) -> None:
        affected, shell_written, wrote = call_touches(tool_name, tool_input, self.tools, self.writes)
        paths = [placed(self.cwd, p) for p in affected]
        if not paths:
            return
        for path in wrote:
            self.wrote.setdefault(placed(self.cwd, path))
            if result:
                self.results[os.path.realpath(placed(self.cwd, path))] = result
        for written in shell_written:
            try:
                self.shell_written.add(os.path.realpath(placed(self.cwd, written)))
            except ValueError:  # a name the OS refuses (a lone surrogate, a NUL): discovery notes it
                continue
        self._names.append(tool_name)
        self.label = "+".join(dict.fromkeys(self._names))
        follows = self.follower.follows(tool_name, tool_input)
        shell_read = None if follows else self.follower.shell_read(tool_name, tool_input, self.cwd)
        leaves_written = self.follower.leaves_written(tool_name)
        for path in paths:
            self._add(path, follows or path == shell_read)
            if leaves_written:
                self.written.add(os.path.realpath(path))
            if shown is not None:
                self.shown[path] = (self.shown.get(path) or frozenset()) | shown

    def add_mentions(self, mentioned: Sequence[str]) -> None:
        """`@path`s of a prompt that exist; a client that attaches a mentioned file loads its nested
        files itself."""
        for path in (placed(self.cwd, m) for m in mentioned):
            if os.path.isfile(path):
                self._add(path, self.follower.follows_mentions())
            elif os.path.exists(path):
                self._add(path, False)


def placed(cwd: str, path: str) -> str:
    """A path of a tool call or prompt, made absolute against the shell's directory at that event."""
    return os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))


def call_touches(
    tool_name: str,
    tool_input: Mapping[str, Any],
    tools: Mapping[str, Declaration] | None,
    writes: frozenset[str],
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """One reading of a call (its command parsed once): the paths it touched, those a shell command of
    it certainly wrote, and the files it writes (every path of a write tool, `writes`: a file write or
    edit, a patch; a shell command's write targets)."""

    affected, shell_written = touched_and_written(tool_name, tool_input, tools)
    return affected, shell_written, affected if tool_name in writes else shell_written


def write_targets(
    tools: Mapping[str, Declaration], writes: frozenset[str], calls: Sequence[Mapping[str, Any]], cwd: str
) -> list[str]:
    """The files the calls are about to write, absolute, in order (`call_touches`)."""
    targets: dict[str, None] = {}
    for call in calls:
        for path in call_touches(call["tool_name"], call["tool_input"], tools, writes)[2]:
            targets.setdefault(placed(cwd, path))
    return list(targets)
