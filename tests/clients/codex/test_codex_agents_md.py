"""Which files one AGENTS.md text of Codex's was made of: exactly, or none. The texts are those Codex
0.171.0 recorded for these trees (its `world_state`'s `agents_md.text`)."""

from __future__ import annotations

from pathlib import Path

from jitctx.clients.codex.agents_md import CodexFiles
from jitctx.clients.codex.config import OWN_NAMES
from tests.clients.codex.rollout_records import write_project

# Started in a/b of a repo whose root AGENTS.md holds only blanks, a/'s has leading blank lines and CRLF
# line ends, a/b/ has an override beside its AGENTS.md, and a file above the repo: 0.171.0 recorded this.
TREE = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "AGENTS.md": "  \n\n",
    "a/AGENTS.md": "\n\nA-MARK lead blank\r\nline2\r\n",
    "a/b/AGENTS.md": "B-PLAIN\n",
    "a/b/AGENTS.override.md": "B-OVERRIDE no newline",
}
RECORDED = "\n\nA-MARK lead blank\r\nline2\r\n\n\nB-OVERRIDE no newline"
USER = "USER-MARK global.\n"  # Codex strips it: "USER-MARK global.\n\n--- project-doc ---\n\n..."


def tree(tmp_path: Path) -> Path:
    root = write_project(tmp_path / "repo", TREE)
    (tmp_path / "AGENTS.md").write_text("ABOVE-ROOT\n", newline="")
    for rel, text in TREE.items():
        (root / rel).write_text(text, newline="")
    return root


def test_the_files_are_found_as_codex_joined_them(tmp_path: Path) -> None:
    root = tree(tmp_path)
    found = CodexFiles(OWN_NAMES).project_files(RECORDED, str(root / "a/b"))
    assert [path for path, _ in found] == [str(root / "a/AGENTS.md"), str(root / "a/b/AGENTS.override.md")]
    assert [text for _, text in found] == [TREE["a/AGENTS.md"], TREE["a/b/AGENTS.override.md"]]


def test_with_the_users_own_file_before_the_projects(tmp_path: Path) -> None:
    root = tree(tmp_path)
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "AGENTS.md").write_text(USER)
    text = f"{USER.strip()}\n\n--- project-doc ---\n\n{RECORDED}"
    files = CodexFiles(OWN_NAMES)
    assert len(files.project_files(text, str(root / "a/b"))) == 2
    assert files.user_file(text, str(home)) == (str(home / "AGENTS.md"), USER)
    assert files.user_file(RECORDED, str(home)) is None


def test_a_file_changed_since_or_cut_holds_nothing(tmp_path: Path) -> None:
    """Exactly or not at all: a line removed from the override (what is left is still in the text), a
    text Codex cut at its budget, another name than Codex's, a directory elsewhere."""
    root = tree(tmp_path)
    assert CodexFiles(OWN_NAMES).project_files(RECORDED[:-3], str(root / "a/b")) == ()
    assert CodexFiles(OWN_NAMES).project_files(RECORDED, str(root / "a")) == ()
    assert CodexFiles(("AGENTS.md",)).project_files(RECORDED, str(root / "a/b")) == ()
    (root / "a/b/AGENTS.override.md").write_text("B-OVERRIDE", newline="")
    assert CodexFiles(OWN_NAMES).project_files(RECORDED, str(root / "a/b")) == ()
    assert CodexFiles(OWN_NAMES).project_files(RECORDED, str(tmp_path / "missing")) == ()


def test_a_fallback_name_from_the_config(tmp_path: Path) -> None:
    root = write_project(tmp_path / "repo", {".git/HEAD": "x\n", "CLAUDE.md": "claude rules\n"})
    assert CodexFiles(OWN_NAMES).project_files("claude rules\n", str(root)) == ()
    found = CodexFiles((*OWN_NAMES, "CLAUDE.md")).project_files("claude rules\n", str(root))
    assert found == ((str(root / "CLAUDE.md"), "claude rules\n"),)
