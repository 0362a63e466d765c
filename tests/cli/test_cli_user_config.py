"""`imports`, `explain` and `replay` read the user's own config as the hook does: only it may widen reads.

They built their Project without the user config (`imports` and `replay` with home=None; `explain` read
`~/.config` only, never $XDG_CONFIG_HOME), so `[imports] allow_outside = true` there was not seen and
outside imports were reported as refused while the hook read them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from tests.conftest import write_tree

SECRET = "private notes of the user"


@pytest.fixture
def layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(repo, home): a repo whose GEMINI.md imports a Markdown file outside it; JITCTX_HOME is `home`."""
    write_tree(tmp_path, {"outside/notes.md": SECRET + "\n"})
    repo = write_tree(
        tmp_path / "repo",
        {
            ".git/HEAD": "x\n",
            "GEMINI.md": "# guide\n@../outside/notes.md\n",
            ".jitctx.toml": "[imports]\nallow_outside = true\n",  # ignored: not the repository's to set
        },
    )
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("JITCTX_HOME", str(home))
    return repo, home


def allow(home: Path) -> None:
    write_tree(home, {".config/jitctx/config.toml": "[imports]\nallow_outside = true\n"})


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def test_imports(layout: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    repo, home = layout
    code, document, err = run_json(capsys, "imports", str(repo / "GEMINI.md"))
    assert (code, [i["status"] for i in document["imports"]]) == (1, ["outside"])
    assert "only your user config may allow it" in document["imports"][0]["message"]
    assert "'imports.allow_outside' ignored" in err
    allow(home)
    code, document, _ = run_json(capsys, "imports", str(repo / "GEMINI.md"))
    assert (code, [i["status"] for i in document["imports"]]) == (0, ["ok"])


def test_explain(
    layout: tuple[Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo, home = layout
    main(["explain", "--no-git", str(repo / "GEMINI.md")])
    assert "imported with @" not in capsys.readouterr().out
    allow(home)
    main(["explain", "--no-git", str(repo / "GEMINI.md")])
    assert "imported with @ by GEMINI.md" in capsys.readouterr().out
    # Without JITCTX_HOME: $XDG_CONFIG_HOME/jitctx/config.toml, as every other command reads it.
    monkeypatch.delenv("JITCTX_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "empty-home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    main(["explain", "--no-git", str(repo / "GEMINI.md")])
    assert "imported with @ by GEMINI.md" in capsys.readouterr().out


def test_replay(layout: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, home = layout
    call = {"type": "tool_use", "name": "Read", "input": {"file_path": str(repo / "GEMINI.md")}}
    line = {"type": "assistant", "cwd": str(repo), "message": {"id": "m1", "content": [call]}}
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps(line) + "\n", encoding="utf-8")
    _, document, _ = run_json(capsys, "replay", "--root", str(repo), str(transcript))
    assert document["transcripts"][0]["full_load"]["files"] == 1
    allow(home)
    _, document, _ = run_json(capsys, "replay", "--root", str(repo), str(transcript))
    assert document["transcripts"][0]["full_load"]["files"] == 2
