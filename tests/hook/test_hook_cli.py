"""`jitctx hook` through the CLI in-process, and its argparse-free fast path."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.cmd_hook import fast_main, serve
from jitctx.cli.main import main


def feed(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))


@pytest.fixture
def root(tree: Any) -> Path:
    built: Path = tree(
        {".git/HEAD": "x\n", "CLAUDE.md": "# claude\n", "AGENTS.md": "# guide\n", "src/a.py": ""}
    )
    return built


def start_event(root: Path) -> bytes:
    event = {"session_id": "cli", "cwd": str(root), "hook_event_name": "SessionStart", "source": "startup"}
    return json.dumps(event).encode()


def test_hook_in_process(
    root: Path, hook_env: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, start_event(root))
    assert main(["hook", "claude-code", "--no-git"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert "Contents of AGENTS.md (session start)" in answer["hookSpecificOutput"]["additionalContext"]
    assert (Path(hook_env["JITCTX_STATE_DIR"]) / "sessions" / "claude-code.cli.json").is_file()


def test_state_dir_option(
    root: Path, tmp_path: Path, hook_env: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    feed(monkeypatch, start_event(root))
    assert main(["hook", "codex", "--state-dir", str(tmp_path / "elsewhere")]) == 0
    context = json.loads(capsys.readouterr().out)["hookSpecificOutput"]["additionalContext"]
    assert "Contents of CLAUDE.md" in context  # Codex reads AGENTS.md at the root itself, not CLAUDE.md
    assert "Contents of AGENTS.md" not in context
    assert (tmp_path / "elsewhere" / "sessions" / "codex.cli.json").is_file()


def test_fast_path_answers_like_the_parser(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = []
    for run in (main, fast_main):
        feed(monkeypatch, start_event(root))
        args = ["claude-code", "--no-git", "--json", f"--state-dir={tmp_path / run.__name__}"]
        assert run(["hook", *args] if run is main else args) == 0
        answers.append(json.loads(capsys.readouterr().out))
    assert answers[0] == answers[1] and answers[0] != {}


def test_serve_with_explicit_streams(root: Path, hook_env: dict[str, str]) -> None:
    out = io.StringIO()
    assert serve("claude-code", stdin=io.BytesIO(start_event(root)), stdout=out, use_git=False) == 0
    assert "AGENTS.md" in json.loads(out.getvalue())["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize(
    "argv",
    [[], ["--help"], ["cursor"], ["claude-code", "--bogus"], ["claude-code", "--state-dir"], ["codex", "-h"]],
)
def test_fast_path_leaves_anything_unusual_to_argparse(argv: list[str]) -> None:
    assert fast_main(argv) is None


def test_the_daemons_own_flag_is_not_an_option_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    """Deliberately: `--serve-warm` is read by the fast entry only (the warm client writes that command
    line); the parser, its `--help` and a mistyped call do not know it."""
    with pytest.raises(SystemExit):
        main(["hook", "claude-code", "--help"])
    assert "--serve-warm" not in capsys.readouterr().out
    with pytest.raises(SystemExit) as stopped:
        main(["hook", "claude-code", "--serve-warm", "--bogus"])
    assert stopped.value.code == 2
    assert "unrecognized arguments: --serve-warm --bogus" in capsys.readouterr().err


def test_fast_path_reads_stdin_and_writes_stdout(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, start_event(root))
    assert fast_main(["claude-code", "--no-git", "--state-dir", str(tmp_path / "fast")]) == 0
    assert "AGENTS.md" in capsys.readouterr().out
    assert (tmp_path / "fast" / "sessions" / "claude-code.cli.json").is_file()


PROBE = """
import sys
from jitctx.cli.main import main
code = main(["hook", "claude-code", "--no-git"])
heavy = sorted(
    m for m in ("yaml", "wcmatch", "pathspec", "markdown_it", "argparse", "msgspec") if m in sys.modules
)
print(code, heavy, file=sys.stderr)
"""


def test_a_warm_hook_that_loads_nothing_imports_no_parser(
    example_copy: Path, hook_env: dict[str, str], run_hook_process: Any
) -> None:
    """The warm path must not parse frontmatter or globs: those imports cost more than the hook itself."""
    import os
    import subprocess
    import sys

    read = {
        "session_id": "warm",
        "cwd": str(example_copy),
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(example_copy / "src/ui/Footer.tsx")},
    }
    assert run_hook_process("claude-code", read)[0] == 0  # starts the session, resolves src/ui
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        input=json.dumps(read).encode(),
        capture_output=True,
        env={**os.environ, **hook_env},
        timeout=60,
        check=True,
    )
    assert json.loads(done.stdout) == {}
    # argparse comes from jitctx.cli.main itself; the parsers of rule files must stay out.
    assert done.stderr.decode().strip() == "0 ['argparse']"


def test_an_alias_is_logged_under_the_clients_own_name(tmp_path: Path) -> None:
    """`jitctx hook gemini` (an alias) answers as gemini-cli, and its log says gemini-cli."""
    from jitctx.hook.pipeline import respond

    assert respond("gemini", b"{bad", state_dir=str(tmp_path)) == {}
    log = (tmp_path / "hook.log").read_text()
    assert " gemini-cli: JSONDecodeError" in log and " gemini:" not in log
