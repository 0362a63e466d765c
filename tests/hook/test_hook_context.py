"""The pieces of a hook answer: the 10,000-character cap, @mentions, and what a host loads by itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.clients.base import Follower
from jitctx.clients.claude_code.client import ClaudeFollower
from jitctx.hook.context import CONTEXT_LIMIT, fit_context, mentions, render_block, why
from jitctx.hook.host_files import HostFiles
from jitctx.hook.touches import Touched
from jitctx.model import InstructionFile, Load, LoadReason, Scope, Tier
from jitctx.profiles import get_profile

ROOT = "/work/proj"
HOME = "/home/dev"


def load(
    display: str,
    text: str = "rule",
    *,
    root: str = ROOT,
    reason: LoadReason = LoadReason.NESTED_TRAVERSAL,
    tier: Tier = Tier.PROJECT,
    scoped: bool = False,
    trigger: str | None = "src/a.ts",
    parent: str | None = None,
) -> Load:
    scope = Scope(("src/**",), "paths", "bun", ".*") if scoped else None
    path = display if display.startswith("/") else f"{root}/{display}"
    file = InstructionFile(
        path=path, display=display, tier=tier, text=text, size=len(text), mtime_ns=0, scope=scope
    )
    return Load(file, reason, trigger=trigger, parent=parent)


# -- the cap ---------------------------------------------------------------------------------------------


def test_small_answers_are_whole_and_in_load_order() -> None:
    loads = [load("AGENTS.md", "one"), load("src/AGENTS.md", "two")]
    fitted = fit_context(loads)
    assert fitted.text == (
        "Contents of AGENTS.md (applies to src/a.ts):\n\none\n\n"
        "Contents of src/AGENTS.md (applies to src/a.ts):\n\ntwo"
    )
    assert fitted.included == ("AGENTS.md", "src/AGENTS.md") and fitted.omitted == ()


def test_past_the_cap_whole_blocks_go_in_and_the_rest_is_named() -> None:
    loads = [load(f"pkg{i}/AGENTS.md", "x" * 4000) for i in range(3)]
    fitted = fit_context(loads)
    assert len(fitted.text) <= CONTEXT_LIMIT
    assert fitted.included == ("pkg0/AGENTS.md", "pkg1/AGENTS.md")
    assert fitted.omitted == ("pkg2/AGENTS.md",)
    assert f"- Read {ROOT}/pkg2/AGENTS.md (applies to src/a.ts)" in fitted.text
    assert "10,000-character limit" in fitted.text
    assert fitted.text.count("x" * 4000) == 2  # never half a file


def test_a_file_larger_than_the_cap_is_only_named_and_smaller_ones_after_it_still_fit() -> None:
    loads = [load("huge/AGENTS.md", "y" * 12_000), load("small/AGENTS.md", "keep me")]
    fitted = fit_context(loads)
    assert fitted.included == ("small/AGENTS.md",) and fitted.omitted == ("huge/AGENTS.md",)
    assert "keep me" in fitted.text and "y" * 100 not in fitted.text
    assert len(fitted.text) <= CONTEXT_LIMIT


def test_a_very_long_list_of_omitted_files_is_counted() -> None:
    loads = [load(f"d{i}/AGENTS.md", "z" * 10_001) for i in range(60)]
    fitted = fit_context(loads)
    assert len(fitted.text) <= CONTEXT_LIMIT and fitted.included == ()
    assert "... and 20 more" in fitted.text


@settings(max_examples=200, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=0, max_value=12_000), max_size=12), limit=st.integers(3000, 20_000)
)
def test_the_cap_always_holds_and_every_file_is_sent_or_named(sizes: list[int], limit: int) -> None:
    loads = [load(f"p{i}/AGENTS.md", "w" * size) for i, size in enumerate(sizes)]
    fitted = fit_context(loads, limit)
    assert len(fitted.text) <= limit
    assert sorted(fitted.included + fitted.omitted) == sorted(x.file.display for x in loads)
    for display in fitted.included:
        assert f"Contents of {display} " in fitted.text


@pytest.mark.parametrize(
    ("the_load", "expected"),
    [
        (load("a.md", reason=LoadReason.SESSION_START, trigger=None), "session start"),
        (load("a.md", reason=LoadReason.SESSION_START, trigger="src/ui/"), "session start, src/ui/"),
        (load("a.md", reason=LoadReason.COMPACT), "re-sent after compaction"),
        (load("a.md", reason=LoadReason.INCLUDE, parent="CLAUDE.md"), "imported by CLAUDE.md"),
        (load("a.md", reason=LoadReason.NESTED_TRAVERSAL), "applies to src/a.ts"),
    ],
)
def test_why_a_file_loaded(the_load: Load, expected: str) -> None:
    assert why(the_load) == expected


def test_a_glob_match_names_its_globs() -> None:
    scoped = Load(
        load("r.md").file, LoadReason.PATH_GLOB_MATCH, trigger="src/a.ts", globs=("src/**", "lib/**")
    )
    assert render_block(scoped).startswith("Contents of r.md (src/**, lib/** matches src/a.ts):\n\n")


# -- @mentions --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("look at @src/a.ts please", ["src/a.ts"]),
        ("@README.md first", ["README.md"]),
        ("mail me@example.com", []),
        ("see (@docs/x.md), then @y.md.", ["docs/x.md", "y.md"]),
        ("inline `@not/this.ts` but @this.ts", ["this.ts"]),
        ("```\n@fenced/file.py\n```\n@after.py", ["after.py"]),
        ('quoted @"dir with space/f.md" ok', ["dir with space/f.md"]),
        ("anchor @NOTES.md#heading", ["NOTES.md"]),
        ("twice @a.md and @a.md", ["a.md"]),
        ("url @https://example.com/x", []),
        ("home @~/notes.md", ["~/notes.md"]),
        ("lone @ sign", []),
        ("中文 @文档/说明.md 之后", ["文档/说明.md"]),
    ],
)
def test_mentions(prompt: str, expected: list[str]) -> None:
    assert mentions(prompt) == expected


# -- what the host loads by itself ---------------------------------------------------------------------------


def host(agent: str, cwd: str = ROOT) -> HostFiles:
    return HostFiles(get_profile(agent), ROOT, cwd, HOME)


def native_row(
    agent: str,
    display: str,
    tool: str | None,
    *,
    cwd: str = ROOT,
    tier: Tier = Tier.PROJECT,
    scoped: bool = False,
) -> bool:
    root = HOME if tier is Tier.USER else ROOT
    the_load = load(display, root=root, tier=tier, scoped=scoped)
    # A row names the call: "Read" stands for a call the host follows itself, any other tool for one it
    # does not, None for session start.
    return host(agent, cwd).native(the_load, None if tool is None else tool == "Read", set())


@pytest.mark.parametrize(
    ("agent", "display", "tool", "cwd", "expected"),
    [
        # Claude Code at start: its own names on the root-to-cwd chain, nothing else.
        ("claude-code", "CLAUDE.md", None, ROOT, True),
        ("claude-code", ".claude/CLAUDE.md", None, ROOT, True),
        ("claude-code", "CLAUDE.local.md", None, ROOT, True),
        # AGENTS.md when no CLAUDE.md is on the cwd chain (Claude Code 2.1.277 on; see the test below).
        ("claude-code", "AGENTS.md", None, ROOT, True),
        ("claude-code", "GEMINI.md", None, ROOT, False),
        ("claude-code", "src/CLAUDE.md", None, ROOT, False),
        ("claude-code", "src/CLAUDE.md", None, f"{ROOT}/src/ui", True),
        ("claude-code", "claude.md", None, ROOT, False),  # a jitctx-only spelling
        ("claude-code", ".claude/rules/a.md", None, ROOT, True),
        ("claude-code", ".cursor/rules/a.mdc", None, ROOT, False),
        ("claude-code", ".github/copilot-instructions.md", None, ROOT, False),
        # After a Read it loads its nested files and rules; after anything else, nothing.
        ("claude-code", "src/CLAUDE.md", "Read", ROOT, True),
        ("claude-code", "src/CLAUDE.md", "Write", ROOT, False),
        ("claude-code", "src/CLAUDE.md", "Edit", ROOT, False),
        ("claude-code", "src/CLAUDE.md", "Bash", ROOT, False),
        ("claude-code", "src/AGENTS.md", "Read", ROOT, True),
        ("claude-code", "src/AGENTS.md", "Bash", ROOT, False),
        ("claude-code", ".claude/rules/a.md", "Read", ROOT, True),
        ("claude-code", ".claude/rules/a.md", "Write", ROOT, True),  # unconditional: loaded at start
        ("claude-code", "CLAUDE.md", "Write", ROOT, True),
        # Codex: AGENTS.md from the root to the cwd, nothing nested, ever.
        ("codex", "AGENTS.md", None, ROOT, True),
        ("codex", "CLAUDE.md", None, ROOT, False),
        ("codex", "src/AGENTS.md", None, ROOT, False),
        ("codex", "src/AGENTS.md", None, f"{ROOT}/src", True),
        ("codex", "src/AGENTS.md", "Read", ROOT, False),
        ("codex", "src/AGENTS.md", "shell", ROOT, False),
        ("codex", ".claude/rules/a.md", None, ROOT, False),
    ],
)
def test_what_the_host_loads_itself(
    agent: str, display: str, tool: str | None, cwd: str, expected: bool
) -> None:
    assert native_row(agent, display, tool, cwd=cwd) is expected


def test_scoped_rules_are_not_loaded_at_start_but_after_a_read() -> None:
    assert native_row("claude-code", ".claude/rules/ui.md", None, scoped=True) is False
    assert native_row("claude-code", ".claude/rules/ui.md", "Read", scoped=True) is True
    assert native_row("claude-code", ".claude/rules/ui.md", "Write", scoped=True) is False


@pytest.mark.parametrize(
    ("tool", "tool_input", "old", "wide"),
    [
        ("Read", {"file_path": "src/a.ts"}, "Read", "Read"),
        ("Write", {"file_path": "src/a.ts"}, "Write", "Read"),
        ("Edit", {"file_path": "src/a.ts"}, "Edit", "Read"),
        ("MultiEdit", {"file_path": "src/a.ts"}, "MultiEdit", "MultiEdit"),  # not seen to load anything
        ("Bash", {"command": "cat src/a.ts"}, "Bash", "Read"),  # a one-file read the client follows
        ("Bash", {"command": "nl -ba src/a.ts"}, "Bash", "Bash"),
        ("Bash", {"command": "touch src/b.ts"}, "Bash", "Bash"),
    ],
)
def test_which_calls_a_claude_code_release_follows_as_reads(
    tmp_path: Path, tool: str, tool_input: dict[str, str], old: str, wide: str
) -> None:
    """The touched path of a call is counted under "Read" where the release loads its nested files
    itself; the host's files then count as its own after "Read" only (see test_what_the_host_loads_itself)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.ts").write_text("x\n")
    for version, expected in (("2.1.197", old), ("2.1.332", wide), (None, old)):
        transcript = tmp_path / f"t-{version}.jsonl"
        transcript.write_text(json.dumps({"version": version}) + "\n" if version else "{}\n")
        touched = Touched(ClaudeFollower(str(transcript)), str(transcript), str(tmp_path))
        touched.add_call(tool, tool_input)
        assert list(touched.followed.values()) == [expected == "Read"], version  # None: unknown, oldest
    codex = Touched(Follower(), None, str(tmp_path))
    codex.add_call(tool, tool_input)
    assert list(codex.followed.values()) == [False]  # a client without a follower follows nothing


def test_user_files_follow_the_host() -> None:
    assert native_row("claude-code", f"{HOME}/.claude/CLAUDE.md", None, tier=Tier.USER) is True
    assert native_row("claude-code", f"{HOME}/.codex/AGENTS.md", None, tier=Tier.USER) is False
    assert native_row("codex", f"{HOME}/.codex/AGENTS.md", None, tier=Tier.USER) is True
    assert native_row("codex", f"{HOME}/.claude/CLAUDE.md", None, tier=Tier.USER) is False


def test_imports_follow_the_file_that_imports_them() -> None:
    claude = host("claude-code")
    parents: set[str] = set()
    root_file = load("CLAUDE.md", reason=LoadReason.SESSION_START)
    imported = load("docs/conventions.md", reason=LoadReason.INCLUDE, parent="CLAUDE.md")
    assert claude.native(root_file, None, parents) and claude.native(imported, None, parents)
    from_gemini = load("docs/api.md", reason=LoadReason.INCLUDE, parent="GEMINI.md")
    assert not claude.native(from_gemini, None, set())
    # The importing file loaded in an earlier call: judged by its path.
    assert claude.native(imported, None, set())


def test_a_cwd_outside_the_root_counts_as_the_root() -> None:
    assert native_row("claude-code", "CLAUDE.md", None, cwd="/elsewhere") is True
    assert native_row("claude-code", "src/CLAUDE.md", None, cwd="/elsewhere") is False


def test_payload_fixtures_exist() -> None:
    assert (Path(__file__).parent / "payloads" / "claude_post_tool_use_read.json").is_file()


def test_agents_md_is_the_hosts_only_in_a_project_without_claude_md(tmp_path: Path) -> None:
    """Claude Code reads AGENTS.md files (root and nested) only when no directory from the root down to its
    cwd holds a CLAUDE.md (a CLAUDE.md that links to AGENTS.md counts); otherwise every AGENTS.md is
    jitctx's to send, so none arrives twice or never."""
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "AGENTS.md").write_text("# a\n", encoding="utf-8")
    (root / "src" / "AGENTS.md").write_text("# s\n", encoding="utf-8")

    def native(display: str, tool: str | None) -> bool:
        claude = HostFiles(get_profile("claude-code"), str(root), str(root), None)
        return claude.native(load(display, root=str(root)), None if tool is None else tool == "Read", set())

    assert native("AGENTS.md", None) is True  # no CLAUDE.md anywhere: Claude Code reads AGENTS.md
    assert native("src/AGENTS.md", "Read") is True
    (root / "CLAUDE.md").symlink_to(root / "AGENTS.md")
    assert native("AGENTS.md", None) is False  # read as CLAUDE.md, which jitctx leaves to the host
    assert native("src/AGENTS.md", "Read") is False  # a CLAUDE.md on the chain keeps every AGENTS.md out
