"""The statistics' tally of one session: a list per session id, not a class, because a large log makes
millions of updates to them and a list index is the cheapest field there is.

Its fields, by index:
    CUM          the most any jitctx record of the session says its channel carried (-1: none said)
    JITCTX       whether a jitctx record (startup or discovery) names the session
    DISCOVERED   whether it has discoveries
    LAST, FIRST  its latest and earliest ts
    POINTS       (ts, cumulative bytes) of the main channel, where the value changed
    HOST_SUM     the running sum of the bytes of the host's own load records
    HOST_POINTS  (ts, that running sum)
    ROOT         the project root its first record names ("": none seen yet; a discovery that loaded
                 nothing is counted without reading its root)
"""

from __future__ import annotations

from typing import Any

CUM, JITCTX, DISCOVERED, LAST, POINTS, HOST_SUM, HOST_POINTS, ROOT, FIRST = range(9)


def new_session(ts: str, *, discovered: bool) -> list[Any]:
    """A session first met at `ts`, in a discovery (seen by jitctx, with discoveries) or in another record."""
    return [-1, discovered, discovered, ts, [], 0, [], "", ts]


def merge_sessions(sessions: dict[str, list[Any]], later: dict[str, list[Any]]) -> None:
    """Fold the tallies of the records that come *after* into `sessions`."""
    for key, theirs in later.items():
        mine = sessions.get(key)
        if mine is None:
            sessions[key] = theirs
            continue
        mine[CUM] = max(mine[CUM], theirs[CUM])
        mine[JITCTX] = mine[JITCTX] or theirs[JITCTX]
        mine[DISCOVERED] = mine[DISCOVERED] or theirs[DISCOVERED]
        mine[LAST] = max(mine[LAST], theirs[LAST])
        mine[FIRST] = min(mine[FIRST], theirs[FIRST])
        mine[ROOT] = mine[ROOT] or theirs[ROOT]
        # Appending drops a point whose value repeats the last one; the later part could not see
        # this part's last point, so its first is dropped here when it repeats it.
        points = theirs[POINTS]
        if points and mine[POINTS] and points[0][1] == mine[POINTS][-1][1]:
            points = points[1:]
        mine[POINTS].extend(points)
        offset = mine[HOST_SUM]  # the later part's running sum started from zero
        mine[HOST_POINTS].extend((ts, value + offset) for ts, value in theirs[HOST_POINTS])
        mine[HOST_SUM] += theirs[HOST_SUM]
