"""Glob scopes compiled to one regular expression per rule (pure).

Three dialects, because agents disagree on what a glob means:

* ``bun`` (the jitctx default): ``*`` and ``?`` stay in one segment, ``**`` spans zero or more segments,
  braces expand, ``[...]`` is a class, dot-files match. A directory marker ends in ``/``:
  ``src/ui/**`` matches ``src/ui/`` but not ``src/ui``.
* ``gitignore`` (Claude Code matches ``paths:`` with the npm ``ignore`` package): ``*.py`` matches at any
  depth and ``src/ui/**`` does not match the directory ``src/ui/`` itself. The ``ignore`` package reads
  braces literally, but Claude Code expands them before it hands the globs over (``expand_braces``), so
  ``*.{ts,tsx}`` matches ``App.tsx`` here too.
* ``copilot``: ``applyTo`` globs, where ``*`` is one directory level and ``**`` is any depth.

Translation is delegated to wcmatch (bun, copilot) and pathspec (gitignore); both are imported only when a
scope is compiled, and the resulting regex source is plain data that callers may cache. The regex is
matched by `jitctx.linear_regex` (RE2), never by Python's backtracking `re`: a glob in a cloned repository
must not be able to stall a hook call.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from jitctx.errors import JitctxError
from jitctx.linear_regex import LinearPattern, UnsafeRegex, linear_pattern

DIALECTS = ("bun", "gitignore", "copilot")
MATCH_NOTHING = r"(?!)"


class ScopeError(JitctxError):
    """A glob that cannot be compiled."""


def compile_scope(patterns: tuple[str, ...], dialect: str = "bun") -> str:
    """Return the regex source that matches a POSIX relative path iff one of `patterns` does."""
    if dialect not in DIALECTS:
        raise ScopeError(f"unknown glob dialect {dialect!r}; choose one of: {', '.join(DIALECTS)}")
    cleaned = tuple(p.strip() for p in patterns if p.strip())
    if not cleaned:
        return MATCH_NOTHING
    if dialect == "gitignore":
        return _gitignore_regex(expand_braces(cleaned))
    return _wcmatch_regex(cleaned, dialect)


# Claude Code's own brace expansion of `paths:` globs, read in the bundled cli of its 2.1.332 release (its
# changelog dates the expansion to 2.1.217): a glob's first `{...}` group without `}` inside is split on
# its commas (each option trimmed) and the rest expanded again, depth first, in order; `{a}` gives `a`,
# and a group inside another is not understood (`{a,{b,c}}` splits at the first `}`). One budget serves all
# globs of a file: 1,000 results and 4 MiB, charged for every step and every result; a glob that would
# overrun it is kept unexpanded (its braces then literal, as the `ignore` package reads them), and the
# globs expanded before it keep their expansions. Lengths count characters here, UTF-16 units there:
# they differ only beyond the Basic Multilingual Plane, and only at the edge of the budget.
# (That release also drops a trailing `/**` from each glob before matching, which changes nothing for a
# file below the folder and is not copied: jitctx's directory marker `src/ui/` stays outside `src/ui/**`.)
_BRACE_GROUP = re.compile(r"([^{]*)\{([^}]+)\}(.*)")
MAX_BRACE_RESULTS = 1000
MAX_BRACE_BYTES = 4 * 1024 * 1024


def expand_braces(patterns: tuple[str, ...]) -> tuple[str, ...]:
    """`patterns` with their brace groups expanded as Claude Code expands the globs of one `paths:`."""
    results_left, bytes_left = MAX_BRACE_RESULTS, MAX_BRACE_BYTES
    expanded: list[str] = []
    for pattern in patterns:
        if "{" not in pattern:
            expanded.append(pattern)
            continue
        done: list[str] = []
        pending = [pattern]
        overrun = False
        while pending:
            current = pending.pop()
            group = _BRACE_GROUP.fullmatch(current)
            if group is None:
                done.append(current)
                continue
            head, inner, tail = group.groups()
            options = [option.strip() for option in inner.split(",")]
            bytes_left -= len(current)
            total = len(done) + len(pending) + len(options)
            if bytes_left < 0 or total > results_left or total * len(pattern) > bytes_left:
                overrun = True
                break
            pending.extend(head + option + tail for option in reversed(options))
        if overrun:
            expanded.append(pattern)
            continue
        results_left -= len(done)
        bytes_left -= len(done) * len(pattern)
        expanded.extend(done)
    return tuple(expanded)


def scope_matches(regex: str, path: str) -> bool:
    """Does the compiled scope match `path` (POSIX, relative, `dir/` for a directory marker)?"""
    return compiled_scope(regex).match(path)


@lru_cache(maxsize=4096)
def compiled_scope(regex: str) -> LinearPattern:
    """The scope's regex as a pattern matched in time linear in the path. A regex that cannot be matched
    so is never one `compile_scope` wrote (a damaged state file, say): it matches nothing."""
    try:
        return linear_pattern(regex)
    except UnsafeRegex:
        return linear_pattern(MATCH_NOTHING)


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
            parts.extend(_by_shape(pattern, dialect, lambda glob: list(wc.translate(glob, flags=flags)[0])))
        except Exception as exc:  # wcmatch raises several types for malformed input
            raise ScopeError(f"cannot read glob {pattern!r}: {exc}") from exc
    return "|".join(f"(?:{p})" for p in parts) or MATCH_NOTHING


def _gitignore_regex(patterns: tuple[str, ...]) -> str:
    includes: list[str] = []
    excludes: list[str] = []
    for pattern in patterns:
        try:
            translated = _by_shape(pattern, "gitignore", _gitignore_parts)
        except Exception as exc:  # pathspec raises several types for malformed input
            raise ScopeError(f"cannot read glob {pattern!r}: {exc}") from exc
        if not translated:
            continue
        regex, include = translated[0], translated[1] == "1"
        # Named groups would collide once patterns are joined.
        regex = regex.replace("(?P<ps_d>", "(")
        if pattern.endswith("/**"):
            # The `ignore` package needs at least one character below the directory.
            regex += "."
        (includes if include else excludes).append(regex)
    if not includes:
        return MATCH_NOTHING
    body = "|".join(f"(?:{p})" for p in includes)
    if excludes:
        return "(?!" + "|".join(f"(?:{p})" for p in excludes) + f")(?:{body})"
    return body


def _gitignore_parts(glob: str) -> list[str]:
    """pathspec's regex for one glob and "1" for an include, "0" for an exclude; [] for none."""
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    regex, include = GitIgnoreSpecPattern.pattern_to_regex(glob)
    return [] if regex is None else [regex, "1" if include else "0"]


# Translating a glob costs 50-300 us in wcmatch or pathspec, most of a rule's parse; a repo's thousand rules
# come in a few shapes (`pkg/x/**/*.ts`, `pkg/y/**/*.ts`). Runs of ASCII word characters are the same to
# both translators wherever they stand (re.escape leaves them as they are), so a glob is translated once
# per shape, with numbered tokens in place of its words, and the words are put back into the result.
# Classes (`[a-z]`, where a letter is not a word), escapes and brace ranges (`{1..9}`) are translated
# as they are.
_WORD = re.compile(r"[A-Za-z0-9_]+")
_TOKEN = re.compile(r"Q([0-9]+)Q")
_SHAPES: dict[tuple[str, str], list[str]] = {}
_MAX_SHAPES = 4096


def _by_shape(pattern: str, dialect: str, translate: Callable[[str], list[str]]) -> list[str]:
    if any(ch in pattern for ch in "[]\\") or ".." in pattern:
        return translate(pattern)
    words: list[str] = []

    def token(match: re.Match[str]) -> str:
        words.append(match.group())
        return f"Q{len(words) - 1}Q"

    shape = _WORD.sub(token, pattern)
    key = (shape, dialect)
    parts = _SHAPES.get(key)
    if parts is None:
        parts = translate(shape)
        if len(_SHAPES) >= _MAX_SHAPES:
            _SHAPES.clear()
        _SHAPES[key] = parts
    return [_TOKEN.sub(lambda match: words[int(match.group(1))], part) for part in parts]


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
