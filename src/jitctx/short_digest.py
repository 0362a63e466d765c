"""A short, stable digest of bytes that costs no import: names for files of the state dir.

Files named by a digest (a scanned directory's mark, a warm daemon's socket) only need names that two
inputs rarely share, and the same name in every process. Python's hash of an int is defined by the
language (the value modulo 2**61 - 1 on 64-bit builds) and, unlike that of a str or bytes, is not salted
per process; read as an integer twice, in both byte orders, the data gives two such values. zlib would do
as well but costs the hook's fast lane a shared library to load, and hashlib milliseconds. Nothing relies
on a digest for safety: whoever reads a file named by one checks that it is what it should be.
"""

from __future__ import annotations


def short_digest(data: bytes) -> str:
    """32 hex digits, the same in every process and on every run."""
    mask = (1 << 64) - 1
    little = hash(int.from_bytes(data, "little")) & mask
    big = hash(int.from_bytes(data, "big") ^ len(data)) & mask  # the length: b"a" and b"a\0" differ
    return f"{little:016x}{big:016x}"
