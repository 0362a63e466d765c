"""The re-injection invariant: every current JIT block is in the prompt exactly once, after the boundary."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.assemble import PromptAssembler
from jitctx.model import InstructionFile, Tier

STATIC = "You are a coding agent."
DYNAMIC = "Today is 2026-08-08."


def assembler() -> PromptAssembler:
    a = PromptAssembler(STATIC, DYNAMIC)
    a.add_block("src/ui/CLAUDE.md", "Use the design tokens.")
    return a


def count(a: PromptAssembler, path: str) -> int:
    return a.system_prompt.count(f"Instructions from: {path}\n")


# The seed's check, three rows: boundary before the block; three rebuilds leave it once; a bare
# set_system_prompt brings it back.
def test_the_boundary_comes_before_the_jit_block() -> None:
    a = assembler()
    prompt = a.system_prompt
    assert 0 < prompt.index(a.boundary) < prompt.index("Instructions from: src/ui/CLAUDE.md")
    assert prompt.index(DYNAMIC) < prompt.index("Instructions from: src/ui/CLAUDE.md")


def test_three_rebuilds_leave_each_block_once() -> None:
    a = assembler()
    a.add_block("AGENTS.md", "Root rules.")
    for _ in range(3):
        a.set_system_prompt(a.system_prompt)
    assert count(a, "src/ui/CLAUDE.md") == 1
    assert count(a, "AGENTS.md") == 1


def test_a_bare_set_system_prompt_brings_the_blocks_back() -> None:
    a = assembler()
    a.set_system_prompt("You are a coding agent on another model.")  # a rebuild that knows nothing of JIT
    prompt = a.system_prompt
    assert prompt.startswith("You are a coding agent on another model.\n\n")
    assert count(a, "src/ui/CLAUDE.md") == 1
    assert prompt.index(a.boundary) < prompt.index("Instructions from: src/ui/CLAUDE.md")


def test_the_property_setter_is_the_same_call() -> None:
    a = assembler()
    a.system_prompt = "rebuilt"
    assert count(a, "src/ui/CLAUDE.md") == 1


def test_a_rebuild_with_its_own_boundary_and_dynamic_zone_keeps_them() -> None:
    a = assembler()
    a.set_system_prompt(f"{STATIC}\n\n{a.boundary}\n\nToday is 2026-08-09.")
    snap = a.snapshot()
    assert (snap.static, snap.dynamic) == (STATIC, "Today is 2026-08-09.")
    assert [b.path for b in snap.blocks] == ["src/ui/CLAUDE.md"]


def test_set_dynamic_replaces_only_the_dynamic_zone() -> None:
    a = assembler()
    a.set_dynamic("Today is 2026-08-10.")
    assert (a.static, a.dynamic) == (STATIC, "Today is 2026-08-10.")
    assert count(a, "src/ui/CLAUDE.md") == 1


def test_a_fresher_version_replaces_the_block_in_place() -> None:
    a = assembler()
    a.add_block("AGENTS.md", "Root rules.")
    a.add_block("src/ui/CLAUDE.md", "Use the design tokens, v2.")
    assert [b.path for b in a.blocks] == ["src/ui/CLAUDE.md", "AGENTS.md"]
    assert "v2" in a.system_prompt
    assert "Use the design tokens.\n" not in a.system_prompt + "\n"
    assert a.system_prompt.index("v2") < a.system_prompt.index("Root rules.")
    assert count(a, "src/ui/CLAUDE.md") == 1


@pytest.mark.parametrize(
    ("v1", "v2"),
    [
        ("Rule one.", "Rule one.\n\nRule two."),  # a paragraph appended: v1 is a prefix of v2
        ("Rule one.\n\nRule two.", "Rule one."),  # a paragraph removed: v2 is a prefix of v1
        ("Rule one.", "Rule zero."),
    ],
)
def test_a_stale_copy_in_a_rebuilt_prompt_is_replaced_not_duplicated(v1: str, v2: str) -> None:
    a = PromptAssembler(STATIC)
    a.add_block("src/CLAUDE.md", v1)
    old_prompt = a.system_prompt  # a host that cached the prompt before the file changed
    a.add_block("src/CLAUDE.md", v2)
    a.set_system_prompt(old_prompt)
    assert a.system_prompt == f"{STATIC}\n\n{a.boundary}\n\nInstructions from: src/CLAUDE.md\n\n{v2}"
    a.set_system_prompt(a.system_prompt + "\n\nInstructions from: src/CLAUDE.md\n\n" + v1)
    assert count(a, "src/CLAUDE.md") == 1
    assert a.system_prompt.endswith(v2)


def test_adding_the_same_version_again_changes_nothing() -> None:
    a = assembler()
    before = a.system_prompt
    a.add_block("src/ui/CLAUDE.md", "Use the design tokens.")
    assert a.system_prompt == before


def test_remove_block_drops_it_and_keeps_it_out_of_rebuilds() -> None:
    a = assembler()
    a.add_block("AGENTS.md", "Root rules.")
    old_prompt = a.system_prompt
    assert a.remove_block("src/ui/CLAUDE.md") is True
    assert a.remove_block("src/ui/CLAUDE.md") is False
    assert count(a, "src/ui/CLAUDE.md") == 0
    a.set_system_prompt(old_prompt)  # a rebuild from before the file was deleted
    assert count(a, "src/ui/CLAUDE.md") == 0
    assert count(a, "AGENTS.md") == 1
    assert (
        a.system_prompt
        == f"{STATIC}\n\n{a.boundary}\n\n{DYNAMIC}\n\nInstructions from: AGENTS.md\n\nRoot rules."
    )


def test_a_removed_then_recreated_file_comes_back() -> None:
    a = assembler()
    a.remove_block("src/ui/CLAUDE.md")
    a.add_block("src/ui/CLAUDE.md", "Use the design tokens.")
    assert count(a, "src/ui/CLAUDE.md") == 1


def test_a_failure_inside_reinjection_never_blocks_the_write(monkeypatch: pytest.MonkeyPatch) -> None:
    a = assembler()

    def broken(text: str) -> str:
        raise RuntimeError("block provider exploded")

    monkeypatch.setattr(a, "_reinject", broken)
    a.set_system_prompt("new prompt")
    assert a.system_prompt == "new prompt"
    assert a.reinjection_errors == ("RuntimeError: block provider exploded",)
    monkeypatch.undo()
    a.set_system_prompt("newer prompt")
    assert count(a, "src/ui/CLAUDE.md") == 1  # the next write heals it


def test_no_blocks_no_boundary_added_to_a_bare_prompt() -> None:
    a = PromptAssembler()
    a.set_system_prompt("plain")
    assert a.system_prompt == "plain"
    assert PromptAssembler().system_prompt == PromptAssembler().boundary


def test_add_files_takes_session_blocks_in_load_order() -> None:
    files = [
        InstructionFile(
            path="/p/AGENTS.md", display="AGENTS.md", tier=Tier.PROJECT, text="r", size=1, mtime_ns=0
        ),
        InstructionFile(
            path="/p/a/AGENTS.md", display="a/AGENTS.md", tier=Tier.PROJECT, text="a", size=1, mtime_ns=0
        ),
    ]
    a = PromptAssembler("s", style="claude")
    a.add_files(files)
    assert [b.path for b in a.blocks] == ["AGENTS.md", "a/AGENTS.md"]
    assert a.system_prompt.endswith("Contents of AGENTS.md:\n\nr\n\nContents of a/AGENTS.md:\n\na")


def test_snapshot_splits_zones_and_blocks() -> None:
    a = assembler()
    a.add_block("AGENTS.md", "Root rules.")
    snap = a.snapshot()
    assert snap.static == STATIC
    assert snap.dynamic == DYNAMIC
    assert [b.rendered for b in snap.blocks] == [
        "Instructions from: src/ui/CLAUDE.md\n\nUse the design tokens.",
        "Instructions from: AGENTS.md\n\nRoot rules.",
    ]
    assert snap.text == a.system_prompt


paths = st.sampled_from(["AGENTS.md", "src/AGENTS.md", "src/ui/CLAUDE.md", "文档/规则.md"])
texts = st.text(alphabet=st.sampled_from(["a", "b", "\n", "汉", " "]), max_size=12)
ops = st.lists(
    st.one_of(
        st.tuples(st.just("add"), paths, texts),
        st.tuples(st.just("remove"), paths, st.just("")),
        st.tuples(st.just("rebuild"), st.sampled_from(["", "static", "s\n\nx"]), st.just("")),
        st.tuples(st.just("self"), st.just(""), st.just("")),
    ),
    max_size=12,
)


@settings(max_examples=250, deadline=None)
@given(ops=ops)
def test_every_block_is_present_once_after_the_boundary(ops: list[tuple[str, str, str]]) -> None:
    a = PromptAssembler(STATIC, DYNAMIC)
    for op, arg, text in ops:
        if op == "add":
            a.add_block(arg, text)
        elif op == "remove":
            a.remove_block(arg)
        elif op == "rebuild":
            a.set_system_prompt(arg)
        else:
            a.set_system_prompt(a.system_prompt)
        prompt = a.system_prompt
        for block in a.blocks:
            assert block.rendered in prompt
            assert prompt.index(a.boundary) < prompt.index(block.rendered)
            assert len(re.findall(f"Instructions from: {re.escape(block.path)}(?=\n|$)", prompt)) == 1
        before = prompt
        a.set_system_prompt(prompt)
        assert a.system_prompt == before  # idempotent
        assert [b.path for b in a.snapshot().blocks] == [b.path for b in a.blocks]
    assert a.reinjection_errors == ()


def test_a_block_quoting_another_block_is_not_mistaken_for_it() -> None:
    a = PromptAssembler(STATIC)
    a.add_block("a.md", "")
    a.add_block("AGENTS.md", "Instructions from: a.md")  # its text is exactly the other block
    for _ in range(3):
        a.set_system_prompt(a.system_prompt)
    blocks = "Instructions from: a.md\n\nInstructions from: AGENTS.md\n\nInstructions from: a.md"
    assert a.system_prompt == f"{STATIC}\n\n{a.boundary}\n\n{blocks}"
    assert [b.path for b in a.snapshot().blocks] == ["a.md", "AGENTS.md"]


def test_the_static_zone_is_never_edited_and_a_copy_there_counts_as_present() -> None:
    a = assembler()
    block = a.blocks[0].rendered
    a.set_system_prompt(f"{block}\n\n{a.system_prompt}")  # a host that put the block in its static part
    assert a.system_prompt == f"{block}\n\n{STATIC}\n\n{a.boundary}\n\n{DYNAMIC}"
    assert a.system_prompt.count(block) == 1


def test_a_deleted_files_block_at_the_start_of_a_bare_rebuild_is_removed() -> None:
    a = assembler()
    old_block = a.blocks[0].rendered
    a.remove_block("src/ui/CLAUDE.md")
    a.set_system_prompt(f"{old_block}\n\nrebuilt without a boundary")
    assert a.system_prompt == "rebuilt without a boundary"
