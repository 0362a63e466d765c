"""What one event's transcript shows, weighed against what the engine would send: evidence first, the
client's profile second.

The client's evidence (`Client.delivered`, a transcript's tail) is read at most once per event, and only
when a question needs it. It serves five questions of the engine:

* `not_delivered_yet`: what already reached the model (the client's own loads, jitctx's earlier answers
  whose session state was never saved) is not sent again;
* `shows_new_version`: a new version of a file in the client's file state is the transcript's to tell;
* `left_to_the_client`: a file a shell command created or changed, which the client brings itself;
* `expect` and `overdue`: a file left to the client after a call it follows is owed until the transcript
  is complete for that call; if the client's load never appears there, jitctx sends it.

Only the main channel: the transcript's evidence is the main thread's.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from jitctx.model import Load, LoadReason

if TYPE_CHECKING:
    from jitctx.clients.base import Client
    from jitctx.clients.event import HookEvent
    from jitctx.discovery.session import Session
    from jitctx.hook.event_context import EventContext
    from jitctx.hook.touches import Touched
    from jitctx.model import Discovery


class TranscriptCheck:
    def __init__(self, client: Client, event: HookEvent, ids: Mapping[str, Any]) -> None:
        self.client = client
        self.event = event
        self.ids = ids
        self._seen: Any = ()  # the client's evidence, once read (() is "not yet"; None: none to read)

    @property
    def seen(self) -> Any:
        if self._seen == ():
            self._seen = self.client.delivered(self.event.transcript)
        return self._seen

    def not_delivered_yet(self, sent: list[Load]) -> list[Load]:
        """`sent` without what the transcript shows already reached the model (the client's own loads it
        reported nowhere else, or its notes of a file changed on disk; jitctx's answers whose session
        state was never saved)."""
        seen = self.seen
        if seen is None:
            return sent
        return [load for load in sent if not seen.holds(load.file.path, load.file.display, load.file.text)]

    def shows_new_version(self, load: Load) -> bool | None:
        """For a new version of a file in the client's file state: did the client show its whole text?
        (It does not always.) None when the transcript has nothing to say about the file."""
        seen = self.seen
        if seen is None or not seen.shows_changes(load.file.path):
            return None
        held: bool = seen.holds(load.file.path, load.file.display, load.file.text)
        return held

    def expect(
        self,
        session: Session,
        context: EventContext,
        touched: Touched,
        steps: list[tuple[str, Discovery]],
        sent: list[Load],
    ) -> None:
        """Remember the files left to the client on the prediction alone (a call it follows, no showing of
        its own in the result), with the ids of the calls, for `overdue` to check in its transcript."""
        ids = self.ids.get("tool_use_ids") or ([self.ids["tool_use_id"]] if "tool_use_id" in self.ids else [])
        state = session.channels.get("main")
        if not ids or state is None:
            return
        left = [
            load.file
            for path, one in steps
            if touched.followed[path] and touched.shown.get(path) is None
            for load in one.loaded
            if load not in sent
            and load.reason is not LoadReason.INCLUDE
            and load.file.path in state.loaded
            and not context.host_files.at_startup(load.file)
        ]
        if left and self.seen is not None:  # only a client with a transcript to check
            for file in left:
                entry = state.loaded[file.path]
                state.expected.setdefault(file.path, (entry.mtime_ns, entry.size, tuple(ids)))

    def overdue(self, session: Session) -> list[Load]:
        """Files left to the client after earlier calls that its transcript, complete for those calls by
        now, does not show arriving: the prediction was wrong (another release, a setting), so jitctx
        sends them. A call whose evidence is not complete yet is asked again at a later event."""
        state = session.channels.get("main")
        if state is None or not state.expected:
            return []
        seen = self.seen
        if seen is None or not seen.settled:
            return []
        held = {file.path: file for file in session.blocks("main")}
        due = []
        for path, (mtime_ns, size, ids) in list(state.expected.items()):
            if not set(ids) <= seen.settled:
                continue
            del state.expected[path]
            file, entry = held.get(path), state.loaded.get(path)
            if file is None or entry is None or (entry.mtime_ns, entry.size) != (mtime_ns, size):
                continue  # gone, or changed since: its new version is the update's to send
            if seen.holds(path, file.display, file.text):
                continue
            due.append(Load(file, LoadReason(entry.reason), trigger=file.display))
        return due

    def left_to_the_client(
        self, context: EventContext, session: Session, sent: list[Load], written: set[str]
    ) -> list[Load]:
        """The loads of instruction files a shell command of this event created or changed that the
        client brings by itself, with their imports; they are forgotten (a changed one marked changed
        again), so that the next touch there decides, from what the client was seen doing by then.

        * Created: the client never saw the file written, so it loads it as a new file at its next
          followed touch there (seen with Claude Code 2.1.197 and 2.1.332: the next Read brings a
          shell-created CLAUDE.md as its own nested load). A touch it does not follow sends it.
        * Changed: a file in the client's file state (one it loaded, read or edited) is shown changed
          by the client itself before its next request ("... was modified, either by the user or by a
          linter"). Where it does not show the whole new text, the next touch sends it.

        Sent now as well, either would reach the model twice."""
        seen = self.seen if self.event.channel == "main" else None
        held = {
            load.file.display
            for load in sent
            if load.reason is not LoadReason.INCLUDE
            and os.path.realpath(load.file.path) in written
            and (
                seen is not None and seen.shows_changes(load.file.path)
                if load.updated
                else context.host_files.host.native_jit and context.host_files.after_tool(load.file, True)
            )
        }
        later = [load for load in sent if load.file.display in held or load.parent in held]
        state = session.channels.get(self.event.channel)
        for load in later:
            entry = state.loaded.get(load.file.path) if state is not None else None
            if state is None or entry is None:
                continue
            if load.updated:
                entry.mtime_ns = -1  # still changed for the next touch there, which asks the evidence
            else:
                state.forget(load.file.path)
        return later
