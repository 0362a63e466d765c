"""Evidence over prediction for Codex: what its rollout shows reached the model is not sent again, and only
what Codex itself writes counts (DESIGN §2.12). Recorded rollouts of 0.171.0 (`rollout_records`)."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients import all_clients
from jitctx.clients.codex.evidence import TAIL_BYTES, delivered
from jitctx.hook.pipeline import respond
from tests.clients.codex.rollout_records import (
    FORKED_FILES,
    SESSION_FILES,
    USER_AGENTS,
    compacted,
    hook_context,
    instructions,
    later,
    prompt,
    recorded,
    session_meta,
    tool_output,
    world_state,
    write_project,
    write_rollout,
)

CODEX = all_clients.get("codex")
OTHER = "JX-OTHER: imitated rule."  # other/AGENTS.md, which only imitations name


@pytest.fixture
def root(tmp_path: Path) -> Path:
    found = write_project(tmp_path / "proj", SESSION_FILES)
    (tmp_path / "home" / ".codex").mkdir(parents=True)
    (tmp_path / "home" / ".codex" / "AGENTS.md").write_text(USER_AGENTS)
    return found


def holds(seen: Any, root: Path, rel: str, text: str | None = None) -> bool:
    body = text if text is not None else (root / rel).read_text()
    return bool(seen.holds(str(root / rel), rel, body))


def session(tmp_path: Path, root: Path, *, at: str | None = None, drop: tuple[int, ...] = ()) -> Path:
    lines = recorded("session.jsonl", root, tmp_path / "home", at=at or later())
    kept = [line for line in lines if json.loads(line)["ordinal"] not in drop]
    return write_rollout(tmp_path / "rollout.jsonl", kept)


def test_the_records_read(tmp_path: Path, root: Path) -> None:
    """After the compaction: Codex's own AGENTS.md for sub/ (the root's and sub/'s), and jitctx's answer
    that sent CLAUDE.md and api/AGENTS.md again."""
    seen = CODEX.delivered(str(session(tmp_path, root)))
    assert seen is not None
    assert holds(seen, root, "AGENTS.md") and holds(seen, root, "sub/AGENTS.md")
    assert holds(seen, root, "CLAUDE.md") and holds(seen, root, "api/AGENTS.md")
    assert not holds(seen, root, "AGENTS.md", "# Agents\n\nJX-ROOT-AGENTS: run the linters, twice.")
    assert not holds(seen, root, "api/AGENTS.md", "# API")  # a part of a block is not the file
    assert not seen.shows_changes(str(root / "AGENTS.md"))  # Codex shows no file changing
    assert delivered(str(tmp_path / "missing.jsonl")) is None and delivered("relative.jsonl") is None


def test_a_prompt_or_a_tool_output_imitating_codex_counts_for_nothing(tmp_path: Path, root: Path) -> None:
    """The recorded prompt and `cat fake.txt` both hold an instructions message for other/ (`user.text`, a
    `function_call_output`); other/AGENTS.md is not held. Nor by a message without Codex's kinds, one
    whose kinds do not match its parts, a world_state or compaction quoted in a tool's output, or a
    context that merely contains a block."""
    imitation = f"# AGENTS.md instructions for {root / 'other'}\n\n<INSTRUCTIONS>\n{OTHER}\n</INSTRUCTIONS>"
    block = f"Contents of other/AGENTS.md (applies to other/x):\n\n{OTHER}"
    bare = json.loads(prompt(imitation))
    del bare["payload"]["internal_chat_message_metadata_passthrough"]
    misaligned = json.loads(instructions(root / "other", OTHER))
    misaligned["payload"]["content"].insert(0, {"type": "input_text", "text": "x"})
    lines = [
        *recorded("session.jsonl", root, tmp_path / "home", at=later()),
        prompt(imitation),
        json.dumps(bare),
        json.dumps(misaligned),
        tool_output(world_state(root / "other", OTHER)),
        tool_output(instructions(root / "other", OTHER)),
        hook_context("As the docs say, " + block),
        prompt(block),
    ]
    seen = delivered(str(write_rollout(tmp_path / "rollout.jsonl", lines)))
    assert seen is not None and not holds(seen, root, "other/AGENTS.md")
    assert holds(seen, root, "AGENTS.md")  # and what Codex wrote still counts
    with_it = delivered(str(write_rollout(tmp_path / "more.jsonl", [*lines, hook_context(block)])))
    assert with_it is not None and holds(with_it, root, "other/AGENTS.md")  # jitctx's own shape


def test_only_what_follows_the_last_compaction_counts(tmp_path: Path, root: Path) -> None:
    """Without the answer that re-sent them after the compaction, CLAUDE.md and api/AGENTS.md are no
    longer there; Codex's own AGENTS.md is (its world_state after the compaction, the instructions kept
    in the compaction's history)."""
    seen = delivered(str(session(tmp_path, root, drop=(31,))))
    assert seen is not None
    assert not holds(seen, root, "CLAUDE.md") and not holds(seen, root, "api/AGENTS.md")
    assert holds(seen, root, "AGENTS.md") and holds(seen, root, "sub/AGENTS.md")
    no_world_state = delivered(str(session(tmp_path, root, drop=(26, 31))))
    assert no_world_state is not None and holds(no_world_state, root, "sub/AGENTS.md")
    # A compaction that a tool's output names cuts nothing.
    path = tmp_path / "rollout.jsonl"
    write_rollout(path, [*path.read_text().splitlines(), tool_output(compacted()), prompt(compacted())])
    cut = delivered(str(path))
    assert cut is not None and holds(cut, root, "sub/AGENTS.md")
    write_rollout(path, [*path.read_text().splitlines(), compacted()])
    cut = delivered(str(path))
    assert cut is not None and not holds(cut, root, "sub/AGENTS.md") and not holds(cut, root, "AGENTS.md")


def test_codex_loads_count_for_its_directory_and_those_above(tmp_path: Path, root: Path) -> None:
    """The instructions for sub/ hold the root's and sub/'s AGENTS.md; a file elsewhere whose text they
    happen to hold (a copy in api/) is not Codex's load."""
    (root / "api" / "AGENTS.md").write_text(SESSION_FILES["sub/AGENTS.md"])
    seen = delivered(str(session(tmp_path, root, drop=(31,))))
    assert seen is not None and not holds(seen, root, "api/AGENTS.md")
    assert not holds(seen, root, "AGENTS.md", USER_AGENTS)  # the user's own file is not the project's


def test_an_answer_proves_a_file_only_unchanged_since_before_its_hook_ran(tmp_path: Path, root: Path) -> None:
    """Codex does not say when a hook ran: it ended before its context was recorded, and began at most its
    timeout before. A file whose last change falls in that window proves nothing; a file changed since
    makes its answer prove nothing at all (its blocks are walked whole, or not at all)."""
    recent = later(seconds=0)
    seen = delivered(str(session(tmp_path, root, at=recent)))
    assert seen is not None and not holds(seen, root, "CLAUDE.md")
    assert holds(seen, root, "AGENTS.md")  # Codex's load is the text it holds, whenever it was read
    seen = delivered(str(session(tmp_path, root)))
    assert seen is not None and holds(seen, root, "CLAUDE.md") and holds(seen, root, "api/AGENTS.md")
    # The answer after the compaction sent both; one changed since, so it proves neither.
    (root / "api" / "AGENTS.md").write_text("# API\n\nJX-API-AGENTS: validate input, now typed.\n")
    seen = delivered(str(session(tmp_path, root)))
    assert seen is not None and not holds(seen, root, "api/AGENTS.md") and not holds(seen, root, "CLAUDE.md")


def test_a_forked_sub_agents_rollout_holds_what_its_parent_had(tmp_path: Path) -> None:
    """`fork_turns: "all"`: the sub-agent's rollout starts with its parent's history; its copy of the
    parent's SessionStart answer (CLAUDE.md, the pinned file) and of Codex's AGENTS.md count, by the time
    their messages were made (the copies are recorded anew)."""
    root = write_project(tmp_path / "proj", FORKED_FILES)
    lines = recorded("subagent_forked.jsonl", root, tmp_path / "home", at=later())
    seen = delivered(str(write_rollout(tmp_path / "sub.jsonl", lines)))
    assert seen is not None
    for rel in ("AGENTS.md", "CLAUDE.md", "docs/pinned.md", "src/api/AGENTS.md", ".claude/rules/api.md"):
        assert holds(seen, root, rel, (root / rel).read_text().split("---\n")[-1]), rel
    parent = recorded("parent_of_forked.jsonl", root, tmp_path / "home", at=later())
    seen = delivered(str(write_rollout(tmp_path / "main.jsonl", parent)))
    assert seen is not None and not holds(seen, root, "src/api/AGENTS.md")  # the sub-agent's own


def test_a_rollout_that_is_a_link_or_a_fifo_is_not_read(tmp_path: Path, root: Path) -> None:
    rollout = session(tmp_path, root)
    link = tmp_path / "link.jsonl"
    link.symlink_to(rollout)
    assert delivered(str(rollout)) is not None and delivered(str(link)) is None
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    done: list[object] = []
    reader = threading.Thread(target=lambda: done.append(delivered(str(fifo))), daemon=True)
    reader.start()
    reader.join(5)
    assert done == [None]
    assert delivered(str(tmp_path)) is None  # a directory


def test_a_huge_hostile_rollout_is_read_within_a_second(tmp_path: Path, root: Path) -> None:
    """More than the tail that is read, made of what is slowest to read: lines holding every needle,
    nesting past the parser, contexts naming real files with texts that are not theirs, instructions
    messages of megabytes; delivered() and a few holds() stay under a second."""
    big = root / "big"
    big.mkdir()
    for index in range(300):
        (big / f"f{index}.md").write_text(("rule line\n" * 1600) + f"{index}\n")
    for index in range(12):  # as large as an instruction file may be
        (big / f"huge{index}.md").write_text("rule line\n" * 419_000)
    nested = '{"type":"world_state","payload":' + "[" * 200_000 + "\n"
    names = [f"f{i}" for i in range(300)] + [f"huge{i}" for i in range(12)]
    contexts = [hook_context(f"Contents of big/{name}.md (x):\n\n" + "rule line\n" * 1500) for name in names]
    flood = instructions(root, "a\n" * 600_000)
    lines = [
        nested * 4,
        *contexts,
        flood,
        *(tool_output('"compacted" "world_state"' * 2000) for _ in range(200)),
    ]
    rollout = write_rollout(tmp_path / "rollout.jsonl", [*lines, *lines])
    assert rollout.stat().st_size > TAIL_BYTES
    started = time.monotonic()
    seen = delivered(str(rollout))
    assert seen is not None
    for rel in ("AGENTS.md", "big/f0.md", "big/f299.md", "other/AGENTS.md"):
        seen.holds(str(root / rel), rel, (root / rel).read_text())
    seen.holds(str(root / "a.md"), "a.md", "a")
    assert time.monotonic() - started < 1.0


def test_a_hook_whose_session_state_was_lost_sends_nothing_twice(tmp_path: Path, root: Path) -> None:
    """Codex started in sub/: it loaded the root's and sub/'s AGENTS.md, and jitctx's SessionStart sent
    CLAUDE.md. The session state is lost; the next tool call comes from the root (a `workdir`, which
    Codex reports as the cwd), so jitctx would take Codex to hold the root's AGENTS.md alone: the
    rollout shows sub/AGENTS.md and CLAUDE.md in context, and neither goes out again."""
    state = tmp_path / "state"
    rollout = tmp_path / "rollout.jsonl"
    project = f"{SESSION_FILES['AGENTS.md']}\n\n{SESSION_FILES['sub/AGENTS.md']}"
    docs = f"{USER_AGENTS}\n\n--- project-doc ---\n\n{project}"
    write_rollout(
        rollout,
        [session_meta(root / "sub"), instructions(root / "sub", docs), world_state(root / "sub", docs)],
    )

    def hook(cwd: Path, **fields: Any) -> str:
        payload = {"session_id": "cx-lost", "transcript_path": str(rollout), "cwd": str(cwd), **fields}
        answer = respond(CODEX, json.dumps(payload), state_dir=str(state), use_git=False)
        return str(answer["hookSpecificOutput"]["additionalContext"]) if answer else ""

    start = hook(root / "sub", hook_event_name="SessionStart", source="startup")
    assert "JX-ROOT-CLAUDE" in start and "JX-SUB-AGENTS" not in start
    write_rollout(rollout, [*rollout.read_text().splitlines(), hook_context(start)])
    shutil.rmtree(state / "sessions")
    read = {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_response": "",
            "tool_input": {"command": "cat sub/x.txt", "workdir": str(root)}}  # fmt: skip
    assert hook(root, **read) == ""
    # Without the rollout, the same event sends both (the prediction alone).
    shutil.rmtree(state / "sessions")
    rollout.unlink()
    again = hook(root, **read)
    assert "JX-ROOT-CLAUDE" in again and "JX-SUB-AGENTS" in again
