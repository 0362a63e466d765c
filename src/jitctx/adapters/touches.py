"""The paths one hook event touched (a tool call, a batch of them, or a prompt's `@path`s), each with the
tool the host agent counts it under."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jitctx.adapters.claude_transcript import Release


class Touched:
    """The paths one event touched, placed against the shell's directory, and for each the tool the host
    agent counts it under: "Read" where the host loads the path's nested files as after its Read tool (in
    newer Claude Code releases a Write, an Edit, a one-file `cat` or an `@path` too), the call's own tool
    name otherwise. Which calls those are depends on the release, read from the transcript."""

    def __init__(self, claude: bool, transcript: object, cwd: str) -> None:
        self.cwd = cwd
        self.paths: list[str] = []
        self.tools: dict[str, str] = {}
        self.label = "prompt"
        # Only Claude Code loads nested files by itself, and which calls count depends on its release.
        self._claude = claude
        self.transcript = transcript
        self._release: Any = ()  # read lazily, once: () is "not read yet"
        self._names: list[str] = []

    @property
    def release(self) -> Release | None:
        """The Claude Code release that sent the event (None: unknown, or another host)."""
        if self._release == ():
            from jitctx.adapters.claude_transcript import release_of

            self._release = release_of(self.transcript) if self._claude else None
        release: Release | None = self._release
        return release

    def _add(self, path: str, tool: str) -> None:
        if path not in self.tools:
            self.paths.append(path)
            self.tools[path] = tool
        elif tool == "Read":
            self.tools[path] = tool  # loaded by the host through one call of the batch: held

    def add_call(self, tool_name: str, tool_input: Mapping[str, Any]) -> None:
        from jitctx.touched import affected_paths

        paths = [placed(self.cwd, p) for p in affected_paths(tool_name, tool_input)]
        if not paths:
            return
        self._names.append(tool_name)
        self.label = "+".join(dict.fromkeys(self._names))
        host_read = None
        follows = tool_name == "Read"  # the host loads the nested files of what the call touched
        if self._claude and not follows:
            from jitctx.adapters.claude_release import shell_read_by_client, tool_loads_nested

            follows = tool_loads_nested(tool_name, self.release)  # Write and Edit, in newer releases
            if tool_name == "Bash":
                host_read = shell_read_by_client(tool_input.get("command"), self.cwd, self.release)
        for path in paths:
            self._add(path, "Read" if follows or path == host_read else tool_name)

    def add_mentions(self, mentioned: Sequence[str]) -> None:
        """`@path`s of a prompt that exist; newer Claude Code releases attach a mentioned file and load
        its nested files themselves."""
        for path in (placed(self.cwd, m) for m in mentioned):
            if os.path.isfile(path) and self._claude:
                from jitctx.adapters.claude_release import wide

                self._add(path, "Read" if wide(self.release) else "")
            elif os.path.exists(path):
                self._add(path, "")


def placed(cwd: str, path: str) -> str:
    """A path of a tool call or prompt, made absolute against the shell's directory at that event."""
    return os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))
