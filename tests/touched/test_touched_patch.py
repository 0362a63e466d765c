"""Codex apply_patch headers: which files a patch writes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.touched.patch import patch_targets, shell_patch_targets

ROWS = [
    ("*** Begin Patch\n*** Add File: hello.txt\n+Hello\n*** End Patch", ["hello.txt"]),
    ("*** Begin Patch\n*** Update File: src/app.py\n@@ def f():\n-a\n+b\n*** End Patch", ["src/app.py"]),
    ("*** Begin Patch\n*** Delete File: obsolete.txt\n*** End Patch", []),
    (
        "*** Begin Patch\n*** Update File: src/a.py\n*** Move to: src/b.py\n@@\n-x\n+y\n*** End Patch",
        ["src/b.py"],
    ),
    (
        "*** Begin Patch\n*** Add File: a.md\n+x\n*** Update File: b.py\n@@\n-1\n+2\n"
        "*** Delete File: c.py\n*** Update File: d.py\n*** Move to: e/d.py\n*** End Patch",
        ["a.md", "b.py", "e/d.py"],
    ),
    ("*** Begin Patch\n*** Add File: src/my dir/a b.ts  \n+x\n*** End Patch", ["src/my dir/a b.ts"]),
    ("*** Begin Patch\r\n*** Add File: win.txt\r\n+x\r\n*** End Patch\r\n", ["win.txt"]),
    # File content that reads like a header is a hunk line (it starts with `+`, `-` or a space).
    ("*** Begin Patch\n*** Add File: a.md\n+*** Add File: not-me.md\n*** End Patch", ["a.md"]),
    (
        "*** Begin Patch\n*** Update File: a.md\n@@\n *** Update File: not-me.md\n-x\n+y\n*** End Patch",
        ["a.md"],
    ),
    # A Move to with no Update before it moves nothing.
    ("*** Begin Patch\n*** Move to: stray.md\n*** End Patch", []),
    ("*** Begin Patch\n*** Add File: a.md\n+x\n*** Update File: a.md\n@@\n-x\n+y\n*** End Patch", ["a.md"]),
    ("*** Begin Patch\n*** Add File: \n*** End Patch", []),
    ("", []),
]


@pytest.mark.parametrize(("patch", "expected"), ROWS)
def test_patch_targets(patch: str, expected: list[str]) -> None:
    assert list(patch_targets(patch)) == expected


PATCH = "*** Begin Patch\n*** Add File: x.py\n+x\n*** End Patch"


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (["apply_patch", PATCH], ("x.py",)),
        (["applypatch", PATCH], ("x.py",)),
        (["bash", "-lc", f"apply_patch <<'EOF'\n{PATCH}\nEOF"], ("x.py",)),
        (["/bin/bash", "-c", f'apply_patch <<"EOF"\n{PATCH}\nEOF\n'], ("x.py",)),
        (f"apply_patch <<EOF\n{PATCH}\nEOF", ("x.py",)),
        (f"cd pkg/sub && apply_patch <<'EOF'\n{PATCH}\nEOF", ("pkg/sub/x.py",)),
        (["touch", "x.py"], None),
        (["bash", "-lc", "touch x.py"], None),
        ("apply_patch", None),
        ("cat <<'EOF'\n*** Add File: x.py\nEOF", None),
    ],
)
def test_shell_patch_targets(call: list[str] | str, expected: tuple[str, ...] | None) -> None:
    assert shell_patch_targets(call) == expected


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_never_raises(text: str) -> None:
    assert isinstance(patch_targets(text), tuple)
    assert shell_patch_targets(text) is None or isinstance(shell_patch_targets(text), tuple)
