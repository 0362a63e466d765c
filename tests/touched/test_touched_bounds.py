"""What one shell command yields is bounded: the first MAX_PATHS paths read and written, a script read up
to MAX_TOKENS tokens, work linear in the command's length. No timing here: the bounds are counted."""

from __future__ import annotations

from pathlib import Path

import pytest

from jitctx.discovery.session import Session
from jitctx.project import Project
from jitctx.touched import bash, lexer
from jitctx.touched.bash import (
    MAX_NESTING,
    MAX_PATHS,
    read_targets,
    shell_targets,
    touched_and_written,
    write_targets,
)
from jitctx.touched.lexer import CUT, MAX_TOKENS, Op, Word, tokenize

MANY = [f"src/mod{i % 100}/file{i}.py" for i in range(10 * MAX_PATHS)]


def test_a_command_naming_more_paths_than_the_cap_keeps_the_first_ones_in_order() -> None:
    assert read_targets("cat " + " ".join(MANY)) == tuple(MANY[:MAX_PATHS])
    assert write_targets("touch " + " ".join(MANY)) == tuple(MANY[:MAX_PATHS])
    # Repeats count once: the cap is on distinct paths.
    assert read_targets("cat " + " ".join(["a.py"] * 5000 + ["b.py"])) == ("a.py", "b.py")


def test_writes_past_the_cap_of_reads_are_kept() -> None:
    """Reads come before the writes of a command: a thousand reads must not crowd out the write."""
    command = "cat " + " ".join(MANY) + " > src/out/CLAUDE.md"
    touched, written = touched_and_written(command)
    assert written == ("src/out/CLAUDE.md",)
    assert touched == (*MANY[:MAX_PATHS], "src/out/CLAUDE.md")
    assert set(shell_targets(command)) == set(read_targets(command)) | set(write_targets(command))


def test_a_path_within_the_cap_brings_its_rule_and_one_past_it_brings_nothing_from_this_call(
    example_copy: Path,
) -> None:
    """The cap drops the paths past it, never the ones before: the rule of the first path comes. A rule
    only a path past the cap would bring waits for the next call that touches that path (pinned)."""
    session = Session(Project(example_copy), use_git=False)
    session.startup()
    filler = [f"docs/missing{i}.md" for i in range(2 * MAX_PATHS)]
    step = session.on_tool_call(
        "Bash", {"command": " ".join(["cat", "src/ui/Footer.tsx", *filler, "tools/gen.py"])}
    )
    loaded = {load.file.display for load in step.loaded}
    assert ".claude/rules/components.md" in loaded  # src/ui/Footer.tsx, the first path
    assert ".claude/rules/python.md" not in loaded  # tools/gen.py, past the cap
    again = session.on_tool_call("Bash", {"command": "cat tools/gen.py"})
    assert ".claude/rules/python.md" in {load.file.display for load in again.loaded}


def test_tokenize_stops_at_max_tokens_and_says_so() -> None:
    tokens = tokenize("cat a" + ";" * (4 * MAX_TOKENS))
    assert len(tokens) == MAX_TOKENS + 1 and tokens[-1] is CUT
    assert tokenize("cat a; cat b") == [Word("cat", True), Word("a", True), Op(";"), Word("cat", True),
                                        Word("b", True)]  # fmt: skip


def test_the_command_the_token_bound_cuts_reports_nothing_and_those_before_it_are_kept() -> None:
    """`cp a b ... DEST`: the last words may be the destination or an option that changes the others,
    so the command the bound cuts in two reports nothing; the complete commands before it do."""
    assert read_targets("cat first.md; cat " + "x " * MAX_TOKENS) == ("first.md",)
    assert write_targets("touch first.md && cp " + "a " * MAX_TOKENS + "dest/") == ("first.md",)


def test_blank_lines_end_one_command_not_one_each() -> None:
    tokens = tokenize("cat a\n\n \n\t\ncat b")
    assert [t for t in tokens if isinstance(t, Op)] == [Op("\n")]
    assert read_targets("cat a\n" * 3 + "\n" * MAX_TOKENS + "cat b") == ("a", "b")


def test_a_directory_longer_than_path_max_is_unknown() -> None:
    """A million `cd a` would make each join cost the length of the path so far (quadratic)."""
    assert read_targets("cd a; " * 3 + "cat f") == ("a/a/a/f",)
    assert read_targets("cd a; " * 3000 + "cat f /abs/f") == ("/abs/f",)


MIB = 1 << 20
PATHOLOGICAL = {
    "long plain token": "cat " + "a" * MIB,
    "long single-quoted token": "cat '" + "a" * MIB + "'",
    "long double-quoted token": 'cat "' + "a" * MIB + '"',
    "escapes": "cat " + "\\a" * (MIB // 2),
    "nested $(": "echo " + "$(" * 20000 + ")" * 20000 + " > f",
    'nested "$(': "echo " + '"$(' * 10000 + ')"' * 10000 + " > f",
    "nested ${": "echo " + "${" * 20000 + "}" * 20000 + " > f",
    "nested backquotes": "echo " + "\\`" * 20000 + " > f",
    "semicolons": "cat a" + ";" * MIB,
    "newlines": "cat a" + "\n" * MIB,
    "redirections": "cat a" + " > b" * (MIB // 4),
    "words": "cat " + "ab " * (MIB // 3),
    "expansions": "echo " + "$a" * (MIB // 2),
    "arithmetic": "((" * (MIB // 2),
    "subshells": "(" * (MIB // 2) + ")" * (MIB // 2),
    "heredocs": "cat <<E\nx\nE\n" * (MIB // 12),
    "cd": "cd a; " * (MIB // 6) + "cat f",
    "pipes": "cat a | " * (MIB // 8),
    "wrappers": "sudo " * (MIB // 5) + "cat a",
    "conditionals": "[[ " * (MIB // 3),
}


@pytest.mark.parametrize("command", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_pathological_commands_are_read_within_the_bounds(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every token read is counted (nested scripts too): never more than the bound, whatever the command;
    and nothing longer than PATH_MAX is a path."""
    read = 0

    def counted(script: str) -> list[lexer.Token]:
        nonlocal read
        tokens = tokenize(script)
        read += len(tokens)
        return tokens

    monkeypatch.setattr(bash, "tokenize", counted)
    touched, written = touched_and_written(command)
    assert len(touched) <= 2 * MAX_PATHS and len(written) <= MAX_PATHS
    assert read <= MAX_NESTING * (MAX_TOKENS + 1)
    assert all(0 < len(path) <= 4096 for path in touched)
