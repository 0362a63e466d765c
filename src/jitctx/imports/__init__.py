# CJK punctuation is the subject here, not a typo for its ASCII look-alike.
# ruff: noqa: RUF002
"""`@path` imports of instruction files (DESIGN §2.6): pure extraction, and expansion through a resolver.

    >>> from jitctx.imports import extract
    >>> [i.path for i in extract("见 @文档/说明.md，后续 and `@not-this.md`")]
    ['文档/说明.md']

`expand(text, source_path, root=...)` follows the imports and returns an `Expansion`: one `ImportResult`
per import (nested ones included, depth first), the targets' texts, the expanded size and the warnings.
"""

from __future__ import annotations

from jitctx.imports.expansion import (
    DEFAULT_MAX_DEPTH,
    DEFAULT_RESOLVER,
    MAX_EXPANDED_BYTES,
    MAX_IMPORTS_PER_FILE,
    Expansion,
    ImportResult,
    expand,
)
from jitctx.imports.extraction import (
    CJK_PUNCTUATION,
    Import,
    clean_token,
    clear_extraction_cache,
    extract,
    looks_like_path,
)
from jitctx.imports.resolver import FileResolver, ImportStatus, ReadResult, Resolver, decode_text


def clear_caches() -> None:
    """Forget cached extractions and reads (benchmarks and tests measure cold runs with this)."""
    clear_extraction_cache()
    DEFAULT_RESOLVER.clear()


__all__ = [
    "CJK_PUNCTUATION",
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_RESOLVER",
    "MAX_EXPANDED_BYTES",
    "MAX_IMPORTS_PER_FILE",
    "Expansion",
    "FileResolver",
    "Import",
    "ImportResult",
    "ImportStatus",
    "ReadResult",
    "Resolver",
    "clean_token",
    "clear_caches",
    "decode_text",
    "expand",
    "extract",
    "looks_like_path",
]
