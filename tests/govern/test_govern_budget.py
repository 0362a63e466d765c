"""`jitctx budget`: layers from config, the seed's 64 KiB arithmetic, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from tests.conftest import write_tree

SEED_CONFIG = """\
agent = "dsh"
[layers.L0]
globs = ["AGENTS.md"]
max_bytes = 16384
[layers.L1]
globs = ["knit/**/AGENTS.md"]
max_bytes = 40960
[layers.L3]
globs = ["docs/history/**"]
inject = false
[[budgets]]
layers = ["L0", "L1"]
max_bytes = 57344
"""


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))


def budget(capsys: pytest.CaptureFixture[str], root: Path, expected_exit: int = 0) -> dict[str, Any]:
    assert main(["budget", "--root", str(root), "--json"]) == expected_exit
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def seed_repo(tmp_path: Path, l0: int = 15_936, l1: int = 40_186) -> Path:
    """The governance seed's sizes: L0 15,936 B, L1 40,186 B of body text."""
    return write_tree(
        tmp_path / "knit-repo",
        {
            ".jitctx.toml": SEED_CONFIG,
            "AGENTS.md": "a" * (l0 - 1) + "\n",
            "knit/AGENTS.md": "b" * (l1 - 1) + "\n",
            "docs/history/CLAUDE.md": "old decisions\n" * 100,
        },
    )


def test_seed_arithmetic(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = budget(capsys, seed_repo(tmp_path))
    layers = {layer["name"]: layer for layer in doc["layers"]}
    assert (layers["L0"]["body_bytes"], layers["L0"]["headroom"]) == (15_936, 448)
    assert (layers["L1"]["body_bytes"], layers["L1"]["headroom"]) == (40_186, 774)
    assert layers["L0+L1"]["body_bytes"] == 56_122 and layers["L0+L1"]["limit"] == 57_344
    assert layers["L3"]["inject"] is False
    host = doc["host"]
    assert (host["body_bytes"], host["payload_bytes"], host["limit"]) == (56_122, 56_463, 65_536)
    assert host["headroom"] == 9_073
    assert doc["over"] is False


def test_over_a_layer_budget_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = budget(capsys, seed_repo(tmp_path, l0=16_385), expected_exit=1)
    layers = {layer["name"]: layer for layer in doc["layers"]}
    assert layers["L0"]["over"] is True and layers["L0"]["headroom"] == -1


def test_under_by_size_but_over_once_rendered(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = write_tree(tmp_path / "p", {".jitctx.toml": 'agent = "dsh"\n', "AGENTS.md": "x" * 65_300})
    doc = budget(capsys, root, expected_exit=1)
    assert doc["host"]["body_bytes"] < 65_536 < doc["host"]["payload_bytes"]


def test_without_layers_the_startup_payload_is_measured(
    capsys: pytest.CaptureFixture[str], example_copy: Path
) -> None:
    doc = budget(capsys, example_copy)
    assert doc["configured"] is False
    assert doc["layers"][0]["files"] == ["CLAUDE.md", "docs/conventions.md", "AGENTS.md"]
    assert doc["host"]["limit"] == 65_536 and doc["host"]["payload_bytes"] > doc["host"]["body_bytes"]


def test_codex_profile_limit(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    assert main(["budget", "--root", str(example_copy), "--agent", "codex", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["host"]["limit"] == 32_768


def test_overlapping_layers_are_a_config_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "p",
        {
            ".jitctx.toml": '[layers.A]\nglobs = ["**/*.md"]\n[layers.B]\nglobs = ["AGENTS.md"]\n',
            "AGENTS.md": "x",
        },
    )
    assert main(["budget", "--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert "overlap on AGENTS.md" in err and "Traceback" not in err


def test_budgets_naming_an_unknown_layer(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = '[layers.L0]\nglobs = ["AGENTS.md"]\n[[budgets]]\nlayers = ["L0", "L9"]\nmax_bytes = 1\n'
    root = write_tree(tmp_path / "p", {".jitctx.toml": config})
    assert main(["budget", "--root", str(root)]) == 2
    assert "unknown layer(s) ['L9']" in capsys.readouterr().err


def test_human_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["budget", "--root", str(seed_repo(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "L0+L1" in out and "headroom 9,073 bytes" in out
