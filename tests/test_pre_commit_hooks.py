"""`.pre-commit-hooks.yaml`: the manifest as pre-commit reads it, the files that wake each hook, and real
runs of pre-commit (`try-repo`, then `git commit` with the hooks installed) on fixture repositories.

The real runs install jitctx into pre-commit's own virtualenv from a committed copy of this repository (its
work tree may hold changes not committed yet), which needs PyPI for the dependencies. `try-repo` keeps its
environments in a store of its own that it deletes after the run, so each `try-repo` pays one install;
the commit tests share one PRE_COMMIT_HOME for the session and install once. Every cache (pre-commit's,
pip's, virtualenv's) and the home they run with live in the session's temp dir.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from jitctx.cli.main import main
from jitctx.profiles import PROFILES
from tests.conftest import REPO, write_tree

MANIFEST = REPO / ".pre-commit-hooks.yaml"
HOOKS = {
    "jitctx-lint": ["jitctx", "lint"],
    "jitctx-budget": ["jitctx", "budget"],
    "jitctx-provenance": ["jitctx", "provenance", "--check"],
    "jitctx-claims": ["jitctx", "claims"],
}
# What pip or virtualenv print when PyPI cannot be reached: the only failure of an install that skips.
OFFLINE = (
    "NewConnectionError",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "Name or service not known",
    "No route to host",
)
# pre-commit's line per hook: its name, dots, then the verdict.
VERDICT = re.compile(r"^(?P<name>\S.*?)\.{2,}(?:\(no files to check\))?(?P<verdict>Passed|Failed|Skipped)$")


def manifest() -> list[dict[str, Any]]:
    hooks: list[dict[str, Any]] = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    return hooks


def hook(hook_id: str) -> dict[str, Any]:
    return next(h for h in manifest() if h["id"] == hook_id)


def wakes(hook_id: str, path: str) -> bool:
    """Does a commit touching `path` run the hook? pre-commit searches `files` in each staged path."""
    return re.search(hook(hook_id)["files"], path) is not None


# -- the manifest ---------------------------------------------------------------------------------------


def test_pre_commit_reads_the_manifest() -> None:
    clientlib = pytest.importorskip("pre_commit.clientlib", reason="pre-commit is not installed")
    loaded = clientlib.load_manifest(str(MANIFEST))
    assert [h["id"] for h in loaded] == list(HOOKS)


@pytest.mark.parametrize(("hook_id", "command"), HOOKS.items())
def test_each_hook_runs_its_command_on_the_whole_project(hook_id: str, command: list[str]) -> None:
    found = hook(hook_id)
    assert found["entry"].split() == command
    assert found["language"] == "python"
    assert found["pass_filenames"] is False  # the command checks the project, not the files given
    assert "always_run" not in found  # a commit touching no instruction file skips the hook


@pytest.mark.parametrize("command", [argv[1:] for argv in HOOKS.values()])
def test_each_entry_is_a_command_jitctx_takes(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: jitctx {command[0]}")


def instruction_paths() -> Iterator[str]:
    """Every file some profile reads in a project, at the root and (where the agent looks there too) in a
    subdirectory: what a commit must touch to wake the hooks."""
    for name in PROFILES:
        profile = PROFILES[name]
        names = [*profile.dir_files, *profile.local_files, *(pair[0] for pair in profile.fallback_files)]
        for file in names:
            yield file
            yield f"packages/web/{file}"
        yield from profile.root_files
        for rules in profile.rules_dirs:
            yield f"{rules.path}/python{rules.suffix}"
            yield f"{rules.path}/lang/python{rules.suffix}"
            if rules.nested:
                yield f"packages/web/{rules.path}/python{rules.suffix}"
        for skills in profile.skill_dirs:
            yield f"{skills}/release-notes/SKILL.md"
            yield f"packages/web/{skills}/release-notes/SKILL.md"


GOVERNED = sorted(set(instruction_paths()))
# jitctx's own files, and what lint flags in rules folders: a misplaced or plain-Markdown Cursor rule.
JITCTX_FILES = [
    ".jitctx.toml",
    "packages/web/.jitctx.toml",
    ".jitctx.lock.json",
    "pyproject.toml",
    ".gemini/settings.json",
    "docs/.cursor/rules.mdc",
    ".cursor/rules/notes.md",
]
UNRELATED = [
    "src/app.py",
    "README.md",
    "docs/guide.md",
    "tests/test_app.py",
    "src/claude.py",
    "MYCLAUDE.md",
    "docs/AGENTS.md.orig",
    ".github/workflows/ci.yml",
    ".claude/settings.json",
]


def test_every_profile_reads_some_files() -> None:
    assert {"AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md", ".cursorrules"} <= set(GOVERNED)
    assert ".qwen/rules/python.md" in GOVERNED and ".claude/skills/release-notes/SKILL.md" in GOVERNED


@pytest.mark.parametrize("path", GOVERNED + JITCTX_FILES)
def test_a_commit_touching_an_instruction_file_wakes_every_hook(path: str) -> None:
    assert [hook_id for hook_id in HOOKS if not wakes(hook_id, path)] == []


@pytest.mark.parametrize("path", UNRELATED)
def test_a_commit_touching_other_files_wakes_none(path: str) -> None:
    assert [hook_id for hook_id in HOOKS if wakes(hook_id, path)] == []


def test_a_file_an_instruction_file_imports_does_not_wake_the_hooks() -> None:
    """Deliberate: `files:` is fixed text, and an @import may name any file (docs/style.md here); a
    project that wants such commits checked widens `files:` in its own .pre-commit-config.yaml."""
    assert "@docs/style.md" in CLEAN["CLAUDE.md"]
    assert [hook_id for hook_id in HOOKS if wakes(hook_id, "docs/style.md")] == []


@pytest.mark.parametrize("path", ["package.json", "Cargo.toml", "packages/web/package.json"])
def test_claims_also_wakes_on_the_version_files_it_checks(path: str) -> None:
    assert wakes("jitctx-claims", path)
    assert not wakes("jitctx-lint", path)


# -- real runs of pre-commit ----------------------------------------------------------------------------

CLEAN = {
    "pyproject.toml": '[project]\nname = "fixture"\nversion = "1.2.0"\n',
    "CLAUDE.md": "# Fixture\nVersion: 1.2.0\nSee @docs/style.md\n",
    "docs/style.md": "Four spaces.\n",
    "src/app.py": "print('hello')\n",
}
BROKEN_IMPORT = "# Fixture\nVersion: 1.2.0\nSee @docs/gone.md\n"


def verdicts(output: str) -> dict[str, str]:
    """pre-commit's verdict per hook id, from its report."""
    ids = {h["name"]: h["id"] for h in manifest()}
    found = {}
    for line in output.splitlines():
        match = VERDICT.match(line.strip())
        if match and match["name"] in ids:
            found[ids[match["name"]]] = match["verdict"]
    return found


@pytest.fixture(scope="session")
def pre_commit_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of every pre-commit and git process here: a home of the session's own, and
    pre-commit's store, pip's cache and virtualenv's app data in the session's temp dir."""
    if importlib.util.find_spec("pre_commit") is None:
        pytest.skip("pre-commit is not installed (the dev extra brings it: pip install -e '.[dev]')")
    base = tmp_path_factory.mktemp("pre-commit")
    home = base / "home"
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local/share"),
        XDG_STATE_HOME=str(home / ".local/state"),
        PRE_COMMIT_HOME=str(base / "store"),
        PIP_CACHE_DIR=str(base / "pip"),
        VIRTUALENV_OVERRIDE_APP_DATA=str(base / "virtualenv"),
        PRE_COMMIT_COLOR="never",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    return env


def git(root: Path, env: Mapping[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, text=True, check=False)


def commit_all(root: Path, env: Mapping[str, str], message: str, *options: str) -> None:
    for args in (["add", "-A"], ["commit", "-q", *options, "-m", message]):
        done = git(root, env, *args)
        assert done.returncode == 0, done.stdout + done.stderr


def new_repo(root: Path, env: Mapping[str, str], files: Mapping[str, str]) -> Path:
    write_tree(root, files)
    for args in (
        ["init", "-q"],
        ["config", "user.email", "test@example.invalid"],
        ["config", "user.name", "test"],
        ["config", "commit.gpgsign", "false"],
    ):
        git(root, env, *args)
    return root


@pytest.fixture(scope="session")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory, pre_commit_env: dict[str, str]) -> tuple[Path, str]:
    """This repository as pre-commit installs it, committed in a temp dir: the manifest and the package
    as they are in the work tree now (try-repo would leave out a file not yet tracked). Its path and rev."""
    root = tmp_path_factory.mktemp("jitctx-repo")
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy2(REPO / name, root / name)
    shutil.copytree(REPO / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    new_repo(root, pre_commit_env, {})
    commit_all(root, pre_commit_env, "jitctx")
    return root, git(root, pre_commit_env, "rev-parse", "HEAD").stdout.strip()


def pre_commit(
    cwd: Path, env: Mapping[str, str], *args: str, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def skip_if_offline(done: subprocess.CompletedProcess[str]) -> None:
    output = done.stdout + done.stderr
    if done.returncode != 0 and "Installing environment" in output and any(m in output for m in OFFLINE):
        pytest.skip("pre-commit could not install jitctx's hook environment: PyPI is not reachable")


def lock(root: Path) -> None:
    assert main(["provenance", "--root", str(root), "--write"]) == 0


def test_try_repo_fails_on_a_broken_import(
    tmp_path: Path, pre_commit_env: dict[str, str], hooks_repo: tuple[Path, str]
) -> None:
    root = new_repo(tmp_path / "broken", pre_commit_env, CLEAN)
    lock(root)
    commit_all(root, pre_commit_env, "clean")
    (root / "CLAUDE.md").write_text(BROKEN_IMPORT, encoding="utf-8")
    lock(root)
    assert git(root, pre_commit_env, "add", "-A").returncode == 0
    done = pre_commit(root, pre_commit_env, "try-repo", str(hooks_repo[0]))  # the staged files, as a commit
    skip_if_offline(done)
    assert done.returncode == 1, done.stdout + done.stderr
    assert verdicts(done.stdout) == {
        "jitctx-lint": "Failed",
        "jitctx-budget": "Passed",
        "jitctx-provenance": "Passed",
        "jitctx-claims": "Passed",
    }
    assert "CLAUDE.md:3" in done.stdout and "import-missing" in done.stdout and "@docs/gone.md" in done.stdout


def test_try_repo_passes_a_clean_repository(
    tmp_path: Path, pre_commit_env: dict[str, str], hooks_repo: tuple[Path, str]
) -> None:
    root = new_repo(tmp_path / "clean", pre_commit_env, CLEAN)
    lock(root)
    commit_all(root, pre_commit_env, "clean")
    done = pre_commit(root, pre_commit_env, "try-repo", str(hooks_repo[0]), "--all-files")
    skip_if_offline(done)
    assert done.returncode == 0, done.stdout + done.stderr
    assert verdicts(done.stdout) == dict.fromkeys(HOOKS, "Passed")


@pytest.fixture(scope="session")
def installed_config(
    tmp_path_factory: pytest.TempPathFactory, pre_commit_env: dict[str, str], hooks_repo: tuple[Path, str]
) -> str:
    """A .pre-commit-config.yaml naming the four hooks at the committed rev, with their environment
    installed once in the session's PRE_COMMIT_HOME."""
    path, rev = hooks_repo
    config = yaml.safe_dump(
        {"repos": [{"repo": str(path), "rev": rev, "hooks": [{"id": hook_id} for hook_id in HOOKS]}]},
        sort_keys=False,
    )
    root = new_repo(tmp_path_factory.mktemp("install"), pre_commit_env, {".pre-commit-config.yaml": config})
    done = pre_commit(root, pre_commit_env, "install-hooks")
    skip_if_offline(done)
    assert done.returncode == 0, done.stdout + done.stderr
    return config


@pytest.fixture
def project(tmp_path: Path, pre_commit_env: dict[str, str], installed_config: str) -> Path:
    """A clean fixture repository, locked and committed, with jitctx's hooks in its git pre-commit hook."""
    root = new_repo(
        tmp_path / "project", pre_commit_env, {**CLEAN, ".pre-commit-config.yaml": installed_config}
    )
    lock(root)
    commit_all(root, pre_commit_env, "clean", "--no-verify")
    done = pre_commit(root, pre_commit_env, "install")
    assert done.returncode == 0, done.stdout + done.stderr
    return root


def commit(root: Path, env: Mapping[str, str], files: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """`git commit` of `files` with everything else staged. Git sends a hook's output to stderr."""
    write_tree(root, files)
    assert git(root, env, "add", "-A").returncode == 0
    return git(root, env, "commit", "-m", "change")


def head(root: Path, env: Mapping[str, str]) -> str:
    return git(root, env, "rev-parse", "HEAD").stdout.strip()


def test_a_commit_with_a_broken_import_is_refused(project: Path, pre_commit_env: dict[str, str]) -> None:
    before = head(project, pre_commit_env)
    (project / "CLAUDE.md").write_text(BROKEN_IMPORT, encoding="utf-8")
    lock(project)
    done = commit(project, pre_commit_env, {})
    assert done.returncode != 0
    assert verdicts(done.stderr)["jitctx-lint"] == "Failed"
    assert "import-missing" in done.stderr
    assert head(project, pre_commit_env) == before
    (project / "CLAUDE.md").write_text(CLEAN["CLAUDE.md"], encoding="utf-8")
    lock(project)
    done = commit(project, pre_commit_env, {})
    assert done.returncode == 0, done.stdout + done.stderr
    assert verdicts(done.stderr) == dict.fromkeys(HOOKS, "Passed")


def test_a_commit_touching_no_instruction_file_skips_every_hook(
    project: Path, pre_commit_env: dict[str, str]
) -> None:
    # The tree already fails lint and provenance: only a hook that does not run lets the commit through.
    write_tree(project, {"CLAUDE.md": BROKEN_IMPORT})
    commit_all(project, pre_commit_env, "broken", "--no-verify")
    done = commit(project, pre_commit_env, {"src/app.py": "print('changed')\n"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert verdicts(done.stderr) == dict.fromkeys(HOOKS, "Skipped")
    assert "(no files to check)" in done.stderr


@pytest.mark.parametrize(
    ("failing", "files"),
    [
        ("jitctx-provenance", {"CLAUDE.md": CLEAN["CLAUDE.md"] + "Use tabs.\n"}),  # not re-locked
        ("jitctx-claims", {"pyproject.toml": '[project]\nname = "fixture"\nversion = "1.3.0"\n'}),
        ("jitctx-budget", {".jitctx.toml": '[layers.L0]\nglobs = ["CLAUDE.md"]\nmax_bytes = 10\n'}),
    ],
)
def test_each_gate_refuses_its_own_failure(
    project: Path, pre_commit_env: dict[str, str], failing: str, files: dict[str, str]
) -> None:
    done = commit(project, pre_commit_env, files)
    assert done.returncode != 0
    assert verdicts(done.stderr) == {**dict.fromkeys(HOOKS, "Passed"), failing: "Failed"}, done.stderr
