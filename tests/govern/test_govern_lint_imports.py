"""`lint` and `@imports`: flagged only where an agent expands them; package names and `@/` are not imports."""

from __future__ import annotations

import pytest

from jitctx.govern.lint import lint_project
from jitctx.imports import extract
from jitctx.imports.extraction import is_import_candidate
from jitctx.project import Project
from tests.conftest import Tree

BROKEN = "See @docs/missing.md for details.\n"
CURSOR = "---\nalwaysApply: true\n---\n" + BROKEN


def import_rows(root: object, agent: str | None = None) -> list[tuple[str, str]]:
    report = lint_project(Project(str(root), profile=agent), use_git=False)
    return [(f.file, f.rule) for f in report.findings if f.rule.startswith("import-")]


@pytest.mark.parametrize(
    ("files", "agent", "expected"),
    [
        # Claude Code and Gemini CLI expand @imports in their own files.
        ({"CLAUDE.md": BROKEN}, None, [("CLAUDE.md", "import-missing")]),
        ({"GEMINI.md": BROKEN}, None, [("GEMINI.md", "import-missing")]),
        ({".claude/rules/a.md": BROKEN}, None, [(".claude/rules/a.md", "import-missing")]),
        ({"GEMINI.md": BROKEN}, "gemini", [("GEMINI.md", "import-missing")]),
        ({"CLAUDE.md": BROKEN}, "claude-code", [("CLAUDE.md", "import-missing")]),
        # Claude Code reads AGENTS.md only where no CLAUDE.md is on the chain; Qwen Code and Copilot CLI
        # read it beside a CLAUDE.md and expand its imports.
        ({"AGENTS.md": BROKEN}, None, [("AGENTS.md", "import-missing")]),
        ({"AGENTS.md": BROKEN, "CLAUDE.md": "# rules\n"}, "claude-code", []),
        ({"src/AGENTS.md": BROKEN, "CLAUDE.md": "# rules\n"}, "claude-code", []),
        ({"AGENTS.md": BROKEN, "CLAUDE.md": "# rules\n"}, None, [("AGENTS.md", "import-missing")]),
        ({"AGENTS.md": BROKEN, "CLAUDE.md": "# rules\n"}, "qwen-code", [("AGENTS.md", "import-missing")]),
        # Copilot CLI expands imports in .github/copilot-instructions.md.
        (
            {".github/copilot-instructions.md": BROKEN},
            None,
            [(".github/copilot-instructions.md", "import-missing")],
        ),
        # Codex, Cursor, the Copilot format and OpenCode pass `@` text through as written.
        ({"AGENTS.md": BROKEN}, "opencode", []),
        ({".cursor/rules/a.mdc": CURSOR}, None, []),
        ({"AGENTS.md": BROKEN}, "codex", []),
        ({"AGENTS.md": BROKEN}, "cursor", []),
        ({".github/copilot-instructions.md": BROKEN}, "copilot", []),
    ],
)
def test_imports_are_flagged_only_for_agents_that_expand_them(
    tree: Tree, files: dict[str, str], agent: str | None, expected: list[tuple[str, str]]
) -> None:
    assert import_rows(tree(files), agent) == expected


def test_package_names_and_the_at_slash_alias_are_not_imports(tree: Tree) -> None:
    text = (
        "Render with @vscode/prompt-tsx; test with @testing-library/react and @scope/pkg.\n"
        "Types: @types/node@20, styles from @mui/material/styles. Mocks live in @/mocks and\n"
        "components in @/components/Button. But @docs/gone.md is a real, broken import.\n"
    )
    root = tree({"CLAUDE.md": text})
    report = lint_project(Project(str(root)), use_git=False)
    found = [(f.rule, f.message) for f in report.findings if f.rule.startswith("import-")]
    assert len(found) == 1 and found[0][0] == "import-missing" and "@docs/gone.md" in found[0][1]
    assert not any("/mocks" in f.message for f in report.findings)


@pytest.mark.parametrize(
    ("path", "candidate"),
    [
        ("vscode/prompt-tsx", False),
        ("testing-library/react", False),
        ("scope/pkg", False),
        ("types/node@20", False),
        ("testing-library/jest-dom/vitest", False),
        ("/mocks", False),
        ("/components/Button", False),
        ("/components/Button.tsx", False),
        ("docs/guide.md", True),
        ("docs/API", True),  # not an npm name: upper case
        ("src/ui/", True),  # a folder: reported as such, not hidden
        ("NOTE.md", True),
        ("/abs/notes.md", True),
        ("/home/me/rules.md", True),
        ("/dev/zero", True),  # a real absolute path: still refused as outside, never read
        ("~/notes.md", True),
        ("Component", True),
    ],
)
def test_import_candidates(path: str, candidate: bool) -> None:
    assert is_import_candidate(path) is candidate
    assert bool(extract(f"see @{path} here\n")) is candidate
