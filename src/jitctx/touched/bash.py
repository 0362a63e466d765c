"""The files a shell command will certainly read or write, read from its text alone (pure).

Only forms whose target is certain are reported. Writes: redirections (`>`, `>>`, `>|`, `&>`, `&>>`, and
`>&` to a file), `tee`, `sed -i`, `cp`/`mv`/`install` (the destination), `touch`/`mkdir` (every operand).
Reads: the file operands of `cat`, `head`, `tail`, `sed`, `nl`, `wc`, `less`, `bat`, `grep`, `rg`, `ls`,
`find` and a few more (`jitctx.touched.reads`). Scripts run by `bash -c` count too. A miss costs what
jitctx costs without this feature; a false path costs tokens and may steer the model with the wrong
rules, so every doubt resolves to "not reported":

* words the shell would expand (`$OUT`, `$(...)`, backticks, globs, braces, `~`) are never reported;
* `/dev/*` is no project file (anything else, `/tmp` included, is left to the project boundary: a
  project may live under /tmp, as CI checkouts often do);
* `rm` is deliberately unsupported: a deleted file's rules serve no later step;
* programs that read or write files themselves (`python gen.py`) cannot be read statically;
* after a `cd` whose destination is unknown, relative targets are dropped (absolute ones stay).

Here-document bodies are data and never looked at.

What one command yields is bounded, so that a generated command cannot make the hook slow (each path
costs the hook a discovery, each token of the command a little reading):

* of the paths it reads and of those it writes, the first `MAX_PATHS` of each are taken, in order: a
  rule one of those paths brings comes as it would without the cap; a path past it brings nothing from
  this call (its rules come with the next call that touches it);
* a script is read up to `lexer.MAX_TOKENS` tokens; the simple command the bound cuts and everything
  after it report nothing (its missing last words could change what the first ones mean).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import NamedTuple

from jitctx.touched.commands import KEYWORDS, program_targets, resolve_program, shell_script
from jitctx.touched.lexer import CUT, Op, Token, Unterminated, Word, tokenize
from jitctx.touched.reads import program_reads

# Paths read, and paths written, taken from one command: as many as one MCP call may name. A command
# naming more is generated, not written by an agent at work.
MAX_PATHS = 1000

_WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>"})
_READ_REDIRECTS = frozenset({"<", "<&", "<<<", "<>", "<<", "<<-"})
_PIPES = frozenset({"|", "|&"})
_FD_WORD = re.compile(r"\d+-?|-")
_NEVER_IN_TARGET = re.compile(r"[$`*?\[\]\x00]")
_NOT_PROJECT_FILES = ("/dev",)
_NOT_PROJECT_PREFIXES = tuple(f"{d}/" for d in _NOT_PROJECT_FILES)
# `bash -c 'bash -c "..."'` is followed this deep; deeper scripts report nothing.
MAX_NESTING = 3
# PATH_MAX: a longer name is no file (the system refuses it), and a directory named longer is taken as
# unknown (a script of a million `cd a` would otherwise cost time quadratic in its length).
_PATH_MAX = 4096


def write_targets(command: str) -> tuple[str, ...]:
    """Paths that `command` certainly writes, in order, as written (joined onto literal `cd`s).

    >>> write_targets("cat > src/ui/Badge.tsx <<EOF")
    ('src/ui/Badge.tsx',)
    >>> write_targets("rm src/ui/Old.tsx")
    ()
    """
    return _targets(command).written


def read_targets(command: str) -> tuple[str, ...]:
    """Paths that `command` certainly reads (files and listed directories), in order, as written.

    >>> read_targets("cd src/ui && sed -n '1,80p' Footer.tsx")
    ('src/ui/Footer.tsx',)
    >>> read_targets("rg -n TODO")
    ()
    """
    return _targets(command).read


def shell_targets(command: str) -> tuple[str, ...]:
    """Every path `command` certainly reads or writes, in order of appearance, each once."""
    return _targets(command).touched


def touched_and_written(command: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`shell_targets` and `write_targets` of `command`, from one reading of it."""
    targets = _targets(command)
    return targets.touched, targets.written


class _Targets(NamedTuple):
    """The paths of one command, each once, in order: read and written (the first MAX_PATHS of each),
    and both together."""

    read: tuple[str, ...]
    written: tuple[str, ...]
    touched: tuple[str, ...]


def _targets(command: str) -> _Targets:
    read: dict[str, None] = {}
    written: dict[str, None] = {}
    touched: dict[str, None] = {}
    pairs = _script_targets(command, depth=0) if isinstance(command, str) else []
    for path, writes in pairs:
        kept = written if writes else read
        if path not in kept and len(kept) < MAX_PATHS:
            kept[path] = touched[path] = None
    return _Targets(tuple(read), tuple(written), tuple(touched))


def _script_targets(script: str, depth: int) -> list[tuple[str, bool]]:
    """(path, written) for each target of `script`; reads of a command come before its writes."""
    try:
        tokens = tokenize(script)
    except Unterminated:
        return []  # bash refuses to run a script with an unclosed quote: nothing is read or written
    found: list[tuple[str, bool]] = []
    cwd: str | None = ""  # where we are relative to the start; None after a `cd` to somewhere unknown
    outer: list[str | None] = []  # cwd outside each open `( ... )` subshell
    words: list[Word] = []
    writes: list[Word] = []
    before = ""  # the operator that started the current command
    k = 0
    while k <= len(tokens):
        token = tokens[k] if k < len(tokens) else Op("\n")
        k += 1
        if isinstance(token, Word):
            if token.text == "[[" and all(w.text in KEYWORDS for w in words):
                k = _after_conditional(tokens, k)  # inside `[[ ]]`, `>` and `<` compare strings
                continue
            words.append(token)
            continue
        if token is CUT:
            break  # the command in progress lost its end (see the module's docstring)
        if token.text in _WRITE_REDIRECTS or token.text in _READ_REDIRECTS or token.text == ">&":
            target = tokens[k] if k < len(tokens) else None
            if isinstance(target, Word):
                k += 1
                if _redirect_writes(token, target):
                    writes.append(target)
            continue
        # Any other operator ends the current simple command.
        if not words and not writes:  # none at all (`;;`, a `(`, a blank line): nothing to read
            if token.text == "(":
                outer.append(cwd)
            elif token.text == ")" and outer:
                cwd = outer.pop()
            before = token.text
            continue
        program = resolve_program(words)
        tagged = [
            *((w, False) for w in program_reads(program)),
            *((w, True) for w in writes),
            *((w, True) for w in program_targets(program)),
            *_nested(shell_script(program), depth),
        ]
        for word, written in tagged:
            path = _placed(word, cwd)
            if path is not None:
                found.append((path, written))
        if token.text not in _PIPES and token.text != "&" and before not in _PIPES:
            cwd = _after_cd(program, cwd)  # a `cd` inside a pipeline or in the background changes nothing
        if token.text == "(":
            outer.append(cwd)
        elif token.text == ")" and outer:
            cwd = outer.pop()
        words, writes, before = [], [], token.text
    return found


def _after_conditional(tokens: Sequence[Token], k: int) -> int:
    """Index after the `]]` that closes a `[[` conditional whose body starts at `k`."""
    while k < len(tokens):
        token = tokens[k]
        k += 1
        if isinstance(token, Word) and token.text == "]]":
            return k
    return k


def _nested(script: str | None, depth: int) -> list[tuple[Word, bool]]:
    """The targets of a `bash -c SCRIPT`, as words placed like the outer command's own operands."""
    if script is None or depth + 1 >= MAX_NESTING:
        return []
    return [(Word(path, True), written) for path, written in _script_targets(script, depth + 1)]


def _redirect_writes(op: Op, target: Word) -> bool:
    if op.text in _WRITE_REDIRECTS:
        return True
    # `>&file` sends stdout and stderr to a file; `>&2`, `2>&1` and `>&-` only duplicate descriptors.
    return op.text == ">&" and not op.fd and _FD_WORD.fullmatch(target.text) is None


def _placed(word: Word, cwd: str | None) -> str | None:
    """The reportable path for `word` given the current directory, or None."""
    path = word.text
    if not word.exact or not path or path == "-":  # `-` is stdin/stdout, not a file
        return None
    if path[0] != "/":
        if cwd is None:
            return None
        if cwd:  # as posixpath.join, without its cost on every word of a long command
            path = f"{cwd}{path}" if cwd[-1] == "/" else f"{cwd}/{path}"
    if len(path) > _PATH_MAX or _NEVER_IN_TARGET.search(path) is not None:
        return None
    if path in _NOT_PROJECT_FILES or path.startswith(_NOT_PROJECT_PREFIXES):
        return None
    return path


def _after_cd(program: tuple[str, Sequence[Word]] | None, cwd: str | None) -> str | None:
    if program is None:
        return cwd
    name, args = program
    if name == "popd":
        return None
    if name not in ("cd", "pushd"):
        return cwd
    operands = [a for a in args if a.text == "-" or not a.text.startswith("-")]
    if len(operands) != 1 or not operands[0].exact or operands[0].text in ("", "-"):
        return None  # `cd`, `cd -`, `cd $DIR`: somewhere we cannot name
    destination = operands[0].text
    if not posixpath.isabs(destination):
        if cwd is None:
            return None
        destination = posixpath.join(cwd, destination)
    return destination if len(destination) <= _PATH_MAX else None
