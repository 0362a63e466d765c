"""What a Codex rollout shows reached the model since its last compaction (`rollout` reads the records):
read before jitctx sends a file, so that a file already there is not sent a second time — one Codex
loaded itself where jitctx's picture of it was wrong (a session whose state was lost, met again at a
tool call in another directory), or one an earlier answer of jitctx's brought whose session state was
never saved.

* Codex's own loads: the AGENTS.md text of a `world_state` record or an instructions message, for the
  directory Codex loaded it for. A file counts as loaded when the files of that directory and those
  above it, as they are now, make up the text's project part exactly (`agents_md`; Codex's names from
  the config.toml of the home the rollout lies in).
* jitctx's answers: a hook's context (Codex does not say which hook gave it) counts when it is, from its
  start, a run of jitctx's blocks each holding its file's present text whole (`answer_blocks.blocks_in`: a
  file changed since before the hook ran proves nothing), then the end or jitctx's notes. A hook that
  prints that has put those very texts before the model. When the hook ran, the record does not say:
  it ended before the record's time, and Codex stops a hook after its timeout (`dialect.TIMEOUT_S`).

The rollout is written as the thread goes (0.171.0 had the start's records on disk before SessionStart's
hook ran), so what the current call brings is not in it yet: this evidence is about earlier events.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from jitctx.clients.codex.agents_md import CodexFiles, as_sent
from jitctx.clients.codex.config import OWN_NAMES, project_doc_names, read_config
from jitctx.clients.codex.dialect import TIMEOUT_S
from jitctx.clients.codex.rollout import codex_home_of, last_compaction, read_tail, sightings
from jitctx.clients.kit.answer_blocks import (
    MAX_FILE_BYTES,
    Answer,
    Block,
    FileTexts,
    blocks_in,
    root_of,
    roots_for,
)
from jitctx.clients.kit.evidence_paths import PathResolver

TAIL_BYTES = 4 * 1024 * 1024
# The earliest a hook whose context was recorded at T can have started: its timeout, and a second more.
HOOK_WINDOW_NS = (TIMEOUT_S + 1) * 1_000_000_000
# Bytes of files read to prove the blocks of one reading: contexts naming hundreds of large files would
# otherwise cost seconds (a block past it proves nothing, and its file goes out again).
READ_BUDGET = 32 * 1024 * 1024


class _BudgetedTexts(FileTexts):
    """`FileTexts` that reads no more than READ_BUDGET bytes of new files in all."""

    def __init__(self) -> None:
        super().__init__()
        self._left = READ_BUDGET
        self._counted: set[str] = set()

    def text(self, path: str, unchanged_since: int) -> str | None:
        if path not in self._counted:
            try:
                size = min(os.stat(path).st_size, MAX_FILE_BYTES + 1)  # what a read of it costs at most
            except (OSError, ValueError):
                size = 0
            if size > self._left:
                return None
            self._left -= size
            self._counted.add(path)
        return super().text(path, unchanged_since)


@dataclass
class Delivered:
    """What reached the model since the last compaction: the files Codex loaded itself (real path ->
    the text it loaded, which is the file as it is now), and the hook contexts that may be jitctx's
    answers."""

    loaded: dict[str, str] = field(default_factory=dict)
    answers: list[Answer] = field(default_factory=list)
    # Codex follows no call with loads of its own, so nothing is owed to it (`TranscriptCheck.overdue`).
    settled: set[str] = field(default_factory=set)
    paths: PathResolver = field(default_factory=PathResolver)
    _files: FileTexts = field(default_factory=_BudgetedTexts)
    _blocks: dict[str | None, frozenset[Block]] = field(default_factory=dict)

    def shows_changes(self, path: str) -> bool:
        """Codex shows no file changing on disk: a new version is jitctx's to send."""
        return False

    def holds(self, path: str, display: str, text: str) -> bool:
        """Is this very version of the file (`text`) in the conversation already, from Codex's own load
        or an answer of jitctx's?"""
        body = text.strip()
        real = self.paths.real(path)
        if not body or real is None:
            return False
        raw = self.loaded.get(real)
        if raw is not None and as_sent(raw) == body:
            return True
        return Block(display, real, body) in self.jitctx_blocks(root_of(path, display))

    def jitctx_blocks(self, root: str | None) -> frozenset[Block]:
        """The blocks provably in the answers, their relative paths read against `root` first."""
        if root not in self._blocks:
            found: set[Block] = set()
            for answer in dict.fromkeys(self.answers):
                found.update(blocks_in(answer, roots_for(answer, root, self.paths), self.paths, self._files))
            self._blocks[root] = frozenset(found)
        return self._blocks[root]


def delivered(transcript: object) -> Delivered | None:
    """The rollout's evidence since its last compaction; None when there is no rollout to read."""
    read = read_tail(transcript, TAIL_BYTES)
    if read is None:
        return None
    data = read[0]
    seen = Delivered()
    files = CodexFiles(_names(codex_home_of(transcript)), seen.paths)
    for sighting in sightings(data[last_compaction(data) :]):
        if sighting.kind == "loaded" and sighting.directory is not None:
            seen.loaded.update(files.project_files(sighting.text, sighting.directory))
        elif sighting.kind == "context" and sighting.at is not None:
            seen.answers.append(Answer(sighting.text, sighting.directory, sighting.at - HOOK_WINDOW_NS))
    return seen


def _names(codex_home: str | None) -> tuple[str, ...]:
    """The names Codex tries per directory, as the config.toml of its home says."""
    if codex_home is None:
        return OWN_NAMES
    return project_doc_names(read_config(os.path.join(codex_home, "config.toml")))
