"""Lint rules about single files, scopes, sizes and the config (pure, given the files and a repo listing)."""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterable, Sequence

from jitctx.config import Config
from jitctx.frontmatter import ALIAS_PROBLEM
from jitctx.govern.findings import Finding, finding
from jitctx.govern.limits import file_warnings
from jitctx.govern.lint_cursor import is_cursor_rule
from jitctx.govern.repo_files import RepoFiles
from jitctx.govern.source import SourceLayout, scope_error_line
from jitctx.model import InstructionFile, Skip
from jitctx.profiles import SCOPE_KEYS, Profile, SizeLimit
from jitctx.project import Project, walk_dirs
from jitctx.reading import LITERAL_LIST
from jitctx.scope import FOLDS_CASE, ScopeError, compile_scope, literal_prefix, scope_matches
from jitctx.scope_fix import raw_globs, scope_line, style_for, unquoted_fix

NEAR_LIMIT = 0.9
_UNQUOTED = "unquoted glob"


def frontmatter_findings(file: InstructionFile, layout: SourceLayout) -> list[Finding]:
    found: list[Finding] = []
    # A YAML list under Cursor's `globs` is readable YAML: `cursor-globs-list` says what to write instead.
    if file.scope_error is not None and LITERAL_LIST not in file.scope_error:
        found.append(
            finding(
                "frontmatter-unreadable",
                file.display,
                _error_line(file.scope_error, layout),
                f"{file.scope_error}; this rule is never injected",
                "write each glob out as a quoted string, without aliases (&name, *name)"
                if ALIAS_PROBLEM in file.scope_error
                else f"fix the YAML between the --- lines; {_quote_fix(file, layout)}",
            )
        )
    # The advice every command prints for this file (reading.py's warning): none for a Cursor rule,
    # whose own format is the unquoted `globs: src/**, lib/**`.
    scope = file.scope if file.scope is not None and file.scope.recovered else None
    fix = unquoted_fix(scope.key, scope.patterns, is_cursor_rule(file)) if scope is not None else None
    if scope is not None and fix is not None:
        found.append(
            finding(
                "unquoted-glob",
                file.display,
                layout.key_line(scope.key),
                f"'{scope.key}' holds an unquoted glob, which is invalid YAML; jitctx recovered "
                f"{list(scope.patterns)} line by line, other tools may not",
                fix,
            )
        )
    for warning in file.warnings:
        if _UNQUOTED in warning:
            continue  # reported above with the exact line
        message = warning.removeprefix(f"{file.display}: ")
        found.append(finding("file-warning", file.display, 1, message, "save the file as UTF-8 text"))
    return found


def _quote_fix(file: InstructionFile, layout: SourceLayout) -> str:
    """Quote every glob, shown with the file's own globs (all of them) when its lines name a scope."""
    for key in SCOPE_KEYS:
        globs = raw_globs(layout.lines, layout.frontmatter_end, key)
        if globs:
            return f"quote every glob: {scope_line(key, globs, style_for(key, is_cursor_rule(file)))}"
    return 'quote every glob, e.g. paths: ["src/**/*.ts"]'


def ignored_scope_findings(file: InstructionFile, layout: SourceLayout, profile: Profile) -> list[Finding]:
    """A scope key in one of the agent's own directory files that it ignores (Claude Code's CLAUDE.md)."""
    if not profile.ignores_scope(file.path, file.from_rules_dir):
        return []
    name = os.path.basename(file.path)
    keys = [(key, layout.key_line(key)) for key in SCOPE_KEYS]
    return [
        finding(
            "scope-ignored",
            file.display,
            line,
            f"'{key}' in {name}: {profile.name} loads this file on any touch of its folder and ignores "
            "the scope",
            f"move the text into a rule file in .claude/rules/ with the same {key}:, or remove {key}:",
        )
        for key, line in keys
        if line > 1  # key_line names the opening `---` for a key that is not there
    ]


def _error_line(error: str, layout: SourceLayout) -> int:
    """YAML names a line; a type error names a key ("'paths' must be a list ..."): point at that key."""
    if "at frontmatter line" in error:
        return scope_error_line(error)
    key = re.match(r"'([\w-]+)'", error)
    return layout.key_line(key.group(1)) if key else 1


def skipped_findings(skips: Iterable[Skip]) -> list[Finding]:
    return [
        finding("file-skipped", skip.path, 1, f"not read: {skip.why}", "fix or remove the file")
        for skip in skips
    ]


def scope_findings(file: InstructionFile, layout: SourceLayout, repo: RepoFiles) -> list[Finding]:
    """One finding per pattern of the file's scope that matches no file (or folder) of the repository."""
    if file.scope is None:
        return []
    found: list[Finding] = []
    for pattern in file.scope.patterns:
        if pattern.startswith("!"):
            continue  # a negation narrows another pattern; alone it matches nothing by design
        try:
            regex = compile_scope((pattern,), file.scope.dialect)
        except ScopeError:
            continue  # the whole scope failed to compile and is reported as frontmatter-unreadable
        if _matches_any(regex, pattern, file.scope.dialect, repo):
            continue
        found.append(
            finding(
                "scope-matches-nothing",
                file.display,
                _pattern_line(layout, file.scope.key, pattern),
                f"scope pattern '{pattern}' matches no file in the repository "
                f"({len(repo.paths)} files checked, listed by {repo.method})",
                "fix the pattern (it is relative to the project root) or remove it",
            )
        )
    return found


def _matches_any(regex: str, pattern: str, dialect: str, repo: RepoFiles) -> bool:
    prefix = literal_prefix(pattern, dialect)
    for paths in (repo.paths, repo.directories):
        start = bisect.bisect_left(paths, prefix) if prefix else 0
        for index in range(start, len(paths)):
            path = paths[index]
            if prefix and not path.startswith(prefix):
                break
            if scope_matches(regex, path):
                return True
    if dialect in FOLDS_CASE and prefix.lower() != prefix.upper():
        # The agent ignores case: a match may start with the prefix written otherwise (rare, so every
        # path is looked at only for a glob that matched nothing as written).
        folded = prefix.lower()
        return any(
            path.lower().startswith(folded) and scope_matches(regex, path)
            for paths in (repo.paths, repo.directories)
            for path in paths
        )
    return False


def _pattern_line(layout: SourceLayout, key: str, pattern: str) -> int:
    for index in range(1, max(1, layout.frontmatter_end - 1)):
        if pattern in layout.lines[index]:
            return index + 1
    return layout.key_line(key)


def size_findings(file: InstructionFile, limit: SizeLimit, profile: Profile) -> list[Finding]:
    """Against the limit that cuts (the owner named), and the agent's own warning sizes. A limit that is
    only jitctx's model of an agent that loads its files whole is no finding at all."""
    found = [
        finding("size-warning", file.display, 1, f"{w.describe()}", _SIZE_FIX)
        for w in file_warnings(file, profile)
    ]
    if not limit.cuts or limit.value <= 0:
        return found
    size = file.body_bytes
    share = size / limit.value
    where = f"{limit.owner}'s {limit.name} of {limit.value:,} bytes"
    if size > limit.value:
        message = f"body is {size:,} bytes, over {where} by {size - limit.value:,} bytes"
        found.append(finding("over-limit", file.display, 1, message, _SIZE_FIX))
    elif share >= NEAR_LIMIT:
        message = f"body is {size:,} bytes, {share:.0%} of {where} ({limit.value - size:,} bytes left)"
        found.append(finding("near-limit", file.display, 1, message, _SIZE_FIX))
    return found


_SIZE_FIX = "move task material and history to files read on demand, or split the rules by scope"


def shadow_findings(files: Sequence[InstructionFile], profile: Profile, root: str) -> list[Finding]:
    """Under a first-match profile (Codex), a second candidate file in a folder is never read."""
    if not profile.first_match_per_dir:
        return []
    found: list[Finding] = []
    for file in files:
        if file.from_rules_dir:
            continue
        directory = os.path.dirname(file.path)
        for name in profile.dir_files:
            other = os.path.join(directory, name)
            if os.path.realpath(other) == os.path.realpath(file.path):
                break  # names after the winner are the shadowed ones
        else:
            continue
        index = profile.dir_files.index(name)
        for later in profile.dir_files[index + 1 :]:
            path = os.path.join(directory, later)
            if os.path.isfile(path):
                shown = os.path.relpath(path, root).replace(os.sep, "/")
                found.append(
                    finding(
                        "shadowed-file",
                        shown,
                        1,
                        f"{profile.name} reads {file.display} in this folder, so {shown} is never read",
                        f"merge {shown} into {file.display}, or delete it",
                    )
                )
    return found


def config_findings(config: Config, root: str) -> list[Finding]:
    """Routing targets that do not exist, and unknown keys, located in the config file."""
    if config.source is None:
        return []
    path = config.source.split(" [tool.jitctx]")[0]
    shown = _display(path, root)
    lines = _read_lines(path)
    found: list[Finding] = []
    for warning in config.warnings:
        key = re.search(r"unknown key '([^']+)'", warning)
        name = key.group(1).rsplit(".", 1)[-1] if key else ""
        message = warning.removeprefix(f"{config.source}: ")
        found.append(
            finding(
                "config-unknown-key",
                shown,
                _line_of(lines, rf"^\s*\[*\s*(?:[\w.]*\.)?{re.escape(name)}\b") if name else 1,
                message,
                "fix the key's spelling or remove it",
            )
        )
    for index, route in enumerate(config.routes):
        target = os.path.join(root, *route.file.split("/"))
        if os.path.isfile(target):
            continue
        why = "is a folder, not a file" if os.path.isdir(target) else "does not exist"
        triggers = ", ".join(route.triggers) or "(no triggers)"
        found.append(
            finding(
                "route-target-missing",
                shown,
                _line_of(lines, rf"""\bfile\s*=\s*["']{re.escape(route.file)}["']"""),
                f"routes[{index}] sends tasks ({triggers}) to '{route.file}', which {why}",
                "fix routes.file (relative to the project root) or create the file",
            )
        )
    for pinned in config.pinned:
        target = os.path.join(root, *pinned.split("/"))
        if os.path.isfile(target):
            continue
        why = "is a folder, not a file" if os.path.isdir(target) else "does not exist"
        found.append(
            finding(
                "pin-missing",
                shown,
                _line_of(lines, rf"""["']\.?/?{re.escape(pinned)}["']"""),
                f"[pin] paths names '{pinned}', which {why}: nothing is pinned in its place",
                "fix the path (relative to the project root) or remove it from [pin] paths",
            )
        )
    return found


def _display(path: str, root: str) -> str:
    real = os.path.realpath(path)
    if real == root or real.startswith(root + os.sep):
        return os.path.relpath(real, root).replace(os.sep, "/")
    return path


def _read_lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read().splitlines()
    except OSError:
        return []


def _line_of(lines: list[str], pattern: str) -> int:
    compiled = re.compile(pattern)
    for number, line in enumerate(lines, start=1):
        if compiled.search(line):
            return number
    return 1


# Where a rules folder's suffix comes from, for the finding's reader to check (`jitctx lint` cannot see
# the agent itself). Some third-party guides say Cursor reads `.md` rules too; Cursor's own page says not.
_WHY_SUFFIX = {
    ".cursor/rules": " (cursor.com/docs/rules: project rules must use the .mdc extension, and a plain .md "
    "file there is ignored by Cursor's rules system)",
}


def ignored_rule_findings(project: Project) -> list[Finding]:
    """Markdown files in a rules folder whose agent reads another suffix only (`.cursor/rules/x.md`)."""
    found: list[Finding] = []
    folders = [f for f in project.profile.rules_dirs if not f.suffix.endswith(".md")]
    for directory in walk_dirs(project.root):
        for folder in folders:
            top = os.path.join(directory, *folder.path.split("/"))
            if (folder.nested or directory == project.root) and os.path.isdir(top):
                found.extend(_ignored_in(top, folder.path, folder.suffix, project.root))
    return found


def _ignored_in(top: str, folder: str, suffix: str, root: str) -> list[Finding]:
    found: list[Finding] = []
    for current, dirnames, filenames in os.walk(top, followlinks=False):
        dirnames.sort()
        for name in sorted(n for n in filenames if n.endswith(".md")):
            why = _WHY_SUFFIX.get(folder, "")
            message = f"{folder} holds only *{suffix} rules{why}; this .md file is not read"
            fix = f"rename it to {name[:-3]}{suffix} with a scope, or move it out of {folder}"
            found.append(
                finding("rule-ignored", _display(os.path.join(current, name), root), 1, message, fix)
            )
    return found
