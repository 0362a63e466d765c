"""Check the claims of a project's instruction files against the repository, with evidence per verdict.

Versions are compared with the nearest manifest (pyproject.toml, package.json, Cargo.toml) from the
instruction file's directory up to the root; test files are counted by naming convention in the nearest
package directory; test counts come from pytest, and only when the caller asks for it (it runs code).
Within one file every stated test count must agree: `641 tests` next to `640/641 passing` is wrong even
before anything is run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from jitctx.govern.claims import Claim, ClaimKind, find_claims
from jitctx.govern.evidence import (
    Collected,
    CountedTestFiles,
    Manifest,
    collect_pytest,
    count_test_files,
    package_dir,
    read_manifests,
)
from jitctx.govern.repo_files import RepoFiles, list_repo_files
from jitctx.govern.source import layout_of
from jitctx.model import InstructionFile

_RELEASE = re.compile(r"(\d+(?:\.\d+)*)(.*)", re.DOTALL)
Collector = Callable[[str], Collected]  # package directory (absolute) -> pytest's count


class Status(StrEnum):
    OK = "ok"
    WRONG = "wrong"
    UNCHECKED = "unchecked"


@dataclass(frozen=True)
class Verdict:
    file: str  # display path of the instruction file
    claim: Claim  # its line is a line of the file on disk
    status: Status
    found: str | None  # what the repository says
    source: str | None  # where that was found
    note: str = ""


@dataclass(frozen=True)
class ClaimsReport:
    verdicts: tuple[Verdict, ...]
    ran_tests: bool
    notes: tuple[str, ...] = ()

    @property
    def wrong(self) -> tuple[Verdict, ...]:
        return tuple(v for v in self.verdicts if v.status is Status.WRONG)

    def count(self, status: Status) -> int:
        return sum(1 for v in self.verdicts if v.status is status)


class _Repo:
    """Facts about the repository, each computed once and only when a claim needs it."""

    def __init__(self, root: str, collector: Collector | None, repo_files: RepoFiles | None) -> None:
        self.root = root
        self.collector = collector
        self._files = repo_files
        self._manifests: dict[str, list[Manifest]] = {}
        self._counts: dict[str, CountedTestFiles] = {}
        self._collected: dict[str, Collected] = {}

    @property
    def files(self) -> RepoFiles:
        if self._files is None:
            self._files = list_repo_files(self.root)
        return self._files

    @property
    def listing_note(self) -> str | None:
        return self._files.note if self._files is not None else None

    def manifests_for(self, directory: str) -> list[Manifest]:
        """Manifests of the nearest directory, from `directory` up to the root, that has any."""
        current = directory
        while True:
            if current not in self._manifests:
                self._manifests[current] = read_manifests(self.root, current)
            if self._manifests[current] or current == self.root or not current.startswith(self.root):
                return self._manifests[current]
            current = os.path.dirname(current)

    def test_files(self, directory: str) -> CountedTestFiles:
        package = package_dir(self.root, directory)
        if package not in self._counts:
            self._counts[package] = count_test_files(self.files, self.root, package)
        return self._counts[package]

    def collected(self, directory: str) -> Collected | None:
        if self.collector is None:
            return None
        package = package_dir(self.root, directory)
        if package not in self._collected:
            self._collected[package] = self.collector(package)
        return self._collected[package]


def check_claims(
    root: str,
    files: list[InstructionFile],
    *,
    run_tests: bool = False,
    collector: Collector | None = None,
    repo_files: RepoFiles | None = None,
    timeout: float | None = None,
) -> ClaimsReport:
    """Find and check every claim of `files`. With `run_tests`, pytest counts the tests (`collector`)."""
    if run_tests and collector is None:
        collector = _default_collector(timeout)
    repo = _Repo(root, collector if run_tests else None, repo_files)
    verdicts: list[Verdict] = []
    for file in files:
        directory = os.path.dirname(file.path)
        names = tuple(m.name for m in repo.manifests_for(directory) if m.name)
        claims = find_claims(file.text, first_line=layout_of(file).body_line, names=names)
        verdicts.extend(_check_file(file, claims, directory, repo))
    notes = (repo.listing_note,) if repo.listing_note else ()
    return ClaimsReport(tuple(verdicts), run_tests, notes)


def _default_collector(timeout: float | None) -> Collector:
    def collect(directory: str) -> Collected:
        return collect_pytest(directory) if timeout is None else collect_pytest(directory, timeout=timeout)

    return collect


def _check_file(
    file: InstructionFile, claims: tuple[Claim, ...], directory: str, repo: _Repo
) -> list[Verdict]:
    counts = [c for c in claims if c.kind in (ClaimKind.TEST_COUNT, ClaimKind.RATIO)]
    stated = {n for c in counts for n in c.numbers}
    disagreement = None
    if len(stated) > 1:
        places = ", ".join(f"{c.value} (line {c.line})" for c in counts)
        disagreement = f"this file states different test counts: {places}"
    verdicts: list[Verdict] = []
    for claim in claims:
        if claim.kind is ClaimKind.VERSION:
            verdicts.append(_check_version(file.display, claim, repo.manifests_for(directory)))
        elif claim.kind is ClaimKind.TEST_FILES:
            verdicts.append(_check_test_files(file.display, claim, repo.test_files(directory)))
        else:
            verdicts.append(_check_test_count(file.display, claim, directory, repo, disagreement))
    return verdicts


def _check_version(display: str, claim: Claim, manifests: list[Manifest]) -> Verdict:
    readable = [m for m in manifests if m.version is not None]
    if not readable:
        notes = "; ".join(m.note for m in manifests if m.note)
        why = notes or "no pyproject.toml, package.json or Cargo.toml between this file and the root"
        return Verdict(display, claim, Status.UNCHECKED, None, None, why)
    found = ", ".join(f"{m.version}" for m in readable)
    source = ", ".join(m.path for m in readable)
    if any(same_version(claim.value, m.version or "") for m in readable):
        return Verdict(display, claim, Status.OK, found, source)
    return Verdict(
        display, claim, Status.WRONG, found, source, f"the file says {claim.value}, the manifest {found}"
    )


def _check_test_files(display: str, claim: Claim, count: CountedTestFiles) -> Verdict:
    claimed = claim.numbers[0]
    if claim.family is not None:
        actual = count.by_family.get(claim.family, 0)
        found = f"{actual} {claim.family}"
    else:
        actual = count.total
        found = str(actual)
    source = f"test files {count.describe()}"
    if actual == claimed:
        return Verdict(display, claim, Status.OK, found, source)
    return Verdict(
        display, claim, Status.WRONG, found, source, f"the file says {claimed}, the tree has {actual}"
    )


def _check_test_count(
    display: str, claim: Claim, directory: str, repo: _Repo, disagreement: str | None
) -> Verdict:
    numbers = claim.numbers
    if claim.kind is ClaimKind.RATIO and numbers[0] != numbers[1]:
        note = f"{numbers[0]} of {numbers[1]}: the pair disagrees with itself (not every test passes)"
        return Verdict(display, claim, Status.WRONG, None, None, note)
    claimed = numbers[-1]
    collected = repo.collected(directory)
    if collected is None:
        if disagreement is not None:
            return Verdict(display, claim, Status.WRONG, None, None, disagreement)
        return Verdict(
            display, claim, Status.UNCHECKED, None, None, "pass --run to count the tests with pytest"
        )
    where = os.path.relpath(package_dir(repo.root, directory), repo.root).replace(os.sep, "/")
    source = f"{collected.command} in {where}/"
    if collected.count is None:
        return Verdict(display, claim, Status.UNCHECKED, None, source, collected.note or "")
    if repo.test_files(directory).by_family.get("python", 0) == 0:
        note = "no Python test files here; jitctx counts tests with pytest only"
        return Verdict(display, claim, Status.UNCHECKED, str(collected.count), source, note)
    if collected.count == claimed:
        return Verdict(display, claim, Status.OK, str(collected.count), source)
    note = f"the file says {claimed}, pytest collects {collected.count}"
    return Verdict(display, claim, Status.WRONG, str(collected.count), source, note)


def same_version(claimed: str, actual: str) -> bool:
    """`0.20` equals `0.20.0`; a leading `v` and case do not matter; pre-release suffixes must match."""
    return _version_key(claimed) == _version_key(actual)


def _version_key(version: str) -> tuple[tuple[int, ...], str]:
    text = version.strip().lower().removeprefix("v")
    match = _RELEASE.match(text)
    if match is None:
        return (), text
    release = [int(part) for part in match.group(1).split(".")]
    while release and release[-1] == 0:
        release.pop()
    return tuple(release), match.group(2)
