"""Codex (npm `@openai/codex`): hooks in `.codex/hooks.json` and `$CODEX_HOME/hooks.json`, each trusted by
the user with `/hooks`; reads AGENTS.override.md or AGENTS.md per directory from the root to the cwd at
start, and nothing while it works, so every nested file is jitctx's to send.

The modules of this folder: `profile`, `hooks` (events, install entries, settings places), `doctor`
(config.toml, trust records, the plugin).
"""

from __future__ import annotations

from jitctx.clients.base import Client, Follower

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from jitctx.clients.checks import Check
    from jitctx.clients.settings_file import HookEntry
    from jitctx.profiles import Profile

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
    events = frozenset({"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"})
    profile_module = "jitctx.clients.codex.profile"
    tools_module = "jitctx.clients.codex.tools"
    scopes = ("project", "user")
    install_note = TRUST_NOTE

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
