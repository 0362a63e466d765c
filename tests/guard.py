"""`finishes_within(seconds)`: turn a hang into a test failure.

Not a timing assertion: the bound is generous (seconds, for work that takes microseconds) and only keeps
a regression from stalling the suite, as a backtracking regex or an alias bomb would, for minutes.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Hung(BaseException):
    """Not an Exception: code under test that catches `Exception` (a hook never fails its agent) must
    not swallow it and hang on."""


@contextmanager
def finishes_within(seconds: float, what: str) -> Iterator[None]:
    def ring(number: int, frame: FrameType | None) -> None:
        raise Hung(f"{what} still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
