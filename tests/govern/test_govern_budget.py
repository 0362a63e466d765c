"""`jitctx budget`: layers from config, the seed's 64 KiB arithmetic, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
    assert doc["ok"] is True


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


def codex_tree(tmp_path: Path, tests_bytes: int = 40_000, override: str | None = None) -> Path:
    """A small root AGENTS.md; tests/AGENTS.md alone pushes the chain for cwd=tests over 32 KiB."""
    files: dict[str, str] = {
        "AGENTS.md": "root rules\n",
        "tests/AGENTS.md": "t" * (tests_bytes - 1) + "\n",
        "tests/test_a.py": "",
        "src/pkg/mod.py": "",
    }
    if override is not None:
        files["tests/AGENTS.override.md"] = override
    return write_tree(tmp_path / "codex-repo", files)


def test_codex_overflow_in_a_start_directory_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = codex_tree(tmp_path)
    assert main(["budget", "--root", str(root), "--agent", "codex", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    worst = doc["worst"]
    assert worst["path"] == "tests" and worst["over"] is True
    assert (worst["need_bytes"], worst["limit"]) == (11 + 40_000, 32_768)
    assert [(c["path"], c["status"], c["bytes_lost"]) for c in worst["cut"]] == [
        ("tests/AGENTS.md", "truncated", 11 + 40_000 - 32_768)
    ]
    measured = {s["path"] for s in doc["start_dirs"]}
    assert {".", "tests", "src/pkg"} <= measured  # the root, a folder with a file, a deepest folder
    root_start = next(s for s in doc["start_dirs"] if s["path"] == ".")
    assert root_start["over"] is False and root_start["need_bytes"] == 11


def test_codex_overflow_human_output_names_the_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["budget", "--root", str(codex_tree(tmp_path)), "--agent", "codex"]) == 1
    out = capsys.readouterr().out
    assert "worst start directory tests: 40,011 of 32,768 bytes" in out and "OVER" in out
    assert "tests/AGENTS.md: truncated, 32,757 bytes kept, 7,243 lost" in out


@pytest.mark.parametrize(
    ("cwd", "exit_code"),
    [(".", 0), ("tests", 1), ("src/pkg", 0)],
)
def test_cwd_picks_one_start_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cwd: str, exit_code: int
) -> None:
    root = codex_tree(tmp_path)
    assert main(["budget", "--root", str(root), "--agent", "codex", "--cwd", cwd, "--json"]) == exit_code
    doc = json.loads(capsys.readouterr().out)
    assert [s["path"] for s in doc["start_dirs"]] == [cwd]


def test_the_override_wins_in_its_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Codex reads AGENTS.override.md instead of AGENTS.md: a small override keeps tests within budget."""
    root = codex_tree(tmp_path, override="short\n")
    assert main(["budget", "--root", str(root), "--agent", "codex", "--json"]) == 0
    worst = json.loads(capsys.readouterr().out)["worst"]
    assert worst["files"] == ["AGENTS.md", "tests/AGENTS.override.md"]


def test_render_and_budget_agree_on_the_cut(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = codex_tree(tmp_path)
    assert main(["budget", "--root", str(root), "--agent", "codex", "--cwd", "tests", "--json"]) == 1
    worst = json.loads(capsys.readouterr().out)["worst"]
    args = ["render", "--root", str(root), "--agent", "codex", "--cwd", "tests", "--no-git", "--json"]
    assert main(args) == 0
    rendered = json.loads(capsys.readouterr().out)["budget"]
    cut = [f for f in rendered["files"] if f["status"] != "kept"]
    assert cut == worst["cut"]
    assert rendered["counted_bytes"] == rendered["limit"] == worst["limit"] == 32_768


def test_a_config_limit_is_used_by_budget_and_render_alike(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = write_tree(tmp_path / "p", {".jitctx.toml": "max_bytes = 100\n", "AGENTS.md": "x" * 500})
    assert main(["budget", "--root", str(root), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["worst"]["limit"] == 100
    assert main(["render", "--root", str(root), "--no-git", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["budget"]["limit"] == 100


def test_budget_exit_code_as_a_subprocess(tmp_path: Path) -> None:
    root = codex_tree(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "jitctx", "budget", "--root", str(root), "--agent", "codex"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "JITCTX_HOME": str(tmp_path / "home")},
    )
    assert proc.returncode == 1 and "worst start directory tests" in proc.stdout
