"""Session.on_tool_call: the registry feeds discovery; unknown tools touch nothing."""

from __future__ import annotations

from pathlib import Path

from jitctx.discovery.session import Session
from jitctx.project import Project
from tests.conftest import write_tree


def make(tmp_path: Path) -> Session:
    root = write_tree(
        tmp_path / "proj",
        {
            "src/ui/CLAUDE.md": "UI",
            "src/api/AGENTS.md": "API",
            "src/ui/Footer.tsx": "",
            ".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\nPY\n',
        },
    )
    return Session(Project(root, managed_files=()), use_git=False)


def loaded(session: Session, tool: str, tool_input: dict[str, object]) -> list[str]:
    return [load.file.display for load in session.on_tool_call(tool, tool_input).loaded]


def test_read_and_write_both_discover(tmp_path: Path) -> None:
    session = make(tmp_path)
    assert loaded(session, "Read", {"file_path": "src/ui/Footer.tsx"}) == ["src/ui/CLAUDE.md"]
    assert loaded(session, "Write", {"file_path": "src/api/new.ts", "content": "x"}) == ["src/api/AGENTS.md"]


def test_bash_write_target_discovers_but_rm_does_not(tmp_path: Path) -> None:
    session = make(tmp_path)
    assert loaded(session, "Bash", {"command": "rm src/api/old.ts"}) == []
    assert loaded(session, "Bash", {"command": "echo x > tools/gen.py && touch src/api/a.ts"}) == [
        ".claude/rules/py.md",
        "src/api/AGENTS.md",
    ]


def test_glob_prefix_and_grep_path(tmp_path: Path) -> None:
    session = make(tmp_path)
    assert loaded(session, "Glob", {"pattern": "src/ui/**/*.tsx"}) == ["src/ui/CLAUDE.md"]
    assert loaded(session, "Grep", {"pattern": "src/api/.*", "path": "."}) == []


def test_unknown_tool_touches_nothing(tmp_path: Path) -> None:
    step = make(tmp_path).on_tool_call("WebFetch", {"url": "src/ui/Footer.tsx", "path": "src/ui"})
    assert step.hit is False and step.loaded == ()
    assert step.note is not None and "touched no path" in step.note
