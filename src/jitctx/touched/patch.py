"""The files a Codex `apply_patch` call writes, read from its patch headers (pure).

A patch is an envelope of file operations:

    *** Begin Patch
    *** Add File: src/new.py        -> reported
    *** Update File: src/app.py     -> reported
    *** Delete File: src/old.py     -> not reported, like `rm`: a deleted file's rules serve no later step
    *** Update File: src/a.py
    *** Move to: src/b.py           -> only src/b.py is reported, like `mv a b`
    *** End Patch

Headers count only at the start of a line: hunk lines begin with ` `, `+` or `-`, so file content that
happens to read like a header is never taken for one.
"""

from __future__ import annotations

import re

_ADD = "*** Add File: "
_UPDATE = "*** Update File: "
_DELETE = "*** Delete File: "
_MOVE = "*** Move to: "
# Codex also accepts a patch passed through its shell tool as a here-document:
#   bash -lc "apply_patch <<'EOF'\n*** Begin Patch ... EOF"  (optionally after `cd DIR &&`)
_SHELLS = frozenset({"bash", "sh", "zsh"})
_SHELL_HEREDOC = re.compile(
    r"\A\s*(?:cd\s+(?P<dir>[\w./-]+)\s*&&\s*)?apply_patch\s*<<-?\s*(?P<q>['\"]?)(?P<tag>\w+)(?P=q)\s*\n"
    r"(?P<body>.*?)\n\s*(?P=tag)\s*\Z",
    re.DOTALL,
)


def patch_targets(patch: str) -> tuple[str, ...]:
    """Paths the patch adds, updates or moves to, in order, without duplicates."""
    if not isinstance(patch, str):
        return ()
    found: list[str] = []
    updating = -1  # index in `found` of the file named by the last Update header, while it can move
    for raw in patch.splitlines():
        line = raw.rstrip()
        if line.startswith(_MOVE) and updating >= 0:
            # The updated file ends up at the new path; its old path no longer exists.
            found[updating] = line[len(_MOVE) :].strip()
            updating = -1
        elif line.startswith((_ADD, _UPDATE, _DELETE)):
            header, _, path = line.partition(": ")
            updating = -1
            if header + ": " != _DELETE:
                found.append(path.strip())
                updating = len(found) - 1 if header + ": " == _UPDATE else -1
    return tuple(dict.fromkeys(p for p in found if p))


def shell_patch_targets(argv_or_script: list[str] | str) -> tuple[str, ...] | None:
    """Targets when a shell call is really Codex's `apply_patch`; None when it is not one.

    Recognised: argv `["apply_patch", PATCH]`, and a script `apply_patch <<'EOF' ... EOF` (possibly after
    `cd DIR &&`, whose DIR is then joined onto the paths) given as a string or as `["bash", "-lc", SCRIPT]`.
    """
    if isinstance(argv_or_script, list):
        argv = argv_or_script
        if len(argv) == 2 and argv[0] in ("apply_patch", "applypatch"):
            return patch_targets(argv[1])
        if len(argv) == 3 and argv[0].rsplit("/", 1)[-1] in _SHELLS and argv[1] in ("-c", "-lc"):
            return shell_patch_targets(argv[2])
        return None
    match = _SHELL_HEREDOC.match(argv_or_script)
    if match is None:
        return None
    paths = patch_targets(match.group("body"))
    directory = match.group("dir")
    if not directory:
        return paths
    return tuple(p if p.startswith("/") else f"{directory.rstrip('/')}/{p}" for p in paths)
