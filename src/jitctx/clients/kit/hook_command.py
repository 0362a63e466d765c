"""The command a hook entry runs, and how jitctx knows its own: the forms that keep a client working on a
machine without jitctx (`guard`) or with a jitctx that fails (`fail_safe`), and the reading back of any
of them (`unguard`, `is_jitctx_command`). Settings files, the MCP transport's server entry and doctor all
read commands through here."""

from __future__ import annotations

import os
import re
import shlex

# The committed scope's command runs on every teammate's machine, with or without jitctx. Guarded, it
# runs jitctx where jitctx is on PATH (exec: its answer and exit status are the hook's) and elsewhere
# prints `{}`, the answer every client's hooks take for "nothing to add", and exits 0. Bare, a machine
# without jitctx fails every hook with exit 127 and the shell's "command not found", which one client
# turns into a deny of every prompt (tests/e2e/test_without_jitctx.py). The clients run a hook command
# through a POSIX shell on Linux and macOS ($SHELL, bash or /bin/sh); the form holds in sh, dash, bash,
# zsh and fish.
_GUARD = "command -v jitctx >/dev/null 2>&1 && exec "
_FALLBACK = " || echo '{}'"
_GUARDED = re.compile(
    r"\s*command\s+-v\s+jitctx\s*>\s*/dev/null\s+2>&1\s*&&\s*(?P<exec>exec\s+)?(?P<command>.+?)"
    r"\s*\|\|\s*echo\s+'\{\}'\s*",
    re.DOTALL,
)
# Some clients take a failing hook for a deny: Copilot CLI denies the tool call when a preToolUse hook
# exits non-zero, Gemini CLI when any hook exits with a code other than 0 or 1 (127, "command not found",
# blocks every prompt and call). Their commands must exit 0 whatever jitctx does, so the fallback also
# answers for a jitctx that is there but fails: `jitctx hook AGENT || echo '{}'`, and the guarded form
# without `exec` (a shell that exec'd has no fallback left). A jitctx that fails after printing part of
# an answer leaves text that is not one JSON document, which these clients let through (exit 0).
_FALLING_BACK = re.compile(r"(?P<command>.+?)\s*\|\|\s*echo\s+'\{\}'\s*", re.DOTALL)


def guard(command: str) -> str:
    """`command` (a `jitctx hook AGENT` command) run only where jitctx is on PATH; elsewhere `{}`."""
    return f"{_GUARD}{command}{_FALLBACK}"


def fail_safe(command: str) -> str:
    """`command` (a `jitctx hook AGENT` command, bare or guarded) in the form that answers `{}` and exits 0
    when jitctx is missing or fails: a guarded one without its `exec`, a bare one with the fallback."""
    if is_fail_safe(command):
        return command
    invocation = unguard(command)
    if is_guarded(command):
        return f"{_GUARD.removesuffix('exec ')}{invocation}{_FALLBACK}"
    return f"{invocation}{_FALLBACK}"


def is_fail_safe(command: str) -> bool:
    """Does the command exit 0 whatever the jitctx it runs does (`fail_safe`'s forms)?"""
    guarded = _GUARDED.fullmatch(command)
    if guarded is not None:
        return guarded.group("exec") is None
    return _FALLING_BACK.fullmatch(command) is not None


def unguard(command: str) -> str:
    """The jitctx command a hook command runs: the one inside `guard`'s or `fail_safe`'s form, else the
    command itself."""
    found = _GUARDED.fullmatch(command) or _FALLING_BACK.fullmatch(command)
    return found.group("command") if found else command


def is_guarded(command: str) -> bool:
    """Does the command run jitctx only where it is on PATH (`guard`'s form, with or without `exec`)?"""
    return _GUARDED.fullmatch(command) is not None


def is_jitctx_command(command: object, agent: str) -> bool:
    """Is this a command that runs `jitctx hook AGENT` (as `jitctx ...` or `python -m jitctx ...`), bare
    or guarded?"""
    return isinstance(command, str) and runs_jitctx(unguard(command), "hook", agent)


def runs_jitctx(command: str, *args: str) -> bool:
    """Does this command run `jitctx ARGS...` (the program by name or path, `python -m jitctx`, or after
    `env A=1`), and not merely name it (`echo jitctx hook ...`)?"""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    wanted = list(args)
    for index in range(len(words) - len(wanted)):
        if words[index + 1 : index + 1 + len(wanted)] != wanted:
            continue
        if os.path.basename(words[index]) not in ("jitctx", "jitctx.exe"):
            continue
        before = words[:index]
        if (before and before[-1] == "-m") or all(w == "env" or _ASSIGNMENT.match(w) for w in before):
            return True
    return False


_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
