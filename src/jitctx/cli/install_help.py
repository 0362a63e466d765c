"""The epilogs of `jitctx install --help` and `jitctx uninstall --help`.

Where each client's entries go is read from the client registry: every client lists its scopes and
says where a scope's settings file is, so the table is the clients' own paths rendered with `<root>`
and `~` in place of a real project and home.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from jitctx.clients import all_clients

if TYPE_CHECKING:
    from collections.abc import Iterable

    from jitctx.clients.base import Setup

INSTALL_INTRO = """\
Merges jitctx's hook entries into the agent's settings file and leaves everything else in it as it was.
Installing twice changes nothing (the file is not even rewritten). Before any change the old file is copied
to the state dir, <state dir>/settings-backups/<folder>-<hash>/NAME.bak-<timestamp> (out of the repository;
the output names it). A file that is not valid JSON, not a JSON object, or whose 'hooks' has the wrong
type is refused (exit 2) and left alone; so is a settings file or folder that is a dangling symlink.
Values jitctx does not change keep their text, numbers included.
"""

INSTALL_DETAILS = """\
The command written into the project scope's file, which is committed and runs on every teammate's
machine, is always `jitctx hook AGENT`, guarded where the client runs it through a shell:
  command -v jitctx >/dev/null 2>&1 && exec jitctx hook AGENT || echo '{}'
It names no path of this machine; where jitctx is on PATH (installed once per user: pipx install
DIR-OR-WHEEL, with a checkout of jitctx or its wheel; or uv tool install) it runs it, and elsewhere it
answers {} and exits 0, so a teammate without jitctx runs the agent as before, without jitctx's context.
install says whether the file is committed yet, and warns when this shell finds no such jitctx. The
local and user scopes stay on this machine and get what runs here from any shell: `jitctx hook AGENT`
when `jitctx` is on PATH; the absolute path of that `jitctx` when it is on PATH only through the active
virtualenv ($VIRTUAL_ENV); else the absolute `PYTHON -m jitctx hook AGENT` of this installation.
--command replaces it, as given (in the project scope, install warns about a machine path, or a bare
command; `jitctx doctor` checks the committed command for both). Codex runs a new hook only after you
trust it: open /hooks in Codex once after installing; `jitctx doctor` shows whether Codex recorded that
trust.

--transport mcp (claude-code, project or user scope): PostToolBatch, UserPromptSubmit and SubagentStart
become `mcp_tool` hooks answered by the `jitctx mcp` server, which Claude Code starts with the session and
keeps (stdio: no port, nothing another user can reach), so a tool call costs no new process. The server
is registered as `jitctx` in <root>/.mcp.json (approved in the settings file by enabledMcpjsonServers) or,
for --scope user, in ~/.claude.json. SessionStart and InstructionsLoaded stay commands: Claude Code cannot
ask an MCP server at session start, and discards InstructionsLoaded answers. Needs the extra
`jitctx[mcp]`. uninstall removes both kinds of entry and the server.

--warm writes `jitctx hook AGENT --warm` for every command hook (with --transport mcp, the ones that stay
commands): each hook process hands its event to a jitctx process of yours that stays up, and starts about
as fast as `python -c pass` plus a socket round trip (see `jitctx hook --help`). Installing without --warm
takes it away again.

--statusline, for an agent with a status line command (asked of one without, install names those that
have one), also sets it in the same settings file to `jitctx statusline`: after every message, one line
with the instruction files in the session's context now, what they weigh and the last to arrive (see
`jitctx statusline --help`). The local and user scopes
get this installation's jitctx by its absolute path; the project scope `jitctx statusline` from PATH, and
install notes that every teammate then sees it instead of their own. A status line of yours, in this
file or in another scope's (which would be shown instead, or hidden behind jitctx's), is left as it is:
install says where, sets nothing, and still exits 0. Installing without --statusline keeps a status
line it set; uninstall removes it, and only one that runs `jitctx statusline`.

examples:
  jitctx install --dry-run
  jitctx install claude-code --dry-run
  jitctx install claude-code --scope local --statusline
  jitctx install claude-code --transport mcp
  jitctx install codex --warm
  jitctx install claude-code --scope user
  jitctx install codex --root ~/src/app --json
"""

UNINSTALL_HELP = """\
Removes jitctx's hook entries (commands running `jitctx hook AGENT`), and jitctx's status line (one
running `jitctx statusline`), from the agent's settings file and nothing else; a matcher group or event
left empty by that goes too. The old file is kept in the state
dir, as install does. A settings file that install created and that is left empty (`{}`) is deleted, and
so is a folder made for it (`.claude/`) when nothing else is in it. Same scopes and paths as `jitctx install`.

Without AGENT: every agent, found on this machine or not (its program may be gone while its settings
keep jitctx's hooks), each as `jitctx uninstall AGENT` would; one with nothing to remove is left as it
is. Exit 0 when every removal succeeded; when one fails, the others are still removed, the failure is
reported, and the exit is 1. --json: one document, as for `jitctx install` without AGENT.

examples:
  jitctx uninstall --dry-run
  jitctx uninstall claude-code --dry-run
  jitctx uninstall codex --scope user
"""

# A scope means the same for every client; its meaning is said once, on the first row that has it.
SCOPE_NOTES = {
    "project": "committed, shared with the team",
    "local": "this checkout only",
    "user": "every project",
}


EVERY_AGENT = """\
Without AGENT: every agent found on this machine, by its program on PATH or its user folder:
{found}
Each gets what `jitctx install AGENT` would write, with the same --scope, --root, --dry-run, --warm and
--json; an agent that has no such scope (--scope local) is skipped with a note, and so is one not found.
A table names each agent: installed, updated, unchanged, skipped (not found, no such scope) or failed,
then the notes each install says (the trust steps). --command and --transport mcp are for one agent:
name it. Exit 0 when every agent found was installed; when one fails, the others are installed all the
same, the failure is reported, and the exit is 1; exit 1 too when no agent is found (name one to install
it anyway); exit 2 on a usage error, before any file is written. --json: one document, `found`,
`skipped`, and `results` (one item per agent, shaped as `jitctx install AGENT --json`, or its `error`).
"""


def install_help() -> str:
    every = EVERY_AGENT.format(found=found_where())
    return f"{INSTALL_INTRO}\nWhere the entries go:\n{where_entries_go()}\n{every}\n{INSTALL_DETAILS}"


def found_where(setups: Iterable[Setup] | None = None) -> str:
    """One row per client: the program looked for on PATH, and the user folder looked for."""
    if setups is None:
        setups = all_clients.every_setup()
    rows = []
    for setup in setups:
        asked = _AskedEnviron()
        folder = setup.user_folder("~", asked)
        shown = "" if folder is None else folder.as_posix()
        moved = []
        for name in dict.fromkeys(asked.names):
            # An absolute-looking value: a client may take only an absolute one ($QWEN_HOME).
            other = setup.user_folder("~", {name: f"/${name}"})
            if other is not None and other.as_posix() != shown:
                moved.append(other.as_posix().removeprefix("/"))
        where = " or ".join([shown, *moved]) if shown else "-"
        rows.append((setup.name, setup.program or "-", where))
    widths = [max(len(row[column]) for row in rows) for column in range(2)]
    return (
        "\n".join(
            f"  {name:<{widths[0]}}  {program:<{widths[1]}}  {where}".rstrip()
            for name, program, where in rows
        )
        + "\n"
    )


def where_entries_go(setups: Iterable[Setup] | None = None) -> str:
    """One row per client and scope: the settings file, and what the scope means or what moves it."""
    if setups is None:
        setups = all_clients.every_setup()
    rows: list[tuple[str, str, str, list[str]]] = []
    explained: set[str] = set()
    for setup in setups:
        for number, scope in enumerate(setup.scopes):
            asked = _AskedEnviron()
            path = _shown(setup, scope, asked)
            notes = [] if scope in explained or scope not in SCOPE_NOTES else [SCOPE_NOTES[scope]]
            explained.add(scope)
            notes += _moved_by(setup, scope, path, asked.names)
            rows.append((setup.name if number == 0 else "", f"--scope {scope}", path, notes))
    widths = [max((len(row[column]) for row in rows), default=0) for column in range(3)]
    lines = []
    for name, scope, path, notes in rows:
        line = f"  {name:<{widths[0]}}  {scope:<{widths[1]}}  {path:<{widths[2]}}"
        lines.append(f"{line}  ({'; '.join(notes)})" if notes else line.rstrip())
    return "\n".join(lines) + "\n"


def _shown(setup: Setup, scope: str, environ: Mapping[str, str]) -> str:
    return setup.settings_path(scope, "<root>", "~", environ).as_posix()


def _moved_by(setup: Setup, scope: str, path: str, names: Iterable[str]) -> list[str]:
    """The other place of a scope's file for each variable the client looked up that moves it."""
    notes = []
    for name in dict.fromkeys(names):
        moved = _shown(setup, scope, {name: f"${name}"})
        if moved != path:
            notes.append(f"{moved} when set" if moved.startswith(f"${name}") else f"{moved} with ${name} set")
    return notes


class _AskedEnviron(Mapping[str, str]):
    """An empty environment that remembers which variables were looked up in it."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def __getitem__(self, name: str) -> str:
        self.names.append(name)
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0
