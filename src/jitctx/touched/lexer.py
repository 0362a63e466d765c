"""A small POSIX-shell tokenizer: just enough of bash's lexing to find write targets safely (pure).

`shlex` (even with ``punctuation_chars``) cannot be used here, because it:

* drops the adjacency that separates an fd number from an argument (``cp a b 2>/dev/null`` and
  ``cp a b 2 >/dev/null`` give the same tokens, so cp's target would become ``2``);
* treats newlines as blanks (``touch a\\nrm b`` would read as ``touch a rm b``);
* starts a comment at a ``#`` inside a word (``echo a#b > f`` loses ``> f``);
* knows no here-documents, whose bodies are data and may hold unbalanced quotes.

So the lexer is hand-written, and every construct it does not model with certainty (parameter and
command substitution, globs, braces, tildes) marks the word as not `exact` instead of guessing.

It runs on every shell call an agent makes, whatever the command holds, so its cost is linear in the
length of the command, with runs of plain text (words, quoted strings, blanks) taken whole by a regex
rather than one character at a time, and bounded: a script is read up to `MAX_TOKENS` tokens (see
`tokenize`).
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Word(NamedTuple):
    """A shell word after quote removal.

    `exact` is False when expansion could change its text; `may_split` is True when an unquoted
    expansion could also turn it into no word or several words, shifting the positions of the rest.
    """

    text: str
    exact: bool
    may_split: bool = False


class Op(NamedTuple):
    """An operator (`>`, `&&`, `(`, ...) or a newline, `fd` set for `2>` style redirections."""

    text: str
    fd: str = ""


Token = Word | Op


class Unterminated(ValueError):
    """An unclosed quote or substitution: bash would refuse to run the command at all."""


# Tokens read from one script. A command naming 10,000 paths has about 10,000; this many is no agent's
# command but a generated one, and reading it whole would cost the hook seconds.
MAX_TOKENS = 50_000
# What `tokenize` ends with when it stopped at MAX_TOKENS: the rest of the script was not read.
CUT = Op("")


# Longest first, so `&>>` wins over `&>` and `&`.
OPERATORS = (
    "&>>", "<<-", "<<<", ";;&",
    "&>", ">>", ">|", ">&", "<&", "<<", "<>", "&&", "||", "|&", ";;", ";&",
    ">", "<", "&", "|", ";", "(", ")",
)  # fmt: skip
_OPERATOR = re.compile("|".join(re.escape(o) for o in OPERATORS))
_OPERATOR_START = frozenset("<>&|;()")
_WORD_END = frozenset(" \t\r\n<>&|;()")
_FD_PREFIX = re.compile(r"\d+(?=[<>])")
# Characters whose unquoted presence means the shell may expand the word (globs, braces, extglob).
_PATTERN_CHARS = frozenset("*?[]{}")
# A run of characters that stand for themselves in a word: read at once instead of one by one.
_PLAIN_RUN = re.compile(r"[^ \t\r\n<>&|;()\\'\"$`*?\[\]{}~]+")
# A whole word of such characters (`~` only past its start), ended by a blank or an operator other than
# `(`: the common word, taken in one match. Anything else goes through `read_word`.
_PLAIN_WORD = re.compile(
    r"[^ \t\r\n<>&|;()\\'\"$`*?\[\]{}~]"  # not `~` first: that one is the home directory
    r"[^ \t\r\n<>&|;()\\'\"$`*?\[\]{}]*"
    r"(?=[ \t\r\n<>&|;)]|\Z)"
)
_BLANKS = re.compile(r"[ \t\r]*")
_BLANK_LINES = re.compile(r"[ \t\r\n]*")  # after a newline: more of them end no further command
_DOUBLE_QUOTED_RUN = re.compile(r'[^"\\$`]+')
_NAME_REST = re.compile(r"\w*")  # the rest of `$name` (what `str.isalnum` or `_` accepts)
_SIMPLE_EXPANSIONS = re.compile(r"(?:\$(?![({'])\w*)+")  # `$name$1$?...`, taken as `_skip_expansion` does
_PARENS = re.compile(r"\(+|\)+")


def tokenize(script: str) -> list[Token]:
    """Tokens of `script`, here-document bodies removed; raises `Unterminated` like bash would.

    After `MAX_TOKENS` tokens the rest is not read, and the tokens end with `CUT`: the command then in
    progress may lack its last words (a destination, an option that changes the others), so a reader
    must drop it, and whatever followed it is unknown."""
    tokens: list[Token] = []
    pending: list[tuple[str, bool]] = []  # here-documents whose bodies start after the next newline
    i, n = 0, len(script)
    while i < n:
        if len(tokens) >= MAX_TOKENS:
            tokens.append(CUT)
            break
        c = script[i]
        if c in " \t\r":
            i = _BLANKS.match(script, i + 1).end()  # type: ignore[union-attr]  # `*` always matches
        elif c == "\\" and script.startswith("\\\n", i):
            i += 2
        elif c == "#":
            end = script.find("\n", i)
            i = n if end < 0 else end
        elif c == "\n":
            tokens.append(Op("\n"))
            i += 1
            for delimiter, strip_tabs in pending:
                i = _skip_heredoc_body(script, i, delimiter, strip_tabs)
            pending.clear()
            i = _BLANK_LINES.match(script, i).end()  # type: ignore[union-attr]
        elif script.startswith("((", i):
            # An arithmetic command: `>` and `<` inside compare numbers, they redirect nothing.
            end = _skip_arithmetic(script, i + 2)
            tokens.append(Word(script[i:end], exact=False, may_split=True))
            i = end
        elif c in _OPERATOR_START:
            op = _operator_at(script, i)
            tokens.append(Op(op))
            i += len(op)
            if op in ("<<", "<<-"):
                i = _skip_blanks(script, i)
                if i < n and script[i] not in _WORD_END:
                    tag, i = read_word(script, i)
                    tokens.append(tag)
                    pending.append((tag.text, op == "<<-"))
        elif (fd := _FD_PREFIX.match(script, i)) is not None:
            i = fd.end()
            op = _operator_at(script, i)
            tokens.append(Op(op, fd.group()))
            i += len(op)
        elif (plain := _PLAIN_WORD.match(script, i)) is not None:
            tokens.append(Word(plain.group(), True))
            i = plain.end()
        else:
            word, i = read_word(script, i)
            tokens.append(word)
    return tokens


def _operator_at(s: str, i: int) -> str:
    match = _OPERATOR.match(s, i)  # every operator character is itself an operator, so this matches
    return match.group() if match else s[i]


def read_word(s: str, i: int) -> tuple[Word, int]:
    """Read one word starting at `i`; return it and the index after it."""
    parts: list[str] = []
    exact, may_split = True, False
    start, n = i, len(s)
    while i < n:
        c = s[i]
        if c in _WORD_END:
            if c == "(":
                exact = False  # `name(` is a function definition or an extglob, never a plain path
            break
        if c == "\\":
            if s.startswith("\\\n", i):
                i += 2
                continue
            parts.append(s[i + 1 : i + 2])
            i += 2
        elif c == "'":
            end = s.find("'", i + 1)
            if end < 0:
                raise Unterminated("unclosed single quote")
            parts.append(s[i + 1 : end])
            i = end + 1
        elif c == '"':
            text, i, literal = _read_double_quoted(s, i + 1)
            parts.append(text)
            exact = exact and literal
        elif c == "$" or c == "`":
            simple = _SIMPLE_EXPANSIONS.match(s, i)
            end = simple.end() if simple is not None else _skip_expansion(s, i)
            parts.append(s[i:end])
            exact = False
            may_split = True
            i = end
        elif (plain := _PLAIN_RUN.match(s, i)) is not None:
            parts.append(plain.group())
            i = plain.end()
        else:
            if c in _PATTERN_CHARS or (c == "~" and i == start):
                exact = False
                may_split = may_split or c != "~"
            parts.append(c)
            i += 1
    return Word("".join(parts), exact, may_split), i


def _read_double_quoted(s: str, i: int) -> tuple[str, int, bool]:
    """Text of a double-quoted string whose body starts at `i`; also whether it had no expansion."""
    parts: list[str] = []
    literal = True
    n = len(s)
    while i < n:
        c = s[i]
        if c == '"':
            return "".join(parts), i + 1, literal
        if c == "\\":
            if i + 1 < n and s[i + 1] in '$`"\\\n':
                if s[i + 1] != "\n":
                    parts.append(s[i + 1])
                i += 2
            else:
                parts.append(c)
                i += 1
        elif c == "$" or c == "`":
            end = _skip_expansion(s, i)
            parts.append(s[i:end])
            literal = False
            i = end
        else:
            end = _DOUBLE_QUOTED_RUN.match(s, i).end()  # type: ignore[union-attr]  # `c` starts a run
            parts.append(s[i:end])
            i = end
    raise Unterminated("unclosed double quote")


def _skip_expansion(s: str, i: int) -> int:
    """Index after the expansion starting at `s[i]` (`$name`, `${...}`, `$(...)`, `$'...'`, backticks).

    Iterative with an explicit stack of closers, so deeply nested input cannot exhaust recursion.
    """
    n = len(s)
    if s.startswith("$(", i):
        stack, i = [")"], i + 2
    elif s.startswith("${", i):
        stack, i = ["}"], i + 2
    elif s.startswith("$'", i):
        stack, i = ["$'"], i + 2
    elif s[i] == "`":
        stack, i = ["`"], i + 1
    else:
        # `$name`, `$1`, `$?`...: the variable is unknown either way, so its extent need not be exact.
        return _NAME_REST.match(s, i + 1).end()  # type: ignore[union-attr]  # `*` always matches
    while i < n:
        c, top = s[i], stack[-1]
        if c == "\\" and top != "'":  # inside plain single quotes a backslash is literal
            i += 2
            continue
        if top in ("'", "$'"):
            if c == "'":
                stack.pop()
        elif top == "`":
            if c == "`":
                stack.pop()
        elif top == '"':
            if c == '"':
                stack.pop()
            elif c == "`":
                stack.append("`")
            elif s.startswith("$(", i):
                stack.append(")")
                i += 1
        elif c == top:
            stack.pop()
        elif c in "'\"`":
            stack.append(c)
        elif (c == "(" and top == ")") or (c == "{" and top == "}"):
            stack.append(top)
        elif s.startswith("${", i):
            stack.append("}")
            i += 1
        i += 1
        if not stack:
            return i
    raise Unterminated("unclosed substitution")


def _skip_arithmetic(s: str, i: int) -> int:
    """Index after the `))` closing an arithmetic command whose body starts at `i`."""
    depth = 2
    for run in _PARENS.finditer(s, i):  # a run of one parenthesis at a time, not each character
        width = run.end() - run.start()
        if s[run.start()] == "(":
            depth += width
        elif width >= depth:
            return run.start() + depth
        else:
            depth -= width
    raise Unterminated("unclosed arithmetic command")


def _skip_blanks(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t":
        i += 1
    return i


def _skip_heredoc_body(s: str, i: int, delimiter: str, strip_tabs: bool) -> int:
    """Index after the line that closes a here-document body starting at `i` (end of text if none)."""
    n = len(s)
    while i < n:
        end = s.find("\n", i)
        line = s[i : n if end < 0 else end].rstrip("\r")
        if (line.lstrip("\t") if strip_tabs else line) == delimiter:
            return n if end < 0 else end + 1
        if end < 0:
            return n
        i = end + 1
    return n
