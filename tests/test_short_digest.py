"""File names from short_digest: the same in every process, and not fooled by a change that keeps the
data's value modulo a prime."""

from __future__ import annotations

import os
import subprocess
import sys

from jitctx.short_digest import short_digest


def test_the_digest_is_the_same_in_every_process() -> None:
    code = "from jitctx.short_digest import short_digest; print(short_digest(b'/p/src/ui'))"
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.strip()
        for seed in ("1", "2", "random")
    }
    assert seen == {short_digest(b"/p/src/ui")}


def test_changes_that_keep_the_value_modulo_the_hash_prime_still_change_the_name() -> None:
    data = bytearray(b"/work/project/" + b"a" * 120)
    other = bytearray(data)
    other[20] += 1
    other[81] -= 1  # +1 at byte 20 and -1 at byte 81: the same integer modulo 2**61 - 1
    assert short_digest(bytes(data))[16:] == short_digest(bytes(other))[16:]  # the linear half agrees
    assert short_digest(bytes(data)) != short_digest(bytes(other))
    assert short_digest(b"a") != short_digest(b"a\0")  # and trailing zero bytes count
