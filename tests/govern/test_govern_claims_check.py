# Full-width punctuation in these strings is the subject under test, not a look-alike typo.
# ruff: noqa: RUF001
"""Checking claims against a repository: manifests, test files by convention, pytest's count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jitctx.govern.claims_check import ClaimsReport, Status, Verdict, check_claims, same_version
from jitctx.govern.evidence import (
    Collected,
    count_test_files,
    family_of_test_file,
    parse_collect_output,
)
from jitctx.govern.repo_files import list_repo_files
from jitctx.project import Project
from tests.conftest import Tree, git_init


def run_claims(root: Path, **kwargs: object) -> ClaimsReport:
    project = Project(root)
    files, _ = project.all_instruction_files()
    return check_claims(project.root, files, **kwargs)  # type: ignore[arg-type]


def only(report: ClaimsReport) -> Verdict:
    assert len(report.verdicts) == 1, report.verdicts
    return report.verdicts[0]


def seed_suite(tests: int = 641, files: int = 26) -> dict[str, str]:
    """`files` pytest files holding `tests` tests in all: the seed's figures by default."""
    per_file, rest = divmod(tests, files)
    suite: dict[str, str] = {}
    for index in range(files):
        count = per_file + (1 if index < rest else 0)
        suite[f"tests/test_part{index:02d}.py"] = (
            f"import pytest\n\n@pytest.mark.parametrize('i', range({count}))\ndef test_case(i):\n    pass\n"
        )
    return suite


# -- versions -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("manifest", "content", "status", "found"),
    [
        ("pyproject.toml", '[project]\nname = "knit"\nversion = "0.20.0"\n', Status.OK, "0.20.0"),
        ("pyproject.toml", '[project]\nname = "knit"\nversion = "0.21.0"\n', Status.WRONG, "0.21.0"),
        ("pyproject.toml", '[tool.poetry]\nname = "knit"\nversion = "0.20.0"\n', Status.OK, "0.20.0"),
        ("package.json", '{"name": "knit", "version": "0.20.0"}', Status.OK, "0.20.0"),
        ("package.json", '{"name": "knit", "version": "1.0.0"}', Status.WRONG, "1.0.0"),
        ("Cargo.toml", '[package]\nname = "knit"\nversion = "0.20.0"\n', Status.OK, "0.20.0"),
        ("pyproject.toml", '[project]\nname = "knit"\ndynamic = ["version"]\n', Status.UNCHECKED, None),
        ("package.json", "{not json", Status.UNCHECKED, None),
        ("pyproject.toml", "[project\n", Status.UNCHECKED, None),
    ],
)
def test_version_against_manifest(
    tree: Tree, manifest: str, content: str, status: Status, found: str | None
) -> None:
    root = tree({manifest: content, "AGENTS.md": "# Rules\n\n版本：0.20.0\n"})
    verdict = only(run_claims(root))
    assert verdict.status is status
    assert verdict.found == found
    assert verdict.claim.line == 3
    if status is not Status.UNCHECKED:
        assert verdict.source == manifest
    else:
        assert manifest in verdict.note


def test_version_without_any_manifest_is_unchecked(tree: Tree) -> None:
    verdict = only(run_claims(tree({"AGENTS.md": "Version: 2.4.0\n"})))
    assert verdict.status is Status.UNCHECKED
    assert "no pyproject.toml, package.json or Cargo.toml" in verdict.note


def test_nested_package_uses_its_own_manifest(tree: Tree) -> None:
    root = tree(
        {
            "package.json": '{"version": "1.0.0"}',
            "packages/web/package.json": '{"version": "3.1.0"}',
            "packages/web/AGENTS.md": "Version: 3.1.0\n",
            "packages/web/src/AGENTS.md": "Version: 3.1\n",  # nearest manifest is packages/web
            "AGENTS.md": "Version: 1.0.0\n",
        }
    )
    report = run_claims(root)
    assert {(v.file, v.status, v.source) for v in report.verdicts} == {
        ("AGENTS.md", Status.OK, "package.json"),
        ("packages/web/AGENTS.md", Status.OK, "packages/web/package.json"),
        ("packages/web/src/AGENTS.md", Status.OK, "packages/web/package.json"),
    }


def test_claim_line_counts_frontmatter(tree: Tree) -> None:
    root = tree(
        {
            "pyproject.toml": '[project]\nname = "x"\nversion = "1.0.0"\n',
            ".claude/rules/release.md": '---\npaths: ["src/**"]\n---\n# Release\nVersion: 1.0.1\n',
        }
    )
    verdict = only(run_claims(root))
    assert (verdict.file, verdict.claim.line, verdict.status) == (".claude/rules/release.md", 5, Status.WRONG)
    assert verdict.note == "the file says 1.0.1, the manifest 1.0.0"


def test_project_name_with_version_is_a_claim(tree: Tree) -> None:
    root = tree(
        {"package.json": '{"name": "dsh-knit", "version": "0.20.0"}', "AGENTS.md": "dsh-knit v0.19.0\n"}
    )
    verdict = only(run_claims(root))
    assert (verdict.status, verdict.claim.value) == (Status.WRONG, "0.19.0")


@pytest.mark.parametrize(
    ("claimed", "actual", "same"),
    [
        ("0.20", "0.20.0", True),
        ("v2.4.0", "2.4.0", True),
        ("2.4.0", "2.4.1", False),
        ("2.4.0-rc.1", "2.4.0-rc.1", True),
        ("2.4.0-rc.1", "2.4.0", False),
        ("2.4", "2.40", False),
    ],
)
def test_same_version(claimed: str, actual: str, same: bool) -> None:
    assert same_version(claimed, actual) is same


# -- test files ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "family"),
    [
        ("tests/test_api.py", "python"),
        ("pkg/api_test.py", "python"),
        ("src/ui/Badge.test.tsx", "js"),
        ("src/api/users.spec.ts", "js"),
        ("cmd/main_test.go", "go"),
        ("tests/conftest.py", None),
        ("src/testing.py", None),
        ("docs/test.md", None),
    ],
)
def test_test_file_conventions(path: str, family: str | None) -> None:
    assert family_of_test_file(path) == family


def test_test_file_count_true_and_false(tree: Tree) -> None:
    files = {f"tests/test_{i}.py": "" for i in range(3)} | {"src/a.test.ts": "", "src/helpers.py": ""}
    root = tree({**files, "AGENTS.md": "- 4 test files\n- 3 Python test files\n- 5 test files\n"})
    verdicts = run_claims(root).verdicts
    assert [(v.claim.value, v.status) for v in verdicts] == [
        ("4", Status.OK),
        ("3", Status.OK),
        ("5", Status.WRONG),
    ]
    assert verdicts[2].found == "4"
    assert verdicts[2].source is not None and "js 1, python 3" in verdicts[2].source


def test_test_files_in_git_ignore_ignored_and_deleted_files(tree: Tree) -> None:
    root = tree(
        {
            "tests/test_a.py": "",
            "tests/test_b.py": "",
            ".gitignore": "build/\n",
            "AGENTS.md": "2 test files\n",
        }
    )
    git_init(root)
    (root / "build").mkdir()
    (root / "build" / "test_generated.py").write_text("")
    (root / "tests" / "test_new.py").write_text("")  # untracked, not ignored: counts
    (root / "tests" / "test_a.py").unlink()  # tracked but deleted: does not count
    listing = list_repo_files(str(root.resolve()))
    assert listing.method == "git"
    assert count_test_files(listing, str(root.resolve()), str(root.resolve())).total == 2
    assert only(run_claims(root)).status is Status.OK


def test_without_git_files_are_walked(tree: Tree) -> None:
    root = tree(
        {"tests/test_a.py": "", "node_modules/x/a.test.js": "", "AGENTS.md": "1 test file\n测试文件：1 个\n"}
    )
    listing = list_repo_files(str(root.resolve()))
    assert listing.method == "walk"
    assert "node_modules/x/a.test.js" not in listing.paths
    assert [v.status for v in run_claims(root).verdicts] == [Status.OK]


# -- test counts --------------------------------------------------------------------------------------


def test_test_counts_unchecked_without_run(tree: Tree) -> None:
    root = tree({"AGENTS.md": "测试：641 项\n641/641 passing\n"})
    report = run_claims(root)
    assert [v.status for v in report.verdicts] == [Status.UNCHECKED, Status.UNCHECKED]
    assert report.wrong == ()
    assert "--run" in report.verdicts[0].note


def test_the_seed_false_positive_is_not_a_second_count(tree: Tree) -> None:
    # The seed's first checker saw "641 / 1" here: the CSS ratio became a competing test count.
    root = tree(
        {"AGENTS.md": "测试：641 项\n\n```css\n.a { aspect-ratio: 1/1; }\n```\n.b { aspect-ratio: 1/1; }\n"}
    )
    report = run_claims(root)
    assert [(v.claim.value, v.status) for v in report.verdicts] == [("641", Status.UNCHECKED)]


def test_counts_that_disagree_in_one_file_are_wrong(tree: Tree) -> None:
    root = tree({"AGENTS.md": "641 tests\n\nTests: 640/640\n"})
    report = run_claims(root)
    assert [v.status for v in report.verdicts] == [Status.WRONG, Status.WRONG]
    assert "641 (line 1), 640/640 (line 3)" in report.verdicts[0].note


def test_ratio_that_disagrees_with_itself_is_wrong(tree: Tree) -> None:
    verdict = only(run_claims(tree({"AGENTS.md": "639/641 passing\n"})))
    assert verdict.status is Status.WRONG
    assert "639 of 641" in verdict.note


def fake_collector(count: int | None, note: str | None = None) -> object:
    calls: list[str] = []

    def collect(directory: str) -> Collected:
        calls.append(directory)
        return Collected(count, "pytest --collect-only -q", note)

    collect.calls = calls  # type: ignore[attr-defined]
    return collect


def test_collector_is_called_once_per_package(tree: Tree) -> None:
    root = tree({"tests/test_a.py": "", "AGENTS.md": "641 tests\n", "src/AGENTS.md": "641/641 passing\n"})
    collect = fake_collector(641)
    report = run_claims(root, run_tests=True, collector=collect)
    assert [v.status for v in report.verdicts] == [Status.OK, Status.OK]
    assert collect.calls == [str(root.resolve())]  # type: ignore[attr-defined]
    assert report.verdicts[0].source == "pytest --collect-only -q in ./"


def test_collection_problem_leaves_the_claim_unchecked(tree: Tree) -> None:
    root = tree({"tests/test_a.py": "", "AGENTS.md": "641 tests\n"})
    verdict = only(
        run_claims(root, run_tests=True, collector=fake_collector(None, "2 error(s) during collection"))
    )
    assert verdict.status is Status.UNCHECKED
    assert verdict.note == "2 error(s) during collection"


def test_no_python_tests_means_unchecked_not_wrong(tree: Tree) -> None:
    root = tree({"src/a.test.ts": "", "AGENTS.md": "12 tests\n"})
    verdict = only(run_claims(root, run_tests=True, collector=fake_collector(0)))
    assert verdict.status is Status.UNCHECKED
    assert "pytest only" in verdict.note


@pytest.mark.parametrize(
    ("output", "code", "count", "note"),
    [
        ("tests/test_x.py::test_a\ntests/test_x.py::test_b\n\n2 tests collected in 0.01s\n", 0, 2, None),
        ("1 test collected in 0.01s\n", 0, 1, None),
        ("641/700 tests collected (59 deselected) in 0.5s\n", 0, 641, None),
        ("tests/test_x.py: 2\ntests/test_y.py: 3\n", 0, 5, None),  # -qq (addopts = -q plus our -q)
        ("no tests collected in 0.01s\n", 5, 0, None),
        ("", 5, 0, None),
        ("ERROR tests/test_y.py\n!!! Interrupted: 1 error during collection !!!\n", 2, None, "1 error(s)"),
        ("/usr/bin/python: No module named pytest\n", 1, None, "pytest is not installed"),
        ("something odd\n", 3, None, "could not read a count"),
    ],
)
def test_parse_collect_output(output: str, code: int, count: int | None, note: str | None) -> None:
    collected = parse_collect_output(output, code)
    assert collected.count == count
    if note is None:
        assert collected.note is None
    else:
        assert collected.note is not None and note in collected.note


def test_negative_control_with_real_pytest(tree: Tree) -> None:
    """The seed's control: the true count (641 tests in 26 files) passes, a deliberately wrong 999 fails."""
    root = tree({**seed_suite(), "AGENTS.md": "测试：641 项\n测试文件：26 个\n", "CLAUDE.md": "Tests: 999\n"})
    report = run_claims(root, run_tests=True)
    by_file = {(v.file, v.claim.kind.value): v for v in report.verdicts}
    assert by_file[("AGENTS.md", "test_count")].status is Status.OK
    assert by_file[("AGENTS.md", "test_count")].found == "641"
    assert by_file[("AGENTS.md", "test_files")].status is Status.OK
    wrong = by_file[("CLAUDE.md", "test_count")]
    assert (wrong.status, wrong.found) == (Status.WRONG, "641")
    assert wrong.note == "the file says 999, pytest collects 641"
    assert not (root / ".pytest_cache").exists()  # collection leaves nothing behind


def test_report_json_roundtrip_of_counts(tree: Tree) -> None:
    root = tree({"package.json": json.dumps({"version": "1.0.0"}), "AGENTS.md": "Version: 1.0.0\n2 tests\n"})
    report = run_claims(root)
    assert (report.count(Status.OK), report.count(Status.UNCHECKED), report.count(Status.WRONG)) == (1, 1, 0)
