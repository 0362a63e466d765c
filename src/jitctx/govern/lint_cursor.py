"""Lint rules for Cursor's rule files, whose format differs from the YAML it looks like.

Cursor reads `.mdc` files from `.cursor/rules/` folders only, so a `.cursor/rules.mdc` file (a file where
the folder should be) or an `.mdc` file elsewhere under `.cursor/` is never read. And Cursor does not parse
`globs:` as YAML: it splits the raw value on commas, so `globs: ["src/**"]` is the pattern `["src/**"]`,
which matches nothing, while the unquoted `globs: src/**, lib/**` that YAML rejects is what Cursor wants.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from jitctx.govern.findings import Finding, finding
from jitctx.govern.source import SourceLayout
from jitctx.model import InstructionFile
from jitctx.profiles import Profile
from jitctx.scope_fix import CURSOR, in_cursor_format, raw_globs, scope_line

_RULES_FOLDER = ".cursor/rules/"
_KEY = re.compile(r"^globs[ \t]*:[ \t]*(.*)$")


def reads_cursor_rules(profile: Profile) -> bool:
    return any(folder.suffix == ".mdc" for folder in profile.rules_dirs)


def is_cursor_rule(file: InstructionFile) -> bool:
    return in_cursor_format(file.display, file.from_rules_dir)


def misplaced_rule_findings(paths: Iterable[str]) -> list[Finding]:
    """`.mdc` files under a `.cursor/` folder but outside its `rules/` folder (`docs/.cursor/rules.mdc`)."""
    found: list[Finding] = []
    for path in paths:
        if not path.endswith(".mdc"):
            continue
        parts = path.split("/")
        if ".cursor" not in parts[:-1]:
            continue
        at = len(parts) - 1 - parts[:-1][::-1].index(".cursor") - 1  # the last `.cursor` folder
        inside = parts[at + 1 : -1]
        if inside[:1] == ["rules"]:
            continue
        folder = "/".join(parts[: at + 1])
        if parts[-1] == "rules.mdc" and not inside:
            message = f"{folder}/rules.mdc is a file; Cursor reads rules from the folder {folder}/rules/"
            fix = f"move it to {folder}/rules/<name>.mdc"
        else:
            message = f"Cursor reads .mdc rules only from {folder}/rules/; this file is never read"
            fix = f"move it into {folder}/rules/"
        found.append(finding("rule-misplaced", path, 1, message, fix))
    return found


def cursor_glob_findings(file: InstructionFile, layout: SourceLayout) -> list[Finding]:
    """A `globs:` written as a YAML list, which Cursor reads as one literal pattern."""
    if not is_cursor_rule(file) or layout.frontmatter_end == 0:
        return []
    lines = layout.lines
    for index in range(1, layout.frontmatter_end - 1):
        match = _KEY.match(lines[index])
        if match is None:
            continue
        value = match.group(1).strip()
        following = lines[index + 1] if index + 1 < layout.frontmatter_end - 1 else ""
        block = not value and following.lstrip().startswith("- ")
        if not (value.startswith("[") or block):
            return []
        patterns = list(file.scope.patterns) if file.scope is not None else []
        patterns = patterns or raw_globs(lines, layout.frontmatter_end, "globs")
        plain = scope_line("globs", patterns, CURSOR) if patterns else "globs: src/**/*.ts, lib/**"
        return [
            finding(
                "cursor-globs-list",
                file.display,
                index + 1,
                "Cursor reads 'globs' as comma-separated text, not YAML: a list here is one literal "
                "pattern that matches no file in Cursor",
                f"write it unquoted: {plain}",
            )
        ]
    return []
