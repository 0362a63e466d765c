"""The lookups of a glob index (see `jitctx.discovery.glob_index`): which rules filed under a literal
prefix, name or extension a path may match.

Apart from the index so that the hook's fast lane, which keeps the index's tables in its quick index and
must start in milliseconds, asks exactly the lookups the engine asks. Imports nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    Buckets = Mapping[str, Sequence[int]]


def keyed_candidates(rel: str, by_prefix: Buckets, by_name: Buckets, by_ext: Buckets) -> set[int]:
    """Positions of the rules filed under a key that `rel` has: a leading run of its directories, one of
    its segments or two in a row (`mod3/f2.ts`), or one segment's extension (after its last dot); as it
    is and lower-cased, since the rules of a dialect that ignores case are filed under lower-case keys,
    and with runs of slashes as one, as a bun or Copilot glob reads `a//b` (`a/b` matches it)."""
    found = _keyed(rel, by_prefix, by_name, by_ext)
    lowered = rel.lower()
    if lowered != rel:
        found.update(_keyed(lowered, by_prefix, by_name, by_ext))
    if "//" in rel:
        found.update(keyed_candidates("/".join(s for s in rel.split("/") if s), by_prefix, by_name, by_ext))
    return found


def _keyed(rel: str, by_prefix: Buckets, by_name: Buckets, by_ext: Buckets) -> set[int]:
    found: set[int] = set()
    start = 0
    before = -1  # where the segment before this one starts, when it is not empty
    for segment in rel.split("/"):
        if not segment:
            start += 1
            before = -1
            continue
        end = start + len(segment)
        hit = by_prefix.get(rel[:end])
        if hit:
            found.update(hit)
        hit = by_name.get(segment)
        if hit:
            found.update(hit)
        if before >= 0:
            hit = by_name.get(rel[before:end])
            if hit:
                found.update(hit)
        dot = segment.rfind(".")
        if dot >= 0:
            hit = by_ext.get(segment[dot + 1 :])
            if hit:
                found.update(hit)
        before = start
        start = end + 1
    return found
