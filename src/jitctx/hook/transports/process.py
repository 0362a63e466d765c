"""The process transport: one hook event on stdin, its answer on stdout, in a process of its own.

`answer` is what `jitctx hook AGENT` does once the command line has said where state lives and whose
home it is: it hands the event to the warm daemon when asked to (`transports.warm`), else to the one
pipeline (`hook.pipeline.respond`), whose answer is written here before the session state is saved. It
always returns 0, whatever happens: a hook never blocks the agent. The pipeline is loaded only when the
warm daemon did not answer: a warm hook never loads it.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING

from jitctx.hook import DEADLINE_S, MAX_INPUT
from jitctx.hook.transports import readable

if TYPE_CHECKING:
    from typing import Any, BinaryIO


def answer(
    agent: str,
    raw: bytes,
    *,
    state_dir: str,
    home: str | None,
    use_git: bool,
    problem: str | None = None,
    warm: bool = False,
    stdout: Any = None,
) -> int:
    """Answer one event read as `raw` (or the `problem` that kept it from being read): through the warm
    daemon (`warm`), else the pipeline in this process, with the hook's deadline."""
    if problem is None and warm and ask_warm(agent, raw, state_dir, use_git):
        return 0
    from jitctx.hook.pipeline import respond  # only now: see the module's docstring

    # The answer is written before the session state is saved (see hook.pipeline): a file that never
    # reached the agent is sent again on the next event.
    respond(
        agent,
        raw,
        state_dir=state_dir,
        home=home,
        use_git=use_git,
        report=report_line,
        deliver=lambda result: emit(result, stdout),
        problem=problem,
        origin_pid=os.getppid(),  # the shell the client started this hook from
        deadline_s=DEADLINE_S,
    )
    return 0


def unanswerable(agent: str, why: object, stdout: Any = None) -> int:
    """No place for state (no home, no private directory): nothing to keep, nothing to log; `{}`."""
    report_line(f"jitctx hook {agent}: {why} (answered {{}})")
    write_quietly({}, stdout)
    return 0


def ask_warm(agent: str, raw: bytes, state_dir: str, use_git: bool) -> bool:
    """Whether the warm daemon answered (`transports.warm.client`); False: answer here, from the same
    bytes."""

    if len(raw) > MAX_INPUT:
        return False  # the pipeline refuses it with its own message; no need to ship 8 MiB to be told so
    try:
        from jitctx.hook.transports.warm.client import ask  # only with --warm

        # Absolute: the daemon does not share this process's current directory.
        return ask(agent, raw, os.path.abspath(state_dir), use_git, write_answer)
    except Exception:  # --warm is an optimisation: any surprise is answered here, as without it
        return False


def read_input(stream: BinaryIO) -> tuple[bytes, str | None]:
    """At most MAX_INPUT bytes of the event, or the problem that stops it being answered."""

    try:
        raw = stream.read(MAX_INPUT + 1)
    except (OSError, ValueError) as exc:  # a closed or unreadable stdin is bad input like any other
        return b"", f"cannot read stdin ({exc})"
    if len(raw) > MAX_INPUT:
        return b"", f"hook input is larger than {MAX_INPUT // 2**20} MiB; not read"
    return raw, None


def report_line(line: str) -> None:
    try:
        print(line, file=sys.stderr)
    except (OSError, ValueError):
        pass


def write_quietly(result: dict[str, Any], stdout: Any) -> None:
    try:
        emit(result, stdout)
    except (OSError, ValueError):  # the agent stopped listening; nothing left to do
        pass


def answer_bytes(result: dict[str, Any]) -> bytes:
    """One answer as the hook prints it: a line of JSON in UTF-8."""

    text = json.dumps(result, ensure_ascii=False) + "\n"
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a file name that is not UTF-8 (see hook.transports.readable)
        return (json.dumps(readable(result), ensure_ascii=False) + "\n").encode("utf-8")


def emit(result: dict[str, Any], stdout: Any) -> None:
    """Write and flush one answer; raises OSError or ValueError when it could not be written."""
    write_answer(answer_bytes(result), stdout)


def write_answer(data: bytes, stdout: Any = None) -> None:
    """Write and flush an answer's bytes to `stdout` (a text stream), else to this process's stdout;
    raises OSError or ValueError when they could not be written."""
    if stdout is not None:
        stdout.write(data.decode("utf-8"))
        stdout.flush()
        return
    if sys.stdout is None:  # started with stdout closed
        raise OSError("stdout is closed")
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    except (OSError, ValueError):
        # The reader is gone: point stdout at /dev/null so that the flush at exit does not complain too
        # (the recipe of Python's signal docs for a broken pipe).
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        raise
