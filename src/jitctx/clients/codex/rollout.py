"""A Codex rollout, read back: what reached the model, in the records Codex alone writes.

Every hook event names the thread's rollout (`transcript_path`): JSONL under `$CODEX_HOME/sessions/YYYY/MM/
DD/rollout-<time>-<thread id>.jsonl`, one `{"timestamp", "ordinal", "type", "payload"}` per line. A
sub-agent has a rollout of its own (its events name it), which starts with a copy of the parent's history
when it was spawned with `fork_turns: "all"`. Seen with 0.171.0:

* `session_meta` (`cli_version`: the release writing the rollout; `cwd`), `turn_context` (`cwd`);
* `world_state` with `state.agents_md` `{directory, text}`: the AGENTS.md text Codex loaded for the
  directory, at start and again after each compaction. The text is `$CODEX_HOME/AGENTS.md`, then
  `\\n\\n--- project-doc ---\\n\\n`, then each directory's file from the project root to `directory`,
  whole and joined by blank lines (cut at `project_doc_max_bytes`);
* `response_item` messages whose `internal_chat_message_metadata_passthrough.content_item_kinds[i]` says
  what Codex put in `content[i]`: `agents_md.instructions` (a user message, `# AGENTS.md instructions
  for DIR`, `<INSTRUCTIONS>`, the same text, `</INSTRUCTIONS>`) and `hooks.additional_context` (a
  developer message, one hook's context verbatim);
* `compacted`: a compaction; its `replacement_history` is what the conversation keeps (the instructions
  message among it, no hook's context). Only what follows the last one counts.

Evidence counts only where Codex alone writes it (DESIGN §2.12): a record's type and the kinds of its
content, which no prompt, tool output, file or model can set (a prompt is `user.text`, a tool's output a
`function_call_output` string). A text that merely looks like an AGENTS.md message counts for nothing.

Only a regular file reached without a link is read (a FIFO would block, a link may point anywhere), at
most a bounded tail of it, whole lines only; only the lines that can hold one of these records are
parsed, and one that cannot be read (cut, not JSON, nested too deep) is passed over.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from datetime import datetime
from typing import Any, NamedTuple

AGENTS_MD_KIND = "agents_md.instructions"
HOOK_CONTEXT_KIND = "hooks.additional_context"
PROJECT_DOC_SEPARATOR = "\n\n--- project-doc ---\n\n"
_INSTRUCTIONS_HEAD = "# AGENTS.md instructions for "
_INSTRUCTIONS_OPEN = "\n\n<INSTRUCTIONS>\n"
_INSTRUCTIONS_CLOSE = "\n</INSTRUCTIONS>"
# A line that holds none of these is none of the records read here.
_NEEDLES = (
    b'"world_state"',
    b'"compacted"',
    b'"session_meta"',
    b'"turn_context"',
    AGENTS_MD_KIND.encode(),
    HOOK_CONTEXT_KIND.encode(),
)
_COMPACTED = b'"compacted"'
_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


class Sighting(NamedTuple):
    """One thing a record shows, in rollout order. `kind`:

    * "release": `text` is the Codex release writing the rollout from here on;
    * "compacted": a compaction: what came before it is no longer in the conversation;
    * "loaded": Codex put AGENTS.md text `text` for the directory `directory` in the conversation;
      `message` when it is the message the model reads (not the `world_state` record of it);
    * "context": a hook added `text`; `directory` is the thread's cwd then.

    `at` is the time of the record (ns), when it tells; of a hook's context, the time its message was
    made, when earlier.
    """

    kind: str
    text: str = ""
    directory: str | None = None
    at: int | None = None
    message: bool = False


def read_tail(path: object, limit: int) -> tuple[bytes, bool] | None:
    """The whole lines of the last `limit` bytes of the rollout, and whether the file was longer; None
    when it is no absolute path of a regular file reached without a link, or cannot be read."""
    if not isinstance(path, str) or not os.path.isabs(path) or "\0" in path:
        return None
    try:
        fd = os.open(path, _FLAGS)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        size = info.st_size
        start = max(0, size - limit)
        os.lseek(fd, start, os.SEEK_SET)
        chunks: list[bytes] = []
        left = min(limit, size)
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if start > 0:
        data = data[data.find(b"\n") + 1 :]  # the first line is cut: not a record
    return data[: data.rfind(b"\n") + 1], start > 0  # the last may be half written


def record_of(line: bytes) -> dict[str, Any] | None:
    """A rollout line as a record with a payload object; None for anything else."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("payload"), dict):
        return None
    return record


def last_compaction(data: bytes) -> int:
    """Where the line of the last compaction starts in `data` (0 when there is none): a `compacted`
    record of Codex's own, not a text that names one."""
    end = len(data)
    while (found := data.rfind(_COMPACTED, 0, end)) >= 0:
        start = data.rfind(b"\n", 0, found) + 1
        stop = data.find(b"\n", found)
        record = record_of(data[start : len(data) if stop < 0 else stop])
        if record is not None and record.get("type") == "compacted":
            return start
        end = start
    return 0


def sightings(data: bytes) -> Iterator[Sighting]:
    """What the rollout lines in `data` show, in order (the one reading of these records: the hook's
    evidence and the drift report both go through it)."""
    cwd: str | None = None
    for line in data.split(b"\n"):
        if not any(needle in line for needle in _NEEDLES):
            continue
        record = record_of(line)
        if record is None:
            continue
        kind, payload, at = record.get("type"), record["payload"], _time_ns(record.get("timestamp"))
        if kind in ("session_meta", "turn_context"):
            cwd = _absolute(payload.get("cwd")) or cwd
            release = payload.get("cli_version") if kind == "session_meta" else None
            if isinstance(release, str) and 0 < len(release) <= 64:
                yield Sighting("release", release)
        elif kind == "compacted":
            yield Sighting("compacted", at=at)
            history = payload.get("replacement_history")
            for item in history if isinstance(history, list) else ():
                if isinstance(item, dict):
                    yield from _message(item, cwd, at)
        elif kind == "world_state":
            state = payload.get("state")
            agents_md = state.get("agents_md") if isinstance(state, dict) else None
            if isinstance(agents_md, dict) and isinstance(agents_md.get("text"), str):
                yield Sighting("loaded", agents_md["text"], _absolute(agents_md.get("directory")), at)
        elif kind == "response_item":
            yield from _message(payload, cwd, at)


def _message(item: dict[str, Any], cwd: str | None, at: int | None) -> Iterator[Sighting]:
    """The parts of one message that Codex marks as AGENTS.md it loaded or a hook's context."""
    content = item.get("content")
    meta = item.get("internal_chat_message_metadata_passthrough")
    if not isinstance(meta, dict):
        return
    kinds = meta.get("content_item_kinds")
    if item.get("type") != "message" or not isinstance(content, list) or not isinstance(kinds, list):
        return
    if len(kinds) != len(content):
        return  # which kind is whose part is not known
    for kind, part in zip(kinds, content, strict=True):
        text = part.get("text") if isinstance(part, dict) and part.get("type") == "input_text" else None
        if not isinstance(text, str):
            continue
        if kind == AGENTS_MD_KIND and item.get("role") == "user":
            framed = instructions_of(text)
            if framed is not None:
                yield Sighting("loaded", framed[1], framed[0], at, message=True)
        elif kind == HOOK_CONTEXT_KIND and item.get("role") == "developer":
            yield Sighting("context", text, cwd, _earliest(at, meta.get("create_time")))


def instructions_of(text: str) -> tuple[str | None, str] | None:
    """(directory, AGENTS.md text) of Codex's instructions message; None for another shape."""
    if not text.startswith(_INSTRUCTIONS_HEAD) or not text.endswith(_INSTRUCTIONS_CLOSE):
        return None
    head, sep, rest = text[len(_INSTRUCTIONS_HEAD) : -len(_INSTRUCTIONS_CLOSE)].partition(_INSTRUCTIONS_OPEN)
    if not sep:
        return None
    return _absolute(head), rest


def codex_home_of(rollout: object) -> str | None:
    """Codex's home folder a rollout lies in (`HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`,
    `HOME/archived_sessions/rollout-*.jsonl`); None for a path of another shape."""
    if not isinstance(rollout, str) or not os.path.isabs(rollout):
        return None
    parts = rollout.split("/")
    if not parts[-1].startswith("rollout-"):
        return None
    if len(parts) > 6 and parts[-5] == "sessions" and all(p.isdigit() for p in parts[-4:-1]):
        return "/".join(parts[:-5]) or "/"
    if len(parts) > 3 and parts[-2] == "archived_sessions":
        return "/".join(parts[:-2]) or "/"
    return None


def project_docs(text: str) -> str:
    """The part of an AGENTS.md text that is the project's files (after the user's own file, if any)."""
    return text.partition(PROJECT_DOC_SEPARATOR)[2] if PROJECT_DOC_SEPARATOR in text else text


def _absolute(value: object) -> str | None:
    if not isinstance(value, str) or not value.startswith("/") or "\n" in value or "\0" in value:
        return None
    return value


def _earliest(at: int | None, created: object) -> int | None:
    """The earlier of a record's time and its message's `create_time` (seconds): a sub-agent's copy of its
    parent's history is recorded anew, its messages keep the time they were made."""
    if isinstance(created, bool) or not isinstance(created, int | float) or not 0 < created < 1e11:
        return at
    made = int(created * 1_000_000_000)
    return made if at is None else min(at, made)


def _time_ns(stamp: object) -> int | None:
    if not isinstance(stamp, str) or len(stamp) > 64:
        return None
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    if when.tzinfo is None:
        return None
    return int(when.timestamp() * 1_000_000_000)
