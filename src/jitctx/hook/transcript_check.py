"""What one event's transcript shows, weighed against what the engine would send: evidence first, the
client's profile second.

The client's evidence (`Client.delivered`, a transcript's tail) is read at most once per event, and only
when a question needs it. It serves these questions of the engine:

* `holds` and `shows_changes`: the evidence `hook.decide` weighs (what already reached the model; whether
  the client showed a new version of a file in its file state);
* `leave_to_the_client`: a file a shell command created or changed, which the client brings itself;
* `expect` and `overdue`: a file left to the client after a call it follows is owed until the transcript
  is complete for that call; if the client's load never appears there, jitctx sends it.

Only the main channel: the transcript's evidence is the main thread's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from jitctx.model import Load, LoadReason

if TYPE_CHECKING:
    from jitctx.clients.base import Client
    from jitctx.discovery.session import Session
    from jitctx.hook.event import HookEvent
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

    # -- the client's evidence, as `hook.decide.Evidence` reads it: nothing when there is none ----------

    def holds(self, path: str, display: str, text: str) -> bool:
        """Does the client's record show this text reaching the model already (its own loads reported
        nowhere else, its notes of a file changed on disk, jitctx's answers whose state was not saved)?"""
        seen = self.seen
        return seen is not None and bool(seen.holds(path, display, text))

    def shows_changes(self, path: str) -> bool:
        """Does the client's record tell, for this file in its file state, whether it showed a new version?"""
        seen = self.seen
        return seen is not None and bool(seen.shows_changes(path))

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

    def leave_to_the_client(self, session: Session, later: list[Load]) -> None:
        """Forget the files a shell command of this event created or changed that the client brings by
        itself (`hook.decide`, AFTER_SHELL; a changed one is marked changed again), so that the next touch
        there decides, from what the client was seen doing by then.

        * Created: the client never saw the file written, so it loads it as a new file at its next
          followed touch there (seen with Claude Code 2.1.197 and 2.1.332: the next Read brings a
          shell-created CLAUDE.md as its own nested load). A touch it does not follow sends it.
        * Changed: a file in the client's file state (one it loaded, read or edited) is shown changed
          by the client itself before its next request ("... was modified, either by the user or by a
          linter"). Where it does not show the whole new text, the next touch sends it."""
        state = session.channels.get(self.event.channel)
        for load in later:
            entry = state.loaded.get(load.file.path) if state is not None else None
            if state is None or entry is None:
                continue
            if load.updated:
                entry.mtime_ns = -1  # still changed for the next touch there, which asks the evidence
            else:
                state.forget(load.file.path)
