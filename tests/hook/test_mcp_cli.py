"""`jitctx mcp` as a command: its help, --list-tools, and a clear exit 2 when the extra is missing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jitctx.cli.main import main

# Makes every SDK module look absent, the way a `pip install jitctx` without the extra leaves it.
SDK_MODULES = ("mcp", "mcp.server.mcpserver", "mcp.server.fastmcp")
_NO_SDK = f"import sys\nfor name in {SDK_MODULES!r}: sys.modules[name] = None\n"


def block_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SDK_MODULES:
        monkeypatch.setitem(sys.modules, name, None)


def test_list_tools_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "--list-tools", "--json"]) == 0
    tools = json.loads(capsys.readouterr().out)["tools"]
    assert [t["name"] for t in tools] == ["context_for_paths", "explain", "stats", "hook_event"]
    assert all(t["description"] and t["arguments"] for t in tools)


def test_list_tools_as_a_table_needs_no_sdk(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    block_sdk(monkeypatch)
    assert main(["mcp", "--list-tools"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["tool", "arguments", "what", "it", "answers"]
    assert [line.split()[0] for line in lines[1:]] == ["context_for_paths", "explain", "stats", "hook_event"]


def test_json_without_list_tools_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--json goes with --list-tools" in captured.err


def test_missing_extra_exits_2_naming_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, example_copy: Path
) -> None:
    block_sdk(monkeypatch)
    assert main(["mcp", "--root", str(example_copy)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "install the extra: pip install 'jitctx[mcp]'" in captured.err


def test_missing_extra_as_a_real_process(example_copy: Path, tmp_path: Path) -> None:
    code = _NO_SDK + "from jitctx.cli.main import main\nsys.exit(main(sys.argv[1:]))\n"
    done = subprocess.run(
        [sys.executable, "-c", code, "mcp", "--root", str(example_copy), "--state-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert "install the extra: pip install 'jitctx[mcp]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_root_that_does_not_exist_is_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    assert main(["mcp", "--root", str(tmp_path / "nope")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_help_teaches_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["mcp", "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    for needle in ("context_for_paths", "session_id", "examples:", "jitctx mcp --root", "jitctx[mcp]"):
        assert needle in out
