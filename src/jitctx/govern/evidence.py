"""What the repository says about itself: manifest versions, test files by convention, pytest's count.

Claims are checked against these facts. Everything here reports problems as notes (a broken manifest, a
missing pytest) instead of raising: an unreadable source makes a claim "unchecked", never a crash.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from jitctx.govern.repo_files import RepoFiles

MANIFESTS = ("pyproject.toml", "package.json", "Cargo.toml")
# A directory holding one of these is a package of its own: its tests are counted there.
PACKAGE_MARKERS = (*MANIFESTS, "go.mod")

# Test file conventions, by family. Python follows pytest's default `python_files`.
TEST_FILE_CONVENTIONS: dict[str, tuple[str, ...]] = {
    "python": ("test_*.py", "*_test.py"),
    "js": tuple(
        f"*.{kind}.{ext}"
        for kind in ("test", "spec")
        for ext in ("js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts")
    ),
    "go": ("*_test.go",),
}
PYTEST_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Manifest:
    path: str  # POSIX relative to the root
    name: str | None
    version: str | None
    note: str | None = None  # why no version could be read


@dataclass(frozen=True)
class CountedTestFiles:
    directory: str  # POSIX relative to the root, "." for the root
    by_family: dict[str, int]
    method: str  # how files were listed: "git" or "walk"

    @property
    def total(self) -> int:
        return sum(self.by_family.values())

    def describe(self) -> str:
        parts = ", ".join(f"{family} {count}" for family, count in sorted(self.by_family.items()) if count)
        return f"{self.total} under {self.directory}/ ({parts or 'none'}; listed by {self.method})"


@dataclass(frozen=True)
class Collected:
    """The outcome of `pytest --collect-only -q`: a count, or a note saying why there is none."""

    count: int | None
    command: str
    note: str | None = None


def read_manifests(root: str, directory: str) -> list[Manifest]:
    """The manifests in `directory` (absolute), in MANIFESTS order."""
    found: list[Manifest] = []
    for name in MANIFESTS:
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            found.append(_read_manifest(path, _rel(path, root)))
    return found


def _read_manifest(path: str, display: str) -> Manifest:
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
        if path.endswith(".json"):
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict):
                return Manifest(display, None, None, f"{display}: not a JSON object")
            return _manifest(display, data.get("name"), data.get("version"), '"version"')
        table = tomllib.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return Manifest(display, None, None, f"{display}: cannot be read ({exc})")
    if display.endswith("pyproject.toml"):
        project = table.get("project", {})
        if isinstance(project, dict) and "version" in project:
            return _manifest(display, project.get("name"), project.get("version"), "[project].version")
        poetry = table.get("tool", {}).get("poetry", {})
        if isinstance(poetry, dict) and "version" in poetry:
            return _manifest(display, poetry.get("name"), poetry.get("version"), "[tool.poetry].version")
        dynamic = isinstance(project, dict) and "version" in project.get("dynamic", [])
        why = "the version is dynamic (set at build time)" if dynamic else "no [project].version"
        name = project.get("name") if isinstance(project, dict) else None
        return Manifest(display, name if isinstance(name, str) else None, None, f"{display}: {why}")
    package = table.get("package", {})
    if isinstance(package, dict) and isinstance(package.get("version"), str):
        return _manifest(display, package.get("name"), package.get("version"), "[package].version")
    return Manifest(display, None, None, f"{display}: no [package].version")


def _manifest(display: str, name: object, version: object, key: str) -> Manifest:
    if not isinstance(version, str):
        return Manifest(
            display, name if isinstance(name, str) else None, None, f"{display}: {key} is not a string"
        )
    return Manifest(display, name if isinstance(name, str) else None, version)


def package_dir(root: str, directory: str) -> str:
    """The nearest ancestor of `directory` (inside `root`) that is a package of its own; else `root`."""
    current = directory
    while current.startswith(root) and current != root:
        if any(os.path.isfile(os.path.join(current, marker)) for marker in PACKAGE_MARKERS):
            return current
        current = os.path.dirname(current)
    return root


def count_test_files(files: RepoFiles, root: str, directory: str) -> CountedTestFiles:
    rel = _rel(directory, root)
    prefix = "" if rel == "." else rel + "/"
    counts = dict.fromkeys(TEST_FILE_CONVENTIONS, 0)
    for path in files.paths:
        if not path.startswith(prefix):
            continue
        family = family_of_test_file(path)
        if family is not None:
            counts[family] += 1
    return CountedTestFiles(rel, counts, files.method)


def family_of_test_file(path: str) -> str | None:
    """The family whose naming convention `path` follows, or None for a file that is not a test file."""
    name = PurePosixPath(path)
    for family, patterns in TEST_FILE_CONVENTIONS.items():
        if any(name.match(pattern) for pattern in patterns):
            return family
    return None


_SUMMARY = re.compile(r"(?:^|\s)(\d+)(?:/\d+)? tests? collected|^no tests collected", re.MULTILINE)
_PER_FILE = re.compile(r"^\S.*: (\d+)$", re.MULTILINE)  # `-qq` prints "tests/test_x.py: 2" per file
_ERRORS = re.compile(r"(\d+) errors? during collection|Interrupted: (\d+) errors?", re.IGNORECASE)


def collect_pytest(
    directory: str, *, timeout: float = PYTEST_TIMEOUT_S, command: Sequence[str] | None = None
) -> Collected:
    """Run pytest's collection (no test runs, no cache written) in `directory` and read the count."""
    argv = list(command or (sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"))
    shown = " ".join(argv[1:] if argv[0] == sys.executable else argv)
    try:
        proc = subprocess.run(
            argv, cwd=directory, capture_output=True, text=True, timeout=timeout, check=False
        )
    except FileNotFoundError:
        return Collected(None, shown, f"{argv[0]} was not found")
    except subprocess.TimeoutExpired:
        return Collected(None, shown, f"collection took longer than {timeout:g} s; raise --timeout")
    except OSError as exc:
        return Collected(None, shown, f"could not start {argv[0]}: {exc}")
    return parse_collect_output(proc.stdout + proc.stderr, proc.returncode, shown)


def parse_collect_output(
    output: str, returncode: int, command: str = "pytest --collect-only -q"
) -> Collected:
    errors = _ERRORS.search(output)
    if errors is not None:
        count = errors.group(1) or errors.group(2)
        return Collected(None, command, f"{count} error(s) during collection; fix them to get a count")
    if "No module named pytest" in output:
        return Collected(None, command, "pytest is not installed for this Python")
    summary = _SUMMARY.search(output)
    if summary is not None:
        return Collected(int(summary.group(1) or 0), command)
    if returncode == 5:  # pytest: no tests were collected
        return Collected(0, command)
    per_file = _PER_FILE.findall(output)
    if returncode == 0 and per_file:
        return Collected(sum(int(n) for n in per_file), command)
    if returncode == 0 and not output.strip():
        return Collected(0, command)
    last = output.strip().splitlines()[-1] if output.strip() else f"exit code {returncode}"
    return Collected(None, command, f"could not read a count from pytest ({last})")


def _rel(path: str, root: str) -> str:
    rel = os.path.relpath(path, root)
    return rel.replace(os.sep, "/")
