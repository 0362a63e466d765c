"""Which agents read an instruction file, and so whether its `@imports` are expanded by anyone.

Only Claude Code and Gemini CLI expand `@path` in their instruction files; Codex, Cursor, Copilot and the
others pass the text through as written. Under the default profile, which reads every format, an
`@token` in an AGENTS.md read only by Codex is prose, and lint must not fail CI over it.
"""

from __future__ import annotations

import os

from jitctx.profiles import DEFAULT_PROFILE, PROFILES, Profile


def profile_reads(profile: Profile, display: str, root: str) -> bool:
    """Does `profile`'s agent read the project file at root-relative `display`?"""
    if any(_named(display, name) for name in (*profile.dir_files, *profile.local_files)):
        return True
    if display in profile.root_files:
        return True
    for folder in profile.rules_dirs:
        prefix = folder.path + "/"
        inside = display.startswith(prefix) or (folder.nested and f"/{prefix}" in display)
        if inside and display.endswith(folder.suffix):
            return True
    for name, unless in profile.fallback_files:
        if _named(display, name) and not _on_chain(root, display, unless):
            return True
    return False


def imports_expanded(profile: Profile, display: str, root: str) -> bool:
    """Are the `@imports` of this file expanded by an agent that reads it? Under an agent's own profile
    that is the profile's `imports`; under the default profile, whether Claude Code or Gemini CLI read it."""
    if profile.name != DEFAULT_PROFILE:
        return profile.imports
    return any(
        profile_reads(other, display, root)
        for other in PROFILES.values()
        if other.imports and other.name != DEFAULT_PROFILE
    )


def _named(display: str, name: str) -> bool:
    return display == name or display.endswith("/" + name)


def _on_chain(root: str, display: str, name: str) -> bool:
    """Is there a `name` file in any folder from the root down to the folder of `display`?"""
    parts = display.split("/")[:-1]
    return any(os.path.lexists(os.path.join(root, *parts[:depth], name)) for depth in range(len(parts) + 1))
