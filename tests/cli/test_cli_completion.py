"""`jitctx completion`: scripts generated from the parser, so every command is in them."""

from __future__ import annotations

import builtins
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.commands import COMMANDS
from jitctx.cli.main import main

pytest.importorskip("shtab")


def script(capsys: pytest.CaptureFixture[str], shell: str) -> str:
    assert main(["completion", shell]) == 0
    return capsys.readouterr().out


def test_bash_script_names_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    text = script(capsys, "bash")
    listed = next(line for line in text.splitlines() if line.startswith("_shtab_jitctx_subparsers=("))
    assert set(listed.split("(", 1)[1].rstrip(")").split()) == set(COMMANDS)
    # options of every command, not only of the one being run, and the choices of --agent
    assert "--by-file" in text and "--state-dir" in text and "claude-code" in text


def test_zsh_script_names_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    text = script(capsys, "zsh")
    assert text.startswith("#compdef jitctx")
    for name in COMMANDS:
        assert f"\n    {name}:'" in text, name


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_a_command_and_an_agent(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "jitctx.bash"
    path.write_text(script(capsys, "bash"))
    probe = (
        f"source {path}; COMP_WORDS=(jitctx st); COMP_CWORD=1; _shtab_jitctx; echo ${{COMPREPLY[@]}};"
        " COMP_WORDS=(jitctx explain --agent cl); COMP_CWORD=3; _shtab_jitctx; echo ${COMPREPLY[@]}"
    )
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["startup statusline stats", "claude-code"]


def test_without_shtab_the_message_says_how_to_get_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_import = builtins.__import__

    def no_shtab(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "shtab":
            raise ModuleNotFoundError("No module named 'shtab'", name="shtab")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_shtab)
    assert main(["completion", "bash"]) == 2
    err = capsys.readouterr().err
    assert "shtab" in err and "jitctx[completion]" in err


def test_unknown_shell_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exited:
        main(["completion", "fish"])
    assert exited.value.code == 2
