"""Glob scopes compiled to one regular expression per rule (pure).

A rule's globs mean what the agent of its *format* means, whichever agent receives the rule (DESIGN
§2.9): each rules folder names its dialect (`jitctx.profiles.RulesDir.dialect`), and jitctx's own
`paths:` in any other file is read as ``bun``. Three dialects:

* ``bun`` (jitctx's own `paths:`, and the formats whose agent's matcher no source here establishes): the
  seed's Bun.Glob measurements. ``*`` and ``?`` stay in one segment, ``**`` spans zero or more segments,
  braces expand, ``[...]`` is a class, dot-files match, case counts. A directory marker ends in ``/``:
  ``src/ui/**`` matches ``src/ui/`` but not ``src/ui``.
* ``gitignore`` (Claude Code's `.claude/rules`, matched with the npm ``ignore`` package): gitignore rules,
  so ``*.py`` matches at any depth; case-insensitive (the package's default ``ignorecase``: Claude Code
  2.1.332 loads a ``src/*.TS`` rule for ``src/a.ts``). Claude Code expands braces and drops a trailing
  ``/**`` before it hands the globs over (`claude_code_globs`): ``*.{ts,tsx}`` matches ``App.tsx``, and
  ``docs/**`` is ``docs``, any folder of that name at any depth.
* ``copilot`` (Copilot's `applyTo`, measured on Copilot CLI 1.0.102, whose matcher is Rust's globset): a
  glob without a ``/`` matches the file name at any depth; with one, ``*`` stays in one segment and ``**``
  spans segments; braces expand; case counts (`copilot_globs`).

Translation is delegated to wcmatch (bun, copilot) and pathspec (gitignore), heavy libraries imported
when a scope of their dialect is first compiled; the resulting regex source is plain data that callers may
cache (the session store keeps it, so a warm hook call compiles nothing). The regex is matched by
`jitctx.linear_regex` (RE2), never by Python's backtracking `re`: a glob in a cloned repository must not be
able to stall a hook call. RE2 as jitctx runs it takes no case-folding flag, so a dialect that ignores case
spells each letter as a class (``[sS]``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from jitctx.errors import JitctxError
from jitctx.glob_prefix import static_prefix
from jitctx.linear_regex import LinearPattern, UnsafeRegex, linear_pattern

DIALECTS = ("bun", "gitignore", "copilot")
# Dialects whose agent ignores case: a literal prefix of their globs is compared case-folded.
FOLDS_CASE = frozenset({"gitignore"})
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
        return _gitignore_regex(claude_code_globs(cleaned))
    if dialect == "copilot":
        return _wcmatch_regex(copilot_globs(cleaned), dialect)
    return _wcmatch_regex(cleaned, dialect)


def claude_code_globs(patterns: tuple[str, ...]) -> tuple[str, ...]:
    """The globs Claude Code hands its matcher for one `paths:`: braces expanded (`expand_braces`), then
    a trailing `/**` dropped from each (its 2.1.332 bundle). The drop is no detail: `src/ui/**` becomes
    `src/ui`, which matches the directory marker `src/ui/` too, and `docs/**` becomes `docs`, which has no
    inner `/` and so matches a `docs` folder at any depth."""
    return tuple(glob[:-3] if glob.endswith("/**") else glob for glob in expand_braces(patterns))


def copilot_globs(patterns: tuple[str, ...]) -> tuple[str, ...]:
    """`applyTo` globs as Copilot CLI 1.0.102 matches them, written in the bun dialect: braces expanded,
    and a glob without a `/` (`*.ts`, `Header.tsx`) taken as the file name at any depth (`**/*.ts`)."""
    return tuple(glob if "/" in glob else f"**/{glob}" for glob in expand_braces(patterns))


# Claude Code's own brace expansion of `paths:` globs, read in the bundled cli of its 2.1.332 release (its
# changelog dates the expansion to 2.1.217): a glob's first `{...}` group without `}` inside is split on
# its commas (each option trimmed) and the rest expanded again, depth first, in order; `{a}` gives `a`,
# and a group inside another is not understood (`{a,{b,c}}` splits at the first `}`). One budget serves all
# globs of a file: 1,000 results and 4 MiB, charged for every step and every result; a glob that would
# overrun it is kept unexpanded (its braces then literal, as the `ignore` package reads them), and the
# globs expanded before it keep their expansions. Lengths count characters here, UTF-16 units there:
# they differ only beyond the Basic Multilingual Plane, and only at the edge of the budget.
# That release then drops a trailing `/**` from each glob (`claude_code_globs`). Copilot's `applyTo` braces
# are expanded by the same function: its globset knows plain groups only, where the two agree.
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
    from wcmatch import glob as wc  # heavy: imported when a scope of its dialects is first compiled

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
            translated = _by_shape(pattern, "gitignore", _gitignore_parts, fold=True)
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
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern  # heavy: see _wcmatch_regex

    regex, include = GitIgnoreSpecPattern.pattern_to_regex(glob)
    return [] if regex is None else [regex, "1" if include else "0"]


# Translating a glob costs 50-300 us in wcmatch or pathspec, most of a rule's parse; a repo's thousand rules
# come in a few shapes (`pkg/x/**/*.ts`, `pkg/y/**/*.ts`). Runs of ASCII word characters are the same to
# both translators wherever they stand (re.escape leaves them as they are), so a glob is translated once
# per shape, with numbered tokens in place of its words, and the words are put back into the result
# (as classes of both cases, `[sS][rR][cC]`, where the dialect ignores case). Classes (`[a-z]`, where a
# letter is not a word), escapes and brace ranges (`{1..9}`) are translated as they are, and so is a glob
# with letters outside ASCII where case is ignored (its letters folded in the glob itself, `_fold_glob`).
_WORD = re.compile(r"[A-Za-z0-9_]+")
_TOKEN = re.compile(r"Q([0-9]+)Q")
_SHAPES: dict[tuple[str, str], list[str]] = {}
_MAX_SHAPES = 4096


def _by_shape(
    pattern: str, dialect: str, translate: Callable[[str], list[str]], *, fold: bool = False
) -> list[str]:
    if any(ch in pattern for ch in "[]\\") or ".." in pattern or (fold and not pattern.isascii()):
        return translate(_fold_glob(pattern) if fold else pattern)
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
    put: Callable[[str], str] = _fold_word if fold else str
    return [_TOKEN.sub(lambda match: put(words[int(match.group(1))]), part) for part in parts]


def _fold_word(word: str) -> str:
    """An ASCII word as a regex (and glob) that matches it in any case: `Ts1` -> `[tT][sS]1`."""
    return "".join(f"[{ch.lower()}{ch.upper()}]" if ch.isalpha() else ch for ch in word)


def _other_cases(char: str) -> str:
    """The characters the `ignore` package's case-insensitive regex (JavaScript's `i` flag, without `u`)
    takes for `char`, besides `char`: its other case, when that is one character and does not turn a
    character outside ASCII into one inside it (the long s, U+017F, is no `s`)."""
    found = ""
    for other in (char.lower(), char.upper()):
        into_ascii = other.isascii() and not char.isascii()
        if len(other) == 1 and other != char and other not in found and not into_ascii:
            found += other
    return found


def _fold_glob(glob: str) -> str:
    """`glob` with every letter matched in either case: a letter outside a class becomes a class of its
    cases (`[sS]`, an escaped one too), a class gains the other case of its letters and ranges
    (`[a-f]` -> `[a-fA-F]`). Brackets that open no class are left to the translator, as they are."""
    out: list[str] = []
    i, end = 0, len(glob)
    while i < end:
        char = glob[i]
        if char == "\\" and i + 1 < end:
            out.append(_fold_char(glob[i + 1]) or glob[i : i + 2])
            i += 2
        elif char == "[" and (close := _class_close(glob, i)) > 0:
            out.append(_fold_class(glob[i + 1 : close]))
            i = close + 1
        else:
            out.append(_fold_char(char) or char)
            i += 1
    return "".join(out)


def _fold_char(char: str) -> str:
    """A class of `char`'s cases (`[aA]`, as `_fold_word` writes an ASCII letter), "" for a character
    without another case."""
    other = _other_cases(char)
    if not other:
        return ""
    return f"[{char.lower()}{char.upper()}]" if char.isascii() else f"[{char}{other}]"


def _class_close(glob: str, start: int) -> int:
    """The index of the `]` that closes the class opened at `start` (gitignore's reading: a `!` or `^`
    first negates, a `]` right after that is a member), or -1 when none does."""
    i = start + 1
    if i < len(glob) and glob[i] in "!^":
        i += 1
    if i < len(glob) and glob[i] == "]":
        i += 1
    while i < len(glob):
        if glob[i] == "\\":
            i += 2
            continue
        if glob[i] == "]":
            return i
        i += 1
    return -1


def _fold_class(body: str) -> str:
    """`[body]` with the other case of each member letter and of each range of letters added."""
    negate = body[:1] if body[:1] in ("!", "^") else ""
    i = len(negate)
    members: list[str] = []
    added: list[str] = []
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            first, step = body[i + 1], 2
        else:
            first, step = body[i], 1
        members.append(body[i : i + step])
        i += step
        if i + 1 < len(body) and body[i] == "-":
            last = body[i + 2] if body[i + 1] == "\\" and i + 2 < len(body) else body[i + 1]
            members.append(body[i : i + (3 if body[i + 1] == "\\" else 2)])
            i += 3 if body[i + 1] == "\\" else 2
            for low, high in (("a", "z"), ("A", "Z")):
                start, stop = max(first, low), min(last, high)
                if start <= stop:
                    added.append(f"{start.swapcase()}-{stop.swapcase()}")
            continue
        added.append(_other_cases(first))
    return "[" + negate + "".join(members) + "".join(added) + "]"


def literal_prefix(pattern: str, dialect: str) -> str:
    """A literal start that every path `pattern` matches in `dialect` has, as written: `src/ui/` for
    `src/ui/**/*.tsx`, the pattern itself for a literal path (`src/a.ts`); "" when its matches may lie
    anywhere (a gitignore glob or a Copilot glob without an inner `/`, `*.py`). In a dialect of
    `FOLDS_CASE` a match starts with it in some case: compare both lower-cased ("" when the prefix is
    not ASCII, where lower-casing may not agree with the agent)."""
    glob = pattern
    if dialect == "gitignore":
        globs = claude_code_globs((pattern,))
        if len(globs) != 1 or "/" not in globs[0].rstrip("/"):
            return ""  # braces, or no inner slash: anywhere
        glob = globs[0].lstrip("/")
    elif dialect == "copilot" and "/" not in pattern:
        return ""
    bare = glob.removeprefix("./")
    prefix = static_prefix(bare)
    if not prefix or (dialect in FOLDS_CASE and not prefix.isascii()):
        return ""
    # "src/ui" must admit "src/ui/x" and the marker "src/ui/", not only "src/uix".
    return prefix if prefix == bare else prefix + "/"
