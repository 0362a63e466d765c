"""Lint rules on small trees, on the example monorepo, and the SARIF shape code-scanning UIs need."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.govern.duplicates import Text, duplicate_findings
from jitctx.govern.findings import RULES, Finding, Severity
from jitctx.govern.lint import LintReport, lint_project
from jitctx.govern.sarif import to_sarif
from jitctx.project import Project
from tests.conftest import Tree, git_init


def lint(root: Path, agent: str | None = None, *, use_git: bool = True) -> LintReport:
    return lint_project(Project(root, profile=agent), use_git=use_git)


def rows(report: LintReport, rule: str | None = None) -> list[tuple[str, int, str]]:
    return [(f.file, f.line, f.rule) for f in report.findings if rule is None or f.rule == rule]


def one(report: LintReport, rule: str) -> Finding:
    found = [f for f in report.findings if f.rule == rule]
    assert len(found) == 1, report.findings
    return found[0]


# -- frontmatter --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("front", "line"),
    [
        ("paths: **/*.ts\n", 2),
        ("description: TypeScript rules\npaths: **/*.ts\n", 3),
        ("paths:\n  - **/*.ts\n", 2),
    ],
)
def test_unquoted_glob_points_at_the_key(tree: Tree, front: str, line: int) -> None:
    root = tree({".claude/rules/ts.md": f"---\n{front}---\n# TS\n", "src/a.ts": ""})
    finding = one(lint(root), "unquoted-glob")
    assert (finding.file, finding.line, finding.severity) == (".claude/rules/ts.md", line, Severity.WARNING)
    assert finding.fix == 'quote it: paths: ["**/*.ts"]'
    assert rows(lint(root), "scope-matches-nothing") == []  # the recovered scope still works


def test_quoted_glob_is_clean(tree: Tree) -> None:
    root = tree({".claude/rules/ts.md": '---\npaths: ["**/*.ts"]\n---\n# TS\n', "src/a.ts": ""})
    assert lint(root).findings == ()


@pytest.mark.parametrize(
    ("front", "line", "fragment"),
    [
        ("paths: [unclosed\n", 2, "not valid YAML"),
        ("description: x\npaths: [\n  - a\n", 4, "not valid YAML"),  # where YAML gives up
        ("description: x\npaths: 3\n", 3, "must be a list of globs"),
        ("paths:\n  - 3\n", 2, "items must be strings"),
    ],
)
def test_unreadable_frontmatter_is_an_error(tree: Tree, front: str, line: int, fragment: str) -> None:
    root = tree({".claude/rules/bad.md": f"---\n{front}---\nrule\n"})
    finding = one(lint(root), "frontmatter-unreadable")
    assert (finding.line, finding.severity) == (line, Severity.ERROR)
    assert fragment in finding.message and "never injected" in finding.message


def test_unclosed_frontmatter(tree: Tree) -> None:
    root = tree({".claude/rules/bad.md": "---\npaths: ['src/**']\nrule without end\n"})
    assert "never closes" in one(lint(root), "frontmatter-unreadable").message


# -- scopes -------------------------------------------------------------------------------------------


def test_scope_pattern_that_matches_nothing(tree: Tree) -> None:
    root = tree(
        {
            ".claude/rules/api.md": "---\npaths: |\n  src/api/**/*.ts\n  src/services/**/*.ts\n---\n# API\n",
            "src/api/users.ts": "",
        }
    )
    finding = one(lint(root), "scope-matches-nothing")
    assert (finding.file, finding.line) == (".claude/rules/api.md", 4)
    assert "'src/services/**/*.ts'" in finding.message


CLAUDE_RULE = ".claude/rules/r.md"
NESTED_CLAUDE_MD = "lib/CLAUDE.md"  # jitctx's own `paths:`: the default profile honours it


@pytest.mark.parametrize(
    ("rule", "pattern", "agent", "matches"),
    [
        (CLAUDE_RULE, "src/ui/**", None, True),
        (CLAUDE_RULE, "src/ui/", None, True),  # a directory marker matches the folder itself
        (CLAUDE_RULE, "src/u/**", None, False),
        (CLAUDE_RULE, "src/{ui,api}/*.tsx", None, True),
        # A `.claude/rules` glob means what Claude Code's means, whoever reads it: a bare name matches at
        # any depth, in any case.
        (CLAUDE_RULE, "*.tsx", None, True),
        (CLAUDE_RULE, "*.tsx", "claude-code", True),
        (CLAUDE_RULE, "SRC/UI/*.TSX", None, True),
        (CLAUDE_RULE, "src/ui/Badge.tsx", None, True),
        (CLAUDE_RULE, "src/ui/Badge", None, False),
        (CLAUDE_RULE, "docs/**/*.md", None, False),
        # jitctx's own `paths:` elsewhere: the seed's Bun.Glob, `*` in the root folder only, case counts
        (NESTED_CLAUDE_MD, "*.tsx", None, False),
        (NESTED_CLAUDE_MD, "src/ui/*.tsx", None, True),
        (NESTED_CLAUDE_MD, "SRC/UI/*.TSX", None, False),
    ],
)
def test_scope_match_per_format(
    tree: Tree, rule: str, pattern: str, agent: str | None, matches: bool
) -> None:
    root = tree({rule: f'---\npaths: ["{pattern}"]\n---\nrule\n', "src/ui/Badge.tsx": ""})
    assert (rows(lint(root, agent), "scope-matches-nothing") == []) is matches


def test_a_claude_rule_matching_at_any_depth_is_not_dead_in_the_default_lint(tree: Tree) -> None:
    """Issue #29: `paths: "*.prisma"` in `.claude/rules` brings the rule for a nested schema.prisma in
    Claude Code (gitignore rules); the default profile's lint must not call it dead. A Cursor rule with
    the same glob keeps jitctx's own dialect, where `*` stays in the root folder, and is."""
    root = tree(
        {
            ".git/HEAD": "x\n",
            "internal-packages/database/prisma/schema.prisma": "",
            ".claude/rules/db.md": '---\npaths: "*.prisma"\n---\n# Prisma\n',
            ".cursor/rules/db.mdc": "---\nglobs: *.prisma\n---\n# Prisma\n",
        }
    )
    assert [f for f, _, _ in rows(lint(root, use_git=False), "scope-matches-nothing")] == [
        ".cursor/rules/db.mdc"
    ]


def test_scopes_use_git_listing_and_ignore_ignored_files(tree: Tree) -> None:
    root = tree(
        {
            ".gitignore": "dist/\n",
            ".claude/rules/dist.md": '---\npaths: ["dist/**"]\n---\nnever edit dist\n',
            "src/a.ts": "",
        }
    )
    git_init(root)
    (root / "dist").mkdir()
    (root / "dist" / "bundle.js").write_text("")
    report = lint(root)
    assert report.listing == "git"
    assert rows(report, "scope-matches-nothing") == [(".claude/rules/dist.md", 2, "scope-matches-nothing")]
    walked = lint(root, use_git=False)
    assert walked.listing == "walk"
    assert rows(walked, "scope-matches-nothing") == []


# -- duplicates ---------------------------------------------------------------------------------------

SHARED = "- Every handler validates its input with the shared schema module.\n"
SHARED2 = "- Errors are returned as JSON objects and never leak stack traces.\n"


def test_identical_unconditional_files(tree: Tree) -> None:
    root = tree(
        {"CLAUDE.md": "# Rules\n" + SHARED, "AGENTS.md": "# Rules\n\n" + SHARED, "GEMINI.md": "other\n"}
    )
    report = lint(root)
    assert rows(report, "duplicate-rule") == [
        ("AGENTS.md", 1, "duplicate-rule"),
        ("CLAUDE.md", 1, "duplicate-rule"),
    ]
    assert rows(report, "duplicate-text") == []  # not reported twice
    finding = next(f for f in report.findings if f.file == "AGENTS.md")
    assert finding.message == "same text as CLAUDE.md"
    assert [(r.file, r.line) for r in finding.related] == [("CLAUDE.md", 1)]


def test_repeated_lines_across_files_report_both_places(tree: Tree) -> None:
    root = tree(
        {
            "CLAUDE.md": "# Root\n\nIntro line that is only here and long enough.\n"
            + SHARED
            + "\n"
            + SHARED2,
            "src/api/AGENTS.md": "# API\n" + SHARED + SHARED2 + "- Only in the API file, also long enough.\n",
        }
    )
    found = [f for f in lint(root).findings if f.rule == "duplicate-text"]
    assert [(f.file, f.line, f.end_line) for f in found] == [("CLAUDE.md", 4, 6), ("src/api/AGENTS.md", 2, 3)]
    assert found[0].message == "these 2 lines also appear in src/api/AGENTS.md:2-3"
    assert found[1].message == "these 2 lines also appear in CLAUDE.md:4-6"


def test_short_lines_headings_code_and_conditional_rules_are_not_duplicates(tree: Tree) -> None:
    fence = "```\npnpm install --frozen-lockfile && pnpm build\n```\n"
    root = tree(
        {
            "CLAUDE.md": "## Commands\n- Build: `pnpm build`\n" + fence,
            "AGENTS.md": "## Commands\n- Build: `pnpm build`\n" + fence,
            "src/AGENTS.md": "## Commands\nother\n" + SHARED,
            ".claude/rules/api.md": '---\npaths: ["src/**"]\n---\n' + SHARED,
            "src/x.ts": "",
        }
    )
    report = lint(root)
    assert rows(report, "duplicate-text") == []
    assert rows(report, "duplicate-rule") == [
        ("AGENTS.md", 1, "duplicate-rule"),
        ("CLAUDE.md", 1, "duplicate-rule"),
    ]


# -- sizes, routes, config ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body_bytes", "rule"),
    [(899, None), (900, "near-limit"), (1000, "near-limit"), (1001, "over-limit")],
)
def test_size_against_limit(tree: Tree, body_bytes: int, rule: str | None) -> None:
    root = tree({".jitctx.toml": "max_bytes = 1000\n", "CLAUDE.md": "x" * body_bytes})
    found = [f.rule for f in lint(root).findings]
    assert found == ([rule] if rule else [])


def test_codex_limit_is_32_kib(tree: Tree) -> None:
    root = tree({"AGENTS.md": "x" * (32 * 1024 + 1)})
    assert rows(lint(root, "codex"), "over-limit") == [("AGENTS.md", 1, "over-limit")]
    assert rows(lint(root), "over-limit") == []  # 64 KiB for the default profile


def test_routes_and_unknown_keys(tree: Tree) -> None:
    config = (
        "jitContext = true\nmax_byte = 3\n\n"
        '[[routes]]\ntriggers = ["release", "tag"]\nfile = "docs/release.md"\n\n'
        '[[routes]]\ntriggers = ["ui"]\nfile = "docs/acceptance.md"\n\n'
        '[[routes]]\ntriggers = ["x"]\nfile = "docs"\n'
    )
    root = tree({".jitctx.toml": config, "docs/acceptance.md": "# Acceptance\n", "CLAUDE.md": "# Root\n"})
    report = lint(root)
    assert rows(report) == [
        (".jitctx.toml", 2, "config-unknown-key"),
        (".jitctx.toml", 6, "route-target-missing"),
        (".jitctx.toml", 14, "route-target-missing"),
    ]
    assert "(release, tag) to 'docs/release.md', which does not exist" in report.findings[1].message
    assert "is a folder" in report.findings[2].message
    assert report.failed()


def test_a_pin_that_names_no_file_is_an_error_at_its_line(tree: Tree) -> None:
    config = '[pin]\npaths = [\n  "docs/conventions.md",\n  "docs/gone.md",\n  "docs",\n]\n'
    root = tree({".jitctx.toml": config, "docs/conventions.md": "# Conventions\n", "CLAUDE.md": "# Root\n"})
    report = lint(root)
    assert rows(report) == [(".jitctx.toml", 4, "pin-missing"), (".jitctx.toml", 5, "pin-missing")]
    assert "'docs/gone.md', which does not exist" in report.findings[0].message
    assert "is a folder" in report.findings[1].message
    assert report.failed()


def test_routes_in_pyproject(tree: Tree) -> None:
    pyproject = (
        '[project]\nname = "x"\n\n[tool.jitctx]\nroutes = [{triggers = ["release"], file = "RELEASE.md"}]\n'
    )
    root = tree({"pyproject.toml": pyproject})
    assert rows(lint(root)) == [("pyproject.toml", 5, "route-target-missing")]


# -- imports ------------------------------------------------------------------------------------------


def test_at_tokens_that_are_not_paths(tree: Tree) -> None:
    text = "# UI\n\nUse @Component decorators; `@Injectable` is fine.\n\n@media queries live in theme.css.\n"
    root = tree({"CLAUDE.md": text})
    found = [f for f in lint(root).findings if f.rule == "import-not-a-path"]
    assert [(f.line, f.severity) for f in found] == [(3, Severity.WARNING), (5, Severity.WARNING)]
    assert found[0].fix == "wrap it in backticks (`@Component`) so it is not read as an import"
    assert not lint(root).failed()
    assert lint(root).failed(strict=True)


def test_broken_imports(tree: Tree) -> None:
    chain = {f"docs/d{i}.md": f"@d{i + 1}.md\n" for i in range(1, 7)}
    root = tree(
        {
            "CLAUDE.md": "---\n---\n# Root\nSee @docs/missing.md @docs/a.md\nDeep @docs/d1.md\nDir @docs/\n",
            "docs/a.md": "back to @b.md\n",
            "docs/b.md": "and @a.md\n",
            **chain,
            "docs/d7.md": "bottom\n",
        }
    )
    report = lint(root)
    assert [(f.file, f.line, f.rule) for f in report.findings if f.rule.startswith("import-")] == [
        ("CLAUDE.md", 4, "import-missing"),
        ("CLAUDE.md", 6, "import-unreadable"),
        ("docs/b.md", 1, "import-cycle"),
        ("docs/d5.md", 1, "import-too-deep"),
    ]
    assert report.failed()


def test_import_outside_the_project(tmp_path: Path, tree: Tree) -> None:
    (tmp_path / "shared.md").write_text("shared rules\n")
    root = tree({"CLAUDE.md": "@../shared.md\n"})
    finding = one(lint(root), "import-outside")
    assert finding.line == 1 and "allow_outside" in finding.fix
    # Only the user may allow it: a repository's own config cannot (see tests/test_user_config.py).
    ignored = tree({".jitctx.toml": "[imports]\nallow_outside = true\n"})
    assert rows(lint(ignored), "import-outside") == [("CLAUDE.md", 1, "import-outside")]
    user = tmp_path / "user.toml"
    user.write_text("[imports]\nallow_outside = true\n")
    assert rows(lint_project(Project(root, user_config=user)), "import-outside") == []


def test_codex_reads_no_imports_but_sees_shadowed_files(tree: Tree) -> None:
    root = tree(
        {"AGENTS.md": "@Component\n", "src/AGENTS.override.md": "# Override\n", "src/AGENTS.md": "# Never\n"}
    )
    report = lint(root, "codex")
    assert rows(report) == [("src/AGENTS.md", 1, "shadowed-file")]
    assert "codex reads src/AGENTS.override.md in this folder" in report.findings[0].message


def test_skipped_and_misencoded_files(tree: Tree) -> None:
    root = tree({"CLAUDE.md": b"\x00\x01binary", "AGENTS.md": b"caf\xe9 rules\n"})
    report = lint(root)
    assert rows(report) == [("AGENTS.md", 1, "file-warning"), ("CLAUDE.md", 1, "file-skipped")]
    assert "binary" in report.findings[1].message


# -- the example and the output formats ---------------------------------------------------------------


def test_example_monorepo(example_copy: Path) -> None:
    report = lint(example_copy)
    assert report.listing == "git"
    assert report.files_checked == 10  # 9 instruction files and docs/conventions.md, which CLAUDE.md imports
    assert [(f.file, f.line, f.rule, f.severity) for f in report.findings] == [
        (".claude/rules/api-handlers.md", 4, "scope-matches-nothing", Severity.WARNING),
    ]
    assert not report.failed()


def test_example_without_git_gives_the_same_findings(example_copy: Path) -> None:
    with_git = lint(example_copy)
    os.rename(example_copy / ".git", example_copy.parent / "moved-git")
    without = lint(example_copy)
    assert without.listing == "walk"
    assert without.findings == tuple(
        Finding(
            f.file, f.line, f.rule, f.severity, f.message.replace("listed by git", "listed by walk"), f.fix
        )
        for f in with_git.findings
    )


def test_sarif_structure(tree: Tree) -> None:
    root = tree(
        {
            "CLAUDE.md": "# Root\nUse @Component here.\n" + SHARED,
            "文档/AGENTS.md": "# 文档\n" + SHARED,
            ".claude/rules/ts.md": "---\npaths: **/*.ts\n---\nx\n",
        }
    )
    report = lint(root)
    document = to_sarif(report, tool_version="9.9.9")
    assert document["version"] == "2.1.0"
    assert document["$schema"].endswith("sarif-2.1.0.json")
    (run,) = document["runs"]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("jitctx", "9.9.9")
    rule_ids = [r["id"] for r in driver["rules"]]
    assert rule_ids == list(RULES)
    for rule in driver["rules"]:
        assert set(rule) >= {"id", "shortDescription", "fullDescription", "defaultConfiguration", "help"}
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    assert run["originalUriBaseIds"]["PROJECTROOT"]["uri"].startswith("file:///")
    assert run["originalUriBaseIds"]["PROJECTROOT"]["uri"].endswith("/")
    assert len(run["results"]) == len(report.findings) > 0
    for result, finding in zip(run["results"], report.findings, strict=True):
        assert result["ruleId"] == finding.rule
        assert rule_ids[result["ruleIndex"]] == finding.rule
        assert result["level"] == finding.severity.value
        assert result["message"]["text"].startswith(finding.message)
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uriBaseId"] == "PROJECTROOT"
        assert physical["region"]["startLine"] >= 1
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
    assert "%E6%96%87%E6%A1%A3/AGENTS.md" in uris  # non-ASCII paths are percent-encoded
    duplicate = next(r for r in run["results"] if r["ruleId"] == "duplicate-text")
    assert duplicate["relatedLocations"][0]["id"] == 1


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from("ab \n-#`xyz0123456789"), max_size=400).map(
            lambda t: t.replace("a", "a long repeated rule line that counts ")
        ),
        min_size=1,
        max_size=4,
    )
)
def test_duplicates_of_any_texts_point_at_real_lines(bodies: list[str]) -> None:
    texts = [Text(f"f{i}.md", body, first_line=3) for i, body in enumerate(bodies)]
    for found in duplicate_findings(texts):
        body = bodies[int(found.file[1:-3])]
        assert 3 <= found.line <= 3 + body.count("\n")
        assert found.end_line is None or found.line < found.end_line <= 3 + body.count("\n")
        assert found.related and all(r.file != found.file for r in found.related)
        assert found.rule in RULES


def test_a_plain_md_in_cursor_rules_is_flagged_as_never_read(tmp_path: Path) -> None:
    from jitctx.govern.lint import lint_project
    from jitctx.project import Project
    from tests.conftest import write_tree

    root = write_tree(
        tmp_path / "repo",
        {
            ".git/HEAD": "x\n",
            ".cursor/rules/ok.mdc": '---\nglobs: "*.ts"\n---\n# ok\n',
            ".cursor/rules/notes.md": "# never read by Cursor\n",
            "pkg/.cursor/rules/deep.md": "# nor here\n",
            ".claude/rules/fine.md": "# a Claude rule: .md is right here\n",
        },
    )
    report = lint_project(Project(root, managed_files=()), use_git=False)
    flagged = sorted(f.file for f in report.findings if f.rule == "rule-ignored")
    assert flagged == [".cursor/rules/notes.md", "pkg/.cursor/rules/deep.md"]
    # A warning that names the documentation it follows, for the reader to check against Cursor itself.
    found = next(f for f in report.findings if f.rule == "rule-ignored")
    assert found.severity is Severity.WARNING
    assert "cursor.com/docs/rules" in found.message and "must use the .mdc extension" in found.message


@pytest.mark.parametrize(("agent", "expected"), [("claude-code", [("src/ui/CLAUDE.md", 2)]), ("jitctx", [])])
def test_a_scope_claude_code_ignores_is_flagged_for_it(
    tree: Tree, agent: str, expected: list[tuple[str, int]]
) -> None:
    """Claude Code loads a nested CLAUDE.md on any touch of its folder whatever `paths:` says (the real
    client, tests/e2e); a scope in a rules folder is honoured, and jitctx's own profile honours both."""
    root = tree(
        {
            ".git/HEAD": "x\n",
            "src/ui/CLAUDE.md": '---\npaths: ["src/ui/**/*.tsx"]\n---\n# UI\n',
            "src/ui/a.tsx": "",
            ".claude/rules/ui.md": '---\npaths: ["src/ui/**/*.tsx"]\n---\n# UI rule\n',
        }
    )
    report = lint_project(Project(root, profile=agent), use_git=False)
    assert [(f.file, f.line) for f in report.findings if f.rule == "scope-ignored"] == expected
