"""The literal directory a glob can only match under, before its first wildcard: what a Glob or Grep call
touches (`touched.tools`), and where a rule's scope starts (`scope.literal_prefix`)."""

from __future__ import annotations

_GLOB_SPECIAL = "*?[]{}\\"


def static_prefix(pattern: str) -> str:
    """The directory part of a glob before its first wildcard: `src/ui/**/*.tsx` -> `src/ui`. An escape
    ends it too (`docs/v1\\.0/*` -> `docs`): the escaped text is not the path's."""
    segments = pattern.removeprefix("./").split("/")
    fixed: list[str] = []
    for segment in segments[:-1]:
        if any(ch in segment for ch in _GLOB_SPECIAL):
            break
        fixed.append(segment)
    else:
        last = segments[-1]
        if last and not any(ch in last for ch in _GLOB_SPECIAL):
            fixed.append(last)
    return "/".join(s for s in fixed if s)
