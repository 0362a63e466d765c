"""Bad instruction files: each gives a warning or skip naming the file, and the rest still loads."""

from __future__ import annotations

import builtins
import os
from pathlib import Path
from typing import Any

import pytest

from jitctx import reading as reader
from jitctx.discovery.session import Session
from jitctx.model import Startup
from jitctx.project import Project
from tests.conftest import write_tree


def start(root: Path) -> Startup:
    return Session(Project(root, managed_files=()), use_git=False).startup()


def displays(result: Startup) -> list[str]:
    return [x.file.display for x in result.loaded]


def why(result: Startup, path: str) -> str:
    return {s.path: s.why for s in result.skipped}[path]


def test_malformed_yaml_rule_is_not_injected_and_says_why(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "p", {"CLAUDE.md": "ok", ".claude/rules/bad.md": "---\npaths: [a, {b\n---\nBAD\n"}
    )
    result = start(root)
    assert displays(result) == ["CLAUDE.md"]
    assert "not valid YAML" in why(result, ".claude/rules/bad.md")


def test_unclosed_frontmatter_is_not_injected(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "p", {"CLAUDE.md": "---\npaths: ['x/**']\nbody\n", "AGENTS.md": "ok"})
    result = start(root)
    assert displays(result) == ["AGENTS.md"]
    assert "never closes" in why(result, "CLAUDE.md")


def test_bom_and_crlf_are_normalised(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "p",
        {".claude/rules/r.md": b'\xef\xbb\xbf---\r\npaths: ["src/**"]\r\n---\r\nRULE\r\nline two\r\n'},
    )
    file = Project(root).all_instruction_files()[0][0]
    assert file.scope is not None and file.scope.patterns == ("src/**",)
    assert file.text == "RULE\nline two\n"


def test_binary_file_named_claude_md_is_skipped(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "p", {"CLAUDE.md": b"\x89PNG\r\n\x1a\n\x00\x00", "AGENTS.md": "ok"})
    result = start(root)
    assert displays(result) == ["AGENTS.md"]
    assert "binary" in why(result, "CLAUDE.md")
    assert any(w.startswith("CLAUDE.md: binary") for w in result.warnings)


def test_huge_file_is_skipped_without_reading_it_all(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "p", {"CLAUDE.md": "x" * (10 * 1024 * 1024), "AGENTS.md": "ok"})
    result = start(root)
    assert displays(result) == ["AGENTS.md"]
    assert "over the 4 MiB limit" in why(result, "CLAUDE.md")


def test_unreadable_file_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests may run as root, where chmod 000 does not stop a read; fail the open instead.
    root = write_tree(tmp_path / "p", {"CLAUDE.md": "secret", "AGENTS.md": "ok"})
    real_open = builtins.open

    def guarded(file: Any, *args: Any, **kwargs: Any) -> Any:
        if str(file).endswith("CLAUDE.md"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(reader, "open", guarded, raising=False)
    result = start(root)
    assert displays(result) == ["AGENTS.md"]
    assert "permission denied" in why(result, "CLAUDE.md")


def test_symlink_loop_is_skipped(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "p", {"AGENTS.md": "ok"})
    os.symlink("CLAUDE.md", root / "CLAUDE.md")
    result = start(root)
    assert displays(result) == ["AGENTS.md"]
    assert "symlink loop" in why(result, "CLAUDE.md")


def test_non_utf8_bytes_load_with_a_warning(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "p", {"CLAUDE.md": b"caf\xe9 rules\n"})
    result = start(root)
    assert displays(result) == ["CLAUDE.md"]
    assert result.loaded[0].file.text == "caf\ufffd rules\n"
    assert any("not valid UTF-8" in w and "CLAUDE.md" in w for w in result.warnings)


def test_fifo_named_agents_md_does_not_hang(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "p", {"CLAUDE.md": "ok"})
    os.mkfifo(root / "AGENTS.md")
    result = start(root)
    assert displays(result) == ["CLAUDE.md"]
    assert "not a regular file" in why(result, "AGENTS.md")


def test_directory_named_like_a_candidate_is_ignored(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "p", {"CLAUDE.md/": "", "AGENTS.md": "ok"})
    result = start(root)
    assert displays(result) == ["AGENTS.md"]
    assert result.warnings == ()


def test_rules_folder_symlink_pointing_outside_is_not_read(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"evil.md": "EVIL_RULE_LEAKED"})
    root = write_tree(tmp_path / "p", {".claude/rules/ok.md": "fine"})
    os.symlink(outside / "evil.md", root / ".claude/rules/evil.md")
    result = start(root)
    assert displays(result) == [".claude/rules/ok.md"]
    assert all("EVIL_RULE_LEAKED" not in x.file.text for x in result.loaded)


def test_reader_never_raises_on_odd_bytes(tmp_path: Path) -> None:
    samples = [b"", b"---", b"---\n", b"---\n---", b"\xff\xfe\x00", b"---\n\x80\x81\n---\n", b"\r\r\r"]
    for index, data in enumerate(samples):
        path = tmp_path / f"f{index}.md"
        path.write_bytes(data)
        from jitctx.model import Tier
        from jitctx.profiles import get_profile

        outcome = reader.read_instruction(str(path), path.name, Tier.PROJECT, get_profile("jitctx"))
        assert outcome is not None
        assert (outcome.file is None) != (outcome.skip is None)
