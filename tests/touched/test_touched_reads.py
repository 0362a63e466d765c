"""Bash read targets: what a shell command certainly reads, and everything it must not report."""

from __future__ import annotations

import pytest

from jitctx.touched.bash import read_targets, shell_targets, write_targets
from jitctx.touched.calls import affected_paths

# The rows the live sessions asked for (Codex reads only through the shell).
ISSUE_ROWS = [
    ("cat src/a.ts", ["src/a.ts"]),
    ("cat -n a.ts b.ts", ["a.ts", "b.ts"]),
    ("sed -n '1,80p' src/ui/Footer.tsx", ["src/ui/Footer.tsx"]),
    ("head -50 x.py", ["x.py"]),
    ("tail -n 20 x.log", ["x.log"]),
    ("nl -ba f", ["f"]),
    ("wc -l f", ["f"]),
    ("less f", ["f"]),
    ("rg -n pattern src/api", ["src/api"]),
    ("grep -rn foo src/ui lib", ["src/ui", "lib"]),
    ("rg pattern", []),
    ("ls src/ui", ["src/ui"]),
    ("find src/api -name '*.ts'", ["src/api"]),
    ("cd src/ui && cat Footer.tsx", ["src/ui/Footer.tsx"]),
    ("cat $F", []),
    ("python src/ui/gen.py", []),
    ("cat /abs/proj/src/a.ts", ["/abs/proj/src/a.ts"]),
    ("cat /tmp/proj/src/a.ts", ["/tmp/proj/src/a.ts"]),  # the project boundary decides, not the prefix
]

PROGRAMS = [
    # cat and friends
    ("cat -- -odd.md", ["-odd.md"]),
    ("cat - a.md", ["a.md"]),  # `-` is stdin
    ("cat a.md | head -5", ["a.md"]),  # head reads the pipe, not a file
    ("cat a.md > b.md", ["a.md"]),  # b.md is written, not read
    ("cat < in.txt", []),  # a redirection's source is not an operand (and is data, like a heredoc)
    ("tac -s , a.csv", ["a.csv"]),
    ("head -n20 x.py", ["x.py"]),
    ("head --lines=5 a b", ["a", "b"]),
    ("head --lines 5 a", ["a"]),
    ("head -c 100 -q a", ["a"]),
    ("tail -f logs/app.log", ["logs/app.log"]),
    ("tail -n +5 src/a.py", ["src/a.py"]),
    ("tail -20 a.py", ["a.py"]),
    ("nl -b a -w 3 f.py", ["f.py"]),
    ("wc -lw a b c", ["a", "b", "c"]),
    ("wc --files0-from=list.txt", []),  # the names are in a file we do not read
    ("less +F log.txt", ["log.txt"]),
    ("less -R -S README.md", ["README.md"]),
    ("more +10 a.txt", ["a.txt"]),
    ("bat -n --style=plain src/a.rs", ["src/a.rs"]),
    ("batcat -r 1:20 src/a.rs", ["src/a.rs"]),
    # sed
    ("sed -n 1,20p a.py b.py", ["a.py", "b.py"]),
    ("sed -e 's/a/b/' -e 's/c/d/' a.py", ["a.py"]),
    ("sed 's/a/b/' a.py", ["a.py"]),
    ("sed -n '/def /p'", []),  # reads stdin
    ("sed -i 's/a/b/' a.py", ["a.py"]),  # read and written: a read too
    ("sed -n $RANGE a.py", []),  # an unquoted expansion may split: the file could be the script
    # grep / rg
    ("grep foo a.py", ["a.py"]),
    ("grep -e foo -e bar a.py", ["a.py"]),
    ("grep -r --include='*.py' foo src", ["src"]),
    ("grep -C 3 foo a.py", ["a.py"]),
    ("grep -5 foo a.py", ["a.py"]),
    ("grep -rn foo", []),
    ("grep -f patterns.txt a.py", ["a.py"]),
    ("egrep 'a|b' x.txt", ["x.txt"]),
    ("grep --frobnicate foo a.py", []),  # an option we do not know: no guessing what it takes
    ("grep -Q foo a.py", []),
    ("rg --files src", ["src"]),
    ("rg --files", []),
    ("rg -l TODO src lib", ["src", "lib"]),
    ("rg -t py -g '!tests' foo src", ["src"]),
    ("rg --type=py foo src", ["src"]),
    ("rg -e foo -e bar src/api", ["src/api"]),
    ("rg --max-count 5 foo src", ["src"]),
    ("rg --type-list", []),
    ("rg 'a b' 'my dir'", ["my dir"]),
    ("rg -- -foo src", ["src"]),
    # ls / find / tree
    ("ls -la src/ui", ["src/ui"]),
    ("ls", []),
    ("ls .", ["."]),
    ("ls -w 80 src", ["src"]),
    ("ls *.py", []),
    ("ls src/{a,b}", []),
    ("find . -name '*.py'", ["."]),
    ("find -L src tests -type f", ["src", "tests"]),
    ("find", []),
    ("find src -name '*.pyc' -delete", []),  # deletion is not followed, as with rm
    ("tree -L 2 src", ["src"]),
    # places and chains
    ("cd src && ls && cat a.ts", ["src/a.ts"]),
    ("cd $DIR && cat a.ts", []),
    ("(cd sub && cat a); cat b", ["sub/a", "b"]),
    ("bash -lc 'cat src/a.ts'", ["src/a.ts"]),
    ("sudo cat /etc/hosts", ["/etc/hosts"]),  # outside the project: the boundary drops it later
    ("cat /dev/null", []),
    ("timeout 5 cat a.ts", ["a.ts"]),
    ("git show HEAD:a.ts", []),
    ("xargs cat < list.txt", []),
    ("cat ~/notes.md", []),
    ("rm src/ui/Old.tsx && cat src/ui/New.tsx", ["src/ui/New.tsx"]),
]


@pytest.mark.parametrize(("command", "expected"), ISSUE_ROWS + PROGRAMS, ids=lambda v: repr(v))
def test_read_targets(command: str, expected: list[str]) -> None:
    assert list(read_targets(command)) == expected


def test_rm_is_still_deliberately_unsupported() -> None:
    """Reads do not change the `rm` decision: a deleted file's rules serve no later step."""
    assert shell_targets("rm src/ui/Old.tsx") == ()
    assert shell_targets("rm -rf src/ui") == ()


def test_a_command_that_reads_and_writes_reports_both_in_order() -> None:
    command = "cat src/a.ts > out/b.ts"
    assert read_targets(command) == ("src/a.ts",)
    assert write_targets(command) == ("out/b.ts",)
    assert shell_targets(command) == ("src/a.ts", "out/b.ts")
    assert shell_targets("sed -i 's/a/b/' a.py") == ("a.py",)  # once, though read and written


@pytest.mark.parametrize(
    ("tool", "tool_input", "expected"),
    [
        ("Bash", {"command": "cat src/api/users.ts"}, ["src/api/users.ts"]),
        ("Bash", {"command": "cd src/ui && sed -n '1,40p' Footer.tsx"}, ["src/ui/Footer.tsx"]),
        ("shell", {"command": ["bash", "-lc", "rg -n foo src/api"], "workdir": "/p"}, ["/p/src/api"]),
        ("shell", {"command": ["cat", "README.md"]}, ["README.md"]),
        ("shell", {"command": ["sed", "-n", "1,80p", "a b.py"]}, ["a b.py"]),
        ("exec_command", {"cmd": "nl -ba src/app.py | sed -n '1,80p'", "workdir": "w"}, ["w/src/app.py"]),
        ("run_shell_command", {"command": "ls src", "dir_path": "pkg"}, ["pkg/src"]),
        ("Bash", {"command": "rg TODO"}, []),
    ],
)
def test_shell_tools_report_reads(tool: str, tool_input: dict[str, object], expected: list[str]) -> None:
    assert list(affected_paths(tool, tool_input)) == expected
