"""`jitctx install` and `jitctx uninstall` without an agent: every client found on this machine (its
program on PATH, or its user folder), each as its own install would; the others are named as skipped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.install_help import found_where
from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.clients.base import Client, Setup

jsonschema = pytest.importorskip("jsonschema")

CLIENTS = all_clients.every_setup()
TWO = [all_clients.setup("claude-code"), all_clients.setup("codex")]  # the programs on the fake PATH
OTHERS = [client for client in CLIENTS if client not in TWO]
PROJECT_FILES = {
    client.name: client.settings_path("project", ".", "", {}).as_posix().removeprefix("./")
    for client in CLIENTS
}
LOCAL = [client.name for client in CLIENTS if "local" in client.scopes]


def fake_bin(folder: Path, programs: list[str]) -> Path:
    """A folder of tiny executables named like the clients' programs, to be the whole of PATH."""
    folder.mkdir(parents=True, exist_ok=True)
    for program in programs:
        script = folder / program
        script.write_text("#!/bin/sh\nexit 0\n")
        script.chmod(0o755)
    return folder


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cwd, a project; PATH holds the programs of two clients and nothing else; the home is the
    private one every test has (so no client's user folder is there)."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.setenv("PATH", str(fake_bin(tmp_path / "bin", [client.program for client in TWO])))
    return root


def written(root: Path) -> set[str]:
    """Every file under `root` but its .git, as POSIX paths relative to it."""
    return {
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and ".git" not in path.relative_to(root).parts
    }


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main([*args, "--json"])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return code, document


def validate(document: dict[str, Any]) -> None:
    text = resources.files("jitctx").joinpath("schemas", "install.json").read_text(encoding="utf-8")
    validator = jsonschema.Draft202012Validator(json.loads(text))
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]
    assert not errors, errors


def test_installs_exactly_the_clients_found_and_names_the_skipped(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install"]) == 0
    out, err = capsys.readouterr()
    assert written(project) == {PROJECT_FILES[client.name] for client in TWO}
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert set(lines) == {client.name for client in CLIENTS}  # one row per client
    for client in TWO:
        assert "installed" in lines[client.name] and f"{client.program} on PATH" in lines[client.name]
        assert PROJECT_FILES[client.name] in lines[client.name]
    for client in OTHERS:
        assert "skipped: not found" in lines[client.name]
    # the notes a single install says, once per client: the commands and Codex's trust step
    for client in TWO:
        assert f"jitctx hook {client.name}" in err
    assert err.count(all_clients.setup("codex").install_note) == 1


def test_json_is_one_document_of_found_skipped_and_results(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document = run_json(capsys, "install")
    assert code == 0 and document["ok"] is True
    validate(document)
    assert [item["agent"] for item in document["found"]] == [client.name for client in TWO]
    assert document["found"][0]["program_path"] == str(project.parent / "bin" / TWO[0].program)
    assert document["skipped"] == [{"agent": client.name, "reason": "not found"} for client in OTHERS]
    results = document["results"]
    assert [r["agent"] for r in results] == [client.name for client in TWO]
    assert all(r["changed"] and r["written"] and r["scope"] == "project" for r in results)
    assert document["root"] == str(project) and document["action"] == "install"
    # twice: nothing changes, every result says so
    code, again = run_json(capsys, "install")
    assert code == 0 and not any(r["changed"] for r in again["results"])


def test_dry_run_writes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str], private_home: Path
) -> None:
    before_home = written(private_home)
    assert main(["install", "--dry-run"]) == 0
    out, err = capsys.readouterr()
    assert written(project) == set() and written(private_home) == before_home
    assert "would install" in out and "dry run, nothing written" in err
    for client in TWO:
        assert f"+++ {project / PROJECT_FILES[client.name]}" in out  # each client's diff
    code, document = run_json(capsys, "install", "--dry-run")
    assert code == 0 and all(r["changed"] and not r["written"] for r in document["results"])
    validate(document)
    assert written(project) == set()


def test_uninstall_without_a_name_removes_both(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install"]) == 0
    capsys.readouterr()
    code, document = run_json(capsys, "uninstall", "--dry-run")
    assert code == 0 and written(project) == {PROJECT_FILES[client.name] for client in TWO}
    assert main(["uninstall"]) == 0
    out = capsys.readouterr().out
    assert written(project) == set()  # install made the files: uninstall takes them away
    for client in TWO:
        assert any(line.startswith(client.name) and "removed" in line for line in out.splitlines())
    code, document = run_json(capsys, "uninstall")
    assert code == 0 and not any(r["changed"] for r in document["results"])
    validate(document)


def test_uninstall_reaches_a_client_no_longer_found(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["install"]) == 0
    monkeypatch.setenv("PATH", str(fake_bin(tmp_path / "empty", [])))  # both programs gone
    capsys.readouterr()
    code, document = run_json(capsys, "uninstall")
    assert code == 0 and document["found"] == []
    assert {r["agent"] for r in document["results"] if r["changed"]} == {client.name for client in TWO}
    assert written(project) == set()


def test_local_scope_installs_only_the_clients_that_have_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document = run_json(capsys, "install", "--scope", "local")
    assert code == 0
    validate(document)
    assert [r["agent"] for r in document["results"]] == LOCAL == [TWO[0].name]
    skipped = {item["agent"]: item["reason"] for item in document["skipped"]}
    assert skipped[TWO[1].name] == "no --scope local"  # found, but has no such scope: a note, no error
    assert all(skipped[client.name] == "not found" for client in OTHERS)
    assert written(project) == {TWO[0].settings_path("local", ".", "", {}).as_posix().removeprefix("./")}


def test_local_scope_with_its_client_not_found_installs_nothing(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(fake_bin(tmp_path / "codex-only", [TWO[1].program])))
    assert main(["install", "--scope", "local"]) == 1
    out, err = capsys.readouterr()
    assert "skipped: no --scope local" in out and "skipped: not found" in out
    assert "found none of the agents with --scope local" in err and "jitctx install AGENT" in err
    assert written(project) == set()


def test_a_client_found_by_its_user_folder(
    project: Path,
    tmp_path: Path,
    private_home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", str(fake_bin(tmp_path / "none", [])))
    folders = {client.name: client.user_folder(str(private_home), os.environ) for client in CLIENTS}
    assert all(folder is not None and folder.is_relative_to(private_home) for folder in folders.values())
    for client in OTHERS:
        folder = folders[client.name]
        assert folder is not None
        folder.mkdir(parents=True)
    code, document = run_json(capsys, "install")
    assert code == 0
    assert [item["agent"] for item in document["found"]] == [client.name for client in OTHERS]
    assert all(item["program_path"] is None and item["folder_path"] for item in document["found"])
    assert written(project) == {PROJECT_FILES[client.name] for client in OTHERS}


def test_a_variable_that_moves_the_user_folder_is_followed(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(fake_bin(tmp_path / "none", [])))
    codex = all_clients.setup("codex")
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    (tmp_path / "codex-home").mkdir()
    code, document = run_json(capsys, "install")
    assert code == 0 and [item["agent"] for item in document["found"]] == [codex.name]
    assert document["found"][0]["folder_path"] == str(tmp_path / "codex-home")


def test_user_folder_holds_the_user_settings_file() -> None:
    environ: dict[str, str] = {}
    for client in CLIENTS:
        folder = client.user_folder("/h", environ)
        assert folder is not None and folder != Path("/h")
        assert folder in client.settings_path("user", "/r", "/h", environ).parents


def test_a_client_without_a_user_scope_has_no_user_folder() -> None:
    class ProjectOnly(Setup):
        scopes = ("project",)

    class ProjectOnlyClient(Client):
        name = "project-only"

    assert ProjectOnly(ProjectOnlyClient()).user_folder("/h", {}) is None


def test_one_client_failing_leaves_the_others_installed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = project / PROJECT_FILES[TWO[0].name]
    broken.parent.mkdir(parents=True)
    broken.write_text("{not json")
    code, document = run_json(capsys, "install")
    assert code == 1 and document["ok"] is False
    validate(document)
    failed, done = document["results"]
    assert failed["agent"] == TWO[0].name and str(broken) in failed["error"]
    assert done["agent"] == TWO[1].name and done["written"]
    assert broken.read_text() == "{not json"
    (project / PROJECT_FILES[TWO[1].name]).unlink()
    assert main(["install"]) == 1
    out, err = capsys.readouterr()
    assert any(line.startswith(TWO[0].name) and "failed" in line for line in out.splitlines())
    assert f"jitctx: error: {TWO[0].name}: " in err and "1 failed, 1 done" in err


@pytest.mark.parametrize(
    "args",
    [
        ["install", "--command", "jitctx hook claude-code"],
        ["install", "--transport", "mcp"],
    ],
)
def test_single_client_options_need_a_name(
    args: list[str], project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "name" in err and "jitctx install " in err
    assert written(project) == set()


def test_warm_reaches_every_client(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, document = run_json(capsys, "install", "--warm")
    assert code == 0 and all(r["warm"] is True for r in document["results"])


def test_a_single_install_keeps_its_own_document(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Naming a client that is not found still installs it: the name is the user's choice."""
    name = OTHERS[0].name
    code, document = run_json(capsys, "install", name)
    assert code == 0 and document["agent"] == name and "results" not in document
    validate(document)


def test_help_explains_it(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("install", "uninstall"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        assert "Without AGENT" in out and "the exit is 1" in out
    assert all(client.name in found_where() and client.program in found_where() for client in CLIENTS)


def test_as_a_real_process(project: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PATH": os.environ["PATH"]}
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "install", "--json"],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert [r["agent"] for r in document["results"]] == [client.name for client in TWO]
    assert written(project) == {PROJECT_FILES[client.name] for client in TWO}
