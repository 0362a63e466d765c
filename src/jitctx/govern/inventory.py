"""The files governance answers for, listed once: `lint` checks them and `provenance` locks them.

Every file whose bytes can reach an agent: the instruction files, the project files they `@import`,
Agent Skills (`SKILL.md`) and the instruction-named documents in their folders (`web/.agents/skills/x/
AGENTS.md`, read with the skill), and instruction files skipped as unreadable (binary, too large), whose
replacement by something readable would change what agents get. Both commands take this one list, so
their counts agree.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from jitctx.govern.repo_files import list_repo_files
from jitctx.govern.skills import Skill, SkillDocument, find_skills, skill_documents
from jitctx.imports import expand
from jitctx.model import InstructionFile, Skip, Tier
from jitctx.project import Project


@dataclass(frozen=True)
class Inventory:
    files: tuple[InstructionFile, ...]  # instruction files, as read
    skips: tuple[Skip, ...]  # instruction files not read, and why
    imported: tuple[InstructionFile, ...]  # project files reached by @imports (path and display only)
    skipped: tuple[InstructionFile, ...]  # skipped files still on disk (path and display only)
    skills: tuple[Skill, ...] = ()
    skill_files: tuple[InstructionFile, ...] = ()  # the skills' SKILL.md (path and display only)
    skill_documents: tuple[SkillDocument, ...] = ()  # instruction-named files in skills' folders
    document_files: tuple[InstructionFile, ...] = ()  # those documents (path and display only)

    @property
    def sources(self) -> tuple[InstructionFile, ...]:
        """Every governed file, each once: instruction files, imported files, skills and their
        documents, skipped files."""
        return (*self.files, *self.imported, *self.skill_files, *self.document_files, *self.skipped)

    def describe(self) -> str:
        """`10 files (9 instruction files, 1 imported)`, for people."""
        parts = [_count(len(self.files), "instruction file")]
        if self.imported:
            parts.append(f"{len(self.imported)} imported")
        if self.skill_files:
            parts.append(_count(len(self.skill_files), "skill"))
        if self.document_files:
            parts.append(_count(len(self.document_files), "skill document"))
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        total = len(self.sources)
        if len(parts) == 1:
            return parts[0]
        return f"{_count(total, 'file')} ({', '.join(parts)})"


def take_inventory(project: Project, repo_paths: Iterable[str] | None = None) -> Inventory:
    """The governed files of `project`; `repo_paths` (root-relative) is where skills are looked for
    (default: the repository's files, from git or a walk)."""
    if repo_paths is None:
        repo_paths = list_repo_files(project.root).paths

    files, skips = project.all_instruction_files()
    seen = {file.path for file in files}
    imported: list[InstructionFile] = []
    for file in files:
        if "@" not in file.text:
            continue
        expansion = expand(
            file.text, file.path, root=project.root, max_depth=project.config.import_depth,
            allow_outside=False, first_line=file.body_line, display=project.display,
        )  # fmt: skip
        for result in expansion.included:
            if result.path is not None and result.path not in seen:
                seen.add(result.path)
                imported.append(_stub(result.path, result.display or result.path))
    skipped: list[InstructionFile] = []
    for skip in skips:
        path = os.path.join(project.root, *skip.path.split("/"))
        if os.path.isfile(path) and path not in seen:
            seen.add(path)
            skipped.append(_stub(path, skip.path))
    repo_paths = list(repo_paths)
    skills = find_skills(project.root, repo_paths, project.profile.name)
    skill_files: list[InstructionFile] = []
    for skill in skills:
        path = os.path.join(project.root, *skill.path.split("/"))
        if path not in seen:
            seen.add(path)
            skill_files.append(_stub(path, skill.path))
    documents = tuple(
        document
        for document in skill_documents(repo_paths, project.profile)
        if os.path.isfile(os.path.join(project.root, *document.path.split("/")))
    )
    document_files: list[InstructionFile] = []
    for document in documents:
        path = os.path.join(project.root, *document.path.split("/"))
        if path not in seen:
            seen.add(path)
            document_files.append(_stub(path, document.path))
    return Inventory(
        tuple(files), tuple(skips), tuple(imported), tuple(skipped), skills, tuple(skill_files),
        documents, tuple(document_files),
    )  # fmt: skip


def _stub(path: str, display: str) -> InstructionFile:
    return InstructionFile(path=path, display=display, tier=Tier.PROJECT, text="", size=0, mtime_ns=0)


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"
