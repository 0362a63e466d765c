"""`jitctx startup` in-process and as a real subprocess, on the bundled example."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jitctx.cli.main import main
from tests.conftest import EXAMPLE, write_tree


@pytest.fixture(autouse=True)
def no_user_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "empty-home"))


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["startup", *args, "--json"]) == 0
    out = capsys.readouterr().out
    document = json.loads(out)
    assert isinstance(document, dict)
    return document


def paths(document: dict[str, object]) -> list[str]:
    loaded = document["loaded"]
    assert isinstance(loaded, list)
    return [entry["path"] for entry in loaded]


@pytest.mark.parametrize(
    ("cwd", "expected"),
    [
        (".", ["CLAUDE.md", "docs/conventions.md", "AGENTS.md"]),
        ("src/ui", ["CLAUDE.md", "docs/conventions.md", "AGENTS.md", "src/ui/CLAUDE.md"]),
        ("src/api", ["CLAUDE.md", "docs/conventions.md", "AGENTS.md", "src/api/AGENTS.md"]),
        ("docs/summary", ["CLAUDE.md", "docs/conventions.md", "AGENTS.md", "docs/summary/CLAUDE.md"]),
        ("website", ["CLAUDE.md", "docs/conventions.md", "AGENTS.md", "website/CLAUDE.md"]),
    ],
)
def test_example_from_several_cwds(
    capsys: pytest.CaptureFixture[str], example_copy: Path, cwd: str, expected: list[str]
) -> None:
    document = run_json(capsys, "--root", str(example_copy), "--cwd", cwd)
    assert paths(document) == expected
    assert document["cwd"] == cwd
    assert document["root"] == os.path.realpath(example_copy)
    assert document["agent"] == "jitctx"


def test_json_shape(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    document = run_json(capsys, "--root", str(example_copy), "--cwd", "src/ui")
    assert set(document) >= {"root", "cwd", "agent", "signals", "loaded", "skipped", "warnings"}
    assert document["signals"] == ["src/ui/"]
    loaded = document["loaded"]
    assert isinstance(loaded, list)
    ui = next(e for e in loaded if e["path"] == "src/ui/CLAUDE.md")
    assert ui["reason"] == "session_start" and ui["tier"] == "project"
    assert ui["bytes"] == len((example_copy / "src/ui/CLAUDE.md").read_text().split("---\n", 2)[2].encode())
    assert isinstance(ui["tokens"], int) and ui["tokens"] > 0
    skipped = document["skipped"]
    assert isinstance(skipped, list)
    assert {"path", "why"} <= set(skipped[0])


def test_changed_python_file_brings_the_python_rule(
    capsys: pytest.CaptureFixture[str], example_copy: Path
) -> None:
    (example_copy / "tools/gen.py").write_text("print('changed')\n")
    document = run_json(capsys, "--root", str(example_copy))
    assert document["signals"] == ["tools/gen.py"]
    assert ".claude/rules/python.md" in paths(document)


def test_codex_profile(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    """Codex alone loads its AGENTS.md chain; with jitctx's hook the rest of the chain goes out too."""
    alone = run_json(
        capsys, "--root", str(example_copy), "--cwd", "src/api", "--agent", "codex", "--without-hook"
    )
    assert paths(alone) == ["AGENTS.md", "src/api/AGENTS.md"]
    hooked = run_json(capsys, "--root", str(example_copy), "--cwd", "src/api", "--agent", "codex")
    routes = {f["path"]: f["route"] for f in hooked["files"]}
    assert routes["AGENTS.md"] == routes["src/api/AGENTS.md"] == "client"
    assert routes["CLAUDE.md"] == "jitctx"


def test_root_found_from_cwd(
    capsys: pytest.CaptureFixture[str], example_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(example_copy / "src/ui")
    document = run_json(capsys)
    assert document["root"] == os.path.realpath(example_copy)
    assert document["cwd"] == "src/ui"


def test_human_output_is_a_table_with_totals(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    assert main(["startup", "--root", str(example_copy), "--cwd", "src/ui"]) == 0
    out = capsys.readouterr().out
    assert "src/ui/CLAUDE.md" in out
    total = next(line for line in out.splitlines() if line.startswith("total"))
    assert int(total.split()[1]) > 0


def test_missing_root_is_exit_2_without_traceback(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["startup", "--root", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and "Traceback" not in err


def test_bad_config_is_exit_2_naming_the_key(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = write_tree(tmp_path / "p", {".jitctx.toml": "jitContext = 'no'\n"})
    assert main(["startup", "--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert "'jitContext' must be bool" in err and "jitContext = false" in err


def test_subprocess_json_and_stderr_separation(example_copy: Path, tmp_path: Path) -> None:
    env = {**os.environ, "JITCTX_HOME": str(tmp_path / "empty-home")}
    (example_copy / "CLAUDE.local.md").write_bytes(b"\x00binary")
    proc = subprocess.run(
        [sys.executable, "-m", "jitctx", "startup", "--root", str(example_copy), "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert any("binary" in w for w in document["warnings"])


def test_subprocess_help_teaches() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "jitctx", "startup", "--help"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0
    assert "examples:" in proc.stdout and "--cwd" in proc.stdout


def test_example_is_where_the_readme_says() -> None:
    assert (EXAMPLE / "src/ui/CLAUDE.md").is_file()


def test_profiles_lists_every_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles", "--json"]) == 0
    profiles = json.loads(capsys.readouterr().out)["profiles"]
    names = [p["name"] for p in profiles]
    from jitctx.clients import all_clients

    # Each lists the other names the command line takes for it, as the text table does.
    aliases = {p["name"]: p["aliases"] for p in profiles}
    assert aliases["gemini-cli"] == ["gemini"] and aliases["qwen-code"] == ["qwen"] and aliases["codex"] == []

    # jitctx's own, then one per live client in registry order, then the file formats of no live client.
    assert names == ["jitctx", *all_clients.names(), "dsh", "cursor", "copilot"]
    assert {"claude-code", "codex", "gemini-cli"} <= set(all_clients.names())
    assert main(["profiles"]) == 0
    assert "AGENTS.override.md" in capsys.readouterr().out


def test_unknown_profile_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["startup", "--agent", "vim"])
    assert exited.value.code == 2
