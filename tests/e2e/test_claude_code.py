"""The real Claude Code (`claude -p`) with jitctx's hooks, against a scripted model.

Each test asserts, on the request bodies the model received, which instruction text arrived, by which
route (Claude Code's own load or jitctx's hook additionalContext), and that it arrived exactly once.

Where the route is fixed it is asserted: Claude Code loads the root CLAUDE.md itself, and it reads no
AGENTS.md, so those can only come from jitctx. Which client loads nested CLAUDE.md files and scoped rules
after a write or a shell read depends on the Claude Code release (2.1.197 did so only after Read; 2.1.332
also after Write and after `cat` in Bash), so there the test asserts "exactly once, by whichever route":
the client's own load and jitctx's must never add up to two.
"""

from __future__ import annotations

import pytest

from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import ClaudeHarness

pytestmark = pytest.mark.e2e

# What jitctx alone sends to Claude Code: the tests of session continuity watch these.
ONLY_JITCTX = ("JX-ROOT-AGENTS", "JX-API-AGENTS")


def test_startup_client_loads_claude_md_and_jitctx_adds_agents_md(claude: ClaudeHarness) -> None:
    """At start Claude Code loads the root CLAUDE.md itself; AGENTS.md it does not read, jitctx sends it."""
    outcome = claude.run("Say hello.", [Script([])])
    outcome.expect("JX-ROOT-CLAUDE", "client")
    outcome.expect("JX-ROOT-AGENTS", "hook")
    for marker in ("JX-UI-CLAUDE", "JX-API-AGENTS", "JX-TOOLS-CLAUDE", "JX-RULE-COMPONENTS", "JX-RULE-API"):
        outcome.expect(marker, times=0)  # nothing scoped elsewhere loads before it is touched


def test_a_read_is_served_by_claude_code_itself(claude: ClaudeHarness) -> None:
    """(a) Read src/ui/Footer.tsx: Claude Code's own nested load brings src/ui/CLAUDE.md and the scoped
    components rule; jitctx does not send them again."""
    footer = claude.root / "src/ui/Footer.tsx"
    outcome = claude.run("Read the footer.", [Script([[Call("Read", {"file_path": str(footer)})]])])
    outcome.expect("JX-UI-CLAUDE", "client")
    outcome.expect("JX-RULE-COMPONENTS", "client")
    outcome.expect("JX-ROOT-AGENTS", "hook")


def test_a_read_loads_a_nested_claude_md_whatever_its_scope(claude: ClaudeHarness) -> None:
    """(a) A nested CLAUDE.md with a `paths:` scope that does not match: Claude Code loads it on a Read in
    its subtree all the same (only `.claude/rules/` files are scoped), and jitctx does not send it twice."""
    ui = claude.root / "src/ui/CLAUDE.md"
    ui.write_text('---\npaths: ["nomatch/**"]\n---\n' + ui.read_text(), encoding="utf-8")
    footer = claude.root / "src/ui/Footer.tsx"
    outcome = claude.run("Read the footer.", [Script([[Call("Read", {"file_path": str(footer)})]])])
    outcome.expect("JX-UI-CLAUDE", "client")


def test_a_a_read_does_not_bring_agents_md_by_itself(claude: ClaudeHarness) -> None:
    """(a) Read src/api/users.ts: Claude Code loads the scoped src/api/** rule itself, but it reads no
    AGENTS.md (not even where no CLAUDE.md is beside it), so src/api/AGENTS.md must come from jitctx."""
    users = claude.root / "src/api/users.ts"
    outcome = claude.run("Read the users.", [Script([[Call("Read", {"file_path": str(users)})]])])
    outcome.expect("JX-RULE-API", "client")
    outcome.expect("JX-API-AGENTS", "hook")


@pytest.mark.hold_off
def test_b_a_write_brings_the_nested_file_once(claude: ClaudeHarness) -> None:
    """(b) Write a new tools/made.py: tools/CLAUDE.md and the **/*.py rule reach the model once: from
    jitctx's PostToolUse additionalContext, unless this Claude Code loads them after a Write itself."""
    target = claude.root / "tools/made.py"
    write = Call("Write", {"file_path": str(target), "content": "X = 1\n"})
    outcome = claude.run("Add a tool.", [Script([[write]])])
    assert target.read_text() == "X = 1\n"
    outcome.expect("JX-TOOLS-CLAUDE")
    outcome.expect("JX-RULE-PYTHON")


def test_c_a_shell_read_brings_agents_md_and_scoped_rules(claude: ClaudeHarness) -> None:
    """(c) Bash `cat src/api/users.ts`: src/api/AGENTS.md arrives through jitctx, the src/api/** rule
    once (Claude Code 2.1.332 loads scoped rules after a `cat` itself)."""
    outcome = claude.run("Show the users.", [Script([[Call("Bash", {"command": "cat src/api/users.ts"})]])])
    outcome.expect("JX-API-AGENTS", "hook")
    outcome.expect("JX-RULE-API")


def test_c_a_shell_read_of_a_nested_claude_md_directory(claude: ClaudeHarness) -> None:
    """(c) Bash `cat src/ui/Footer.tsx`: src/ui/CLAUDE.md and the components rule arrive once."""
    outcome = claude.run("Show the footer.", [Script([[Call("Bash", {"command": "cat src/ui/Footer.tsx"})]])])
    outcome.expect("JX-UI-CLAUDE")
    outcome.expect("JX-RULE-COMPONENTS")


@pytest.mark.parametrize(
    "command",
    [
        "egrep main tools/gen.py",  # one file: the client loads its nested files itself (2.1.332)
        "sed -n '1,2p' tools/gen.py",
        "cat tools/gen.py src/ui/Footer.tsx",  # two files, a pipe, a redirection: jitctx's to send
        "cat tools/gen.py | head -2",
        "cat tools/gen.py 2>/dev/null",
        "nl -ba tools/gen.py",
        "nl tools/gen.py",  # followed by the client without options, not with them
    ],
)
def test_c_shell_reads_bring_each_file_once(claude: ClaudeHarness, command: str) -> None:
    """(c) Whichever shell reads this release follows itself, tools/CLAUDE.md and the **/*.py rule reach
    the model once: jitctx sends exactly what the client leaves out."""
    outcome = claude.run("Show it.", [Script([[Call("Bash", {"command": command})]])])
    outcome.expect("JX-TOOLS-CLAUDE")
    outcome.expect("JX-RULE-PYTHON")


@pytest.mark.hold_off
def test_d_a_command_that_moves_the_cwd(claude: ClaudeHarness) -> None:
    """(d) Bash `cd tools && echo 'X=1' > made.py`: the shell's cwd moves into tools/ (Claude Code reports
    it as the cwd of every later event), and the write lands in tools/made.py, so tools/CLAUDE.md must
    reach the model (the session started at the root, where Claude Code loaded only the root files)."""
    moving = Call("Bash", {"command": "cd tools && echo 'X=1' > made.py"})
    after = Call("Bash", {"command": "echo 'Y=2' > other.py"})  # the shell is still in tools/
    outcome = claude.run("Make a tool.", [Script([[moving], [after]])])
    assert (claude.root / "tools/made.py").exists() and (claude.root / "tools/other.py").exists()
    outcome.expect("JX-TOOLS-CLAUDE")
    outcome.expect("JX-RULE-PYTHON")


def test_e_an_at_mention_in_the_prompt(claude: ClaudeHarness) -> None:
    """(e) `@src/ui/Footer.tsx` in the prompt: Claude Code attaches the file; its nested CLAUDE.md and
    the components rule reach the model once, by whichever route, never twice."""
    outcome = claude.run("Explain @src/ui/Footer.tsx please.", [Script([])])
    outcome.expect("JX-UI-CLAUDE")
    outcome.expect("JX-RULE-COMPONENTS")
    outcome.expect("JX-ROOT-CLAUDE", "client")


def test_f_resume_does_not_resend(claude: ClaudeHarness) -> None:
    """(f) A resumed conversation still holds what was sent: touching the same file again, after
    `--resume`, sends nothing twice; the startup files are not sent again either."""
    cat = Call("Bash", {"command": "cat src/api/users.ts"})
    first = claude.run("Show the users.", [Script([[cat]])])
    first.expect("JX-API-AGENTS", "hook")
    assert first.session_id, first.diagnose()
    resumed = claude.run("Again.", [Script([[cat]], name="again")], "--resume", first.session_id)
    assert "toolu_main_s0_0" in str(resumed.last("again")), "the resumed request lacks the first run"
    resumed.expect("JX-ROOT-CLAUDE", "client", script="again")
    for marker in ONLY_JITCTX:
        resumed.expect(marker, "hook", script="again")


def test_f_continue_does_not_resend(claude: ClaudeHarness) -> None:
    """(f) The same with `-c` (continue the most recent conversation in this directory)."""
    generator = str(claude.root / "tools/gen.py")
    first = claude.run("Read the generator.", [Script([[Call("Read", {"file_path": generator})]])])
    first.expect("JX-TOOLS-CLAUDE", "client")
    write = Call("Write", {"file_path": str(claude.root / "tools/more.py"), "content": "Z = 3\n"})
    continued = claude.run("Add another.", [Script([[write]], name="again")], "-c")
    assert "toolu_main_s0_0" in str(continued.last("again")), "the continued request lacks the first run"
    for marker in ("JX-TOOLS-CLAUDE", "JX-RULE-PYTHON", "JX-ROOT-AGENTS"):
        continued.expect(marker, script="again")


def test_f_fork_does_not_resend(claude: ClaudeHarness) -> None:
    """(f) `--resume ID --fork-session` copies the conversation into a new session id: what the copy holds
    is not sent again (Claude Code runs SessionStart with source `resume` under the *old* id, and every
    later event under the new one)."""
    cat = Call("Bash", {"command": "cat src/api/users.ts"})
    first = claude.run("Show the users.", [Script([[cat]])])
    assert first.session_id, first.diagnose()
    forked = claude.run(
        "Again.", [Script([[cat]], name="fork")], "--resume", first.session_id, "--fork-session"
    )
    assert forked.session_id and forked.session_id != first.session_id, forked.diagnose()
    forked.expect("JX-ROOT-CLAUDE", "client", script="fork")
    for marker in ONLY_JITCTX:
        forked.expect(marker, "hook", script="fork")


def test_compaction_sends_the_held_files_again_once(claude: ClaudeHarness) -> None:
    """After `/compact` the conversation is a summary: what jitctx had sent goes out again (SessionStart,
    source `compact`), once, and a later touch of the same file does not add a second copy."""
    cat = Call("Bash", {"command": "cat src/api/users.ts"})
    first = claude.run("Show the users.", [Script([[cat]])])
    assert first.session_id, first.diagnose()
    claude.run("/compact", [Script([], name="compact")], "--resume", first.session_id)
    after = claude.run("Again.", [Script([[cat]], name="after")], "--resume", first.session_id)
    assert "toolu_main_s0_0" not in str(after.last("after")), "the conversation was not compacted"
    after.expect("JX-ROOT-CLAUDE", "client", script="after")
    for marker in ONLY_JITCTX:
        after.expect(marker, "hook", script="after")


SUBAGENT_TASK = "SUBAGENT-TASK: report what src/api/users.ts exports."


def _spawn(description: str) -> Call:
    return Call(
        "Agent", {"description": description, "prompt": SUBAGENT_TASK, "subagent_type": "general-purpose"}
    )


def test_g_a_subagent_gets_the_files_that_apply_to_it(claude: ClaudeHarness) -> None:
    """(g) An Agent (Task) sub-agent has a context window of its own: the files that apply to what it
    touches reach *it* once, the root AGENTS.md included (it did not see the main thread's SessionStart);
    the main thread, touching the same file later, still gets src/api/AGENTS.md once."""
    main = Script([[_spawn("Inspect users")], [Call("Bash", {"command": "cat src/api/users.ts"})]])
    sub = Script([[Call("Bash", {"command": "cat src/api/users.ts"})]], name="sub", match=SUBAGENT_TASK)
    outcome = claude.run("Delegate the inspection.", [main, sub])
    outcome.expect("JX-ROOT-CLAUDE", "client", script="sub")
    outcome.expect("JX-ROOT-AGENTS", script="sub")
    outcome.expect("JX-API-AGENTS", "hook", script="sub")
    outcome.expect("JX-RULE-API", script="sub")
    outcome.expect("JX-ROOT-AGENTS", "hook")
    outcome.expect("JX-API-AGENTS", "hook")
    outcome.expect("JX-RULE-API")


def test_g_a_subagent_starts_with_what_applies_everywhere(claude: ClaudeHarness) -> None:
    """(g) A sub-agent that touches nothing still works in this project: the root AGENTS.md, which jitctx
    gave the main thread at session start, applies to it too (Claude Code gives it the root CLAUDE.md)."""
    outcome = claude.run(
        "Delegate.", [Script([[_spawn("Summarise")]]), Script([], name="sub", match=SUBAGENT_TASK)]
    )
    outcome.expect("JX-ROOT-CLAUDE", "client", script="sub")
    outcome.expect("JX-ROOT-AGENTS", script="sub")
    outcome.expect("JX-ROOT-AGENTS", "hook")


@pytest.mark.hold_off
def test_g_a_parallel_batch_never_sends_a_file_twice(claude: ClaudeHarness) -> None:
    """(g) One assistant turn with several tool calls at once (their hooks run concurrently): each file
    that applies arrives once in the whole conversation."""
    users = str(claude.root / "src/api/users.ts")
    batch = [
        Call("Bash", {"command": "cat src/api/users.ts"}),
        Call("Bash", {"command": "head -n 1 src/api/users.ts"}),
        Call("Read", {"file_path": users}),
        Call("Write", {"file_path": str(claude.root / "tools/a.py"), "content": "A = 1\n"}),
        Call("Write", {"file_path": str(claude.root / "tools/b.py"), "content": "B = 1\n"}),
    ]
    outcome = claude.run("Do all of it at once.", [Script([batch])])
    outcome.expect("JX-API-AGENTS", "hook")
    for marker in ("JX-RULE-API", "JX-TOOLS-CLAUDE", "JX-RULE-PYTHON", "JX-ROOT-AGENTS"):
        outcome.expect(marker)


@pytest.mark.hold_off
def test_h_each_version_of_each_file_arrives_once(claude: ClaudeHarness) -> None:
    """(h) The model edits a loaded CLAUDE.md, creates one by Write and one by a shell, and changes a
    loaded CLAUDE.md and a scoped rule with `sed -i`, twice: each version of each file reaches the model
    exactly once, by whichever route (the client shows a change to a file it holds itself, and loads a
    shell-created CLAUDE.md at its next Read there; what it does not bring, jitctx sends)."""
    root = claude.root

    def sed(old: str, new: str, path: str) -> list[Call]:
        return [Call("Bash", {"command": f"sed -i 's/{old}/{new}/' {path}"})]

    shell_made = "mkdir -p src/sh && printf 'X = 1\\n' > src/sh/x.py"
    shell_made += " && printf '# Shell\\n\\nJX-SHELL-NEW: quote variables.\\n' > src/sh/CLAUDE.md"
    steps = [
        [Call("Read", {"file_path": str(root / "src/ui/Footer.tsx")})],
        [
            Call(
                "Edit",
                {
                    "file_path": str(root / "src/ui/CLAUDE.md"),
                    "old_string": "JX-UI-CLAUDE: components",
                    "new_string": "JX-UI-V2: components",
                },
            )
        ],
        [
            Call(
                "Write",
                {"file_path": str(root / "src/api/CLAUDE.md"), "content": "JX-API-NEW: no globals.\n"},
            )
        ],
        [Call("Bash", {"command": shell_made})],
        [Call("Read", {"file_path": str(root / "src/sh/x.py")})],
        sed("JX-RULE-COMPONENTS: function", "JX-COMP-V2: function", ".claude/rules/components.md"),
        [Call("Bash", {"command": "echo 'export const N = 1;' > src/ui/New.tsx"})],
        sed("JX-UI-V2: components", "JX-UI-V3: components", "src/ui/CLAUDE.md"),
        sed("JX-COMP-V2: function", "JX-COMP-V3: function", ".claude/rules/components.md"),
        [Call("Bash", {"command": "echo 'export const M = 1;' > src/ui/New2.tsx"})],
    ]
    outcome = claude.run("Work on the rules.", [Script(steps)])
    assert "JX-COMP-V3" in (root / ".claude/rules/components.md").read_text()
    for marker in (
        "JX-UI-CLAUDE", "JX-UI-V2", "JX-UI-V3", "JX-API-NEW", "JX-SHELL-NEW",
        "JX-RULE-COMPONENTS", "JX-COMP-V2", "JX-COMP-V3",
    ):  # fmt: skip
        outcome.expect(marker)
    outcome.expect("JX-SHELL-NEW", "client")  # its next Read brought it: jitctx left it to the client
