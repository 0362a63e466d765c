"""Counting a glob's matches narrows to its literal prefix, in the case its dialect compares."""

from __future__ import annotations

import pytest

from jitctx.govern.glob_counts import GlobCounter

PATHS = [
    "SRC/Main.ts",
    "src/a.ts",
    "src/b.py",
    "Src/ui/c.ts",
    "pkg/docs/x.md",
    "docs/y.md",
    "pkg/src/d.ts",
    "internal-packages/database/prisma/schema.prisma",
]


@pytest.mark.parametrize(
    ("glob", "dialect", "folder", "matches"),
    [
        # Claude Code's dialect: any case, `*.x` at any depth, `docs/**` any `docs` folder
        ("src/*.ts", "gitignore", "", 2),
        ("src/ui/*.ts", "gitignore", "", 1),
        ("SRC/**", "gitignore", "", 5),  # `SRC`: every `src` folder, pkg/src/ too
        ("*.prisma", "gitignore", "", 1),
        ("docs/**", "gitignore", "", 2),
        ("src/*.ts", "gitignore", "pkg/", 1),
        # jitctx's own: case counts, `*` in one folder
        ("src/*.ts", "bun", "", 1),
        ("*.prisma", "bun", "", 0),
        ("docs/**", "bun", "", 1),
        # Copilot's: a glob without `/` is the file name, at any depth; case counts
        ("*.ts", "copilot", "", 4),
        ("src/*.ts", "copilot", "", 1),
    ],
)
def test_count_per_dialect(glob: str, dialect: str, folder: str, matches: int) -> None:
    assert GlobCounter(PATHS).count(glob, dialect, folder).matches == matches
