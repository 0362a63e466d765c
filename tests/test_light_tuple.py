"""`jitctx.light_tuple.NamedTuple` builds what `typing.NamedTuple` builds, without importing typing."""

from __future__ import annotations

import subprocess
import sys

import pytest

from jitctx.light_tuple import NamedTuple


class Point(NamedTuple):
    """A point."""

    x: int
    y: int = 0

    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)


def test_fields_defaults_methods_and_tuple_behaviour() -> None:
    p = Point(3)
    assert (p.x, p.y, p.norm1()) == (3, 0, 3)
    assert p == (3, 0) and p._replace(y=-4).norm1() == 7
    assert Point._fields == ("x", "y") and Point.__doc__ == "A point."
    with pytest.raises(AttributeError):
        p.z = 1  # type: ignore[attr-defined]  # slots: no instance dict


def test_a_field_without_default_after_one_with_default_is_refused() -> None:
    with pytest.raises(TypeError):

        class Bad(NamedTuple):
            a: int = 0
            b: int  # type: ignore[misc]


def test_the_shell_lexer_does_not_import_typing() -> None:
    code = "import sys, jitctx.touched.reads, jitctx.touched.bash; print('typing' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
