"""`action.yml` (the composite GitHub Action) and `examples/github/jitctx.yml` (a workflow that uses it):
both against GitHub's schemas, offline, and the action's steps run here as a runner would run them.

The runner below knows only what the action uses: `${{ inputs.X }}`, `${{ steps.ID.outputs.X }}` and
`${{ steps.ID.outcome }}` in values, conditions joined by `&&` of `!cancelled()` and `A == 'literal'`,
and the two actions it calls (setup-python, whose Python is this one, and upload-sarif, whose inputs are
recorded). Anything else fails the test, so a change to the action that it cannot follow is noticed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from jitctx.cli.main import main
from tests.conftest import REPO, git_init, write_tree

ACTION = REPO / "action.yml"
WORKFLOW = REPO / "examples" / "github" / "jitctx.yml"
UPLOAD = "github/codeql-action/upload-sarif@"
SETUP_PYTHON = "actions/setup-python@"
# A closed port as every proxy: a schema check that reached for the network would fail.
OFFLINE_ENV = {"HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}
OFFLINE = ("NewConnectionError", "Temporary failure in name resolution", "Network is unreachable")


def load(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return document


# -- schemas --------------------------------------------------------------------------------------------


def check_jsonschema(schema: str, path: Path) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec("check_jsonschema") is None:
        pytest.skip("check-jsonschema is not installed (the dev extra brings it: pip install -e '.[dev]')")
    env = {key: value for key, value in os.environ.items() if not key.lower().endswith("_proxy")}
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", f"vendor.{schema}", str(path)],
        env={**env, **OFFLINE_ENV},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(("schema", "path"), [("github-actions", ACTION), ("github-workflows", WORKFLOW)])
def test_matches_githubs_schema_offline(schema: str, path: Path) -> None:
    done = check_jsonschema(schema, path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_finds_a_broken_action(tmp_path: Path) -> None:
    broken = load(ACTION)
    del broken["runs"]["steps"][1]["shell"]  # a composite run step must name its shell
    path = tmp_path / "action.yml"
    path.write_text(yaml.safe_dump(broken), encoding="utf-8")
    done = check_jsonschema("github-actions", path)
    assert done.returncode == 1
    assert "runs" in done.stdout


def test_the_example_workflow_uses_the_action_as_it_is() -> None:
    (job,) = load(WORKFLOW)["jobs"].values()
    assert job["permissions"]["security-events"] == "write"  # what upload-sarif needs
    checkout, step = job["steps"]
    assert checkout["uses"].startswith("actions/checkout@")
    assert checkout["with"]["fetch-depth"] == 0  # --base reads the base branch's lock
    assert step["uses"] == "<owner>/<repo>@<tag>"
    assert set(step["with"]) <= set(load(ACTION)["inputs"])


def test_the_action_installs_jitctx_from_its_own_checkout() -> None:
    install = step_by_id("install")
    assert 'pip install --quiet --disable-pip-version-check "$GITHUB_ACTION_PATH"' in install["run"]
    python = step_by_id("python")
    assert python["uses"].startswith(SETUP_PYTHON)
    assert python["with"]["update-environment"] is False  # the job's own Python stays as it was


def step_by_id(step_id: str) -> dict[str, Any]:
    steps: list[dict[str, Any]] = load(ACTION)["runs"]["steps"]
    return next(step for step in steps if step.get("id") == step_id)


# -- the action's steps, run here -----------------------------------------------------------------------

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
COMPARISON = re.compile(r"^(?P<left>[\w.-]+) == '(?P<right>[^']*)'$")


@dataclass
class ActionRun:
    """What one run of the action did: each step's outcome and outputs, the uploads, the job's verdict."""

    inputs: dict[str, str]
    outcomes: dict[str, str] = field(default_factory=dict)
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    uploads: list[dict[str, str]] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    failed: bool = False
    log: str = ""

    def value(self, name: str) -> str:
        parts = name.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            return self.inputs[parts[1]]
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return self.outputs.get(parts[1], {}).get(parts[3], "")
        if parts[0] == "steps" and len(parts) == 3 and parts[2] == "outcome":
            return self.outcomes.get(parts[1], "")
        raise AssertionError(f"the test's runner does not know {name!r}")

    def render(self, text: str) -> str:
        return EXPRESSION.sub(lambda match: self.value(match[1]), text)

    def condition(self, text: str | None) -> bool:
        if text is None:
            return not self.failed  # a step without `if:` runs while nothing has failed
        match = EXPRESSION.fullmatch(text.strip())
        expression = match[1] if match else text
        if "cancelled()" not in expression and self.failed:
            return False  # without a status function, GitHub's condition starts with success()
        for term in (t.strip() for t in expression.split("&&")):
            if term == "!cancelled()":
                continue
            comparison = COMPARISON.match(term)
            assert comparison, f"the test's runner does not know the condition {term!r}"
            if self.value(comparison["left"]) != comparison["right"]:
                return False
        return True


def run_action(
    workspace: Path,
    runner_temp: Path,
    inputs: Mapping[str, str] | None = None,
    *,
    action_path: Path = REPO,
    install: bool = False,
) -> ActionRun:
    """Run the action's steps in `workspace` as a runner would. Without `install`, the install step is
    taken as done, with the `jitctx` of this environment."""
    action = load(ACTION)
    defaults = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    given = dict(inputs or {})
    assert set(given) <= set(defaults), set(given) - set(defaults)
    run = ActionRun({**defaults, **given})
    if not install:
        run.outcomes["install"] = "success"
        run.outputs["install"] = {"jitctx": str(Path(sys.executable).parent / "jitctx")}
    for step in action["runs"]["steps"]:
        step_id = step["id"]
        if step_id in run.outcomes or not run.condition(step.get("if")):
            continue
        run.ran.append(step_id)
        if "uses" in step:
            outcome = uses(run, step)
        else:
            outcome = shell_step(run, step, step_id, workspace, runner_temp, action_path)
        run.outcomes[step_id] = outcome
        run.failed = run.failed or outcome == "failure"
    return run


def uses(run: ActionRun, step: dict[str, Any]) -> str:
    if step["uses"].startswith(SETUP_PYTHON):
        run.outputs[step["id"]] = {"python-path": sys.executable}
    elif step["uses"].startswith(UPLOAD):
        run.uploads.append({key: run.render(str(value)) for key, value in step["with"].items()})
    else:
        raise AssertionError(f"the test's runner does not know {step['uses']}")
    return "success"


def shell_step(
    run: ActionRun, step: dict[str, Any], step_id: str, workspace: Path, runner_temp: Path, action_path: Path
) -> str:
    assert step["shell"] == "bash"
    output = runner_temp / f"output-{step_id}"
    output.write_text("", encoding="utf-8")
    env = {
        **os.environ,
        **{key: run.render(str(value)) for key, value in step.get("env", {}).items()},
        "GITHUB_OUTPUT": str(output),
        "GITHUB_ACTION_PATH": str(action_path),
        "GITHUB_WORKSPACE": str(workspace),
        "RUNNER_TEMP": str(runner_temp),
    }
    assert "${{" not in step["run"], "inputs reach a script through env, never pasted into it"
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    run.log += f"--- {step.get('name', step_id)} (exit {done.returncode})\n{done.stdout}{done.stderr}"
    lines = output.read_text(encoding="utf-8").splitlines()
    run.outputs[step_id] = dict(line.split("=", 1) for line in lines if "=" in line)
    return "success" if done.returncode == 0 else "failure"


def lint_sarif(capsys: pytest.CaptureFixture[str], root: Path) -> Any:
    """What `jitctx lint --format sarif` prints for `root`: the SARIF the lint tests check."""
    capsys.readouterr()
    main(["lint", "--root", str(root), "--format", "sarif"])
    return json.loads(capsys.readouterr().out)


CLEAN = {
    "pyproject.toml": '[project]\nname = "fixture"\nversion = "1.2.0"\n',
    "CLAUDE.md": "# Fixture\nVersion: 1.2.0\nSee @docs/style.md\n",
    "docs/style.md": "Four spaces.\n",
    "src/app.py": "print('hello')\n",
}


@pytest.fixture
def runner_temp(tmp_path: Path) -> Path:
    path = tmp_path / "runner-temp"
    path.mkdir()
    return path


def workspace(tmp_path: Path, files: Mapping[str, str]) -> Path:
    root = write_tree(tmp_path / "workspace", files)
    assert main(["provenance", "--root", str(root), "--write"]) == 0
    return git_init(root)


def test_lint_findings_go_to_code_scanning_and_fail_the_job(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, runner_temp: Path
) -> None:
    root = workspace(tmp_path, {**CLEAN, "CLAUDE.md": "# Fixture\nSee @docs/gone.md\n"})
    run = run_action(root, runner_temp)
    assert run.outputs["lint"]["exit-code"] == "1" and run.outcomes["lint"] == "success", run.log
    assert run.uploads == [{"sarif_file": "jitctx.sarif", "category": "jitctx"}]
    uploaded = json.loads((root / "jitctx.sarif").read_text(encoding="utf-8"))
    assert uploaded == lint_sarif(capsys, root)
    assert [r["ruleId"] for r in uploaded["runs"][0]["results"]] == ["import-missing"]
    assert run.ran == ["python", "lint", "upload", "verdict"]  # the gates are off by default
    assert run.failed


def test_a_clean_project_passes_every_gate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, runner_temp: Path
) -> None:
    root = workspace(tmp_path, CLEAN)
    gates = {"budget": "true", "provenance": "true", "provenance-base": "HEAD", "claims": "true"}
    run = run_action(root, runner_temp, {**gates, "sarif-file": "out/jitctx.sarif", "strict": "true"})
    assert not run.failed, run.log
    assert run.ran == ["python", "lint", "upload", "budget", "provenance", "claims"]
    assert run.uploads == [{"sarif_file": "out/jitctx.sarif", "category": "jitctx"}]
    uploaded = json.loads((root / "out" / "jitctx.sarif").read_text(encoding="utf-8"))
    assert uploaded == lint_sarif(capsys, root) and uploaded["runs"][0]["results"] == []


@pytest.mark.parametrize(
    ("inputs", "files"),
    [
        ({"budget": "true"}, {".jitctx.toml": '[layers.L0]\nglobs = ["CLAUDE.md"]\nmax_bytes = 10\n'}),
        ({"claims": "true"}, {"CLAUDE.md": "# Fixture\nVersion: 9.9.9\n"}),
        ({"provenance": "true"}, {"CLAUDE.md": "# Fixture\nchanged after the lock\n"}),
    ],
)
def test_a_gate_fails_the_job_after_the_upload(
    tmp_path: Path, runner_temp: Path, inputs: dict[str, str], files: dict[str, str]
) -> None:
    root = workspace(tmp_path, CLEAN)
    write_tree(root, files)
    run = run_action(root, runner_temp, inputs)
    assert run.failed
    assert run.outputs["lint"]["exit-code"] == "0" and len(run.uploads) == 1, run.log
    assert list(run.outcomes.values()).count("failure") == 1


def test_provenance_base_compares_with_the_lock_the_base_committed(tmp_path: Path, runner_temp: Path) -> None:
    root = workspace(tmp_path, CLEAN)
    subprocess.run(["git", "branch", "base"], cwd=root, check=True)
    write_tree(root, {"CLAUDE.md": "# Fixture\nVersion: 1.2.0\nNew rule.\n"})
    assert main(["provenance", "--root", str(root), "--write"]) == 0  # re-locked in the same change
    inputs = {"provenance": "true", "upload": "false"}
    assert not run_action(root, runner_temp, inputs).failed
    run = run_action(root, runner_temp, {**inputs, "provenance-base": "base"})
    assert run.failed and "CLAUDE.md" in run.log


def test_a_usage_error_uploads_nothing(tmp_path: Path, runner_temp: Path) -> None:
    root = workspace(tmp_path, CLEAN)
    run = run_action(root, runner_temp, {"root": "no-such-dir", "budget": "true"})
    assert run.outcomes["lint"] == "failure" and run.outputs["lint"]["exit-code"] == "2"
    assert run.uploads == [] and run.failed
    assert "does not exist" in run.log


def test_upload_false_keeps_the_sarif_in_the_workspace(tmp_path: Path, runner_temp: Path) -> None:
    root = workspace(tmp_path, CLEAN)
    run = run_action(root, runner_temp, {"upload": "false"})
    assert run.uploads == [] and not run.failed
    assert json.loads((root / "jitctx.sarif").read_text(encoding="utf-8"))["version"] == "2.1.0"


def test_the_action_installs_from_its_checkout_and_runs_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, runner_temp: Path
) -> None:
    """The whole action with its own install: pip builds jitctx from a copy of this repository (what a
    runner checks out as GITHUB_ACTION_PATH) into a virtualenv in RUNNER_TEMP. Needs PyPI."""
    checkout = tmp_path / "action"
    checkout.mkdir()
    for name in ("pyproject.toml", "README.md", "action.yml"):
        shutil.copy2(REPO / name, checkout / name)
    shutil.copytree(
        REPO / "src", checkout / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    root = workspace(tmp_path, CLEAN)
    gates = {"budget": "true", "provenance": "true", "claims": "true"}
    run = run_action(root, runner_temp, gates, action_path=checkout, install=True)
    if run.outcomes["install"] == "failure" and any(marker in run.log for marker in OFFLINE):
        pytest.skip("pip could not install jitctx's dependencies: PyPI is not reachable")
    assert not run.failed, run.log
    assert run.outputs["install"]["jitctx"] == str(runner_temp / "jitctx-action" / "bin" / "jitctx")
    uploaded = json.loads((root / "jitctx.sarif").read_text(encoding="utf-8"))
    assert uploaded == lint_sarif(capsys, root)
