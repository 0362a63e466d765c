"""`jitctx render`, `Session.after_compaction`, and the budget section of `explain`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.discovery.session import Session
from jitctx.project import Project
from tests.conftest import write_tree


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))


def render(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["render", *args, "--json"]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def test_text_render_after_touches(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    assert main(["render", "--root", str(example_copy), "--touch", "src/ui/Footer.tsx"]) == 0
    out = capsys.readouterr().out
    assert out.index("Instructions from: CLAUDE.md") < out.index("Instructions from: src/ui/CLAUDE.md")
    assert "No colour emoji" in out and "API rules" not in out


def test_anthropic_render_has_the_blocks(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    doc = render(capsys, "--root", str(example_copy), "--touch", "src/api/users.ts", "--format", "anthropic")
    texts = [block["text"] for block in doc["prompt"]["system"]]
    assert any("API rules" in text for text in texts)
    assert doc["budget"]["complete"] is True


def test_render_a_persisted_session(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    assert main(["touch", "--root", str(example_copy), "--session", "r1", "tools/gen.py"]) == 0
    capsys.readouterr()
    doc = render(capsys, "--root", str(example_copy), "--session", "r1")
    assert "Type hints on every function" in json.dumps(doc["prompt"])


def test_codex_budget_cuts_and_reports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "p",
        {".git/": "", "AGENTS.md": "root\n" * 4000, "src/AGENTS.md": "说明\n" * 9000, "src/a.ts": ""},
    )
    doc = render(capsys, "--root", str(root), "--agent", "codex", "--touch", "src/a.ts", "--no-git")
    budget = doc["budget"]
    assert budget["limit"] == 32768 and budget["counted_bytes"] <= 32768
    cut = [f for f in budget["files"] if f["status"] == "truncated"]
    assert [f["path"] for f in cut] == ["src/AGENTS.md"]
    assert cut[0]["bytes_kept"] + cut[0]["bytes_lost"] == cut[0]["bytes"]
    assert main(["explain", str(root / "src/a.ts"), "--agent", "codex", "--no-git"]) == 0
    out = capsys.readouterr().out
    assert "budget (root-first)" in out and "truncated" in out


def test_after_compaction_resends_what_the_host_drops(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "p", {"CLAUDE.md": "root", "AGENTS.md": "agents", "src/CLAUDE.md": "src", "src/a": ""}
    )
    generic = Session(Project(root, managed_files=()), use_git=False)
    generic.startup()
    generic.discover("src/a")
    assert [x.file.display for x in generic.after_compaction()] == ["CLAUDE.md", "AGENTS.md", "src/CLAUDE.md"]
    assert {x.reason.value for x in generic.after_compaction()} == {"compact"}
    claude = Session(Project(root, profile="claude-code", managed_files=()), use_git=False)
    claude.startup()
    claude.discover("src/a")
    # Claude Code reloads its start-up memory files itself; the nested one it dropped comes back.
    assert [x.file.display for x in claude.after_compaction()] == ["src/CLAUDE.md"]


def test_startup_files_are_the_static_zone(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    doc = render(capsys, "--root", str(example_copy), "--touch", "src/ui/Footer.tsx", "--format", "anthropic")
    system = doc["prompt"]["system"]
    assert system[0].get("cache_control") == {"type": "ephemeral"}
    assert "Instructions from: CLAUDE.md" in system[0]["text"] and "AGENTS.md" in system[0]["text"]
    assert all("cache_control" not in block for block in system[1:])
    assert any("src/ui/CLAUDE.md" in block["text"] for block in system[1:])
    assert main(["render", "--root", str(example_copy), "--touch", "src/ui/Footer.tsx"]) == 0
    text = capsys.readouterr().out
    boundary = text.index("jitctx:cache-boundary")
    assert text.index("from: CLAUDE.md") < boundary < text.index("Instructions from: src/ui/CLAUDE.md")


def test_an_import_shares_the_fate_of_its_importer_at_compaction(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {"CLAUDE.md": "see @docs/a.md\n", "docs/a.md": "A", "docs/b.md": "B"}
    root = write_tree(tmp_path / "p", {**files, "src/CLAUDE.md": "see @../docs/b.md\n", "src/x": ""})
    claude = Session(Project(root, profile="claude-code", managed_files=()), use_git=False)
    claude.startup()
    claude.discover("src/x")
    # CLAUDE.md is reloaded by Claude Code, so its import is too; the nested file and its import come back.
    assert [x.file.display for x in claude.after_compaction()] == ["src/CLAUDE.md", "docs/b.md"]
    everything = claude.after_compaction(host_reloads=lambda file: False)
    assert [x.file.display for x in everything] == ["CLAUDE.md", "docs/a.md", "src/CLAUDE.md", "docs/b.md"]
