"""A bound on the work of one hook call: past it, the call answers `{}` (see `pipeline.respond`).

Each input is bounded on its own (stdin, state files, rule files, transcript reads), and scopes are
matched in linear time; the deadline is the backstop for whatever still adds up to too much in a cloned
repository nobody vetted. It covers the engine's *decision*: from the engine's start until the outcome
starts being written (the first event record, or the answer handed over, whichever comes first; see
`Engine.settle`). Then it stops, because a record without its answer, or an answer whose session state
is not saved, would contradict one another. Before that point nothing of the session has changed on
disk: the session state is saved only after the answer was handed over (`discovery.store`), so a call
cut short leaves the state as it was and the files it would have sent go out on a later call.

A timer signal (SIGALRM) raises `DeadlinePassed` in the main thread; off the main thread (a server's
worker) there is no deadline.
"""

from __future__ import annotations

import signal
import time
from types import FrameType, TracebackType


class DeadlinePassed(BaseException):
    """The hook call ran past its deadline. A BaseException, like KeyboardInterrupt: the engine's own
    `except Exception` (a record that could not be written, an optimisation that failed) must not catch
    it and carry on past the deadline."""


class Deadline:
    """`with Deadline(seconds):` raises DeadlinePassed in the block once `seconds` have passed, unless
    `stop()` was called first. A timer armed before is set going again on the way out."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.armed = False
        self._entered = False
        self._started = 0.0
        self._previous_handler: signal._HANDLER = None
        self._previous_timer: tuple[float, float] | None = None

    def __enter__(self) -> Deadline:
        self._started = time.monotonic()
        try:
            self._previous_handler = signal.signal(signal.SIGALRM, self._ring)
        except ValueError:  # not the main thread: no timer signal to be had
            return self
        self._entered = True
        self._previous_timer = signal.setitimer(signal.ITIMER_REAL, self.seconds)
        self.armed = True
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if not self._entered:
            return
        self.stop()
        self._restore_timer()  # after a ring, the timer armed before this one
        signal.signal(signal.SIGALRM, self._previous_handler)

    def stop(self) -> None:
        """Disarm: what follows in the block is not cut short."""
        if self.armed:
            self.armed = False
            self._restore_timer()

    def _restore_timer(self) -> None:
        if self._previous_timer is None:
            return
        remaining, interval = self._previous_timer
        self._previous_timer = None
        if remaining > 0:  # what was left of it, less the time spent here
            remaining = max(remaining - (time.monotonic() - self._started), 1e-3)
        signal.setitimer(signal.ITIMER_REAL, remaining, interval)

    def _ring(self, number: int, frame: FrameType | None) -> None:
        if self.armed:  # a ring that crossed `stop()` is let go
            self.armed = False
            raise DeadlinePassed(f"the hook call ran past its {self.seconds:g} s deadline")
