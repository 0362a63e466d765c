"""A session of 50 tool calls through the hook: each instruction file goes out exactly once, at the call
that first brings it into scope, unless Claude Code loads it itself; everything again after compaction."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.hook.events import hook_event as event

PACKAGES = 5
TREE: dict[str, str] = {
    ".git/HEAD": "ref: refs/heads/main\n",  # a root marker; git itself is not needed (use_git=False)
    "CLAUDE.md": "# Root (Claude Code loads this itself)\n",
    "AGENTS.md": "# Root agents guide\n",
    ".claude/rules/ts.md": '---\npaths: ["**/*.ts"]\n---\n# TypeScript rule\n',
    ".cursor/rules/py.mdc": '---\nglobs: "**/*.py"\n---\n# Python rule (Cursor)\n',
    ".github/instructions/docs.instructions.md": '---\napplyTo: "docs/**"\n---\n# Docs rule (Copilot)\n',
    "docs/guide.md": "guide\n",
}
for _i in range(PACKAGES):
    TREE[f"pkg{_i}/AGENTS.md"] = f"# Package {_i} agents guide\n"
    TREE[f"pkg{_i}/CLAUDE.md"] = f"# Package {_i} Claude rules\n"
    TREE[f"pkg{_i}/src/mod.ts"] = "export {}\n"
    TREE[f"pkg{_i}/tool.py"] = "pass\n"

# Which files each touched path brings into scope, and whether Claude Code itself loads them after a Read.
CLAUDE_OWN = True


def in_scope(path: str) -> list[tuple[str, bool]]:
    found: list[tuple[str, bool]] = []
    top = path.split("/")[0]
    if top.startswith("pkg"):
        found += [(f"{top}/CLAUDE.md", CLAUDE_OWN), (f"{top}/AGENTS.md", False)]  # the profile's order
    if path.endswith(".ts"):
        found.append((".claude/rules/ts.md", CLAUDE_OWN))
    if path.endswith(".py"):
        found.append((".cursor/rules/py.mdc", False))
    if path.startswith("docs/"):
        found.append((".github/instructions/docs.instructions.md", False))
    return found


def tool_call(rng: random.Random, root: Path) -> tuple[str, dict[str, Any], str]:
    package = f"pkg{rng.randrange(PACKAGES)}"
    rel = rng.choice(
        [f"{package}/src/mod.ts", f"{package}/tool.py", f"{package}/src/new.ts", "docs/guide.md"]
    )
    tool = rng.choice(["Read", "Write", "Edit", "Bash"])
    if tool == "Bash":
        return tool, {"command": f"touch {rel}"}, rel
    return tool, {"file_path": str(root / rel)}, rel


@pytest.fixture
def project(tree: Any) -> Path:
    root: Path = tree(TREE)
    return root


def test_fifty_calls_send_each_file_once_and_all_again_after_compact(
    project: Path, call_hook: Any, run_hook_process: Any, answers: Any, release: tuple[str, bool]
) -> None:
    rng = random.Random(8)
    session = "fifty"
    transcript, wide = release
    # The tools after which Claude Code loads its own nested files itself, in this release.
    native_tools = {"Read", "Write", "Edit"} if wide else {"Read"}

    def hook(data: dict[str, Any], *, process: bool = False) -> dict[str, Any]:
        if process:
            code, answer, _ = run_hook_process("claude-code", data, "--no-git")
            assert code == 0
            return answer
        result: dict[str, Any] = call_hook("claude-code", data, use_git=False)
        return result

    start = hook(event(project, session, "SessionStart", transcript, source="startup"), process=True)
    assert answers.sent(start) == ["AGENTS.md"]
    held = {"CLAUDE.md", "AGENTS.md"}
    sent: list[tuple[int, str]] = []
    expected: list[tuple[int, str]] = []
    for index in range(50):
        tool, tool_input, rel = tool_call(rng, project)
        for file, claude_own in in_scope(rel):
            if file not in held:
                held.add(file)
                if not (claude_own and tool in native_tools):
                    expected.append((index, file))
        data = event(
            project,
            session,
            "PostToolUse",
            transcript,
            tool_name=tool,
            tool_input=tool_input,
            tool_response={},
        )
        answer = hook(data, process=index in (0, 17, 49))  # a few real processes share the same state
        sent.extend((index, file) for file in answers.sent(answer))
    assert sent == expected
    files = [file for _, file in sent]
    assert len(files) == len(set(files))  # exactly once each
    assert len(files) >= 8  # the sequence exercises most of the tree

    compact = hook(event(project, session, "SessionStart", transcript, source="compact"))
    assert sorted(answers.sent(compact)) == sorted(held - {"CLAUDE.md"})

    # After compaction the session goes on as before: nothing is sent twice.
    for _ in range(10):
        tool, tool_input, _rel = tool_call(rng, project)
        again = event(project, session, "PostToolUse", transcript, tool_name=tool, tool_input=tool_input)
        assert hook(again) == {}


def test_a_read_leaves_claude_codes_own_files_to_claude_code(
    project: Path, call_hook: Any, answers: Any, release: tuple[str, bool]
) -> None:
    transcript, wide = release
    mod = {"file_path": "pkg1/src/mod.ts"}
    read = event(project, "r", "PostToolUse", transcript, tool_name="Read", tool_input=mod)
    assert answers.sent(call_hook("claude-code", read, use_git=False)) == ["AGENTS.md", "pkg1/AGENTS.md"]
    edit = event(project, "e", "PostToolUse", transcript, tool_name="Edit", tool_input=mod)
    # The older release loads nested files only after its Read; the newer after an Edit too.
    claude_own = [] if wide else ["pkg1/CLAUDE.md"]
    rules = [] if wide else [".claude/rules/ts.md"]
    assert answers.sent(call_hook("claude-code", edit, use_git=False)) == [
        "AGENTS.md",
        *claude_own,
        "pkg1/AGENTS.md",
        *rules,
    ]


def test_clear_starts_over_and_resume_sends_nothing(
    project: Path, call_hook: Any, answers: Any, release: tuple[str, bool]
) -> None:
    transcript, wide = release

    def start(source: str) -> dict[str, Any]:
        result: dict[str, Any] = call_hook(
            "claude-code", event(project, "c", "SessionStart", transcript, source=source), use_git=False
        )
        return result

    assert answers.sent(start("startup")) == ["AGENTS.md"]
    assert start("resume") == {}
    write = event(
        project, "c", "PostToolUse", transcript, tool_name="Write", tool_input={"file_path": "pkg2/tool.py"}
    )
    after_write = [*([] if wide else ["pkg2/CLAUDE.md"]), "pkg2/AGENTS.md", ".cursor/rules/py.mdc"]
    assert answers.sent(call_hook("claude-code", write, use_git=False)) == after_write
    assert answers.sent(start("clear")) == ["AGENTS.md"]
    assert answers.sent(call_hook("claude-code", write, use_git=False)) == after_write


def test_a_sub_agent_has_its_own_channel(
    project: Path, call_hook: Any, answers: Any, release: tuple[str, bool]
) -> None:
    transcript, wide = release

    def write(agent_id: str | None) -> dict[str, Any]:
        fields: dict[str, Any] = {"tool_name": "Write", "tool_input": {"file_path": "pkg3/tool.py"}}
        if agent_id:
            fields["agent_id"] = agent_id
        result: dict[str, Any] = call_hook(
            "claude-code", event(project, "sub", "PostToolUse", transcript, **fields), use_git=False
        )
        return result

    claude_own = [] if wide else ["pkg3/CLAUDE.md"]  # the newer release loads it after a Write itself
    main = write(None)
    assert answers.sent(main) == ["AGENTS.md", *claude_own, "pkg3/AGENTS.md", ".cursor/rules/py.mdc"]
    assert write(None) == {}
    # The sub-agent saw none of that: it gets what applies, the root AGENTS.md included (not CLAUDE.md,
    # which Claude Code gives every agent itself).
    assert answers.sent(write("agent-1")) == [
        "AGENTS.md",
        *claude_own,
        "pkg3/AGENTS.md",
        ".cursor/rules/py.mdc",
    ]
    assert write("agent-1") == {}


def test_prompt_mentions_count_as_touches(
    project: Path, call_hook: Any, answers: Any, release: tuple[str, bool]
) -> None:
    transcript, _ = release
    prompt = (
        "Compare @pkg4/tool.py with `@pkg0/tool.py`, see @docs/guide.md. Mail ops@pkg1.dev, not @nowhere.md"
    )
    submit = event(project, "p", "UserPromptSubmit", transcript, prompt=prompt)
    answer = call_hook("claude-code", submit, use_git=False)
    assert answer["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    # Both releases attach a mentioned file and load its nested CLAUDE.md themselves (the real 2.1.197
    # and 2.1.332, tests/e2e).
    assert answers.sent(answer) == [
        "AGENTS.md",
        "pkg4/AGENTS.md",
        ".cursor/rules/py.mdc",
        ".github/instructions/docs.instructions.md",
    ]


def test_a_tool_that_touches_nothing_answers_empty(project: Path, call_hook: Any) -> None:
    start = event(project, "n", "SessionStart", source="startup")
    call_hook("claude-code", start, use_git=False)
    for name, tool_input in [
        ("Bash", {"command": "ls -la"}),
        ("WebFetch", {"url": "https://x"}),
        ("Grep", {"pattern": "x"}),
    ]:
        assert (
            call_hook(
                "claude-code", event(project, "n", "PostToolUse", tool_name=name, tool_input=tool_input)
            )
            == {}
        )


def test_edits_of_a_rule_are_sent_again(project: Path, call_hook: Any, answers: Any) -> None:
    write = event(project, "f", "PostToolUse", tool_name="Write", tool_input={"file_path": "pkg0/tool.py"})
    assert "pkg0/AGENTS.md" in answers.sent(call_hook("claude-code", write, use_git=False))
    agents = project / "pkg0" / "AGENTS.md"
    agents.write_text("# Package 0, revised: run the linter first\n", encoding="utf-8")
    stat = agents.stat()
    import os

    os.utime(agents, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    again = call_hook("claude-code", write, use_git=False)
    assert answers.sent(again) == ["pkg0/AGENTS.md"]
    assert (
        "Updated contents of pkg0/AGENTS.md (it changed; this replaces its earlier text)"
        in answers.context(again)
    )
    assert "revised" in answers.context(again)


def test_imports_share_the_fate_of_the_file_that_imports_them(
    tree: Any, call_hook: Any, answers: Any, release: tuple[str, bool]
) -> None:
    transcript, wide = release
    root = tree(
        {
            ".git/HEAD": "x\n",
            "CLAUDE.md": "# Root\nSee @docs/root-notes.md\n",
            "docs/root-notes.md": "root notes\n",
            "pkg0/CLAUDE.md": "# Pkg 0\nSee @notes.md\n",
            "pkg0/notes.md": "pkg0 notes\n",
            "pkg0/a.py": "",
            "pkg1/CLAUDE.md": "# Pkg 1\nSee @notes.md\n",
            "pkg1/notes.md": "pkg1 notes\n",
        }
    )

    def hook(name: str, **fields: Any) -> dict[str, Any]:
        data = event(root, "imp", name, transcript, **fields)
        result: dict[str, Any] = call_hook("claude-code", data, use_git=False)
        return result

    assert hook("SessionStart", source="startup") == {}  # CLAUDE.md and its import: Claude Code's own
    read = hook("PostToolUse", tool_name="Read", tool_input={"file_path": "pkg0/a.py"})
    assert read == {}  # a Read: Claude Code loads pkg0/CLAUDE.md and resolves its import itself
    write = hook("PostToolUse", tool_name="Write", tool_input={"file_path": "pkg1/b.py"})
    if wide:
        assert write == {}  # the newer release loads pkg1/CLAUDE.md and its import after a Write itself
    else:
        assert answers.sent(write) == ["pkg1/CLAUDE.md", "pkg1/notes.md"]
        assert "(imported by pkg1/CLAUDE.md)" in answers.context(write)
    compact = hook("SessionStart", source="compact")
    assert answers.sent(compact) == ["pkg0/CLAUDE.md", "pkg0/notes.md", "pkg1/CLAUDE.md", "pkg1/notes.md"]
