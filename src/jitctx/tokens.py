"""A dependency-free token estimate: about 4 bytes per ASCII token, one token per CJK character.

Exact counts need a model's tokenizer; install `jitctx[tiktoken]` and pass `exact=True` for that.
"""

from __future__ import annotations

import math

from jitctx.errors import JitctxError


def _is_cjk(code: int) -> bool:
    return (
        0x3000 <= code <= 0x9FFF  # CJK punctuation, kana, unified ideographs
        or 0xAC00 <= code <= 0xD7AF  # Hangul syllables
        or 0xF900 <= code <= 0xFAFF
        or 0xFF00 <= code <= 0xFFEF  # full-width forms
        or 0x20000 <= code <= 0x2FFFF
    )


def estimate_tokens(text: str, *, exact: bool = False) -> int:
    if exact:
        return _exact_tokens(text)
    if text.isascii():
        return math.ceil(len(text) / 4)
    ascii_chars = cjk = other_bytes = 0
    for ch in text:
        code = ord(ch)
        if code < 128:
            ascii_chars += 1
        elif _is_cjk(code):
            cjk += 1
        else:
            other_bytes += len(ch.encode("utf-8"))
    return math.ceil((ascii_chars + other_bytes) / 4) + cjk


def _exact_tokens(text: str) -> int:
    try:
        import tiktoken  # the optional extra jitctx[tiktoken]
    except ImportError as exc:  # pragma: no cover - depends on the optional extra
        raise JitctxError(
            "exact token counts need the tiktoken extra: pip install 'jitctx[tiktoken]'"
        ) from exc
    return len(tiktoken.get_encoding("o200k_base").encode(text))
