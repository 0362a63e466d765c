"""Which files one AGENTS.md text of Codex's was made of, found exactly.

Codex 0.171.0 builds the text it loads for a directory (`rollout`: a `world_state`'s `agents_md`, an
instructions message) from the user's own file (blanks around it stripped), `\\n\\n--- project-doc
---\\n\\n`, then the project's files: in each directory from its project root down to that directory,
the first of its names that exists (AGENTS.override.md, AGENTS.md, then `project_doc_fallback_filenames`),
read whole as it is on disk (no line end or blank changed), left out when it holds only blanks, joined by
a blank line. The text holds a file only when the files of a run of those directories, as they are now,
make it up exactly, from its start to its end: a file changed since (a line removed too), a file cut at
`project_doc_max_bytes`, names other than those given — then no file is found, and jitctx sends what it
would have sent.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from jitctx.clients.codex.rollout import PROJECT_DOC_SEPARATOR
from jitctx.clients.kit.evidence_paths import PathResolver
from jitctx.frontmatter import split_frontmatter
from jitctx.safe_open import open_regular
from jitctx.text import decode_markdown

MAX_LEVELS = 64  # directories above the one the text is for, as deep as a checkout goes
READ_BUDGET = 32 * 1024 * 1024  # bytes read per reading, whatever the records claim
USER_BLANKS = 64 * 1024  # blanks around the user's own file that Codex strips, at most


def as_sent(raw: str) -> str:
    """A file's text as jitctx holds and sends it (the Markdown read, frontmatter left out, stripped)."""
    return split_frontmatter(decode_markdown(raw.encode("utf-8", "surrogatepass"))[0]).body.strip()


class CodexFiles:
    """The files Codex's AGENTS.md texts were made of; one per reading (its files are read once)."""

    def __init__(self, names: Sequence[str], paths: PathResolver | None = None) -> None:
        self.names = tuple(names)
        self.paths = paths or PathResolver()
        self._texts: dict[str, str | None] = {}
        self._left = READ_BUDGET

    def project_files(self, text: str, directory: str) -> tuple[tuple[str, str], ...]:
        """(real path, text) of the project's files that make up `text`'s project part exactly, root
        first; () when no run of them does."""
        docs = text.partition(PROJECT_DOC_SEPARATOR)[2] if PROJECT_DOC_SEPARATOR in text else text
        chain = self._chain(directory, len(docs))
        for start in range(len(chain)):
            files = chain[start:]
            if sum(len(raw) for _, raw in files) + 2 * (len(files) - 1) == len(docs) and docs == "\n\n".join(
                raw for _, raw in files
            ):
                return tuple(files)
        return ()

    def user_file(self, text: str, folder: str) -> tuple[str, str] | None:
        """(real path, text) of the user's own file (in Codex's home `folder`) when it is `text`'s first
        part (Codex strips the blanks around that one)."""
        own = text.partition(PROJECT_DOC_SEPARATOR)[0]
        found = self._first(folder, ("AGENTS.override.md", "AGENTS.md"), len(own) + USER_BLANKS)
        return found if found is not None and found[1].strip() == own else None

    def candidates(self, directory: str) -> list[str]:
        """The real path of each directory's file Codex would take, from `directory` up (not read)."""
        real = self.paths.real(directory)
        found = []
        for folder in self._folders(real) if real is not None else ():
            name = next((n for n in self.names if os.path.lexists(os.path.join(folder, n))), None)
            path = self.paths.real(os.path.join(folder, name)) if name is not None else None
            if path is not None:
                found.append(path)
        return found

    def _folders(self, real: str) -> list[str]:
        folders = [real]
        while folders[-1] != "/" and len(folders) <= MAX_LEVELS:
            folders.append(os.path.dirname(folders[-1]))
        return folders

    def _chain(self, directory: str, limit: int) -> list[tuple[str, str]]:
        """(real path, text) of each directory's file from the top down to `directory` (texts longer than
        `limit` left out: they cannot be in the text)."""
        real = self.paths.real(directory)
        if real is None:
            return []
        found = [self._first(folder, self.names, limit) for folder in reversed(self._folders(real))]
        return [file for file in found if file is not None and file[1].strip()]

    def _first(self, folder: str, names: Sequence[str], limit: int) -> tuple[str, str] | None:
        """The first of `names` that exists in `folder` (Codex takes that one, if empty too), read."""
        for name in names:
            path = os.path.join(folder, name)
            if not os.path.lexists(path):
                continue
            real = self.paths.real(path)
            text = self._read(real, limit) if real is not None else None
            return (real, text) if real is not None and text is not None else None
        return None

    def _read(self, path: str, limit: int) -> str | None:
        """A regular file's text (UTF-8, bad bytes replaced, as Codex reads it); None when it is longer
        than `limit` characters, past the reading's budget, or unreadable."""
        if path not in self._texts:
            try:
                fd = open_regular(path)
            except (OSError, ValueError):
                self._texts[path] = None
                return None
            try:
                size = os.fstat(fd).st_size
                if size > 4 * limit + 4 or size > self._left:  # a character is at most 4 bytes
                    return None  # too long for this text: not read, nor remembered
                self._left -= size
                self._texts[path] = os.read(fd, size + 1).decode("utf-8", "replace")
            except OSError:
                self._texts[path] = None
            finally:
                os.close(fd)
        text = self._texts[path]
        return text if text is not None and len(text) <= limit else None
