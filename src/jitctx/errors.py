"""The one error type of jitctx; the edge (CLI, hooks) turns it into exit codes or hook JSON."""

from __future__ import annotations


class JitctxError(Exception):
    """A problem the user can fix. The message says what, where (path:line) and how to fix it."""


class ConfigError(JitctxError):
    """`.jitctx.toml` or `[tool.jitctx]` is malformed."""


class UsageError(JitctxError):
    """Arguments that cannot be acted on (a root that does not exist, an unknown profile)."""
