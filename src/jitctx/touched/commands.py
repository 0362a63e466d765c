"""Which operands of a known program it writes: `cp`, `mv`, `install`, `touch`, `mkdir`, `tee`, `sed -i`
(pure), and the script that `bash -c SCRIPT` runs. Everything else, `rm` included, writes nothing we can name.

Options are read the way GNU getopt reads them (options may follow operands, `--` ends them, a short
option's value may be attached: `-tDIR`, `-i.bak`), because agents mostly run on GNU userlands; BSD
forms that differ (`sed -i ''`) are recognised where they cannot be mistaken for a GNU form.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import NamedTuple

from jitctx.touched.lexer import Word

Program = tuple[str, Sequence[Word]]

_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=")
# Reserved words that may start a simple command and leave the rest of it a command.
KEYWORDS = frozenset({"!", "{", "}", "if", "then", "else", "elif", "do", "while", "until"})
# GNU tools installed with a `g` prefix (Homebrew on macOS).
_ALIASES = {"gcp": "cp", "gmv": "mv", "ginstall": "install", "gtouch": "touch", "gmkdir": "mkdir",
            "gtee": "tee", "gsed": "sed"}  # fmt: skip


class _Wrapper(NamedTuple):
    """A program that runs the rest of its arguments as a command (`sudo`, `env`, `nohup`...)."""

    short_arg: str = ""  # short options that take a value
    long_arg: frozenset[str] = frozenset()
    refuse_short: str = ""  # options after which the rest is not simply run as a command
    refuse_long: frozenset[str] = frozenset()
    assignments: bool = False  # NAME=value words may follow the options
    leading_operands: int = 0  # operands before the command (`timeout DURATION cmd`)


_WRAPPERS = {
    "sudo": _Wrapper(
        short_arg="ugCprtTU",
        long_arg=frozenset(
            {"user", "group", "close-from", "prompt", "role", "type", "command-timeout", "other-user"}
        ),
        refuse_short="elvVDRhK",
        refuse_long=frozenset(
            {"edit", "list", "validate", "version", "help", "chdir", "chroot", "host", "remove-timestamp"}
        ),
        assignments=True,
    ),
    "env": _Wrapper(
        short_arg="uP",
        long_arg=frozenset({"unset"}),
        refuse_short="CS",
        refuse_long=frozenset({"chdir", "split-string", "help", "version"}),
        assignments=True,
    ),
    "command": _Wrapper(refuse_short="vV"),
    "builtin": _Wrapper(),
    "nohup": _Wrapper(refuse_long=frozenset({"help", "version"})),
    "time": _Wrapper(short_arg="of", long_arg=frozenset({"output", "format"})),
    "nice": _Wrapper(short_arg="n", long_arg=frozenset({"adjustment"})),
    "exec": _Wrapper(short_arg="a"),
    "timeout": _Wrapper(short_arg="sk", long_arg=frozenset({"signal", "kill-after"}), leading_operands=1),
    "stdbuf": _Wrapper(short_arg="ioe", long_arg=frozenset({"input", "output", "error"})),
}


def resolve_program(words: Sequence[Word]) -> Program | None:
    """The program a simple command runs and its arguments, past assignments, keywords and wrappers."""
    k = 0
    while k < len(words) and (_ASSIGNMENT.match(words[k].text) or words[k].text in KEYWORDS):
        k += 1
    while k < len(words):
        if not words[k].exact:
            return None  # `$CMD a b`: the program itself is unknown
        name = posixpath.basename(words[k].text)
        name = _ALIASES.get(name, name)
        wrapper = _WRAPPERS.get(name)
        if wrapper is None:
            return name, words[k + 1 :]
        k = _skip_wrapper(wrapper, words, k + 1)
        if k < 0:
            return None
    return None


def _skip_wrapper(spec: _Wrapper, words: Sequence[Word], k: int) -> int:
    """Index of the wrapped command's first word, or -1 when it cannot be told."""
    while k < len(words):
        text = words[k].text
        if text == "--":
            k += 1
            break
        if text.startswith("--"):
            name, eq, _ = text[2:].partition("=")
            if name in spec.refuse_long:
                return -1
            k += 2 if not eq and name in spec.long_arg else 1
        elif text.startswith("-") and len(text) > 1:
            for pos, ch in enumerate(text[1:], start=1):
                if ch in spec.refuse_short:
                    return -1
                if ch in spec.short_arg:
                    k += 1 if pos < len(text) - 1 else 2  # the value is attached, or the next word
                    break
            else:
                k += 1
        else:
            break
    while spec.assignments and k < len(words) and _ASSIGNMENT.match(words[k].text):
        k += 1
    return k + spec.leading_operands


def program_targets(program: Program | None) -> list[Word]:
    """The operands `program` writes (unfiltered: the caller drops inexact and special paths)."""
    if program is None:
        return []
    name, args = program
    if name in ("cp", "mv"):
        return _destination(_parse(args, "tS", {"target-directory", "suffix", "sparse", "no-preserve"}))
    if name == "install":
        parsed = _parse(
            args, "gmoSt", {"group", "mode", "owner", "suffix", "target-directory", "strip-program"}
        )
        if "d" in parsed.flags or "directory" in parsed.flags:
            return parsed.operands  # `install -d a b` creates directories a and b
        return _destination(parsed)
    if name == "touch":
        return _parse(args, "drtA", {"date", "reference", "time"}).operands
    if name == "mkdir":
        return _parse(args, "m", {"mode"}).operands
    if name == "tee":
        return _parse(args, "", set()).operands
    if name == "sed":
        in_place, files = sed_files(args)
        return files if in_place else []
    return []


class _Parsed(NamedTuple):
    operands: list[Word]
    values: list[tuple[str, Word]]  # options that took a value: `-t DIR`, `-tDIR`, `--target-directory=DIR`
    flags: set[str]  # options without one


def _parse(args: Sequence[Word], short_arg: str, long_arg: set[str]) -> _Parsed:
    parsed = _Parsed([], [], set())
    k = 0
    while k < len(args):
        word = args[k]
        text = word.text
        if text == "--":
            parsed.operands.extend(args[k + 1 :])
            break
        if text.startswith("--"):
            name, eq, value = text[2:].partition("=")
            if eq:
                parsed.values.append((name, Word(value, word.exact)))
            elif name in long_arg and k + 1 < len(args):
                parsed.values.append((name, args[k + 1]))
                k += 1
            else:
                parsed.flags.add(name)
        elif text.startswith("-") and len(text) > 1:
            for pos, ch in enumerate(text[1:], start=1):
                if ch not in short_arg:
                    parsed.flags.add(ch)
                    continue
                if pos < len(text) - 1:
                    parsed.values.append((ch, Word(text[pos + 1 :], word.exact)))
                elif k + 1 < len(args):
                    parsed.values.append((ch, args[k + 1]))
                    k += 1
                break
        else:
            parsed.operands.append(word)
        k += 1
    return parsed


def _destination(parsed: _Parsed) -> list[Word]:
    """`cp a b` -> b, `cp a b dir/` -> dir/, `cp -t dir a b` -> dir; a lone operand writes nothing."""
    target_dirs = [value for name, value in parsed.values if name in ("t", "target-directory")]
    if target_dirs:
        return target_dirs[-1:]
    return parsed.operands[-1:] if len(parsed.operands) >= 2 else []


def sed_files(args: Sequence[Word]) -> tuple[bool, list[Word]]:
    """Whether sed edits in place, and the FILEs it reads (and, in place, writes): `sed -n '1,9p' FILE`,
    `sed -i SCRIPT FILE...`, `sed -i -e SCRIPT FILE...`, BSD `sed -i '' SCRIPT FILE...`."""
    in_place = script_given = False
    operands: list[Word] = []
    k = 0
    while k < len(args):
        text = args[k].text
        if text == "--":
            operands.extend(args[k + 1 :])
            break
        if text.startswith("--"):
            name, eq, _ = text[2:].partition("=")
            in_place = in_place or name == "in-place"
            script_given = script_given or name in ("expression", "file")
            k += 2 if not eq and name in ("expression", "file", "line-length") else 1
            continue
        if text.startswith("-") and len(text) > 1:
            for pos, ch in enumerate(text[1:], start=1):
                last = pos == len(text) - 1
                if ch in "efl":
                    script_given = script_given or ch != "l"
                    k += 1 if last else 0
                    break
                if ch in "iI":
                    # GNU attaches the backup suffix (`-i.bak`); BSD always takes the next word
                    # (`-i ''`, `-i .bak`). Only a next word that cannot be a script is read as BSD's.
                    in_place = True
                    if last and k + 1 < len(args) and (args[k + 1].text == "" or args[k + 1].text[0] == "."):
                        k += 1
                    break
            k += 1
            continue
        operands.append(args[k])
        k += 1
    if not operands:
        return in_place, []
    if script_given:
        return in_place, operands
    # An unquoted `$EXPR` script may expand to nothing, and the first file would become the script.
    return in_place, [] if operands[0].may_split else operands[1:]


SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})


def shell_script(program: Program | None) -> str | None:
    """The SCRIPT of `bash -c SCRIPT` / `bash -lc SCRIPT`; None for anything else (`bash file.sh` cannot
    be read)."""
    if program is None or program[0] not in SHELLS:
        return None
    args = program[1]
    runs_string = False
    k = 0
    while k < len(args) and len(args[k].text) > 1 and args[k].text[0] in "-+":
        text = args[k].text
        if not text.startswith("--"):
            runs_string = runs_string or "c" in text
            k += 1 if ("o" in text or "O" in text) else 0  # `-o pipefail` takes a value
        k += 1
    if not runs_string or k >= len(args) or not args[k].exact:
        return None
    return args[k].text
