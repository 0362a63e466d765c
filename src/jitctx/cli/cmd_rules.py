"""`jitctx rules`: every instruction file and rule of the project, and when each agent reads it."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from jitctx.cli.common import add_common, count, print_json, resolve_root_and_cwd, table
from jitctx.cli.routes import rule_routes
from jitctx.clients import all_clients
from jitctx.govern.repo_files import list_repo_files
from jitctx.govern.rules_table import example_touches, rules_table
from jitctx.profiles import PROFILES, get_profile

if TYPE_CHECKING:
    from jitctx.govern.glob_counts import GlobCount
    from jitctx.govern.rules_table import Reading, RuleRow, RulesTable

HELP = """\
One row per instruction file of the project (CLAUDE.md, AGENTS.md, GEMINI.md, .claude/rules,
.cursor/rules, .github/instructions, ...), each agent profile reading the tree the way its agent does:

  format   the rules folder of a rule, else the file name agents look for
  scope    always, the declared globs (each with the number of repository files it matches, the
           most for any agent that reads the file by it; 0 is a dead glob: it loads the rule for no
           one), manual (only when asked for by name) or unreadable (broken frontmatter: never loaded)
  bytes    the body: the text after the frontmatter, which is what an agent receives (--json also
           gives file_bytes, the size on disk)
  twins    other files whose body is the same text (after frontmatter; line ends and trailing
           whitespace do not count): an agent that holds one gains nothing from the other
  when     start (at session start), start in DIR (only when the session starts in DIR or below),
           on touch of GLOBS or DIR (when a tool call touches a matching path), never (and why);
           "(imported by FILE)" when the agent has it through an @import of a file it reads; for a
           live client, then who brings it with jitctx's hook (the client itself, jitctx, or nobody)
           at start, after a read and after a shell read of a file it applies to, as the hook decides
           it for such a session (--json: "hook", moment -> route)
  agents   the profiles that read the file at that moment

Without --agent every profile is shown; a row's agents are grouped by when they read it. Globs are
counted over the repository's files from 'git ls-files' (tracked, plus untracked files that are not
ignored; a tree walk without git), each in the glob dialect of its format, whichever agent reads it (a
`.claude/rules` `*.ts` matches at any depth, in any case, as Claude Code matches it): when an agent's
count differs from the scope column's its line says so. Only project files are listed: user and managed
files do not depend on the repository. Always exits 0;
`jitctx lint` is the check that fails on dead globs.

examples:
  jitctx rules
  jitctx rules --agent claude-code
  jitctx rules --root ~/src/app --json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_common(parser)


def run(args: argparse.Namespace) -> int:
    root, _ = resolve_root_and_cwd(args)
    # The client registry reaches the table only as profiles: the core names no client.
    profiles = [get_profile(args.agent)] if args.agent else list(PROFILES.values())
    repo = list_repo_files(root)

    hooked = frozenset(all_clients.names())  # agents with a jitctx hook: what it sends them is said
    # Who brings each file with the hook, as the hook decides it (`hook.decide`) for a previewed session
    # of each client: its start, then a read and a shell read of a file each rule applies to.
    examples = example_touches(root, repo.paths)
    routes = {
        p.name: rule_routes(all_clients.get(p.name), root, examples) for p in profiles if p.name in hooked
    }
    result = rules_table(root, profiles, repo.paths, repo.method, hooked, routes)
    if args.json:
        print_json(document(root, result))
        return 0
    print(human(result))
    summary(result)
    return 0


def document(root: str, result: RulesTable) -> dict[str, Any]:
    return {
        "root": root,
        "agents": list(result.agents),
        "files_counted": result.files_counted,
        "listed_by": result.listed_by,
        "rules": [_row_json(row) for row in result.rows],
        "skipped": [{"path": skip.path, "why": skip.why} for skip in result.skipped],
    }


def _row_json(row: RuleRow) -> dict[str, Any]:
    return {
        "path": row.path,
        "format": row.format,
        "scope": row.scope,
        "globs": [_glob_json(glob) for glob in row.globs],
        "dead_globs": list(row.dead_globs),
        "bytes": row.bytes,
        "file_bytes": row.file_bytes,
        "twins": list(row.twins),
        "agents": [
            {
                "agent": reading.agent,
                "when": reading.when,
                "on": list(reading.on),
                "note": reading.note or None,
                "globs": [_glob_json(glob) for glob in reading.globs],
                "hook": dict(reading.routes),
            }
            for reading in row.readings
        ],
    }


def _glob_json(glob: GlobCount) -> dict[str, Any]:
    return {"glob": glob.glob, "matches": glob.matches, "dead": glob.dead, "negated": glob.negated}


_ORDER = ("start", "touch", "never")


def human(result: RulesTable) -> str:
    rows: list[list[object]] = []
    for row in result.rows:
        groups: dict[str, list[str]] = {}
        for reading in sorted(row.readings, key=lambda r: _ORDER.index(r.when)):  # stable: agents in order
            groups.setdefault(_when(reading, row), []).append(reading.agent)
        for number, (when, agents) in enumerate(groups.items()):
            first = number == 0
            rows.append(
                [
                    row.path if first else "",
                    row.format if first else "",
                    _scope(row) if first else "",
                    f"{row.bytes:,}" if first else "",
                    ", ".join(row.twins) if first and row.twins else "-" if first else "",
                    when,
                    ", ".join(agents),
                ]
            )
    if not rows:
        return "no instruction files found"
    return table(["path", "format", "scope", "bytes", "twins", "when", "agents"], rows, right=(3,))


def _scope(row: RuleRow) -> str:
    if row.scope != "globs":
        return row.scope
    return ", ".join(f"{g.glob} ({g.matches}{', dead' if g.dead else ''})" for g in row.globs)


def _when(reading: Reading, row: RuleRow) -> str:
    text = reading.describe()
    if reading.globs and [g.matches for g in reading.globs] != [g.matches for g in row.globs]:
        text += f" (matches {', '.join(str(g.matches) for g in reading.globs)})"
    return text


def summary(result: RulesTable) -> None:
    """What a reader should act on, for people, on stderr."""
    dead = [(row.path, glob) for row in result.rows for glob in row.dead_globs]
    twinned = sum(1 for row in result.rows if row.twins)
    parts = [count(len(result.rows), "instruction file")]
    if twinned:
        parts.append(f"{twinned} with twins")
    print(f"jitctx: {', '.join(parts)}; globs counted over {count(result.files_counted, 'file')} "
          f"(listed by {result.listed_by})", file=sys.stderr)  # fmt: skip
    for path, glob in dead:
        print(f"jitctx: dead glob: {path}: '{glob}' matches no file of the repository", file=sys.stderr)
    for skip in result.skipped:
        print(f"jitctx: skipped {skip.path}: {skip.why}", file=sys.stderr)
