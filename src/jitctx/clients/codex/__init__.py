"""Codex (npm `@openai/codex`): hooks in `.codex/hooks.json` and `$CODEX_HOME/hooks.json`, each trusted by
the user with `/hooks`; reads AGENTS.override.md or AGENTS.md per directory from the root to the cwd at
start (and a sub-agent at its own start), and nothing while it works, so every nested file is jitctx's to
send. A sub-agent is a channel of its own in its parent's session (`hooks`); what reached the model is
read from the thread's rollout (`rollout`, `evidence`), and so is `stats --drift` (`drift`).

This module is the client as its hook events see it; the other modules of this folder: `profile`,
`tools`, `config` (the user's config.toml), `rollout` (its records read back), `evidence`, `drift`; and
for install and doctor only, `setup` (its `Setup`), `hooks` (install entries, settings places),
`doctor` (config.toml, `trust` records, the `plugin`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.hook.event import parse_claude_shaped

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from jitctx.clients.kit.transcript_drift import SessionDrift
    from jitctx.hook.event import HookEvent
    from jitctx.profiles import Profile

# Codex's event names for each kind (`event.parse_claude_shaped`; `hooks` describes the payloads).
KINDS = {
    "SessionStart": "start",
    "UserPromptSubmit": "prompt",
    "PreToolUse": "before_tool",
    "PostToolUse": "tools",
    "SubagentStart": "subagent",
}


class Codex(Client):
    name = "codex"
    title = "Codex"
    program = "codex"
    package = "@openai/codex"
    events = frozenset(KINDS)
    profile_module = "jitctx.clients.codex.profile"
    tools_module = "jitctx.clients.codex.tools"
    preload = ("jitctx.clients.codex.evidence",)
    # 0.171.0: a sub-agent's events name its own rollout, which holds the parent's conversation when it
    # was forked (`fork_turns: "all"`): its records are evidence for its channel.
    subagent_transcript = True

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        return parse_claude_shaped(self, payload, KINDS)

    def discovery_profile(
        self, every_format: Profile, root: str, environ: Mapping[str, str], home: str | None
    ) -> Profile:
        from jitctx.clients.codex.config import config_path, discovery_with_config, read_config

        return discovery_with_config(every_format, read_config(config_path(home, environ)))

    def host_profile(
        self, root: str, environ: Mapping[str, str], home: str | None, follower: Follower | None = None
    ) -> Profile:
        from jitctx.clients.codex.config import config_path, read_config, with_config

        return with_config(self.profile(), read_config(config_path(home, environ)))

    def delivered(self, transcript: object) -> Any:
        from jitctx.clients.codex.evidence import delivered

        return delivered(transcript)

    def drift(
        self,
        session_id: str,
        root: str,
        host_loaded: Sequence[str],
        home: str | None,
        environ: Mapping[str, str],
    ) -> SessionDrift | None:
        from jitctx.clients.codex.drift import session_drift

        return session_drift(session_id, root, host_loaded, home, environ)


CLIENT = Codex()
