"""Bytes of an instruction file as text (pure): one decoding for every reader of Markdown."""

from __future__ import annotations


def decode_markdown(data: bytes) -> tuple[str, str | None]:
    """UTF-8 text with the BOM dropped and `\\n` line ends, plus a warning when bytes had to be replaced.

    Invalid UTF-8 is kept readable (U+FFFD for the bad bytes) rather than refused: a rule file with one
    stray Latin-1 byte should still reach the agent, with the problem reported.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    warning: str | None = None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        warning = (
            f"not valid UTF-8 (first bad byte at offset {exc.start}); bad bytes shown as U+FFFD, "
            "save the file as UTF-8"
        )
    return text.replace("\r\n", "\n").replace("\r", "\n"), warning
