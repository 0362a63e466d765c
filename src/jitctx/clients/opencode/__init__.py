"""OpenCode (npm `opencode-ai`): no command hooks; jitctx installs a plugin (`.opencode/plugins/jitctx.js`
or `~/.config/opencode/plugins/jitctx.js`) that hands each tool call and each session's start to
`jitctx hook opencode` and adds the answer to the tool's output or the system prompt.

Seen in 1.18.33, against a scripted model: at start the system prompt holds one user file (the first of
`~/.config/opencode/AGENTS.md`, `~/.claude/CLAUDE.md`) and, of AGENTS.md, CLAUDE.md and CONTEXT.md, the
first name found from the cwd up to the worktree (so a root AGENTS.md hides the root CLAUDE.md). Its `read`
tool appends to its output, per directory from the file's up to the cwd (not the cwd itself), the first of
those three names, as `<system-reminder>Instructions from: /abs/path ...`, and lists them in the result's
`metadata.loaded`; a file loaded by an earlier read of the session is not attached again. write, edit,
bash, glob and grep attach nothing. The plugin's `tool.execute.after` receives `{tool, sessionID, callID,
args}` and the result, whose `output` it may extend; its `tool.execute.before` receives `{tool,
sessionID, callID}` and `{args}` before the call runs, and an error it throws stops the call, its
message the model's result (so jitctx holds back a write whose rules are not in context, DESIGN §2.11);
`experimental.chat.system.transform` runs before every model request (titles included) with
`{sessionID, model}` and the system prompt's parts. Its `task` tool runs a sub-agent in a child session:
`session.created` names the parent (`info.parentID`, the only place it appears), the child's requests and
tool calls run those hooks with the child's id, and its system prompt is built as any session's (the root
AGENTS.md in it); the parent reads only its final text. The plugin hands the child's events over as a
sub-agent's of the parent (a channel of its own). It compacts a session whose reply reaches the model's
window into a summary followed by the recent part of the conversation, verbatim, as far as it fits in
`compaction.preserve_recent_tokens` (by default the lesser of 15,000 tokens and a quarter of the window;
nothing when the whole conversation fits), and publishes `session.compacted`. Plugins
run only from a project's `.opencode/` (found from the cwd up to the worktree) or the user's config
folder; `--pure` and OPENCODE_PURE run none. There is no trust step.

This module is the client as its hook events see it; the other modules of this folder: `profile`,
`tools`, `loading` (what it loads in one project and cwd); and for install and doctor only, `setup`
(its `Setup`), `hooks` (the plugin's events and places), `plugin` (writing and removing the plugin
file), `doctor`; the plugin itself is `jitctx_plugin.js`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.clients.kit.evidence_paths import PathResolver
from jitctx.hook.event import parse_claude_shaped
from jitctx.paths import is_inside

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.hook.event import HookEvent
    from jitctx.profiles import Profile

KINDS = {
    "tool.execute.before": "before_tool",
    "tool.execute.after": "tools",
    "session.start": "start",
    "subagent.start": "subagent",
}
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


class OpenCode(Client):
    name = "opencode"
    title = "OpenCode"
    program = "opencode"
    package = "opencode-ai"
    events = frozenset(KINDS)
    profile_module = "jitctx.clients.opencode.profile"
    tools_module = "jitctx.clients.opencode.tools"
    fast_lane = True
    # The start answer lives in the system prompt, which every `opencode run` rebuilds from nothing: each
    # resume (`--continue`, `--session`) needs it again, while the tool outputs stay in the history.
    resume_drops_start = True
    start_answer_per_run = True

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        return parse_claude_shaped(self, payload, KINDS)

    def render_hold(self, event_name: str, reason: str) -> dict[str, Any]:
        return {"decision": "deny", "reason": reason}  # the plugin throws Error(reason)

    def host_profile(
        self, root: str, environ: Mapping[str, str], home: str | None, follower: Follower | None = None
    ) -> Profile:
        from jitctx.clients.opencode.loading import host_profile

        cwd = follower.cwd if isinstance(follower, OpenCodeFollower) else None
        return host_profile(root, environ, home, cwd)

    def follower(self, transcript: object, cwd: str, origin_pid: int | None = None) -> Follower:
        return OpenCodeFollower(cwd)


CLIENT = OpenCode()
