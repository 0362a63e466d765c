"""Glob scopes compiled to one regular expression per rule (pure).

Three dialects, because agents disagree on what a glob means:

* ``bun`` (the jitctx default): ``*`` and ``?`` stay in one segment, ``**`` spans zero or more segments,
  braces expand, ``[...]`` is a class, dot-files match. A directory marker ends in ``/``:
  ``src/ui/**`` matches ``src/ui/`` but not ``src/ui``.
* ``gitignore`` (Claude Code matches ``paths:`` with the npm ``ignore`` package): ``*.py`` matches at any
  depth, braces are literal, and ``src/ui/**`` does not match the directory ``src/ui/`` itself.
* ``copilot``: ``applyTo`` globs, where ``*`` is one directory level and ``**`` is any depth.

Translation is delegated to wcmatch (bun, copilot) and pathspec (gitignore); both are imported only when a
scope is compiled, and the resulting regex source is plain data that callers may cache.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jitctx.errors import JitctxError
from jitctx.model import Scope

DIALECTS = ("bun", "gitignore", "copilot")


class ScopeError(JitctxError):
    """A glob that cannot be compiled."""


def compile_scope(patterns: tuple[str, ...], dialect: str = "bun") -> str:
    """Return the regex source that matches a POSIX relative path iff one of `patterns` does."""
    if dialect not in DIALECTS:
        raise ScopeError(f"unknown glob dialect {dialect!r}; choose one of: {', '.join(DIALECTS)}")
    cleaned = tuple(p.strip() for p in patterns if p.strip())
    if not cleaned:
        return r"(?!)"  # matches nothing
    if dialect == "gitignore":
        return _gitignore_regex(cleaned)
    return _wcmatch_regex(cleaned, dialect)


def scope_matches(regex: str, path: str) -> bool:
    """Does the compiled scope match `path` (POSIX, relative, `dir/` for a directory marker)?"""
    return compiled_scope(regex).match(path) is not None


@lru_cache(maxsize=4096)
def compiled_scope(regex: str) -> re.Pattern[str]:
    return re.compile(regex, re.DOTALL)


def _wcmatch_regex(patterns: tuple[str, ...], dialect: str) -> str:
    from wcmatch import glob as wc

    flags = wc.GLOBSTAR | wc.DOTGLOB
    if dialect == "bun":
        flags |= wc.BRACE
    parts: list[str] = []
    for pattern in patterns:
        # A leading "./" means "relative to the root" in every dialect people write.
        pattern = pattern.removeprefix("./")
        try:
            includes, _ = wc.translate(pattern, flags=flags)
        except Exception as exc:  # wcmatch raises several types for malformed input
            raise ScopeError(f"cannot read glob {pattern!r}: {exc}") from exc
        parts.extend(includes)
    return "|".join(f"(?:{p})" for p in parts) or r"(?!)"


def _gitignore_regex(patterns: tuple[str, ...]) -> str:
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    includes: list[str] = []
    excludes: list[str] = []
    for pattern in patterns:
        try:
            regex, include = GitIgnoreSpecPattern.pattern_to_regex(pattern)
        except Exception as exc:  # pathspec raises several types for malformed input
            raise ScopeError(f"cannot read glob {pattern!r}: {exc}") from exc
        if regex is None:
            continue
        # Named groups would collide once patterns are joined.
        regex = regex.replace("(?P<ps_d>", "(")
        if pattern.endswith("/**"):
            # The `ignore` package needs at least one character below the directory.
            regex += "."
        (includes if include else excludes).append(regex)
    if not includes:
        return r"(?!)"
    body = "|".join(f"(?:{p})" for p in includes)
    if excludes:
        return "(?!" + "|".join(f"(?:{p})" for p in excludes) + f")(?:{body})"
    return body


@lru_cache(maxsize=4096)
def literal_prefixes(scope: Scope) -> tuple[str, ...]:
    """Strings every path matched by `scope` starts with, one per pattern (`""`: no prefix known).

    A prefilter only: a path that starts with none of them cannot match, one that does still needs the
    regex. Unanchored gitignore patterns (`*.py`, `foo`) and negations match anywhere, so they give `""`.
    """
    prefixes: list[str] = []
    for pattern in scope.patterns:
        pattern = pattern.strip()
        if scope.dialect == "gitignore" and (pattern.startswith("!") or "/" not in pattern.rstrip("/")):
            prefixes.append("")
            continue
        prefixes.append(static_prefix(pattern.lstrip("/")))
    return tuple(prefixes)


def static_prefix(pattern: str) -> str:
    """The directory part of a glob before its first wildcard: `src/ui/**/*.tsx` -> `src/ui`."""
    segments = pattern.removeprefix("./").split("/")
    fixed: list[str] = []
    for segment in segments[:-1]:
        if any(ch in segment for ch in "*?[]{}"):
            break
        fixed.append(segment)
    else:
        last = segments[-1]
        if last and not any(ch in last for ch in "*?[]{}"):
            fixed.append(last)
    return "/".join(s for s in fixed if s)
