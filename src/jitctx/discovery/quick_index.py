"""The quick index of a session: what `jitctx.discovery.quick` needs to prove, without the engine, that
touching a path loads nothing (written by the session store beside each session state)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from jitctx.config import CONFIG_FILES
from jitctx.discovery.quick import QUICK_VERSION, file_version
from jitctx.discovery.state import ChannelState

if TYPE_CHECKING:  # the session builds its index (`Session.quick_index`): it is the caller, not a part
    from jitctx.discovery.session import Session


def build_quick_index(
    session: Session, channel: str = "main", marks_folder: str | None = None
) -> dict[str, object]:
    """The index for `channel`, whose scanned directories' marks are stored in `marks_folder` (None: not
    stored, so the fast lane finds no directory scanned and always leaves the touch to the engine)."""
    state = session.channels.get(channel) or ChannelState()
    project = session.project

    rule_dirs: dict[str, list[int] | None] = {}
    bases = [(project.root, project.profile.rules_dirs)]
    if project.home is not None:
        bases.append((project.home, project.profile.user_rules_dirs))
    for base, folders in bases:
        for folder in folders:
            top = os.path.join(base, *folder.path.split("/"))
            rule_dirs[top] = file_version(top)
            if rule_dirs[top] is not None:
                for current, dirnames, _ in os.walk(top):
                    for name in dirnames:
                        rule_dirs[os.path.join(current, name)] = file_version(os.path.join(current, name))
    # Per rule: the version its scope was parsed from (compared on every touch: an edit may change the
    # scope), and for a loaded rule the version the session holds (compared when the touch matches it:
    # the engine then sends the edited text, as `resolve.refresh` does).
    rules = []
    table = session.rule_table()
    for rule in table:
        path, entry = rule.candidate.path, state.loaded.get(rule.candidate.path)
        held = [entry.mtime_ns, entry.size] if entry is not None else None
        rules.append([path, rule.candidate.base, rule.scope.regex, held, *_parsed(session, path)])
    # Rules-folder files with no scope (unconditional, or a description only) are in no table; one edited
    # in place to gain a scope must still send the touch to the engine.
    in_table = {rule.candidate.path for rule in table}
    unscoped = [
        [candidate.path, *_parsed(session, candidate.path)]
        for candidate in project.rule_candidates()
        if candidate.path not in in_table
    ]
    return {
        "v": QUICK_VERSION,
        "root": project.root,
        "cwd": session.cwd,
        "jit": project.config.jit_context,
        # Files left to the client and not confirmed yet: the engine checks the transcript for them.
        "owed": bool(state.expected),
        "config": {p: file_version(p) for p in (os.path.join(project.root, n) for n in CONFIG_FILES)},
        "rule_dirs": rule_dirs,
        # The scanned directories are looked up one by one in their marks; what the channel holds on
        # each (a nested CLAUDE.md, say) is compared too: an edit or a deletion is the engine's to send.
        "marks": marks_folder,
        "held": {
            directory: [[path, state.loaded[path].mtime_ns, state.loaded[path].size] for path in paths]
            for directory, paths in state.by_directory.items()
            if paths
        },
        "rules": rules,
        "unscoped": unscoped,
        # Held files of no chain directory (user files, rules): the engine drops one that is gone.
        "unfiled": [path for path, entry in state.loaded.items() if entry.directory is None],
        # Which rules a path may match, looked up as the engine's index does: the others cannot match.
        "lookups": table.lookups(),
        "held_bytes": sum(entry.carried for entry in state.loaded.values()),
    }


def _parsed(session: Session, path: str) -> list[int]:
    """The version of a rules-folder file that the session's table was built from: an edit made while
    the index was written still sends the next touch to the engine."""
    parsed = session.scope_cache.get(path)
    if isinstance(parsed, list) and len(parsed) >= 2:
        return [parsed[0], parsed[1]]
    return file_version(path) or [0, -1]
