"""`jitctx lint`: broken imports, bad globs, dead scopes, duplicates, oversized files, missing routes."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from jitctx import __version__
from jitctx.cli.common import (
    add_common,
    count,
    open_project,
    print_json,
    refuse_folder_of_projects,
    table,
    warn,
)
from jitctx.govern.findings import Severity
from jitctx.govern.lint import lint_project
from jitctx.govern.sarif import to_sarif

if TYPE_CHECKING:
    from jitctx.govern.findings import Finding

HELP = """\
Each finding names the file and line, a rule id, a severity, what is wrong and how to fix it.

rules (severity):
  import-missing (error)          @path names a file that does not exist
  import-unreadable (error)       @path names a folder, binary, oversized or unreadable file
  import-not-a-path (warning)     @Component, @media: not a path; wrap it in backticks
  import-outside, import-cycle, import-too-deep (warning)
  unquoted-glob (warning)         paths: **/*.ts is invalid YAML; quote it (not in Cursor's .mdc)
  cursor-globs-list (warning)     globs: ["src/**"] in a .mdc: Cursor reads it as one literal pattern
  rule-ignored, rule-misplaced (warning)  a plain .md in .cursor/rules; docs/.cursor/rules.mdc
  skill-frontmatter, skill-name, skill-description (error)  SKILL.md fields against the Agent Skills
                                  spec: name 1-64 lowercase/digits/hyphens = folder, description <= 1,024
  skill-name-missing, skill-unknown-field, skill-listing-cut (warning)  no name (Claude Code takes
                                  the folder's); a field no agent knows; a listing over 1,536 chars
  skill-yaml (warning)            SKILL.md frontmatter not valid YAML that the agent still lists (an
                                  error, skill-frontmatter, where the agent skips it: Codex, Copilot CLI)
  skill-document (note)           an AGENTS.md or CLAUDE.md in a skill's folder: the skill's document,
                                  read with it; no instruction-file limit applies
  frontmatter-unreadable (error)  the rule is never injected
  scope-matches-nothing (warning) a scope pattern matches no file of the repository
  duplicate-rule, duplicate-text (warning)  unconditional files repeating each other
  shadowed-file (warning)         Codex reads AGENTS.override.md, never AGENTS.md beside it
  over-limit (error), near-limit (warning, >= 90%)  body bytes against the profile's limit
  route-target-missing (error)    a [[routes]] file that does not exist
  config-unknown-key, file-skipped, file-warning (warning)
  instruction-link-outside (warning)  a link in the project leads to an instruction file outside it

@imports are checked only in files an agent expands them in: Claude Code (CLAUDE.md, .claude/rules,
AGENTS.md where no CLAUDE.md is on its chain) and Gemini CLI (GEMINI.md); Codex, Cursor and Copilot
pass '@' text through. npm package names (@vscode/prompt-tsx, @scope/pkg) and the bundlers' '@/' alias
(@/mocks) are not imports.

Repository files are listed with 'git ls-files' inside a git work tree, by walking the tree otherwise.

exit codes: 0 no errors (warnings alone pass), 1 errors found (or warnings with --strict), 2 usage or
input error (e.g. a config with wrong types)

examples:
  jitctx lint --root examples/monorepo
  jitctx lint --agent codex --strict
  jitctx lint --sarif > jitctx.sarif           # upload with github/codeql-action/upload-sarif
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_common(parser)
    parser.add_argument(
        "--format",
        choices=("text", "json", "sarif"),
        help="output format (default: text; --json is the same as --format json)",
    )
    parser.add_argument(
        "--sarif",
        dest="format",
        action="store_const",
        const="sarif",
        help="the same as --format sarif",
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    parser.add_argument(
        "--no-git", action="store_true", help="list repository files by walking, not with git"
    )


def run(args: argparse.Namespace) -> int:
    output = args.format or ("json" if args.json else "text")
    if args.json and args.format not in (None, "json"):
        warn(f"--json and --format {args.format} given; printing {args.format}")
        output = args.format
    refuse_folder_of_projects(args, "jitctx lint")
    project, _ = open_project(args)
    report = lint_project(project, use_git=not args.no_git)
    code = 1 if report.failed(strict=args.strict) else 0
    for note in report.notes:
        warn(note)
    if output == "sarif":
        print_json(to_sarif(report, tool_version=__version__))
        return code
    counts = {severity.value: report.count(severity) for severity in Severity}
    if output == "json":
        print_json(
            {
                "root": report.root,
                "agent": report.agent,
                "files_checked": report.files_checked,
                "repo_files": report.repo_files,
                "listing": report.listing,
                "findings": [_finding_json(f) for f in report.findings],
                "summary": counts,
                "ok": not code,
            }
        )
        return code
    if not report.findings:
        print(f"{report.checked} checked, no findings")
        return code
    rows = [[_where(f), f.severity.value, f.rule, f.message, f.fix] for f in report.findings]
    print(table(["at", "severity", "rule", "message", "fix"], rows))
    print()
    summary = ", ".join(count(number, name) for name, number in counts.items() if number)
    print(f"{report.checked} checked: {summary}")
    return code


def _where(finding: Finding) -> str:
    if finding.end_line is not None:
        return f"{finding.file}:{finding.line}-{finding.end_line}"
    return f"{finding.file}:{finding.line}"


def _finding_json(finding: Finding) -> dict[str, Any]:
    return {
        "path": finding.file,
        "line": finding.line,
        "end_line": finding.end_line,
        "rule": finding.rule,
        "severity": finding.severity.value,
        "message": finding.message,
        "fix": finding.fix,
        "related": [{"path": r.file, "line": r.line} for r in finding.related],
    }
