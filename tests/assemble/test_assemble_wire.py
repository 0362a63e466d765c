"""Request shapes per API family, and what a new JIT load costs each family's prompt cache."""

from __future__ import annotations

import json

import pytest

from jitctx.assemble import PromptAssembler, cache_cost, render_anthropic, render_openai, serialize
from jitctx.errors import UsageError

STATIC = "You are a coding agent."
DYNAMIC = "Today is 2026-08-08."
CHAT = [{"role": "user", "content": "fix the footer"}, {"role": "assistant", "content": "on it"}]


def assembler() -> PromptAssembler:
    a = PromptAssembler(STATIC, DYNAMIC)
    a.add_block("src/ui/CLAUDE.md", "Use the design tokens.")
    return a


def test_anthropic_breakpoint_at_the_end_of_the_static_zone_and_blocks_after_it() -> None:
    assert assembler().render("anthropic", messages=CHAT) == {
        "system": [
            {"type": "text", "text": STATIC, "cache_control": {"type": "ephemeral"}},
            {"type": "text", "text": DYNAMIC},
            {"type": "text", "text": "Instructions from: src/ui/CLAUDE.md\n\nUse the design tokens."},
        ],
        "messages": CHAT,
    }


def test_openai_static_first_dynamic_and_blocks_at_the_end() -> None:
    assert assembler().render("openai", messages=CHAT) == {
        "messages": [
            {"role": "system", "content": STATIC},
            *CHAT,
            {"role": "system", "content": DYNAMIC},
            {"role": "system", "content": "Instructions from: src/ui/CLAUDE.md\n\nUse the design tokens."},
        ]
    }


def test_text_render_leaves_the_boundary_marker_out() -> None:
    a = assembler()
    assert (
        a.render("text")
        == f"{STATIC}\n\n{DYNAMIC}\n\nInstructions from: src/ui/CLAUDE.md\n\nUse the design tokens."
    )
    assert a.boundary in a.system_prompt


def test_empty_zones_are_left_out() -> None:
    a = PromptAssembler()
    a.add_block("AGENTS.md", "x")
    assert render_anthropic(a.snapshot())["system"] == [
        {"type": "text", "text": "Instructions from: AGENTS.md\n\nx"}
    ]
    assert render_openai(a.snapshot(), role="developer")["messages"] == [
        {"role": "developer", "content": "Instructions from: AGENTS.md\n\nx"}
    ]


def test_renders_are_plain_json_data() -> None:
    a = assembler()
    for fmt in ("anthropic", "openai"):
        data = a.render(fmt, messages=CHAT)
        assert json.loads(json.dumps(data)) == data


def test_unknown_format_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown prompt format 'xml'"):
        assembler().render("xml")


def test_cache_cost_of_a_new_jit_load_per_renderer() -> None:
    a = assembler()
    before = a.snapshot()
    a.add_block("src/ui/forms/CLAUDE.md", "Label every input.")
    costs = {c.format: c for c in cache_cost(before, a, messages=CHAT)}
    new_block = "Instructions from: src/ui/forms/CLAUDE.md\n\nLabel every input."
    # text: the new block is appended, so only it (and its separator) is new
    assert costs["text"].bytes_after_change == len(("\n\n" + new_block).encode())
    # anthropic: the system list changes before the messages, so the conversation is re-read too
    anthropic_after = serialize(a.render("anthropic", messages=CHAT))
    assert costs["anthropic"].after_bytes == len(anthropic_after)
    assert costs["anthropic"].bytes_after_change > len(json.dumps(CHAT, separators=(",", ":")))
    # and the static zone with its breakpoint is untouched
    assert costs["anthropic"].unchanged_prefix > len(STATIC)
    # openai: the block lands at the end of the message list
    assert costs["openai"].bytes_after_change < costs["anthropic"].bytes_after_change
    for c in costs.values():
        assert c.unchanged_prefix + c.bytes_after_change == c.after_bytes


def test_cache_cost_is_zero_for_no_change_and_for_a_rebuild_that_changes_nothing() -> None:
    a = assembler()
    before = a.snapshot()
    a.set_system_prompt(a.system_prompt)
    assert all(c.bytes_after_change == 0 for c in cache_cost(before, a))


def test_a_changed_static_zone_costs_everything() -> None:
    a = assembler()
    before = a.snapshot()
    a.set_system_prompt(f"Xou are a coding agent.\n\n{a.boundary}\n\n{DYNAMIC}")
    (text,) = cache_cost(before, a, formats=["text"])
    assert text.unchanged_prefix == 0
    assert text.bytes_after_change == text.after_bytes


def test_a_refreshed_block_costs_from_its_first_changed_byte() -> None:
    a = assembler()
    before = a.snapshot()
    a.add_block("src/ui/CLAUDE.md", "Use the design tokens!")
    (text,) = cache_cost(before, a, formats=["text"])
    assert text.unchanged_prefix == len(a.render("text")) - 1
    assert text.bytes_after_change == 1


def test_cache_cost_reports_as_plain_data() -> None:
    a = assembler()
    before = a.snapshot()
    a.remove_block("src/ui/CLAUDE.md")  # the new request is a prefix of the old one: nothing to recompute
    (text,) = cache_cost(before, a, formats=["text"])
    assert text.to_dict() == {
        "format": "text",
        "before_bytes": text.before_bytes,
        "after_bytes": len(f"{STATIC}\n\n{DYNAMIC}"),
        "unchanged_prefix": len(f"{STATIC}\n\n{DYNAMIC}"),
        "bytes_after_change": 0,
    }
