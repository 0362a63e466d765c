"""Codex as the engine and the views see it: its hook dialect, what it loads by itself (its profile as
the user's config.toml changes it) and what its rollout shows (`jitctx.clients.base.Client`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.clients.codex.config import config_path, discovery_with_config, read_config, with_config
from jitctx.clients.codex.dialect import CodexDialect
from jitctx.clients.codex.evidence import delivered

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.profiles import Profile


class Codex(CodexDialect, Client):
    title = "Codex"
    program = "codex"
    package = "@openai/codex"
    profile_module = "jitctx.clients.codex.profile"
    # 0.171.0: a sub-agent's events name its own rollout, which holds the parent's conversation when it
    # was forked (`fork_turns: "all"`): its records are evidence for its channel.
    subagent_transcript = True

    def discovery_profile(
        self, every_format: Profile, root: str, environ: Mapping[str, str], home: str | None
    ) -> Profile:
        return discovery_with_config(every_format, read_config(config_path(home, environ)))

    def host_profile(
        self, root: str, environ: Mapping[str, str], home: str | None, follower: Follower | None = None
    ) -> Profile:
        return with_config(self.profile(), read_config(config_path(home, environ)))

    def delivered(self, transcript: object) -> Any:
        return delivered(transcript)


CLIENT = Codex()
