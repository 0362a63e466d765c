"""Fit instruction files into a host's byte budget, and say exactly what was cut.

Two modes, named by `Profile.truncation`:

- `jitctx` (and dsh, per the governance seed): the limit counts the *rendered* payload - frame, intro,
  headers with the relative path, blank lines. Over it, the broadest files (earliest in load order) are
  dropped first, so what stays is always the most specific tail of the list. If the most specific file alone
  is still over, its head is kept, cut on a UTF-8 character boundary, and a visible notice naming the file
  and the bytes lost is appended; the notice counts against the limit too. If not even the header and the
  notice fit, the file is dropped.
- `root-first`: what codex-rs does in `read_agents_md` (core/src/agents_md.rs; `project_doc.rs` before):
  project files, root first, share one budget of raw file bytes (`project_doc_max_bytes`, 32 KiB by
  default); the file that overshoots is cut to the remaining bytes - possibly inside a character, which
  Codex decodes lossily to U+FFFD - and reading stops once nothing remains. A file that is empty or
  whitespace after the cut is skipped and uses no budget. No notice reaches the model (Codex only logs a
  warning), and the wrapper and blank lines are not counted, so the payload can exceed the limit by that
  much. A limit of 0 turns project docs off. User-level files (`~/.codex/AGENTS.md`) are outside this
  budget.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jitctx.assemble.render import (
    GLOBAL_TIERS,
    RenderInput,
    RenderItem,
    RenderStyle,
    as_items,
    frame_bytes,
    get_style,
    item_bytes,
    payload_bytes,
    render_payload,
)
from jitctx.errors import UsageError
from jitctx.model import Tier
from jitctx.profiles import Profile

MODES = ("jitctx", "root-first")
KEPT, TRUNCATED, DROPPED = "kept", "truncated", "dropped"
_BROADER = "dropped: broader than the files kept"

NOTICE = (
    "\n\n[jitctx: {path} is cut here: {lost} bytes ({chars} characters) did not fit the {limit}-byte budget]"
)


@dataclass(frozen=True)
class FileBudget:
    """What became of one file: delivered whole, cut, or dropped, with exact byte and character counts."""

    display: str
    status: str  # "kept", "truncated" or "dropped"
    body_bytes: int  # the file's text in UTF-8
    bytes_kept: int  # of the file's own text; a notice is not counted here
    bytes_lost: int
    chars_lost: int  # whole characters of the file that the agent does not get
    text: str = field(repr=False)  # as delivered (head + notice when cut); "" when dropped
    tier: Tier = Tier.PROJECT
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.display,
            "status": self.status,
            "bytes": self.body_bytes,
            "bytes_kept": self.bytes_kept,
            "bytes_lost": self.bytes_lost,
            "chars_lost": self.chars_lost,
            "note": self.note,
        }


@dataclass(frozen=True)
class BudgetResult:
    """The outcome of fitting files to a limit. `files` keeps the input order (broadest first)."""

    files: tuple[FileBudget, ...]
    payload: str = field(repr=False)  # the rendered payload of what is delivered
    payload_bytes: int
    counted_bytes: int  # what the mode measures against the limit (jitctx: the payload; codex: file bytes)
    limit: int
    mode: str
    style: str

    @property
    def kept(self) -> tuple[FileBudget, ...]:
        """Files that reach the agent, whole or cut, in load order."""
        return tuple(f for f in self.files if f.status != DROPPED)

    @property
    def dropped(self) -> tuple[FileBudget, ...]:
        return tuple(f for f in self.files if f.status == DROPPED)

    @property
    def truncated(self) -> FileBudget | None:
        return next((f for f in self.files if f.status == TRUNCATED), None)

    @property
    def complete(self) -> bool:
        """True when every file arrives whole."""
        return all(f.status == KEPT for f in self.files)

    @property
    def headroom(self) -> int:
        return self.limit - self.counted_bytes

    def delivered(self) -> tuple[RenderItem, ...]:
        """The files as the agent gets them, ready to become blocks."""
        return tuple(RenderItem(f.display, f.text, f.tier) for f in self.kept)

    def to_dict(self) -> dict[str, Any]:
        return {
            "limit": self.limit,
            "mode": self.mode,
            "style": self.style,
            "payload_bytes": self.payload_bytes,
            "counted_bytes": self.counted_bytes,
            "headroom": self.headroom,
            "complete": self.complete,
            "files": [f.to_dict() for f in self.files],
        }


def fit_budget(
    files: Iterable[RenderInput],
    limit: int,
    *,
    mode: str = "jitctx",
    style: str | RenderStyle = "plain",
) -> BudgetResult:
    """Fit `files` (load order: broadest first, most specific last) into `limit` bytes."""
    if limit < 0:
        raise UsageError(f"a byte budget cannot be negative (got {limit})")
    if mode not in MODES:
        raise UsageError(f"unknown truncation mode {mode!r}; choose one of: {', '.join(MODES)}")
    s = get_style(style)
    items = as_items(files)
    outcome = _root_first(items, limit) if mode == "root-first" else _jitctx(items, limit, s)
    delivered = [RenderItem(f.display, f.text, f.tier) for f in outcome if f.status != DROPPED]
    payload = render_payload(delivered, s)
    size = len(payload.encode("utf-8"))
    if mode == "root-first":
        counted = sum(f.bytes_kept for f in outcome if f.status != DROPPED and f.tier not in GLOBAL_TIERS)
    else:
        counted = size
    return BudgetResult(tuple(outcome), payload, size, counted, limit, mode, s.name)


def fit_profile(
    files: Iterable[RenderInput],
    profile: Profile,
    *,
    style: str | RenderStyle | None = None,
    limit: int | None = None,
) -> BudgetResult:
    """`fit_budget` with the profile's limit, truncation mode and render style (each overridable)."""
    return fit_budget(
        files,
        profile.max_bytes if limit is None else limit,
        mode=profile.truncation,
        style=profile.render if style is None else style,
    )


def _whole(item: RenderItem, status: str = KEPT, note: str = "") -> FileBudget:
    size = len(item.text.encode("utf-8"))
    if status == DROPPED:
        return FileBudget(item.display, DROPPED, size, 0, size, len(item.text), "", item.tier, note)
    return FileBudget(item.display, KEPT, size, size, 0, 0, item.text, item.tier, note)


def _jitctx(items: Sequence[RenderItem], limit: int, style: RenderStyle) -> list[FileBudget]:
    if not items:
        return []
    sizes = [item_bytes(style, item) for item in items]
    sep = len(style.separator.encode("utf-8"))
    frame = frame_bytes(style, items[-1])  # the last file stays last in every tail, so the frame is fixed
    if style.project_separator is not None:
        # Mixed tiers change the separator; take the exact (slower) sum for such styles.
        def tail_size(start: int) -> int:
            return payload_bytes(items[start:], style)
    else:
        suffix = [0] * (len(items) + 1)
        for i in range(len(items) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + sizes[i]

        def tail_size(start: int) -> int:
            return frame + suffix[start] + sep * (len(items) - start - 1)

    for start in range(len(items)):
        if tail_size(start) <= limit:
            return [*(_whole(item, DROPPED, _BROADER) for item in items[:start]), *map(_whole, items[start:])]
    return [*(_whole(item, DROPPED, _BROADER) for item in items[:-1]), _cut_head(items[-1], limit, style)]


def _boundary(data: bytes, k: int) -> int:
    """The largest character boundary at or below byte offset `k`."""
    k = max(0, min(k, len(data)))
    while 0 < k < len(data) and (data[k] & 0xC0) == 0x80:
        k -= 1
    return k


def _notice(item: RenderItem, lost: int, chars: int, limit: int) -> str:
    return NOTICE.format(path=item.display, lost=lost, chars=chars, limit=limit)


def _cut_head(item: RenderItem, limit: int, style: RenderStyle) -> FileBudget:
    """Keep the longest head of `item` that fits with its notice; drop the file if not even that fits."""
    data = item.text.encode("utf-8")
    total, nchars = len(data), len(item.text)
    fixed = payload_bytes([RenderItem(item.display, "", item.tier)], style)

    def notice_bytes(kept: int) -> int:
        head_chars = len(data[:kept].decode("utf-8"))
        return len(_notice(item, total - kept, nchars - head_chars, limit).encode("utf-8"))

    # The notice is longest when everything is lost, so room left after that notice always fits.
    room = limit - fixed - notice_bytes(0)
    if room < 0:
        return _whole(item, DROPPED, "dropped: not even its header and a truncation notice fit")
    kept = _boundary(data, room)
    while True:  # a shorter notice (fewer digits) may leave room for a few more bytes
        better = _boundary(data, limit - fixed - notice_bytes(kept))
        if better <= kept:
            break
        kept = better
    head = data[:kept].decode("utf-8")
    notice = _notice(item, total - kept, nchars - len(head), limit)
    return FileBudget(
        item.display,
        TRUNCATED,
        total,
        kept,
        total - kept,
        nchars - len(head),
        head + notice,
        item.tier,
        "head kept, cut on a character boundary, notice appended",
    )


def _root_first(items: Sequence[RenderItem], limit: int) -> list[FileBudget]:
    out: list[FileBudget] = []
    remaining = limit
    for item in items:
        if item.tier in GLOBAL_TIERS:
            out.append(_whole(item, note="user-level file: outside project_doc_max_bytes"))
            continue
        if limit == 0:
            out.append(_whole(item, DROPPED, "project_doc_max_bytes = 0 turns project docs off"))
            continue
        if remaining == 0:
            out.append(_whole(item, DROPPED, "dropped: the budget was used up by the files before it"))
            continue
        data = item.text.encode("utf-8")
        raw = data[:remaining]
        text = raw.decode("utf-8", errors="replace")  # Rust's from_utf8_lossy gives the same U+FFFD
        if not text.strip():
            what = "the part that fits is" if len(raw) < len(data) else "the file is"
            out.append(_whole(item, DROPPED, f"{what} empty or whitespace only: Codex skips it"))
            continue
        remaining -= len(raw)
        if len(raw) == len(data):
            out.append(_whole(item))
            continue
        whole_chars = len(data[: _boundary(data, len(raw))].decode("utf-8"))
        split = _boundary(data, len(raw)) != len(raw)
        note = "cut at the remaining budget" + (", inside a character: it arrives as U+FFFD" if split else "")
        out.append(
            FileBudget(
                item.display,
                TRUNCATED,
                len(data),
                len(raw),
                len(data) - len(raw),
                len(item.text) - whole_chars,
                text,
                item.tier,
                note,
            )
        )
    return out
