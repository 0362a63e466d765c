"""Codex (npm `@openai/codex`): hooks in `.codex/hooks.json` and `$CODEX_HOME/hooks.json`, each trusted by
the user with `/hooks`; reads AGENTS.override.md or AGENTS.md per directory from the root to the cwd at
start (and a sub-agent at its own start), and nothing while it works, so every nested file is jitctx's to
send. A sub-agent is a channel of its own in its parent's session (`hooks`); what reached the model is
read from the thread's rollout (`rollout`, `evidence`), and so is `stats --drift` (`drift`).

The modules of this folder: `profile`, `hooks` (events, install entries, settings places), `config` (the
user's config.toml), `rollout` (its records read back), `evidence`, `drift`, `doctor` (config.toml,
`trust` records, the `plugin`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.clients.event import parse_claude_shaped

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path
    from typing import Any

    from jitctx.clients.event import HookEvent
    from jitctx.clients.kit.checks import Check
    from jitctx.clients.kit.settings_file import HookEntry
    from jitctx.clients.kit.transcript_drift import SessionDrift
    from jitctx.profiles import Profile

# Codex's event names for each kind (`event.parse_claude_shaped`; `hooks` describes the payloads).
KINDS = {
    "SessionStart": "start",
    "UserPromptSubmit": "prompt",
    "PreToolUse": "before_tool",
    "PostToolUse": "tools",
    "SubagentStart": "subagent",
}

TRUST_NOTE = """\
jitctx: Codex runs a new or changed hook only after you trust it: start Codex, type /hooks, and trust
        the jitctx hooks (a project's .codex/ is read only in a folder Codex trusts, too).
        Check with `jitctx doctor`: it reads the trust Codex recorded in ~/.codex/config.toml
        ($CODEX_HOME/config.toml), the [hooks.state."<hooks.json>:<event>:<group>:<handler>"] tables."""


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
    scopes = ("project", "user")
    install_note = TRUST_NOTE

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

    def settings_path(self, scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
        from jitctx.clients.codex.hooks import settings_path

        return settings_path(scope, root, home, environ.get("CODEX_HOME") or None)

    def entries(self, transport: str = "command") -> tuple[HookEntry, ...]:
        from jitctx.clients.codex.hooks import ENTRIES

        return ENTRIES

    def doctor(self, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
        from jitctx.clients.codex.doctor import doctor

        return doctor(self, root, home, environ)


CLIENT = Codex()
