"""`jitctx lint --sarif`: what people type for code scanning, the same as `--format sarif`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jitctx.cli.main import main
from tests.conftest import Tree


def lint(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["lint", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def broken(tree: Tree) -> Path:
    return tree({"CLAUDE.md": "# Root\nSee @docs/gone.md\n"})


def test_sarif_is_format_sarif(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    alias = lint(capsys, "--root", str(broken), "--sarif")
    spelled_out = lint(capsys, "--root", str(broken), "--format", "sarif")
    assert alias == spelled_out
    code, out, _ = alias
    assert code == 1
    document = json.loads(out)
    assert document["version"] == "2.1.0"
    assert [r["ruleId"] for r in document["runs"][0]["results"]] == ["import-missing"]


@pytest.mark.parametrize("argv", [["--json", "--sarif"], ["--sarif", "--json"]])
def test_sarif_wins_over_json_with_a_warning(
    capsys: pytest.CaptureFixture[str], broken: Path, argv: list[str]
) -> None:
    code, out, err = lint(capsys, "--root", str(broken), *argv)
    assert code == 1
    assert json.loads(out)["version"] == "2.1.0"
    assert "--json and --format sarif given; printing sarif" in err


def test_the_last_format_given_counts(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    _, out, _ = lint(capsys, "--root", str(broken), "--sarif", "--format", "text")
    assert out.startswith("at ")
    _, out, _ = lint(capsys, "--root", str(broken), "--format", "text", "--sarif")
    assert json.loads(out)["version"] == "2.1.0"


def test_help_names_the_alias(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["lint", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "--sarif" in out and "the same as --format sarif" in out
    assert "jitctx lint --sarif > jitctx.sarif" in out


def test_sarif_as_a_process(broken: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "lint", "--root", str(broken), "--sarif"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["runs"][0]["results"][0]["ruleId"] == "import-missing"
