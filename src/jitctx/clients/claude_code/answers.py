"""jitctx's own answers in a Claude Code transcript: which hook contexts are jitctx's.

Claude Code records each hook command that ran as a `hook_success` attachment (`command`, its `stdout`,
`durationMs`, and the record's `timestamp` when it ended), and the contexts the event's hooks added as one
`hook_additional_context` attachment (`content[]`, one text per hook, as each printed it; seen with
2.1.197 and 2.1.332). A context is jitctx's when its text is the `additionalContext` of a `hook_success`
of jitctx's own command: another hook's context, whatever it says, is not. Which blocks of it are provably
there, `clients.kit.answer_blocks` reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from jitctx.clients.kit.answer_blocks import Answer
from jitctx.clients.kit.hook_command import is_jitctx_command

_SLACK_NS = 2_000_000  # the record's times are whole milliseconds


def answer_of(record: Mapping[str, Any]) -> Answer | None:
    """The answer a `hook_success` record of jitctx's own hook command shows it printed, or None."""
    attachment = record.get("attachment")
    stdout = attachment.get("stdout") if isinstance(attachment, dict) else None
    if (
        not isinstance(attachment, dict)
        or attachment.get("type") != "hook_success"
        or not isinstance(stdout, str)
        or not is_jitctx_command(attachment.get("command"), "claude-code")
    ):
        return None
    try:
        printed = json.loads(stdout)
    except (ValueError, RecursionError):
        return None
    output = printed.get("hookSpecificOutput") if isinstance(printed, dict) else None
    text = output.get("additionalContext") if isinstance(output, dict) else None
    if not isinstance(text, str) or not text:
        return None
    cwd = record.get("cwd")
    return Answer(text, cwd if isinstance(cwd, str) else None, _started(record, attachment))


def _started(record: Mapping[str, Any], attachment: Mapping[str, Any]) -> int | None:
    """A time before the hook started: the record's end time less the hook's duration and a slack."""
    stamp, duration = record.get("timestamp"), attachment.get("durationMs")
    if (
        not isinstance(stamp, str)
        or isinstance(duration, bool)
        or not isinstance(duration, int | float)
        or not 0 <= duration < 86_400_000
    ):
        return None
    try:
        ended = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    if ended.tzinfo is None:
        return None
    return int(ended.timestamp() * 1_000_000_000) - int(duration * 1_000_000) - _SLACK_NS
