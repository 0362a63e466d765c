"""The README's first screen: exactly two set-up commands, and CI runs the second one verbatim."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.conftest import REPO


def setup_commands() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", readme, re.DOTALL)
    assert first_block is not None
    return [line for line in first_block.group(1).splitlines() if line and not line.startswith("#")]


def test_two_setup_commands_on_the_first_screen() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme.index("```bash") < 1500  # on the first screen
    commands = setup_commands()
    assert len(commands) == 2
    assert "examples/monorepo" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert setup_commands()[1] in ci.splitlines()


def test_the_example_command_runs() -> None:
    """The jitctx part of the first command, as a real process."""
    command = setup_commands()[0].split("&& jitctx ", 1)[1].split()
    proc = subprocess.run(
        [sys.executable, "-m", "jitctx", *command], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "src/ui/CLAUDE.md" in proc.stdout and ".claude/rules/python.md" in proc.stdout
