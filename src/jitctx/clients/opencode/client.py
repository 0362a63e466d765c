"""OpenCode as the engine and the views see it: its hook dialect, what it loads by itself (`loading`) and
what its read tool says it attached (`jitctx.clients.base.Client`)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.clients.kit.evidence_paths import PathResolver
from jitctx.clients.opencode.dialect import OpenCodeDialect
from jitctx.clients.opencode.loading import host_profile as loaded_here
from jitctx.paths import is_inside

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.profiles import Profile

READ_TOOL = "read"  # the one tool after which OpenCode attaches nested instruction files


class OpenCodeFollower(Follower):
    def __init__(self, cwd: str) -> None:
        self.cwd = cwd

    def follows(self, tool_name: str, tool_input: Mapping[str, Any]) -> bool:
        """Its read tool loads the nested files only below the directory OpenCode runs in."""
        target = tool_input.get("filePath")
        if tool_name != READ_TOOL or not isinstance(target, str) or not target or "\0" in target:
            return False
        path = os.path.realpath(os.path.join(self.cwd, target))
        cwd = os.path.realpath(self.cwd)
        return path != cwd and is_inside(path, cwd)

    def shown_loaded(self, call: Mapping[str, Any]) -> frozenset[str] | None:
        """The files OpenCode's read tool says it attached (`metadata.loaded`, a field of its own that the
        plugin hands over; never the output's text); None for a call without that list. Another tool's
        result shows no load."""
        response = call.get("tool_response")
        loaded = response.get("loaded") if isinstance(response, dict) else None
        if not isinstance(loaded, list):
            return None
        if call.get("tool_name") != READ_TOOL:
            return frozenset()
        paths = PathResolver()
        return frozenset(real for path in loaded if (real := paths.real(path)) is not None)


class OpenCode(OpenCodeDialect, Client):
    title = "OpenCode"
    program = "opencode"
    package = "opencode-ai"
    profile_module = "jitctx.clients.opencode.profile"
    # The start answer lives in the system prompt, which every `opencode run` rebuilds from nothing: each
    # resume (`--continue`, `--session`) needs it again, while the tool outputs stay in the history.
    resume_drops_start = True
    start_answer_per_run = True

    def host_profile(
        self, root: str, environ: Mapping[str, str], home: str | None, follower: Follower | None = None
    ) -> Profile:
        cwd = follower.cwd if isinstance(follower, OpenCodeFollower) else None
        return loaded_here(root, environ, home, cwd)

    def follower(self, transcript: object, cwd: str, origin_pid: int | None = None) -> Follower:
        return OpenCodeFollower(cwd)


CLIENT = OpenCode()
