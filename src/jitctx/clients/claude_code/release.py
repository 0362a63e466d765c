"""What a given Claude Code release loads by itself after a tool call, beyond its Read tool.

Claude Code's nested loading (nested CLAUDE.md files and path-scoped rules of a touched file) has widened
across releases. Run against a scripted model (tests/e2e), 2.1.197 loaded them only after its Read tool
and an `@path` in the prompt; 2.1.332 also after Write and Edit, and after a shell command that reads
exactly one file with `cat`, `head`, `tail`, `sed`, `grep`, `egrep` or `rg` (flags allowed: `cat -n`,
`head -50`, `sed -n '1,5p'`), or with a bare `nl f`, and nothing else: not `cat a b`, not `cat a | head`,
not `cat a 2>/dev/null`, not `cd dir && cat a`, not `nl -ba f`, `wc -l f` or `less f` (`fgrep` is taken
with `egrep`: the client's changelog names the three greps together). jitctx sends what the
release in use does not load, so each file reaches the model once.

The release is read from the session's transcript (`transcript.release_of`), else from the client
process (`process_release`). When neither tells, the oldest behaviour is assumed: jitctx then sends what
a newer release would have loaded too, a possible duplicate rather than a rule that never arrives.
"""

from __future__ import annotations

import os

from jitctx.clients.claude_code.transcript import Release
from jitctx.touched.bash import read_targets, write_targets
from jitctx.touched.commands import resolve_program
from jitctx.touched.lexer import Op, Unterminated, Word, tokenize

# The first release seen to load nested files after Write, Edit and one-file shell reads.
WIDE_NATIVE_JIT: Release = (2, 1, 332)
# The shell programs whose one-file reads that release treats as a read of that file, with options...
SHELL_READERS = frozenset({"cat", "head", "tail", "sed", "grep", "egrep", "fgrep", "rg"})
# ...and those it follows only without any (`nl f` is followed, `nl -ba f` is not).
BARE_SHELL_READERS = frozenset({"nl"})
_WRITING_TOOLS = frozenset({"Write", "Edit"})


def wide(release: Release | None) -> bool:
    """Does this release (None: unknown, taken as the oldest) load nested files beyond Read?"""
    return release is not None and release >= WIDE_NATIVE_JIT


def tool_loads_nested(tool_name: str, release: Release | None) -> bool:
    """Does the release load the nested files of the path a call of this tool touched?"""
    return tool_name == "Read" or (tool_name in _WRITING_TOOLS and wide(release))


def shell_read_by_client(command: object, cwd: str, release: Release | None) -> str | None:
    """The one file a shell command reads that the release itself treats as read (absolute), or None.

    Only the forms that release was seen to follow: one simple command, no pipe, list or `cd`, one of
    SHELL_READERS, exactly one file operand. Anything else is jitctx's to follow."""
    if not isinstance(command, str) or not wide(release):
        return None
    try:
        tokens = tokenize(command)
    except (Unterminated, ValueError):
        return None
    if any(isinstance(token, Op) for token in tokens):
        return None  # a pipe, a list, a redirection: not the single read the client follows
    words = [token for token in tokens if isinstance(token, Word)]
    program = resolve_program(words)
    if program is None:
        return None
    name, arguments = program
    bare = name in BARE_SHELL_READERS and not any(word.text.startswith("-") for word in arguments)
    if name not in SHELL_READERS and not bare:
        return None
    if write_targets(command):
        return None  # `sed -i`: a write, not a read
    targets = read_targets(command)
    if len(targets) != 1:
        return None
    path = os.path.normpath(os.path.join(cwd, targets[0]))
    return path if os.path.isfile(path) else None  # `rg x src/`: a directory search loads nothing
