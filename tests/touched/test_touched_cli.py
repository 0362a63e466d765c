"""`jitctx touched`: in-process and as a real subprocess."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from jitctx.cli.main import main


def test_prints_one_path_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["touched", "--tool", "Bash", "--input", '{"command": "cp a b && touch c/d"}'])
    out, err = capsys.readouterr()
    assert code == 0
    assert out == "b\nc/d\n"
    assert err == ""


def test_json_lists_the_paths_under_touched(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["touched", "--tool", "Glob", "--input", '{"pattern": "src/ui/**/*.tsx"}', "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out) == {"schema_version": 1, "tool": "Glob", "touched": ["src/ui"]}


def test_json_empty_array_when_nothing_touched(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["touched", "--tool", "Bash", "--input", '{"command": "rm a"}', "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert json.loads(out)["touched"] == []


def test_unknown_tool_says_so_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["touched", "--tool", "web_fetch", "--input", '{"url": "https://example.com"}'])
    out, err = capsys.readouterr()
    assert code == 0
    assert out == ""
    assert "unknown tool 'web_fetch'" in err
    assert "Read" in err


def test_known_tool_touching_nothing_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["touched", "--tool", "Bash", "--input", '{"command": "python gen.py"}'])
    out, err = capsys.readouterr()
    assert code == 0
    assert out == ""
    assert "touched no path" in err


def test_input_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"file_path": "src/a.ts"}'))
    code = main(["touched", "--tool", "Read", "--input", "-", "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["touched"] == ["src/a.ts"]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("{bad", "--input is not valid JSON"),
        ("", "--input is not valid JSON"),
        ("[1, 2]", "must be a JSON object, not list"),
        ('"src/a.ts"', "must be a JSON object, not str"),
        ("[" * 100_000, "--input is not valid JSON"),
    ],
)
def test_malformed_input_is_a_usage_error(capsys: pytest.CaptureFixture[str], raw: str, message: str) -> None:
    code = main(["touched", "--tool", "Read", "--input", raw])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["touched", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out
    assert "jitctx touched --tool Read" in out


def run_jitctx(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jitctx", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_subprocess_reads_stdin_and_prints_json() -> None:
    call = {"command": ["bash", "-lc", "mkdir -p src/ui/sub && echo x > 'src/my dir/a.ts'"], "workdir": "w"}
    result = run_jitctx("touched", "--tool", "shell", "--input", "-", "--json", stdin=json.dumps(call))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["touched"] == ["w/src/ui/sub", "w/src/my dir/a.ts"]


def test_subprocess_malformed_json_exits_2_without_traceback() -> None:
    result = run_jitctx("touched", "--tool", "Read", "--input", "{not json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "not valid JSON" in result.stderr
    assert "Traceback" not in result.stderr
