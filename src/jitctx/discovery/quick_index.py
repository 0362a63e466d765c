"""The quick index of a session: what `jitctx.discovery.quick` needs to prove, without the engine, that
touching a path loads nothing (written by the session store beside each session state)."""

from __future__ import annotations

import os

from jitctx.config import CONFIG_FILES
from jitctx.discovery.quick import QUICK_VERSION, file_version
from jitctx.discovery.session import Session
from jitctx.discovery.state import ChannelState


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
    rules = []
    table = session.rule_table()
    for rule in table:
        entry = state.loaded.get(rule.candidate.path)
        # A loaded rule is compared with the version the session holds, as `_refresh` does; any other
        # with the version its scope was parsed from, so an edited scope sends the touch to the engine.
        held = (
            [entry.mtime_ns, entry.size]
            if entry is not None
            else file_version(rule.candidate.path) or [0, -1]
        )
        candidate = rule.candidate
        loaded = entry is not None
        pattern = rule.scope.regex
        rules.append([candidate.path, candidate.base, list(rule.prefixes), pattern, loaded, *held])
    return {
        "v": QUICK_VERSION,
        "root": project.root,
        "cwd": session.cwd,
        "jit": project.config.jit_context,
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
        # Which rules a path may match, looked up as the engine's index does: the others cannot match.
        "lookups": table.lookups(),
        "held_bytes": sum(entry.carried for entry in state.loaded.values()),
    }
