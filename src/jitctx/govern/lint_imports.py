"""Lint findings from `@imports`: the expansion of `jitctx.imports` run per file, its stops as findings.

This is the only place lint touches the imports module.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from jitctx.govern.findings import Finding, finding
from jitctx.imports import expand

# Import status -> lint rule. `ok` and `duplicate` are not problems and have no rule.
STATUS_RULES = {
    "missing": "import-missing",
    "not_a_path": "import-not-a-path",
    "cycle": "import-cycle",
    "too_deep": "import-too-deep",
    "outside": "import-outside",
    "too_many": "import-too-deep",
    "directory": "import-unreadable",
    "not_a_file": "import-unreadable",
    "binary": "import-unreadable",
    "too_large": "import-unreadable",
    "symlink_loop": "import-unreadable",
    "unreadable": "import-unreadable",
}

_FIXES = {
    "import-missing": "fix the path (relative to the importing file) or remove the import",
    "import-not-a-path": "wrap it in backticks (`@{token}`) so it is not read as an import",
    "import-cycle": "remove one of the imports that close the cycle",
    "import-too-deep": "flatten the chain: import the deep file from a shallower one",
    "import-outside": "move the file into the project, or set [imports] allow_outside = true in your user "
    "config (~/.config/jitctx/config.toml; a repository's .jitctx.toml cannot)",
    "import-unreadable": "point the import at a regular UTF-8 text file under 4 MiB",
}


@dataclass(frozen=True)
class ImportSource:
    """One file whose imports are checked: its real path, display path, body and body's first line."""

    path: str
    display: str
    text: str
    first_line: int


def import_findings(
    sources: Iterable[ImportSource],
    root: str,
    *,
    max_depth: int = 5,
    allow_outside: bool = False,
    home: str | None = None,
) -> list[Finding]:
    """Findings for every import stop reachable from `sources`, each reported once at the importing line."""
    found: dict[tuple[str, int, str, str], Finding] = {}
    for source in sources:
        if "@" not in source.text:
            continue
        expansion = expand(
            source.text,
            source.path,
            root=root,
            max_depth=max_depth,
            allow_outside=allow_outside,
            home=home,
            first_line=source.first_line,
        )
        for result in expansion.problems:
            rule = STATUS_RULES.get(result.status.value, "import-unreadable")
            token = result.token
            target = f" ({result.display})" if result.display and result.status.value != "missing" else ""
            message = f"@{token}{target}: {result.message}"
            item = finding(rule, result.parent, result.line, message, _FIXES[rule].format(token=token))
            found.setdefault((item.file, item.line, item.rule, token), item)
    return list(found.values())
