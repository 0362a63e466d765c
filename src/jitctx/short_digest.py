"""A short, stable digest of short bytes that costs no import: names for files of the state dir.

Files named by a digest (a scanned directory's mark, a warm daemon's socket) need names that two inputs
rarely share, and the same name in every process. Python hashes ints and tuples of ints without the
per-process salt it gives str and bytes, so the data, read as integers, is hashed twice: its 7-byte
pieces as a tuple (mixed as xxHash mixes, so no simple change of the data keeps the value), and the whole
as one integer (its value modulo 2**61 - 1). zlib would do as well but costs the hook's fast lane a
shared library to load, and hashlib milliseconds. Nothing relies on a digest for safety: whoever reads a
file named by one checks that it is what it should be, and a shared name only costs a scan again.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def short_digest(data: bytes) -> str:
    """32 hex digits, the same in every process; for names (a path, an identity), not for bulk data."""
    pieces = tuple(int.from_bytes(data[i : i + 7], "little") for i in range(0, len(data), 7))
    mixed = hash((len(data), *pieces)) & _MASK
    whole = hash(int.from_bytes(data, "little")) & _MASK
    return f"{mixed:016x}{whole:016x}"
