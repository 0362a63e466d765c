"""Every command's --json on the example validates against the JSON Schema shipped in jitctx/schemas,
carries `schema_version`, and names things alike (`path` relative to the root, one `ok`)."""

from __future__ import annotations

import importlib
import io
import json
import shutil
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.commands import COMMANDS
from jitctx.cli.common import SCHEMA_VERSION
from jitctx.cli.main import main
from tests.conftest import REPO

jsonschema = pytest.importorskip("jsonschema")

# Commands whose output is not a jitctx document: `hook` answers in the agent's own hook protocol.
NOT_DOCUMENTS = {"hook"}

# name of the schema -> runs of `jitctx ... --json` (relative paths are taken in the example's copy).
RUNS: dict[str, list[list[str]]] = {
    "startup": [["startup", "--no-git"], ["startup", "--cwd", "src/ui", "--agent", "codex"]],
    "touch": [
        ["touch", "--no-git", "src/ui/Footer.tsx", "/etc/hostname"],
        ["touch", "--session", "s1", "--cwd", "src", "ui/README.md", "api/users.ts"],
        ["touch", "--session", "s1", "tools/gen.py"],
        ["touch", "--agent", "claude-code", "--tool", "shell_read", "--no-git", "src/ui/Footer.tsx"],
    ],
    "touched": [["touched", "--tool", "Bash", "--input", '{"command": "cat > a.txt <<EOF"}']],
    "explain": [
        ["explain", "src/ui/Footer.tsx", "--no-git"],
        ["explain", "src/ui/Footer.tsx", "--agent", "gemini-cli", "--no-git"],
        ["explain", "--root", ".", "/etc/hostname", "--agent", "codex", "--no-git"],
    ],
    "imports": [["imports", "CLAUDE.md"]],
    "render": [
        ["render", "--touch", "src/ui/Footer.tsx", "--no-git"],
        ["render", "--format", "anthropic", "--no-git"],
        ["render", "--format", "openai", "--agent", "codex", "--cwd", "src/api", "--no-git"],
    ],
    "log": [
        ["log"],
        ["log", "--since", "2099-01-01"],
        ["log", "--session", "s1"],
        ["log", "--session"],
        ["log", "--session", "nobody"],
        ["log", "--clear", "--yes"],
    ],
    # stdin is empty here: the document of a status line without a session
    "statusline": [["statusline"]],
    "log-raw": [["log", "--raw"]],
    "stats": [
        ["stats"],
        ["stats", "--session", "s1"],
        ["stats", "--since", "2099-01-01"],
        ["stats", "--drift"],
    ],
    "replay": [["replay", "TRANSCRIPT", "--from-root", "/home/dev/acme"]],
    "budget": [["budget", "--no-git"], ["budget", "--agent", "codex", "--cwd", "src/api", "--no-git"]],
    "claims": [["claims"]],
    "provenance": [
        ["provenance"],
        ["provenance", "--write"],
        ["provenance", "--check"],
    ],
    "lint": [["lint", "--no-git"], ["lint", "--agent", "claude-code", "--strict"]],
    "rules": [["rules"], ["rules", "--agent", "codex"]],
    "install": [
        ["install", "claude-code", "--dry-run"],
        ["install", "codex"],
        ["install", "codex", "--warm"],
        ["uninstall", "codex", "--dry-run"],
    ],
    "mcp": [["mcp", "--list-tools"]],
    "profiles": [["profiles"]],
    "completion": [["completion", "bash"]],
    "doctor": [["doctor"]],
    # an empty state dir: nothing to send, so no collector is needed
    "export": [["export", "--otlp", "http://127.0.0.1:9", "--timeout", "1", "--state-dir", "EMPTY"]],
}
RUNS["uninstall"] = []  # shares install.json


def schema(name: str) -> dict[str, Any]:
    text = resources.files("jitctx").joinpath("schemas", f"{name}.json").read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def available(command: str) -> bool:
    try:
        importlib.import_module(COMMANDS[command][0])
    except ModuleNotFoundError:
        return False
    return True


@pytest.fixture
def workdir(example_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.chdir(example_copy)
    shutil.copy(REPO / "tests/telemetry/fixtures/session.jsonl", tmp_path / "session.jsonl")
    return example_copy


def documents(
    name: str, workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[list[str], Any]]:
    # A session first, so that log, stats and provenance --check have something to read.
    assert main(["touch", "--session", "s1", "src/ui/Footer.tsx"]) == 0
    assert main(["provenance", "--write"]) == 0
    capsys.readouterr()
    for args in RUNS[name]:
        places = {"TRANSCRIPT": str(workdir.parent / "session.jsonl"), "EMPTY": str(workdir.parent / "empty")}
        args = [places.get(a, a) for a in args]
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        code = main([*args, "--json"])
        out = capsys.readouterr().out
        assert code in (0, 1), (args, code)
        yield args, json.loads(out)


def test_every_command_has_a_schema_and_a_run() -> None:
    names = {p.name.removesuffix(".json") for p in resources.files("jitctx").joinpath("schemas").iterdir()}
    for command in set(COMMANDS) - NOT_DOCUMENTS:
        assert command in RUNS, f"add runs of `jitctx {command} --json` to RUNS"
        if command != "uninstall":
            assert command in names, f"add src/jitctx/schemas/{command}.json"
    for name in names:
        jsonschema.Draft202012Validator.check_schema(schema(name))


@pytest.mark.parametrize("name", sorted(n for n in RUNS if RUNS[n]))
def test_json_matches_its_schema(
    name: str, workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    command = "log" if name == "log-raw" else name
    if not available(command):
        pytest.skip(f"`{command}` is not in this version")
    validator = jsonschema.Draft202012Validator(schema(name))
    for args, document in documents(name, workdir, capsys, monkeypatch):
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        assert not errors, f"jitctx {' '.join(args)} --json: " + "; ".join(
            f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:5]
        )
        assert document["schema_version"] == SCHEMA_VERSION
        assert next(iter(document)) == "schema_version"


def keys(document: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(document, dict):
        for key, value in document.items():
            yield key, value
            yield from keys(value)
    elif isinstance(document, list):
        for item in document:
            yield from keys(item)


@pytest.mark.parametrize(
    "name", ["startup", "touch", "explain", "imports", "render", "log", "lint", "claims"]
)
def test_root_relative_paths_are_called_path(
    name: str, workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for args, document in documents(name, workdir, capsys, monkeypatch):
        found = dict(keys(document))
        assert "file" not in found, f"jitctx {' '.join(args)}: a root-relative path is `path`, not `file`"
        for key, value in keys(document):
            if key == "path" and isinstance(value, str):
                assert not value.startswith(str(workdir)), (args, value)


@pytest.mark.parametrize(
    ("args", "passing"),
    [
        (["budget", "--no-git"], True),
        (["lint", "--no-git"], True),
        (["lint", "--no-git", "--strict"], False),
        (["claims"], True),
        (["imports", "CLAUDE.md"], True),
        (["provenance", "--check"], True),
    ],
)
def test_one_pass_fail_field(
    args: list[str], passing: bool, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["provenance", "--write"]) == 0
    capsys.readouterr()
    code = main([*args, "--json"])
    document = json.loads(capsys.readouterr().out)
    assert document["ok"] is passing and code == (0 if passing else 1)
    assert "failed" not in document and "over" not in document


def test_sarif_keeps_its_own_shape(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["lint", "--format", "sarif"])
    document = json.loads(capsys.readouterr().out)
    assert "schema_version" not in document and document["version"] == "2.1.0"


def test_schemas_ship_with_the_package() -> None:
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"schemas/*.json"' in pyproject
    assert resources.files("jitctx").joinpath("schemas", "stats.json").is_file()
