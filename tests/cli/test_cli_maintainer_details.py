"""What a maintainer trying jitctx on real repositories ran into: a schema its own output failed, a
signals line of tens of thousands of characters, a root chosen differently by two commands, two
meanings of `bytes`, a profiles table that left files out, an alias `--agent` refused, a plain `touch`
that recorded nothing without saying so."""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.profiles import PROFILES
from tests.conftest import write_tree

jsonschema = pytest.importorskip("jsonschema")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = write_tree(
        tmp_path / "repo",
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "CLAUDE.md": "---\nowner: docs\n---\n# root rules\n",
            "GEMINI.md": "# gemini rules\n",
            "src/a.py": "x = 1\n",
        },
    )
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(root)
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def schema(name: str) -> Any:
    return json.loads(resources.files("jitctx").joinpath(f"schemas/{name}.json").read_text(encoding="utf-8"))


# -- provenance before any lock ---------------------------------------------------------------------------


def test_provenance_before_any_lock_validates_against_its_schema(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "provenance", "--json")
    document = json.loads(out)
    assert code == 0 and document["lock"] is None
    jsonschema.validate(document, schema("provenance"))


# -- one meaning of `bytes` -------------------------------------------------------------------------------


def test_bytes_is_the_body_and_provenance_calls_the_whole_file_size(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = len(b"# root rules\n")
    whole = (repo / "CLAUDE.md").stat().st_size
    _, out, _ = run(capsys, "startup", "--no-git", "--json")
    (claude,) = [f for f in json.loads(out)["loaded"] if f["path"] == "CLAUDE.md"]
    assert claude["bytes"] == body < whole
    _, out, _ = run(capsys, "provenance", "--json")
    (locked,) = [f for f in json.loads(out)["files"] if f["path"] == "CLAUDE.md"]
    assert locked["size"] == whole and "bytes" not in locked
    _, out, _ = run(capsys, "provenance")
    assert out.splitlines()[0].split()[:2] == ["file", "size"]
    assert (
        "frontmatter included"
        in schema("provenance")["properties"]["files"]["items"]["properties"]["size"]["description"]
    )


@pytest.mark.parametrize("command", ["startup", "touch", "stats", "provenance"])
def test_every_command_says_what_bytes_means_in_its_help(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "frontmatter" in text and "provenance" in text


# -- the startup signals line ------------------------------------------------------------------------------


def test_startup_names_a_count_and_the_first_few_of_many_changed_files(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.rmtree(repo / ".git")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    for number in range(120):
        (repo / "src" / f"changed_{number:03}_with_a_long_name.py").write_text("x\n", encoding="utf-8")
    _, out, _ = run(capsys, "startup", "--json")
    signals = json.loads(out)["signals"]
    assert len(signals) > 120  # --json lists every changed file
    _, out, _ = run(capsys, "startup")
    (line,) = [line for line in out.splitlines() if line.startswith("signals ")]
    assert len(line) < 300
    assert line.startswith(f"signals {len(signals)} ({', '.join(signals[:5])}, and {len(signals) - 5} more")


# -- the root of `lint` above a folder of clones -----------------------------------------------------------


def test_lint_above_several_clones_refuses_where_explain_finds_the_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clones = write_tree(
        tmp_path / "clones",
        {
            "one/.git/HEAD": "x\n",
            "one/CLAUDE.md": "# one\n",
            "two/.git/HEAD": "x\n",
            "two/CLAUDE.md": "# two\n",
        },
    )
    monkeypatch.chdir(clones)
    code, _, _ = run(capsys, "explain", "one/CLAUDE.md", "--no-git", "--json")
    assert code == 0
    code, out, err = run(capsys, "lint", "--json")
    assert code == 2 and out == ""
    assert "holds 2 projects: one, two" in err and "--root" in err
    code, out, _ = run(capsys, "lint", "--root", ".", "--json")
    assert code == 0 and json.loads(out)["root"] == str(clones.resolve())


# -- the profiles table and the --json it summarises -------------------------------------------------------


def test_the_profiles_table_names_every_file_the_json_lists(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "profiles", "--json")
    listed = json.loads(out)["profiles"]
    _, text, _ = run(capsys, "profiles")
    header, *lines = text.splitlines()
    start, end = header.index("instruction files"), header.index("rules folders")
    cells: dict[str, str] = {}
    name = ""
    for line in lines:
        if line[:1].strip() and not line.startswith("("):
            name = line.split()[0]
        piece = line[start:end].strip()
        before = cells.get(name, "")
        # a name wrapped after a `/` continues on the next line; other lines break between names
        cells[name] = before + piece if before.endswith("/") or not before else f"{before} {piece}"
    for profile in listed:
        wanted = [
            *profile["dir_files"],
            *profile["local_files"],
            *profile["root_files"],
            *(name for name, _ in profile["fallback_files"]),
        ]
        for file_name in wanted:
            assert file_name in cells[profile["name"]], (profile["name"], file_name)
    assert ".cursorrules" in text and "AGENTS.md (where no CLAUDE.md)" in text


# -- an alias for --agent ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["gemini", "gemini-cli"])
@pytest.mark.parametrize("command", [["startup", "--no-git"], ["lint"], ["touch", "--no-git", "src/a.py"]])
def test_agent_takes_the_client_name_and_its_alias(
    repo: Path, capsys: pytest.CaptureFixture[str], command: list[str], name: str
) -> None:
    code, out, _ = run(capsys, *command, "--agent", name, "--json")
    assert code in (0, 1)
    document = json.loads(out)
    agent = document["startup"]["agent"] if command[0] == "touch" else document["agent"]
    assert agent == PROFILES[name].name == "gemini-cli"


def test_explain_with_the_alias_reads_what_the_client_reads(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(
        capsys, "explain", "src/a.py", "--agent", "gemini", "--no-git", "--json", "--without-hook"
    )
    document = json.loads(out)
    assert document["agent"] == "gemini-cli"
    assert [v["path"] for v in document["verdicts"] if v["loads"]] == ["GEMINI.md"]


# -- touch without --session -------------------------------------------------------------------------------


def test_plain_touch_says_it_recorded_nothing_and_how_to_record(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, err = run(capsys, "touch", "--no-git", "src/a.py")
    assert "nothing recorded" in err and "--session" in err
    _, _, err = run(capsys, "stats")
    for way in ("jitctx install", "touch --session", "replay --record", "jitctx mcp"):
        assert way in err
    _, _, err = run(capsys, "touch", "--no-git", "--session", "s1", "src/a.py")
    assert "nothing recorded" not in err
    _, out, _ = run(capsys, "stats", "--json")
    assert json.loads(out)["sessions"] == 1


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["install", "claude"], "'claude-code'"),
        (["explain", "x", "--agent", "curso"], "'cursor'"),
        (["rulez"], "'rules'"),
    ],
)
def test_an_invalid_choice_says_which_was_likely_meant(
    capsys: pytest.CaptureFixture[str], argv: list[str], meant: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert f"did you mean {meant}?" in capsys.readouterr().err
