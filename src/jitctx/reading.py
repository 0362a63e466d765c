"""Reading one instruction file from disk: size, binary and encoding checks, frontmatter, scope.

Anything wrong with a file becomes a warning or a skip naming the file; nothing here raises for bad input.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass

from jitctx.frontmatter import scope_of, split_frontmatter
from jitctx.model import InstructionFile, Scope, Skip, Tier
from jitctx.profiles import Profile
from jitctx.scope import ScopeError, compile_scope
from jitctx.scope_fix import in_cursor_format, unquoted_fix
from jitctx.text import decode_markdown

MAX_FILE_BYTES = 4 * 1024 * 1024
_BINARY_PROBE = 8192


@dataclass(frozen=True)
class ReadOutcome:
    file: InstructionFile | None
    skip: Skip | None = None


# The scope error of a YAML list under a key its agent reads as comma-separated text (Cursor's `globs`).
LITERAL_LIST = "is a YAML list, which this agent reads as one literal pattern matching no file"


def read_instruction(
    path: str, display: str, tier: Tier, profile: Profile, *, from_rules_dir: bool = False
) -> ReadOutcome | None:
    """Read `path`; None when it does not exist (the common case for candidate names)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return ReadOutcome(None, Skip(display, _os_reason(exc)))
    if not stat.S_ISREG(info.st_mode):
        if stat.S_ISDIR(info.st_mode):
            return None  # `.claude/` style folders are not files; not worth a warning
        return ReadOutcome(None, Skip(display, "not a regular file (device, FIFO or socket); skipped"))
    if info.st_size > MAX_FILE_BYTES:
        return ReadOutcome(
            None,
            Skip(display, f"{info.st_size:,} bytes is over the 4 MiB limit for instruction files; skipped"),
        )
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return ReadOutcome(None, Skip(display, _os_reason(exc)))
    if b"\0" in data[:_BINARY_PROBE]:
        return ReadOutcome(None, Skip(display, "binary file (contains NUL bytes); skipped"))
    return ReadOutcome(parse_instruction(data, path, display, tier, profile, info, from_rules_dir))


def parse_instruction(
    data: bytes,
    path: str,
    display: str,
    tier: Tier,
    profile: Profile,
    info: os.stat_result,
    from_rules_dir: bool,
) -> InstructionFile:
    text, problem = decode_markdown(data)
    warnings = [f"{display}: {problem}"] if problem else []
    front = split_frontmatter(text)
    scope: Scope | None = None
    scope_error: str | None = None
    manual = False
    scoped_here = not profile.ignores_scope(path, from_rules_dir)
    if front.present and front.data is None and scoped_here:
        # Unreadable frontmatter: conditional on nothing, so the rule is never injected (the safe side).
        scope_error = front.error
    elif front.data is not None:
        spec = scope_of(front.data, profile.scope_keys if scoped_here else ())
        # A scope the agent reads as every file (Copilot CLI's `applyTo: "**"`) is no scope to it.
        always = _always_apply(front.data) or profile.scope_is_whole(spec.key or "", spec.patterns)
        if spec.error:
            scope_error = spec.error
        elif spec.key in profile.text_scope_keys and isinstance(front.data.get(spec.key), list):
            scope_error = f"'{spec.key}' {LITERAL_LIST} (`jitctx lint` gives the line to write)"
        elif spec.patterns and not always:
            # The globs mean what the agent of the file's format means (its rules folder's dialect),
            # whichever profile reads it.
            dialect = profile.dialect_for(path)
            try:
                regex = compile_scope(spec.patterns, dialect)
            except ScopeError as exc:
                scope_error = str(exc)
            else:
                scope = Scope(spec.patterns, spec.key or "paths", dialect, regex, recovered=front.recovered)
                if front.recovered:
                    warnings.extend(_unquoted_warning(text, display, scope, from_rules_dir))
        elif not spec.patterns and not always and _needs_explicit_scope(path, front.data, profile):
            manual = True
    elif from_rules_dir and _needs_explicit_scope(path, {}, profile):
        manual = True
    return InstructionFile(
        path=path,
        display=display,
        tier=tier,
        text=front.body,
        size=info.st_size,
        mtime_ns=info.st_mtime_ns,
        scope=scope,
        scope_error=scope_error,
        manual=manual,
        from_rules_dir=from_rules_dir,
        warnings=tuple(warnings),
        body_line=front.body_line if front.present else 1,
    )


def _unquoted_warning(text: str, display: str, scope: Scope, from_rules_dir: bool) -> list[str]:
    """The warning for a scope read line by line, with the advice `lint` gives (scope_fix); none for a
    Cursor rule, which is written in its format's own form."""
    fix = unquoted_fix(scope.key, scope.patterns, in_cursor_format(display, from_rules_dir))
    if fix is None:
        return []
    line = _key_line(text, scope.key)
    why = f"unquoted glob in '{scope.key}' is invalid YAML; read it line by line"
    return [f"{display}:{line}: {why}, but {fix}"]


def _key_line(text: str, key: str) -> int:
    """The 1-based line of `key:` in the frontmatter at the top of `text` (2 when it cannot be found)."""
    for number, line in enumerate(text.split("\n")[1:], start=2):
        if line.startswith((f"{key}:", f"{key} :")):
            return number
        if line.strip() == "---":
            break
    return 2


def _always_apply(data: dict[str, object]) -> bool:
    """Cursor's `alwaysApply: true` and Kiro's `inclusion: always` make a rule unconditional."""
    return data.get("alwaysApply") is True or data.get("inclusion") == "always"


def _needs_explicit_scope(path: str, data: dict[str, object], profile: Profile) -> bool:
    """Cursor, Copilot and Kiro rules without a scope apply only on request, never automatically;
    unless the agent loads such files whole at start (Copilot CLI's `.instructions.md`)."""
    if data.get("inclusion") == "manual":
        return True
    return path.endswith((".mdc", ".instructions.md")) and not path.endswith(profile.unscoped_rules_load)


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symlink loop; skipped"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied; skipped"
    return f"cannot be read ({exc.strerror or exc}); skipped"
