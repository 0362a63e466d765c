"""Which operands of a known program it reads: `cat`, `head`, `sed -n`, `rg`, `ls`, `find`... (pure).

Agents read through the shell all the time (Codex has no other way to read), so a shell read is a touch
like a Read tool call. The bar is the one writes meet: a false path costs tokens and may steer the model
with the wrong rules, a miss costs only what jitctx costs without this feature. So each program has a
complete table of its GNU options; an option that is not in the table, or one that changes what the
operands mean (`--files0-from`, `--help`), makes the whole command report nothing rather than risk
reading an option's value as a path. A pattern operand (`grep PATTERN FILE`) is never a path.

Programs that read files named elsewhere (`xargs cat`, `python gen.py`, `git show HEAD:a`) report
nothing, and `rm` stays deliberately unsupported (see `jitctx.touched.bash`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from jitctx.touched.commands import Program, sed_files
from jitctx.touched.lexer import Word


class ReadSpec(NamedTuple):
    """How one reading program takes its options and operands (GNU getopt rules)."""

    short_flags: str = ""  # short options without a value
    short_args: str = ""  # short options that take a value (`-n 20`, `-n20`)
    long_flags: frozenset[str] = frozenset()
    long_args: frozenset[str] = frozenset()  # long options that take a value (`--lines 20`, `--lines=20`)
    numeric: bool = False  # `-50` is an option (head, tail, grep's context)
    pattern_first: bool = False  # the first operand is a pattern unless a pattern option gave one
    pattern_options: frozenset[str] = frozenset()  # options that give the pattern (`-e`, `--regexp`)
    no_pattern_options: frozenset[str] = frozenset()  # options after which there is no pattern at all
    plus_operands: bool = False  # `+N` / `+cmd` operands are commands, not files (less, more)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_GREP = ReadSpec(
    short_flags="EFGPiyvwxcLloqsbHhnTZzraRIUu",
    short_args="efmABCdD",
    long_flags=_words(
        "extended-regexp fixed-strings basic-regexp perl-regexp ignore-case no-ignore-case invert-match "
        "word-regexp line-regexp count files-with-matches files-without-match only-matching quiet silent "
        "no-messages byte-offset with-filename no-filename line-number initial-tab null null-data text "
        "recursive dereference-recursive color colour no-group-separator line-buffered"
    ),
    long_args=_words(
        "regexp file max-count after-context before-context context directories devices include "
        "exclude exclude-from exclude-dir label binary-files group-separator"
    ),
    numeric=True,
    pattern_first=True,
    pattern_options=_words("e f regexp file"),
)

_LESS = ReadSpec(
    short_flags="aABcCdeEfFgGiIJKLmMnNqQrRsSuUwWX~",
    short_args="bhjkoOpPtTxyz#",
    long_flags=_words(
        "RAW-CONTROL-CHARS raw-control-chars chop-long-lines LINE-NUMBERS line-numbers quit-if-one-screen "
        "no-init ignore-case IGNORE-CASE squeeze-blank-lines quit-at-eof QUIT-AT-EOF long-prompt "
        "status-column follow-name mouse"
    ),
    numeric=True,
    plus_operands=True,
)

_BAT = ReadSpec(
    short_flags="AfnpPSu",
    short_args="lHrm",
    long_flags=_words(
        "show-all plain number force-colorization diff chop-long-lines unbuffered squeeze-blank no-config "
        "no-custom-assets"
    ),
    long_args=_words(
        "language highlight-line line-range map-syntax style theme tabs wrap terminal-width color paging "
        "decorations italic-text file-name pager diff-context ignored-suffix nonprintable-notation binary "
        "strip-ansi squeeze-limit"
    ),
)

SPECS: dict[str, ReadSpec] = {
    "cat": ReadSpec(
        short_flags="AbeEnstTuv",
        long_flags=_words(
            "show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting"
        ),
    ),
    "tac": ReadSpec(
        short_flags="br", short_args="s", long_flags=_words("before regex"), long_args=_words("separator")
    ),
    "head": ReadSpec(
        short_flags="qvz",
        short_args="nc",
        long_flags=_words("quiet silent verbose zero-terminated"),
        long_args=_words("lines bytes"),
        numeric=True,
    ),
    "tail": ReadSpec(
        short_flags="fFqvz",
        short_args="ncs",
        long_flags=_words("follow retry quiet silent verbose zero-terminated"),
        long_args=_words("lines bytes pid sleep-interval max-unchanged-stats"),
        numeric=True,
    ),
    "nl": ReadSpec(
        short_flags="p",
        short_args="bdfhilnsvw",
        long_flags=_words("no-renumber"),
        long_args=_words(
            "body-numbering section-delimiter footer-numbering header-numbering line-increment "
            "join-blank-lines number-format number-width number-separator starting-line-number"
        ),
    ),
    "wc": ReadSpec(short_flags="clmwL", long_flags=_words("bytes chars lines words max-line-length")),
    "less": _LESS,
    "more": ReadSpec(short_flags="dlfpcsu", numeric=True, plus_operands=True),
    "bat": _BAT,
    "batcat": _BAT,
    "grep": _GREP,
    "egrep": _GREP,
    "fgrep": _GREP,
    "rg": ReadSpec(
        short_flags="abcFhHiIlLnNopqsSuUvwxz0.",
        short_args="ABCdeEfgjmMrtT",
        long_flags=_words(
            "line-number no-line-number heading no-heading hidden no-hidden no-ignore no-ignore-vcs "
            "ignore-case smart-case case-sensitive fixed-strings word-regexp line-regexp count "
            "count-matches files files-with-matches files-without-match follow json vimgrep "
            "only-matching with-filename no-filename invert-match multiline multiline-dotall pcre2 "
            "passthru quiet null null-data search-zip text trim unrestricted column no-column "
            "byte-offset stats sort-files no-messages no-config crlf one-file-system no-ignore-parent "
            "no-ignore-dot no-ignore-global no-ignore-exclude no-ignore-files no-require-git binary "
            "block-buffered line-buffered glob-case-insensitive max-columns-preview pretty"
        ),
        long_args=_words(
            "after-context before-context context max-depth regexp encoding file glob iglob threads "
            "max-count max-columns replace type type-not type-add type-clear sort sortr color colors "
            "context-separator field-context-separator field-match-separator path-separator "
            "max-filesize pre pre-glob ignore-file dfa-size-limit regex-size-limit engine"
        ),
        pattern_first=True,
        pattern_options=_words("e f regexp file"),
        no_pattern_options=_words("files"),
    ),
    "ls": ReadSpec(
        short_flags="aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1",
        short_args="ITw",
        long_flags=_words(
            "all almost-all author escape ignore-backups directory dired classify file-type full-time "
            "group-directories-first no-group human-readable si dereference-command-line "
            "dereference-command-line-symlink-to-dir inode kibibytes dereference numeric-uid-gid "
            "literal hide-control-chars show-control-chars quote-name reverse recursive size context "
            "zero color"
        ),
        long_args=_words(
            "ignore tabsize width block-size format sort time time-style hide indicator-style quoting-style"
        ),
    ),
    "tree": ReadSpec(
        short_flags="adlfxpsughDFqNQrtvcUiASCnJX",
        short_args="LPIoHT",
        long_flags=_words("noreport dirsfirst filesfirst du prune matchdirs fromfile gitignore"),
        long_args=_words("filelimit charset sort timefmt"),
    ),
}

# Options whose presence means the operands are not what they seem (a list of names read from a file,
# help text instead of a read): the command reports nothing.
_REFUSE_LONG = _words("files0-from help version type-list")


def program_reads(program: Program | None) -> list[Word]:
    """The operands `program` reads (unfiltered: the caller drops inexact and special paths)."""
    if program is None:
        return []
    name, args = program
    if name == "find":
        return _find_start_points(args)
    if name == "sed":
        return sed_files(args)[1]
    spec = SPECS.get(name)
    if spec is None:
        return []
    return _operands(args, spec)


def _operands(args: Sequence[Word], spec: ReadSpec) -> list[Word]:
    """The file operands under `spec`, or [] when any option is unknown."""
    operands: list[Word] = []
    given: set[str] = set()  # option names seen, short and long
    k = 0
    while k < len(args):
        word = args[k]
        text = word.text
        k += 1
        if not word.exact and text.startswith("-"):
            return []  # `-$N` or `--$OPT`: an option we cannot read
        if text == "--":
            operands.extend(args[k:])
            break
        if text.startswith("--"):
            name, eq, _ = text[2:].partition("=")
            if name in _REFUSE_LONG:
                return []
            if name in spec.long_args:
                k += 0 if eq else 1
            elif name not in spec.long_flags:
                return []
            given.add(name)
        elif text.startswith("-") and len(text) > 1:
            if spec.numeric and text[1:].isdigit():
                continue
            for pos, ch in enumerate(text[1:], start=1):
                given.add(ch)
                if ch in spec.short_args:
                    k += 0 if pos < len(text) - 1 else 1  # the value is attached, or the next word
                    break
                if ch not in spec.short_flags:
                    return []
        elif spec.plus_operands and text.startswith("+"):
            continue
        else:
            operands.append(word)
    if k > len(args):
        return []  # an option wanted a value that is not there: the program would refuse to run
    if spec.pattern_first and not (given & (spec.pattern_options | spec.no_pattern_options)):
        operands = operands[1:]
    return operands


# find's expression starts at the first word that begins with `-`, `(`, `!` or `,`; before it come the
# starting points, after the global options -H, -L, -P, -D DEBUG and -O LEVEL.
_FIND_EXPRESSION_START = ("-", "(", "!", ",", ")")


def _find_start_points(args: Sequence[Word]) -> list[Word]:
    k = 0
    while k < len(args) and (args[k].text in ("-H", "-L", "-P", "-D") or args[k].text.startswith("-O")):
        k += 2 if args[k].text == "-D" else 1
    points: list[Word] = []
    while k < len(args) and not args[k].text.startswith(_FIND_EXPRESSION_START):
        points.append(args[k])
        k += 1
    # `find src -delete` is deletion, which jitctx deliberately does not follow (as with `rm`).
    if any(word.text == "-delete" for word in args[k:]):
        return []
    return points
