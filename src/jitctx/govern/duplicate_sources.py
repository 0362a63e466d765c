"""The texts `lint` compares for duplicates, each with where and by whom it is loaded.

A file's text is taken as its agents get it: imports expanded where an agent that reads it expands them,
and each imported file compared as a text of its own (so a line repeated between two imported files is
found, and reported where it is written). A file's home is the folder whose sessions load it: its own
folder, or for a file under a tool folder (`pkg/.claude/rules/x.md`) the folder holding that.
"""

from __future__ import annotations

from collections.abc import Sequence

from jitctx.govern.duplicates import Text
from jitctx.govern.readers import imports_expanded, profile_reads
from jitctx.govern.source import SourceLayout
from jitctx.imports import expand
from jitctx.model import InstructionFile
from jitctx.profiles import DEFAULT_PROFILE, PROFILES
from jitctx.project import Project


def duplicate_texts(project: Project, files: Sequence[tuple[InstructionFile, SourceLayout]]) -> list[Text]:
    """The unconditional files of `files`, then the project files they import, one text per path."""
    texts: dict[str, Text] = {}
    imported: list[Text] = []
    for file, layout in files:
        if file.conditional:
            continue
        readers = _readers(project, file.display)
        homes = (home_of(file.display),)
        expanded = None
        if "@" in file.text and imports_expanded(project.profile, file.display, project.root):
            expansion = expand(
                file.text, file.path, root=project.root, max_depth=project.config.import_depth,
                allow_outside=False, first_line=layout.body_line, display=project.display,
            )  # fmt: skip
            if expansion.included:
                expanded = expansion.expanded_text()
            importers = frozenset(r for r in readers if _expands(project, r))
            imported.extend(
                Text(result.display, result.text, 1, None, homes, importers)
                for result in expansion.included
                if result.display and result.text is not None and not result.display.startswith("/")
            )
        texts[file.display] = Text(file.display, file.text, layout.body_line, expanded, homes, readers)
    for text in imported:
        known = texts.get(text.display)
        if known is None:
            texts[text.display] = text
            continue
        merged = tuple(dict.fromkeys((*known.homes, *text.homes)))
        texts[text.display] = Text(
            known.display, known.body, known.first_line, known.expanded, merged, known.readers | text.readers
        )
    return list(texts.values())


def home_of(display: str) -> str:
    """`pkg/CLAUDE.md` -> `pkg`; `pkg/.claude/rules/a/b.md` -> `pkg`; `CLAUDE.md` -> `` (the root)."""
    parts = display.split("/")[:-1]
    hidden = next((i for i, part in enumerate(parts) if part.startswith(".")), len(parts))
    return "/".join(parts[:hidden])


def _readers(project: Project, display: str) -> frozenset[str]:
    """The agents that load the file: the one asked for, or under the default profile each agent whose
    profile reads it (the default's own name when none does)."""
    if project.profile.name != DEFAULT_PROFILE:
        return frozenset({project.profile.name})
    names = frozenset(
        p.name
        for p in PROFILES.values()
        if p.name != DEFAULT_PROFILE and profile_reads(p, display, project.root)
    )
    return names or frozenset({DEFAULT_PROFILE})


def _expands(project: Project, reader: str) -> bool:
    if reader == project.profile.name or reader == DEFAULT_PROFILE:
        return project.profile.imports
    return PROFILES[reader].imports
