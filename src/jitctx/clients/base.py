"""What jitctx must know of one live coding agent, behind one protocol.

A live client is one folder of `jitctx.clients` and one line of `all_clients.CLIENTS`, the way pre-commit
keeps a language: everything that differs between agents is a method or an attribute here, and the rest
of jitctx asks the registry, never an agent's name. The defaults describe an agent with Claude-shaped
hooks (`hookSpecificOutput.additionalContext`) that loads nothing beyond its startup files by itself.

The hook path imports this module on every event, so it imports nothing at load time and builds no
dataclass: a client is a plain class with one instance in the registry.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs every hook call milliseconds
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path
    from typing import Any

    from jitctx.clients.checks import Check
    from jitctx.clients.event import HookEvent
    from jitctx.clients.settings_file import HookEntry
    from jitctx.clients.transcript_drift import SessionDrift
    from jitctx.profiles import Profile


class Follower:
    """Which touched paths a client follows by itself, loading their nested instruction files the way
    it does after its own read tool. One per hook event: it may read the client's release once.

    The default follows nothing: every nested file is jitctx's to send."""

    def follows(self, tool_name: str, tool_input: Mapping[str, Any]) -> bool:
        """Does the client load the nested files of every path this call touched?"""
        return False

    def shell_read(self, tool_name: str, tool_input: Mapping[str, Any], cwd: str) -> str | None:
        """The one file (absolute) a shell call reads that the client itself treats as read, else None."""
        return None

    def follows_mentions(self) -> bool:
        """Does the client attach a file named by `@path` in a prompt, loading its nested files?"""
        return False

    def leaves_written(self, tool_name: str) -> bool:
        """Does the client leave out an instruction file this tool itself wrote (it holds the text as
        the model's own edit, not as an instruction), so that jitctx must send it?"""
        return False

    def shown_loaded(self, call: Mapping[str, Any]) -> frozenset[str] | None:
        """The instruction files (real absolute paths) the call's own result shows the client loading,
        when the client says so there; None when the result tells nothing, and the prediction of
        `follows` stands. Evidence narrows the prediction, never widens it: a file predicted but not
        shown goes out (a possible duplicate, never a lost rule)."""
        return None


class Client:
    """One live agent: its profile, hook dialect, settings and install entries, and doctor checks."""

    name: str = ""  # `jitctx hook NAME`, `jitctx install NAME`; also its profile's name
    title: str = ""  # for people: "Claude Code"
    program: str = ""  # the executable `doctor` asks for `--version`
    package: str = ""  # where it comes from (npm), for messages and the README
    aliases: tuple[str, ...] = ()  # other names the command line accepts
    # The hook events jitctx answers, in the client's own names, and the module that holds the profile.
    events: frozenset[str] = frozenset()
    profile_module: str = ""
    # May the fast lane prove "nothing loads" for this client's tool events from the quick index?
    fast_lane: bool = False
    # Tools whose calls `after_tool_calls` records: the fast lane leaves such events to the engine.
    recorded_tools: frozenset[str] = frozenset()
    # Install: the settings scopes, lowest priority first; the transports `install --transport` takes.
    scopes: tuple[str, ...] = ("project", "user")
    transports: tuple[str, ...] = ("command",)
    # Does the client read project settings only in the folder it starts in (not the root's when started
    # in a subfolder)? install and doctor say so.
    settings_where_started: bool = False
    # Does the client rebuild a resumed conversation without its opening prompt, losing what jitctx sent at
    # the session's start (Gemini CLI 0.61)? Then the first resume sends those files again.
    resume_drops_start: bool = False
    # Does the client hold a SessionStart answer in the system prompt it rebuilds on every run (Qwen Code
    # 0.24)? Then every resume, not only the first, sends those files again.
    start_answer_per_run: bool = False
    # The client's own modules an event imports, loaded by the warm daemon before it serves.
    preload: tuple[str, ...] = ()
    # Said after `install` (the trust step the client needs before it runs a hook), or "".
    install_note: str = ""
    # Are the client's hooks a file of jitctx's own that the client loads (a plugin), at `settings_path`,
    # rather than entries in a settings file? Then `install_file` writes and removes it.
    hooks_file: bool = False

    # -- what it reads -----------------------------------------------------------------------------------

    def profile(self) -> Profile:
        """What the client reads by itself (its `--agent` profile)."""
        import importlib

        profile: Profile = importlib.import_module(self.profile_module).PROFILE
        return profile

    def discovery_profile(
        self, every_format: Profile, root: str, environ: Mapping[str, str], home: str | None
    ) -> Profile:
        """The profile the hook discovers with: jitctx's (every format), read as this client reads its
        own files (Claude Code ignores the scope of a nested CLAUDE.md; Codex takes one of its files per
        directory)."""
        return every_format

    def host_profile(
        self, root: str, environ: Mapping[str, str], home: str | None, follower: Follower | None = None
    ) -> Profile:
        """What the client loads by itself in this project and environment (its config may rename or add
        instruction files; `follower` knows the event's release); the hook leaves exactly that to it."""
        return self.profile()

    # -- its hook dialect --------------------------------------------------------------------------------

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        """One hook payload as jitctx's canonical event; raises HookError when it is not one."""
        from jitctx.clients.event import parse_claude_shaped

        return parse_claude_shaped(self, payload)

    def map_tool(self, tool_name: str, tool_input: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
        """The client's tool name and input as the touched-paths registry (jitctx.touched) knows them."""
        return tool_name, tool_input

    def render(self, event_name: str, text: str) -> dict[str, Any]:
        """The answer to a hook event that adds `text` to the model's context ({} for no text)."""
        if not text:
            return {}
        return {"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}}

    def follower(self, transcript: object, cwd: str, origin_pid: int | None = None) -> Follower:
        """What the client follows by itself in this event (`origin_pid`: a process below the client's,
        the hook's parent, when the transport knows one)."""
        return Follower()

    def forked_from(self, transcript: object, session_id: str) -> str | None:
        """The session a new session's conversation was copied from, when the client forks sessions."""
        return None

    def transcript_names(self, transcript: object) -> frozenset[str] | None:
        """The names a forked conversation's own records show arriving (real paths the client loaded,
        `Contents of DISPLAY` of jitctx's proven blocks), to tell which files the fork holds; None when
        the transcript cannot tell."""
        return None

    def mcp_payload(self, fields: dict[str, Any]) -> dict[str, Any]:
        """The hook payload an `mcp_tool` hook's arguments stand for (`--transport mcp`); ValueError
        when they are not one."""
        raise ValueError(f"{self.name} has no mcp transport")

    def delivered(self, transcript: object) -> Any:
        """What the client's transcript shows already reached the model (an object with
        `holds(path, display, text) -> bool`), or None when it shows nothing."""
        return None

    def drift(
        self,
        session_id: str,
        root: str,
        host_loaded: Sequence[str],
        home: str | None,
        environ: Mapping[str, str],
    ) -> SessionDrift | None:
        """What the client's own transcript of a session shows against jitctx's records of it: files that
        reached the model more than once, and `host_loaded` files (those jitctx took the client to load)
        it never showed loading. None when the client keeps no transcript jitctx reads."""
        return None

    def after_tool_calls(self, context: Any, calls: Sequence[Mapping[str, Any]]) -> None:
        """Telemetry beyond discovery for a tool event (Claude Code's skill uses); never changes the
        answer, and raising here is only logged."""

    # -- install and doctor ------------------------------------------------------------------------------

    def settings_path(self, scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
        raise NotImplementedError

    def user_folder(self, home: str, environ: Mapping[str, str]) -> Path | None:
        """The client's own folder for this user (`~/.claude`, `$CODEX_HOME`), whose presence says the
        client is used on this machine; None without a user scope. By default, the folder of the user
        scope's settings file."""
        if "user" not in self.scopes:
            return None
        return self.settings_path("user", "", home, environ).parent

    def entries(self, transport: str = "command") -> tuple[HookEntry, ...]:
        raise NotImplementedError

    def install_entries(self, data: dict[str, Any], command: str) -> tuple[dict[str, Any], list[Any]]:
        """`data` (the settings file) with this client's hook entries running `command`."""
        from jitctx.clients import settings_file

        return settings_file.install(data, self.entries(), command, self.name)

    def install_file(self, path: Path, command: str | None, state: Path, dry_run: bool) -> Any:
        """For a client with `hooks_file`: write its hook file running `command` at `path`, or remove it
        (None). Returns what changed: `changes`, `changed`, `backup`, `diff`, `removed`."""
        raise NotImplementedError

    def doctor(self, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
        """Checks of this client's setup, and whether jitctx's hooks are installed for it anywhere."""
        from jitctx.clients.doctor_kit import settings_checks

        places = [(scope, self.settings_path(scope, root, home or "", environ)) for scope in self.scopes]
        if home is None:
            places = [(scope, path) for scope, path in places if scope != "user"]
        return settings_checks(self, places)

    def __repr__(self) -> str:
        return f"<client {self.name}>"
