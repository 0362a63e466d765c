"""What jitctx must know of one live coding agent: five small protocols, one class per live client.

A live client is one folder of `jitctx.clients` and one line of `all_clients.CLIENTS`, the way pre-commit
keeps a language: everything that differs between agents is declared in its folder, and the rest of
jitctx asks the registry, never an agent's name. A `Client` is what its hook events need, in three parts,
with defaults for an agent with Claude-shaped hooks (`hookSpecificOutput.additionalContext`) that
loads nothing beyond its startup files by itself:

* `HookDialect`: the events it sends and how they read (`parse`), its tools and what each touches, and
  the answers it takes (`render`, `render_hold`);
* `OwnLoading`: what it loads by itself, and when (its profile, per release through its `Follower`);
* `EvidenceReader`: what its own records show reached the model (transcripts, forks).

What its records show against jitctx's over a whole session (`stats --drift`) is read by its folder's
`drift` module, when it has one (`all_clients.drift`): no hook loads it.

Its `Setup` is the other two, which only `install`, `uninstall` and `doctor` use, in the folder's
`setup` module (so a hook process never loads them):

* `Installer`: where its hooks are registered and how install writes them;
* `DoctorChecks`: the checks `jitctx doctor` runs for it.

`all_clients` checks each part when it registers. A client is a plain class with one instance in the
registry, and so is its setup.
"""

from __future__ import annotations

import importlib
from types import MappingProxyType
from typing import TYPE_CHECKING

from jitctx.hook.event import parse_claude_shaped
from jitctx.touched.tools import GENERIC, GENERIC_WRITES

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path
    from typing import Any

    from jitctx.clients.kit.checks import Check
    from jitctx.clients.kit.settings_file import HookEntry
    from jitctx.hook.event import HookEvent
    from jitctx.profiles import Profile
    from jitctx.touched.tools import Declaration


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

    def result_text(self, call: Mapping[str, Any]) -> str | None:
        """The text of the call's result that the model reads, where the client shows an edit's new
        lines there (an edit tool that echoes the edited file): an edited instruction file whose whole
        new text is in it arrived with the result. None: the result shows the model no such text."""
        return None


class HookDialect:
    """The client's hook dialect: its events, payloads, tools and answers. It is all the fast lane needs
    of a client (`all_clients.dialect`), so a client folder keeps it in its `dialect` module, apart from
    its own loading and evidence (its `client` module), which only the engine and the views load."""

    name: str = ""  # `jitctx hook NAME`, `jitctx install NAME`; also its profile's name
    aliases: tuple[str, ...] = ()  # other names the command line accepts (`jitctx hook gemini`)
    # How its hook events reach jitctx, the transports `install --transport` takes: a process each
    # (`command`: `jitctx hook NAME`), or the `hook_event` tool of the `jitctx mcp` server (`mcp`).
    transports: tuple[str, ...] = ("command",)
    # The hook events jitctx answers, in the client's own names.
    events: frozenset[str] = frozenset()
    # For a Claude-shaped dialect (`parse`): its event names -> kinds (`jitctx.hook.event`), and the tool
    # events that carry their calls as a `tool_calls` list.
    kinds: Mapping[str, str] = MappingProxyType({})
    batch_events: frozenset[str] = frozenset()
    # The module whose `TOOLS` (tool name -> what a call touches), `WRITES` and `sample_call` are the
    # client's own tools; "" for the generic names (jitctx.touched.tools).
    tools_module: str = ""
    # May the fast lane prove "nothing loads" for this client's tool events from the quick index?
    fast_lane: bool = False
    # Tools whose calls `after_tool_calls` records: the fast lane leaves such events to the engine.
    recorded_tools: frozenset[str] = frozenset()

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        """One hook payload as jitctx's canonical event; raises HookError when it is not one. By default
        a Claude-shaped payload, read with the dialect's `kinds`."""
        return parse_claude_shaped(self, payload, self.kinds, self.batch_events)

    def tools(self) -> Mapping[str, Declaration]:
        """The client's tools under its own names, each with what a call of it touches (its input's
        fields, read by one of jitctx.touched's kinds); a tool not in the table touches nothing."""
        if not self.tools_module:
            return GENERIC

        tools: Mapping[str, Declaration] = importlib.import_module(self.tools_module).TOOLS
        return tools

    def writes(self) -> frozenset[str]:
        """The client's tools whose touched paths are files the call writes (a file write or edit, a
        patch); what a shell call writes is read from its command."""
        if not self.tools_module:
            return GENERIC_WRITES

        writes: frozenset[str] = importlib.import_module(self.tools_module).WRITES
        return writes

    def sample_call(self, kind: str, path: str) -> tuple[str, dict[str, object]] | None:
        """A call of the client's own tool of `kind` on the absolute `path`, name and input as its hook
        payloads carry them, for previews of what a touch does. Kinds (jitctx.touched.samples.SAMPLE_KINDS):
        "read" (its file read tool), "write" (a new file), "edit" (an existing one), "shell_read" (`cat
        PATH` in its shell), "shell_write" (`printf x > PATH`). None when it has no such tool."""

        module = importlib.import_module(self.tools_module or "jitctx.touched.samples")
        call: tuple[str, dict[str, object]] | None = module.sample_call(kind, path)
        return call

    def render_hold(self, event_name: str, reason: str) -> dict[str, Any]:
        """The answer to a pre-tool event that denies the call, with `reason` for the model."""
        return {
            "hookSpecificOutput": {
                "hookEventName": event_name,
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }

    def render(self, event_name: str, text: str) -> dict[str, Any]:
        """The answer to a hook event that adds `text` to the model's context ({} for no text)."""
        if not text:
            return {}
        return {"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}}

    def compacted(self, transcript: object, since: int) -> bool | None:
        """After the client's compaction event (kind COMPACT), did it really compact its context since
        byte `since` of its transcript? A client whose event fires only when it compacts needs no
        records: None (it did, as far as jitctx can tell). A client whose event fires before every turn,
        compacting or not, answers from its records: False only where they prove it did not. Cheap: the
        fast lane asks it before answering a tool call without the engine, so it is read with the
        event, by the dialect."""
        return None

    def mcp_payload(self, fields: dict[str, Any]) -> dict[str, Any]:
        """The hook payload an `mcp_tool` hook's arguments stand for (`--transport mcp`); ValueError
        when they are not one."""
        raise ValueError(f"{self.name} has no mcp transport")

    def __repr__(self) -> str:
        return f"<dialect {self.name}>"


class OwnLoading:
    """What the client loads by itself, and when: its profile, and per event (per release) the calls
    after which it loads nested files itself (`follower`)."""

    # The module that holds the client's profile (`PROFILE`).
    profile_module: str = ""
    # Does the client rebuild a resumed conversation without its opening prompt, losing what jitctx sent at
    # the session's start (Gemini CLI 0.61)? Then the first resume sends those files again.
    resume_drops_start: bool = False
    # Does the client hold a SessionStart answer in the system prompt it rebuilds on every run (Qwen Code
    # 0.24)? Then every resume, not only the first, sends those files again.
    start_answer_per_run: bool = False

    def profile(self) -> Profile:
        """What the client reads by itself (its `--agent` profile)."""

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

    # Its compaction keeps the user's latest prompt and everything after it (Gemini CLI splits the history
    # at a user prompt): what arrived in that turn is still in context, and is not sent again.
    compaction_keeps_turn: bool = False

    def at_subagent_start(self, agent_type: str, own: Profile) -> Profile:
        """What the client gives a sub-agent of `agent_type` by itself when it starts ("" when the
        event does not say), from `own` (its `host_profile`): by default what it gives the main agent."""
        return own

    def follower(self, transcript: object, cwd: str, origin_pid: int | None = None) -> Follower:
        """What the client follows by itself in this event (`origin_pid`: a process below the client's,
        the hook's parent, when the transport knows one)."""
        return Follower()


class EvidenceReader:
    """What the client's own records show: what reached the model, which conversation a fork copied, what
    drifted from jitctx's records. Evidence counts only where the client alone writes it (DESIGN §2.12)."""

    # Does a sub-agent's event name the sub-agent's own transcript (Codex 0.171.0: its own rollout), so
    # that its records are evidence for its channel? Claude Code's name the main thread's.
    subagent_transcript: bool = False

    def forked_from(self, transcript: object, session_id: str) -> str | None:
        """The session a new session's conversation was copied from, when the client forks sessions."""
        return None

    def transcript_names(self, transcript: object) -> frozenset[str] | None:
        """The names a forked conversation's own records show arriving (real paths the client loaded,
        `Contents of DISPLAY` of jitctx's proven blocks), to tell which files the fork holds; None when
        the transcript cannot tell."""
        return None

    def delivered(self, transcript: object) -> Any:
        """What the client's transcript shows already reached the model (an object with
        `holds(path, display, text) -> bool`), or None when it shows nothing."""
        return None

    def after_tool_calls(self, context: Any, calls: Sequence[Mapping[str, Any]]) -> None:
        """Telemetry beyond discovery for a tool event (Claude Code's skill uses); never changes the
        answer, and raising here is only logged."""


class Installer:
    """Where the client's hooks are registered, and how `install` writes and `uninstall` removes them."""

    client: Client  # the client it installs, whose name its entries' commands carry

    # The settings scopes, lowest priority first.
    scopes: tuple[str, ...] = ("project", "user")
    # Does the client read project settings only in the folder it starts in (not the root's when started
    # in a subfolder)? install and doctor say so.
    settings_where_started: bool = False
    # Said after `install` (the trust step the client needs before it runs a hook), or "".
    install_note: str = ""
    # Does the client read its settings files as JSON with comments and trailing commas (Gemini CLI, Qwen
    # Code, Copilot CLI)? Then `doctor` reads such a file as the client does; install still refuses to
    # rewrite it, which would lose the comments.
    settings_comments: bool = False
    # Are the client's hooks a file of jitctx's own that the client loads (a plugin), at `settings_path`,
    # rather than entries in a settings file? Then `install_file` writes and removes it.
    hooks_file: bool = False
    # Where the settings file holds the client's status line command, as a path of keys (Claude Code:
    # `("statusLine",)`); () when it has none. `install --statusline` sets it to `jitctx statusline`
    # (clients.kit.status_line).
    status_line_setting: tuple[str, ...] = ()

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

    def install_file(self, path: Path, command: str | None, state: Path, dry_run: bool) -> Any:
        """For a client with `hooks_file`: write its hook file running `command` at `path`, or remove it
        (None). Returns what changed: `changes`, `changed`, `backup`, `diff`, `removed`."""
        raise NotImplementedError


class DoctorChecks:
    """What `jitctx doctor` checks for the client."""

    client: Client
    # What its `doctor` checks beyond every agent's (hooks, command, version), for `doctor --help`.
    doctor_note: str = ""

    def doctor(self, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
        """Checks of this client's setup (where its installer says hooks are), and whether jitctx's hooks
        are installed for it anywhere: each client's `doctor` module, on `clients.kit.doctor_kit`."""
        raise NotImplementedError


class Setup(Installer, DoctorChecks):
    """One live agent's setup: the two parts `install`, `uninstall` and `doctor` use, on the client it
    sets up. Each client folder's `setup` module has one (`SETUP`), which `all_clients.setup` hands out:
    a hook process never imports it."""

    def __init__(self, client: Client) -> None:
        self.client = client

    # The client's own identity, which install messages, entries' commands and doctor name.
    @property
    def name(self) -> str:
        return self.client.name

    @property
    def title(self) -> str:
        return self.client.title

    @property
    def program(self) -> str:
        return self.client.program

    @property
    def transports(self) -> tuple[str, ...]:
        return self.client.transports

    def __repr__(self) -> str:
        return f"<setup of {self.client.name}>"


class Client(HookDialect, OwnLoading, EvidenceReader):
    """One live agent as its hook events see it: the three parts a hook uses, and how people call it."""

    name: str = ""  # `jitctx hook NAME`, `jitctx install NAME`; also its profile's name
    title: str = ""  # for people: "Claude Code"
    program: str = ""  # its executable: `doctor` asks it for `--version`, install says where it runs
    package: str = ""  # where it comes from (npm), for messages and the README

    def __repr__(self) -> str:
        return f"<client {self.name}>"
