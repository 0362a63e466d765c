"""What jitctx's pre-commit hooks cost a commit, against `git commit --no-verify` in the same run.

    python benchmarks/bench_pre_commit_skip.py [--runs 11]

A copy of examples/monorepo is committed to a git repository with the four hooks of
`.pre-commit-hooks.yaml` (lint, budget, provenance, claims) in its `.pre-commit-config.yaml`, installed
from a committed copy of this repository (pip fetches jitctx's dependencies from PyPI; not timed). Then,
alternating so drift in machine load hits all alike:

* git alone:          `git commit --no-verify` of a change to src/ui/Badge.tsx;
* pre-commit, no hook: the same commit in a copy whose `.pre-commit-config.yaml` lists no hook: what
                      pre-commit itself costs;
* no instruction:     `git commit` of the same kind of change, through pre-commit: every hook is skipped
                      because no staged file matches its `files:` (target: under a second);
* instruction file:   `git commit` of a change to src/ui/CLAUDE.md (and the lock): the four hooks run.

Figures are medians of wall time, in seconds. pre-commit's store, pip's cache and the home the processes
see live in a temp dir that is deleted afterwards.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "monorepo"
HOOK_IDS = ("jitctx-lint", "jitctx-budget", "jitctx-provenance", "jitctx-claims")


def git(root: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True)
    return done.stdout


def init(root: Path, env: dict[str, str]) -> None:
    git(root, env, "init", "-q")
    git(root, env, "config", "user.email", "bench@example.invalid")
    git(root, env, "config", "user.name", "bench")
    git(root, env, "config", "commit.gpgsign", "false")
    git(root, env, "add", "-A")
    git(root, env, "commit", "-q", "--no-verify", "-m", "start")


def hooks_repo(target: Path, env: dict[str, str]) -> str:
    """This repository's manifest and package, committed; its rev."""
    target.mkdir()
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy2(REPO / name, target / name)
    shutil.copytree(REPO / "src", target / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    init(target, env)
    return git(target, env, "rev-parse", "HEAD").strip()


def pre_commit(root: Path, env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", *args], cwd=root, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"pre-commit {' '.join(args)} failed:\n{done.stdout}{done.stderr}")


def project(root: Path, env: dict[str, str], config: str) -> Path:
    """A locked copy of examples/monorepo, committed, with `config` as its pre-commit config, installed."""
    shutil.copytree(EXAMPLE, root)
    (root / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "jitctx", "provenance", "--write"], cwd=root, env=env, capture_output=True
    )
    init(root, env)
    pre_commit(root, env, "install")
    return root


def timed_commit(root: Path, env: dict[str, str], path: str, n: int, *options: str) -> float:
    target = root / path
    with target.open("a", encoding="utf-8") as file:
        file.write(f"\n<!-- change {n} -->\n" if path.endswith(".md") else f"\n// change {n}\n")
    if path.endswith(".md"):
        subprocess.run(
            [sys.executable, "-m", "jitctx", "provenance", "--write"], cwd=root, env=env, capture_output=True
        )
    git(root, env, "add", "-A")
    started = time.perf_counter()
    done = subprocess.run(
        ["git", "commit", "-q", *options, "-m", f"change {n}"], cwd=root, env=env, capture_output=True
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"the commit of {path} failed")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jitctx-pre-commit-") as temp:
        base = Path(temp)
        env = {key: value for key, value in os.environ.items() if not key.startswith(("GIT_", "PRE_COMMIT"))}
        env.update(
            HOME=str(base / "home"),
            XDG_CACHE_HOME=str(base / "home" / ".cache"),
            XDG_CONFIG_HOME=str(base / "home" / ".config"),
            PRE_COMMIT_HOME=str(base / "store"),
            PIP_CACHE_DIR=str(base / "pip"),
            VIRTUALENV_OVERRIDE_APP_DATA=str(base / "virtualenv"),
            PRE_COMMIT_COLOR="never",
        )
        rev = hooks_repo(base / "jitctx", env)
        hooks = "\n".join(f"      - id: {hook_id}" for hook_id in HOOK_IDS)
        root = project(
            base / "monorepo",
            env,
            f"repos:\n  - repo: {base / 'jitctx'}\n    rev: {rev}\n    hooks:\n{hooks}\n",
        )
        bare = project(base / "bare", env, "repos: []\n")
        print("installing the hooks' environment (not timed) ...", file=sys.stderr)
        pre_commit(root, env, "install-hooks")
        cases = {
            "git alone (--no-verify)": (root, "src/ui/Badge.tsx", ("--no-verify",)),
            "pre-commit, no hook": (bare, "src/ui/Badge.tsx", ()),
            "no instruction file": (root, "src/ui/Badge.tsx", ()),
            "instruction file": (root, "src/ui/CLAUDE.md", ()),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for n in range(args.runs):
            for name, (where, path, options) in cases.items():
                times[name].append(timed_commit(where, env, path, n, *options))
    reference = statistics.median(times["git alone (--no-verify)"])
    print(f"commit with jitctx's four pre-commit hooks installed, median of {args.runs} runs")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:<24} {median:7.3f} s   {median / reference:5.1f}x git alone")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
