"""The lookups of a glob index (see `jitctx.discovery.glob_index`): which rules filed under a literal
prefix, name or extension a path may match.

Apart from the index so that the hook's fast lane, which keeps the index's tables in its quick index and
must start in milliseconds, asks exactly the lookups the engine asks. Imports nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs every hook call milliseconds
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    Buckets = Mapping[str, Sequence[int]]


def keyed_candidates(rel: str, by_prefix: Buckets, by_name: Buckets, by_ext: Buckets) -> set[int]:
    """Positions of the rules filed under a key that `rel` has: a leading run of its directories, one of
    its segments, or one segment's extension (after its last dot)."""
    found: set[int] = set()
    start = 0
    for segment in rel.split("/"):
        if not segment:
            start += 1
            continue
        end = start + len(segment)
        hit = by_prefix.get(rel[:end])
        if hit:
            found.update(hit)
        hit = by_name.get(segment)
        if hit:
            found.update(hit)
        dot = segment.rfind(".")
        if dot >= 0:
            hit = by_ext.get(segment[dot + 1 :])
            if hit:
                found.update(hit)
        start = end + 1
    return found
