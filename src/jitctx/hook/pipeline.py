"""The one hook pipeline: raw event -> the client's canonical event -> one decision -> one record -> the
answer, for every transport (the process hook, the warm daemon, the MCP `hook_event` tool).

The decision is the engine's. Its cheap path, the fast lane (`fast_lane`), answers a tool event only when
the quick index the engine wrote proves that the engine would load nothing, and writes the very record
the engine would; anything else goes to the engine. Both read the same parsed event.

`respond` never raises: whatever goes wrong (bad JSON, a missing field, an unknown event, a state dir
that cannot be written, a bug) is written to `<state dir>/hook.log`, and the answer is `{}`. A hook must
never block the agent over a missed optimisation.

With `deliver`, the answer is handed to it while the session is still locked, and the session state is
saved only after it returned: a file counts as sent once its answer was written, so a process killed in
between, or an answer that could not be written (`deliver` raised), sends it again next time rather than
never. Every answer goes through `deliver` exactly once.

Imports json and the client registry; the engine only when the fast lane cannot answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients import all_clients
from jitctx.hook import MAX_INPUT
from jitctx.hook.deadline import Deadline, DeadlinePassed
from jitctx.hook.event import parse_raw
from jitctx.hook.fast_lane import answer_quickly
from jitctx.hook.log import log_problem

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from jitctx.clients.base import Client, HookDialect
    from jitctx.hook.engine import Engine
    from jitctx.hook.event import HookEvent


def respond(
    client: Client | str,
    raw: bytes | str | None,
    *,
    state_dir: str,
    home: str | None = None,
    use_git: bool = True,
    report: Callable[[str], None] | None = None,
    deliver: Callable[[dict[str, Any]], None] | None = None,
    environ: Mapping[str, str] | None = None,
    problem: str | None = None,
    origin_pid: int | None = None,
    deadline_s: float | None = None,
) -> dict[str, Any]:
    """The answer to one hook event given as raw JSON; `{}` when there is nothing to add or on error.
    `problem` is a transport's reason not to read the event at all (stdin unreadable, too large);
    `origin_pid` a process below the client's (a process hook's parent), for a client that tells its
    release from its own process; `deadline_s` what the engine's decision may take before the answer is
    `{}` instead (`hook.deadline`)."""
    # The log names the client as the registry does, whichever alias the hook was installed with.
    name = (all_clients.canonical(client) or client) if isinstance(client, str) else client.name
    engine = None
    try:
        if problem is not None:
            raise _Unread(problem)
        if raw is not None and len(raw) > MAX_INPUT:
            raise _Unread(f"hook input is larger than {MAX_INPUT // 2**20} MiB; not read")
        # The fast lane needs the client's dialect only; the engine, on a miss, the whole client.
        speaker = client if not isinstance(client, str) else all_clients.dialect(client)
        event = parse_raw(speaker, raw)
        if _fast_lane(speaker, event, state_dir):
            result: dict[str, Any] = {}
        else:
            # The fast lane is a cache in front of the engine: only a miss loads the engine.
            from pathlib import Path

            from jitctx.hook.engine import Engine, HookEnv

            env = HookEnv(
                state_dir=Path(state_dir), home=home, use_git=use_git, environ=environ, origin_pid=origin_pid
            )
            whole = all_clients.get(client) if isinstance(client, str) else client
            engine = Engine(whole, env, deliver)
            result = _answer_in_time(engine, event, deadline_s)
    except Exception as exc:  # the hook contract: log it, answer {}, never block the agent
        message = str(exc) if isinstance(exc, (_Unread, _OutOfTime)) else f"{type(exc).__name__}: {exc}"
        log_problem(state_dir, name, message)
        if report is not None:
            report(f"jitctx hook {name}: {' '.join(message.split())} (answered {{}})")
        result = {}
    if deliver is not None and (engine is None or not engine.handed_over):
        try:
            deliver(result)
        except (OSError, ValueError):  # the agent stopped listening: nothing was sent, nothing is lost
            pass
    return result


class _Unread(Exception):
    """The transport could not read the event; logged as it says."""


def _answer_in_time(engine: Engine, event: HookEvent, seconds: float | None) -> dict[str, Any]:
    """The engine's answer, or `_OutOfTime` when its decision ran past `seconds` (then nothing was
    handed over and the session state is as it was: see `hook.deadline`)."""
    if seconds is None:
        return engine.answer(event)
    try:
        with Deadline(seconds) as deadline:
            engine.deadline = deadline
            return engine.answer(event)
    except DeadlinePassed as exc:
        raise _OutOfTime(f"{exc} ({event.name}{_where(exc)}); the session state is as it was") from None


class _OutOfTime(Exception):
    """The engine's decision ran past the deadline; logged, and answered `{}`."""


def _where(exc: BaseException) -> str:
    """`, in FILE:LINE (FUNCTION)`: where the work was when the deadline rang (the innermost frame
    outside the deadline's own module)."""
    last = None
    tb = exc.__traceback__
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.endswith("deadline.py"):
            last = tb
        tb = tb.tb_next
    if last is None:
        return ""
    path = last.tb_frame.f_code.co_filename.replace("\\", "/")
    short = path.split("/site-packages/")[-1].split("/src/")[-1]
    return f", in {short}:{last.tb_lineno} ({last.tb_frame.f_code.co_name})"


def _fast_lane(client: HookDialect, event: HookEvent, state_dir: str) -> bool:
    """Did the fast lane answer (nothing loads, its record written)? Any surprise: the engine decides."""
    if not client.fast_lane:
        return False
    try:
        return answer_quickly(client, event, state_dir)
    except Exception:  # an optimisation: the engine answers, and logs what it finds wrong
        return False


def run_hook(
    client: Client | str,
    raw: bytes | str | None,
    env: Any,
    report: Callable[[str], None] | None = None,
    deliver: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """`respond` with the settings of a `hook.engine.HookEnv` (for a harness that holds one)."""
    return respond(
        client,
        raw,
        state_dir=str(env.state_dir),
        home=env.home,
        use_git=env.use_git,
        report=report,
        deliver=deliver,
        environ=env.environ,
        origin_pid=env.origin_pid,
    )
