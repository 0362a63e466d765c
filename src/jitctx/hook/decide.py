"""The one decision: for every instruction file found at a session's start or for a touch, who brings
it to the model — the client itself, jitctx's hook, or nobody — and why.

`decide_start` and `decide_touch` are pure: they read what the engine gathered (the files discovery
found, what the client holds by itself as `HostFiles` says, what the call's result and the client's
evidence show, the texts the session holds, the config's skip list) and return one `Verdict` per file.
The engine applies the verdicts (it sends the `JITCTX` ones and is the only place session state
changes); `explain`, `touch` and `startup` show the same verdicts for a previewed session
(`hook.preview`), so a view and the hook cannot disagree.

Evidence narrows the prediction and never widens what is withheld: a file predicted to be the client's
but not shown arriving goes out (a possible duplicate beats a lost rule).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from jitctx.model import Load, LoadReason
from jitctx.twins import normalized_body

if TYPE_CHECKING:
    from jitctx.hook.host_files import HostFiles

CLIENT, JITCTX, NONE = "client", "jitctx", "none"
ROUTES = (CLIENT, JITCTX, NONE)

# Why, as data (the engine applies some of them, records name them): the client holds it by prediction
# (HELD), because the call's result showed it (SHOWN), because its records show the new text (NEW_TEXT),
# or will bring it at its next read after a shell wrote it (AFTER_SHELL); jitctx sends it (SENT, UPDATED,
# OVERDUE, PINNED: `[pin] paths` keeps it in context); nobody does, as the model has it (IN_RECORDS,
# TWIN) or the config says so (SKIPPED).
HELD, SHOWN, NEW_TEXT, AFTER_SHELL = "held", "shown", "new_text", "after_shell"
SENT, UPDATED, OVERDUE, PINNED = "sent", "updated", "overdue", "pinned"
IN_RECORDS, TWIN, SKIPPED = "in_records", "twin", "skipped"


class Verdict(NamedTuple):
    """Who brings one file to the model at one moment, and why."""

    load: Load
    route: str  # CLIENT | JITCTX | NONE
    cause: str  # HELD, SHOWN, ... (above)
    why: str  # for people: "the client loads it itself after this call"
    twin_of: str | None = None  # TWIN: the display of the file whose text the agent holds

    @property
    def display(self) -> str:
        return self.load.file.display

    def to_dict(self) -> dict[str, object]:
        load = self.load
        document: dict[str, object] = {
            "path": load.file.display,
            "route": self.route,
            "cause": self.cause,
            "why": self.why,
            "reason": load.reason.value,
            "bytes": load.file.body_bytes,
        }
        if load.trigger is not None:
            document["trigger"] = load.trigger
        if load.globs:
            document["globs"] = list(load.globs)
        if self.twin_of is not None:
            document["twin_of"] = self.twin_of
        return document


class Evidence(Protocol):
    """What the client's own records show reached the model (`Client.delivered`)."""

    def holds(self, path: str, display: str, text: str) -> bool: ...

    def shows_changes(self, path: str) -> bool: ...


class Found(NamedTuple):
    """One file discovery found for a touched path, with what the touch says about it."""

    load: Load
    followed: bool  # the client follows the call that touched the path (loads nested files itself)
    shown: frozenset[str] | None  # real paths the call's result showed the client loading; None: no word
    written: bool  # the call wrote this very file, and the client keeps it as an edit, not instructions
    result: str | None = None  # the result of the call that wrote this file, as the model reads it


class Held(NamedTuple):
    """A text the channel already holds (the client's own load or one jitctx sent)."""

    path: str
    display: str
    text: str


# -- the two moments ----------------------------------------------------------------------------------


def decide_start(
    loads: Sequence[Load],
    host: HostFiles,
    *,
    evidence: Evidence | None = None,
    skipped: Callable[[str], bool] | None = None,
    held: Callable[[], Sequence[Held]] = tuple,
) -> list[Verdict]:
    """The verdicts for what a channel's start brings (`Session.startup`'s loads); `evidence` for a
    session first seen after its start (a conversation carried on), whose records may hold them."""
    verdicts: list[Verdict] = []
    parents: set[str] = set()
    candidates: list[Load] = []
    for load in loads:
        if host.native(load, None, parents):
            verdicts.append(Verdict(load, CLIENT, HELD, _client_why(load, at_start=True)))
        else:
            candidates.append(load)
    candidates = _not_in_records(candidates, evidence, verdicts)
    verdicts.extend(_last_filters(candidates, skipped, held))
    return _in_order(loads, verdicts)


def decide_touch(
    found: Sequence[Found],
    host: HostFiles,
    *,
    main: bool = True,
    evidence: Evidence | None = None,
    overdue: Sequence[Load] = (),
    shell_written: frozenset[str] = frozenset(),
    skipped: Callable[[str], bool] | None = None,
    held: Callable[[], Sequence[Held]] = tuple,
) -> list[Verdict]:
    """The verdicts for the files a touch found (`found`, in order, per touched path), and for the files
    left to the client earlier that its evidence does not show arriving (`overdue`, sent first).
    `main`: the main thread (evidence is the main thread's); `shell_written`: real paths a shell command
    of the event created or changed; `held`: the texts the channel holds, asked for only when a file
    may go out."""
    verdicts: list[Verdict] = []
    candidates: list[Load] = list(overdue)
    parents: set[str] = set()
    for one in found:
        load = one.load
        if load.updated and one.result is not None and _shows_whole(one.result, load.file.text):
            verdicts.append(Verdict(load, CLIENT, SHOWN, "the edit's own result shows its whole new text"))
            continue
        if one.written:
            candidates.append(load)
            continue
        client_has = _client_has(one, host, evidence if main else None, parents)
        if client_has is not None:
            verdicts.append(client_has)
        else:
            candidates.append(load)
    if shell_written:
        later = _left_after_shell(candidates, host, evidence if main else None, shell_written)
        verdicts.extend(
            Verdict(
                load,
                CLIENT,
                AFTER_SHELL,
                "a shell command wrote it: the client loads it at its next read there",
            )
            for load in later
        )
        candidates = [load for load in candidates if load not in later]
    if main:
        candidates = _not_in_records(candidates, evidence, verdicts)
    overdue_ids = {id(load) for load in overdue}
    verdicts.extend(
        v._replace(cause=OVERDUE, why=_OVERDUE) if id(v.load) in overdue_ids and v.route == JITCTX else v
        for v in _last_filters(candidates, skipped, held)
    )
    return _in_order([*overdue, *(one.load for one in found)], verdicts)


def _shows_whole(result: str, text: str) -> bool:
    """Does an edit's result show the model the whole new text of the file (its non-blank lines, in
    order, together)? A snippet of a longer file does not: the rest goes out as the new version."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return False
    shown = [line.strip() for line in result.splitlines() if line.strip()]
    first, size = lines[0], len(lines)
    return any(shown[i : i + size] == lines for i, line in enumerate(shown) if line == first)


_OVERDUE = "left to the client after an earlier call; its records do not show it arriving"


def sent(verdicts: Sequence[Verdict]) -> list[Load]:
    """The loads jitctx sends, in order."""
    return [v.load for v in verdicts if v.route == JITCTX]


# -- the steps ------------------------------------------------------------------------------------------


def _client_has(one: Found, host: HostFiles, evidence: Evidence | None, parents: set[str]) -> Verdict | None:
    """The CLIENT verdict when the client holds this file by itself, else None. A new version of a file
    in the client's file state is the evidence's to tell (the client showed the whole new text, or not:
    it does not always); anything else is the prediction's, narrowed by what the call's result showed."""
    load = one.load
    if load.updated and evidence is not None and evidence.shows_changes(load.file.path):
        if evidence.holds(load.file.path, load.file.display, load.file.text):
            return Verdict(load, CLIENT, NEW_TEXT, "the client showed its new text itself")
        return None
    if not host.native(load, one.followed, parents):
        return None
    at_start = host.at_startup(load.file)
    if one.shown is None or load.reason is LoadReason.INCLUDE or at_start:
        return Verdict(load, CLIENT, HELD, _client_why(load, at_start=at_start))
    if os.path.realpath(load.file.path) in one.shown:
        return Verdict(load, CLIENT, SHOWN, "the call's result shows the client loading it")
    parents.discard(load.file.display)  # not held after all: its imports are not either
    return None


def _client_why(load: Load, at_start: bool) -> str:
    if at_start:
        return "the client loads it itself at start"
    if load.reason is LoadReason.INCLUDE:
        return f"the client loads it itself, imported by {load.parent}" if load.parent else "imported"
    return "the client loads it itself after this call"


def _not_in_records(candidates: list[Load], evidence: Evidence | None, verdicts: list[Verdict]) -> list[Load]:
    """`candidates` without what the client's records show reached the model already (its own loads
    reported nowhere else; jitctx's answers whose session state was never saved), which get NONE."""
    if evidence is None or not candidates:
        return candidates
    kept = []
    for load in candidates:
        if evidence.holds(load.file.path, load.file.display, load.file.text):
            verdicts.append(
                Verdict(load, NONE, IN_RECORDS, "the client's records show it in context already")
            )
        else:
            kept.append(load)
    return kept


def _left_after_shell(
    candidates: Sequence[Load], host: HostFiles, evidence: Evidence | None, written: frozenset[str]
) -> list[Load]:
    """The files a shell command of the event created or changed that the client brings by itself, with
    their imports. Created: the client loads it as a new file at its next followed touch there. Changed:
    a file in the client's file state is shown changed by the client itself before its next request."""
    held = {
        load.file.display
        for load in candidates
        if load.reason is not LoadReason.INCLUDE
        and os.path.realpath(load.file.path) in written
        and (
            evidence is not None and evidence.shows_changes(load.file.path)
            if load.updated
            else host.host.native_jit and host.after_tool(load.file, True)
        )
    }
    return [load for load in candidates if load.file.display in held or load.parent in held]


def _last_filters(
    candidates: Sequence[Load], skipped: Callable[[str], bool] | None, held: Callable[[], Sequence[Held]]
) -> list[Verdict]:
    """The config's skip list, then twins: a file whose body is the text of one the channel holds (the
    client's own load or one sent before) or of one sent earlier in this answer."""
    verdicts: list[Verdict] = []
    kept: list[Load] = []
    for load in candidates:
        if skipped is not None and skipped(load.file.display):
            why = "the project's config keeps it from this agent ([send] skip)"
            verdicts.append(Verdict(load, NONE, SKIPPED, why))
        else:
            kept.append(load)
    if not kept:
        return verdicts
    outgoing = {load.file.path for load in kept}
    holders: dict[str, str] = {}
    for one in held():  # the held texts are read only when something may go out
        body = normalized_body(one.text)
        if body and one.path not in outgoing and not (skipped is not None and skipped(one.display)):
            holders.setdefault(body, one.display)
    for load in kept:
        body = normalized_body(load.file.text)
        twin = holders.get(body) if body else None
        if twin is not None and twin != load.file.display:
            verdicts.append(Verdict(load, NONE, TWIN, f"same text as {twin}, which the agent holds", twin))
            continue
        if body:
            holders.setdefault(body, load.file.display)
        if load.updated:
            verdicts.append(
                Verdict(load, JITCTX, UPDATED, "changed since it arrived: jitctx sends the new text")
            )
        elif load.pinned:
            verdicts.append(Verdict(load, JITCTX, PINNED, _PINNED))
        else:
            verdicts.append(
                Verdict(load, JITCTX, SENT, "the client does not load it itself: jitctx sends it")
            )
    return verdicts


_PINNED = (
    "pinned in the project's config ([pin] paths): jitctx sends it at every start, after every "
    "compaction, to every sub-agent"
)


def _in_order(loads: Sequence[Load], verdicts: Sequence[Verdict]) -> list[Verdict]:
    """`verdicts` in the order of `loads` (each load once)."""
    by_id: Mapping[int, Verdict] = {id(v.load): v for v in verdicts}
    ordered = [by_id[id(load)] for load in loads if id(load) in by_id]
    placed = {id(v.load) for v in ordered}
    return ordered + [v for v in verdicts if id(v.load) not in placed]
