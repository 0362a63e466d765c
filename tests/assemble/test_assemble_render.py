"""Render styles: the exact text each agent receives around an instruction file."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.assemble import (
    STYLES,
    RenderItem,
    RenderStyle,
    get_style,
    render_block,
    render_overhead,
    render_payload,
    rendered_size,
)
from jitctx.errors import UsageError
from jitctx.model import Tier
from jitctx.profiles import PROFILES

CLAUDE_INTRO = (
    "Codebase and user instructions are shown below. Be sure to adhere to these instructions. "
    "IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written."
)


def test_every_profile_names_a_known_style() -> None:
    assert {p.render for p in PROFILES.values()} <= set(STYLES)


@pytest.mark.parametrize(
    ("style", "expected"),
    [
        ("plain", "Instructions from: src/ui/CLAUDE.md\n\nUse tabs."),
        ("claude", "Contents of src/ui/CLAUDE.md:\n\nUse tabs."),  # Claude Code's nested (JIT) memory form
        ("agents-md", "# AGENTS.md instructions for src/ui\n\n<INSTRUCTIONS>\nUse tabs.\n</INSTRUCTIONS>"),
        ("dsh", "Instructions from: src/ui/CLAUDE.md\n\nUse tabs."),
    ],
)
def test_a_block_is_a_header_naming_the_path_then_the_text(style: str, expected: str) -> None:
    assert render_block("src/ui/CLAUDE.md", "Use tabs.", style) == expected


def test_claude_payload_is_the_memory_section_in_a_system_reminder() -> None:
    items = [
        RenderItem("~/.claude/CLAUDE.md", "u", Tier.USER),
        RenderItem("CLAUDE.md", "p"),
        RenderItem("CLAUDE.local.md", "l", Tier.LOCAL),
    ]
    assert render_payload(items, "claude") == (
        "<system-reminder>\n"
        f"{CLAUDE_INTRO}\n\n"
        "Contents of ~/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nu\n\n"
        "Contents of CLAUDE.md (project instructions, checked into the codebase):\n\np\n\n"
        "Contents of CLAUDE.local.md (user's private project instructions, not checked in):\n\nl"
        "\n</system-reminder>"
    )


def test_codex_payload_is_one_fragment_naming_the_most_specific_directory() -> None:
    items = [RenderItem("AGENTS.md", "root"), RenderItem("pkg/AGENTS.md", "pkg")]
    assert render_payload(items, "agents-md") == (
        "# AGENTS.md instructions for pkg\n\n<INSTRUCTIONS>\nroot\n\npkg\n</INSTRUCTIONS>"
    )
    assert render_payload([RenderItem("AGENTS.md", "x")], "agents-md").startswith(
        "# AGENTS.md instructions for .\n"
    )


def test_dsh_payload_frame_intro_and_header() -> None:
    text = render_payload([("AGENTS.md", "body")], "dsh")
    assert text.startswith("<system-reminder>\n")
    assert text.endswith("\n\nInstructions from: AGENTS.md\n\nbody\n</system-reminder>")
    assert len(text.encode()) == 304 + 4


@pytest.mark.parametrize(
    ("style", "display", "overhead"),
    [
        ("dsh", "AGENTS.md", 304),
        ("dsh", "packages/web/AGENTS.md", 317),  # a longer path costs more: 13 more characters
        ("plain", "AGENTS.md", 30),
        ("agents-md", "AGENTS.md", 63),
        ("claude", "CLAUDE.md", 306),
    ],
)
def test_render_overhead(style: str, display: str, overhead: int) -> None:
    assert render_overhead(display, style) == overhead


def test_no_files_render_nothing() -> None:
    assert render_payload([], "claude") == ""
    assert rendered_size([], "dsh") == 0


def test_braces_in_paths_and_text_are_left_alone() -> None:
    assert (
        render_block("{label}/x.md", "{path} {dir}", "plain")
        == "Instructions from: {label}/x.md\n\n{path} {dir}"
    )


def test_unknown_style_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown render style 'xml'"):
        get_style("xml")


def test_a_custom_style_can_set_any_overhead() -> None:
    style = RenderStyle("mine", "<<", "", "[{path}]", "|", ">>", "", "")
    assert render_payload([("a", "1"), ("b", "2")], style) == "<<[a]1|[b]2>>"
    assert render_overhead("a", style) == 7


@settings(max_examples=200, deadline=None)
@given(
    items=st.lists(
        st.tuples(
            st.text(alphabet="ab/汉.", min_size=1, max_size=12),
            st.text(alphabet=st.sampled_from(["x", "\n", "汉", "😀", "{", "}"]), max_size=40),
            st.sampled_from(list(Tier)),
        ),
        max_size=5,
    ),
    style=st.sampled_from(sorted(STYLES)),
)
def test_rendered_size_is_the_byte_length_of_the_payload(
    items: list[tuple[str, str, Tier]], style: str
) -> None:
    assert rendered_size(items, style) == len(render_payload(items, style).encode("utf-8"))
