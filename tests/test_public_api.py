"""The supported Python surface is `jitctx.__all__`: every name resolves, `dir()` shows them, nothing
else is promised, and importing the package costs no engine import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import jitctx
from tests.conftest import REPO


def test_every_public_name_resolves_and_dir_lists_it() -> None:
    for name in jitctx.__all__:
        assert getattr(jitctx, name) is not None, name
    assert set(jitctx.__all__) <= set(dir(jitctx))


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        jitctx.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("no AttributeError")


def test_a_harness_needs_no_deep_import() -> None:
    """The README's API example, with only names from `jitctx`."""
    from jitctx import LoadReason, Project, Session, affected_paths, get_profile, profile_names

    example = REPO / "examples" / "monorepo"
    session = Session(Project(example, profile=get_profile("claude-code")), cwd=str(example), use_git=False)
    session.startup()
    step = session.on_tool_call("Read", {"file_path": "src/ui/Footer.tsx"})
    assert any(load.reason is LoadReason.NESTED_TRAVERSAL for load in step.loaded)
    assert affected_paths("Bash", {"command": "cat > out/x.py <<EOF\nx\nEOF"}) == ("out/x.py",)
    assert "gemini-cli" in profile_names()


def test_importing_the_package_imports_nothing_else() -> None:
    """Only the slot through which the facade tells the core of the live clients (`live_clients`)."""
    code = "import sys, jitctx; print(sorted(m for m in sys.modules if m.startswith('jitctx')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['jitctx', 'jitctx.live_clients']"


def test_the_readme_lists_exactly_the_public_surface() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("### Python API", 1)[1].split("\n## ", 1)[0]
    listed = {line.split("`")[1] for line in section.splitlines() if line.startswith("| `")}
    assert listed == set(jitctx.__all__) - {"__version__"}
    assert Path(jitctx.__file__).name == "__init__.py"


def test_affected_paths_reads_a_client_s_own_tools() -> None:
    """Issue #29: any caller can ask what a live client's tool call touches, under the client's own tool
    names and fields (Copilot CLI's `view` of `path`); without a client, any name jitctx knows."""
    import pytest

    from jitctx import JitctxError, affected_paths

    view = {"path": "/p/src/ui/Footer.tsx"}
    assert affected_paths("view", view, client="copilot-cli") == ("/p/src/ui/Footer.tsx",)
    assert affected_paths("view", view) == ("/p/src/ui/Footer.tsx",)
    assert affected_paths("view", view, client="claude-code") == ()  # not a Claude Code tool
    assert affected_paths("read", {"filePath": "a.ts"}, client="opencode") == ("a.ts",)
    assert affected_paths("Bash", {"command": "touch x", "workdir": "w"}, client="codex") == ("w/x",)
    assert affected_paths("run_shell_command", {"command": "touch x"}, client="gemini") == ("x",)  # an alias
    with pytest.raises(JitctxError, match="unknown client 'vim'"):
        affected_paths("read", {"file_path": "a.ts"}, client="vim")
