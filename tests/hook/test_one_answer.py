"""One answer: what the hook sends each agent is what `startup`, `touch` and `explain` say it sends.

Random trees (nested CLAUDE.md, AGENTS.md and GEMINI.md, a root CLAUDE.md that imports AGENTS.md or
links to it, twins, scoped rules in every rules folder: brace globs, slash-less globs, Cursor's comma
lists, Copilot's applyTo), random touch sequences (a read, a write, an edit, a shell read, a shell
write) and every live client. The hook answers each event from the client's own payload (parsed as the
client sends it); the views play the same session with `--agent CLIENT --json`. File by file, moment by
moment, the files the hook's answer carries are those the views give the route "jitctx", and the views
give every file one route.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jitctx.cli.main import main
from jitctx.clients import all_clients
from jitctx.hook.decide import ROUTES
from jitctx.hook.pipeline import respond
from jitctx.hook.preview import TOUCH_KINDS

CLIENTS = all_clients.names()
DIRS = ["src", "src/ui", "pkg/a"]
FILES = ["src/a.ts", "src/ui/b.tsx", "pkg/a/c.py", "pkg/a/schema.prisma", "README.md"]
NEW_FILES = ["src/ui/new.tsx", "pkg/a/new.py"]
RULE_SHAPES = [
    (".claude/rules/{n}.md", 'paths: ["{g}"]', ["src/**/*.{ts,tsx}", "*.prisma", "pkg/**"]),
    (".cursor/rules/{n}.mdc", "globs: {g}", ["src/**/*.ts, pkg/**/*.py", "*.tsx"]),
    (".github/instructions/{n}.instructions.md", 'applyTo: "{g}"', ["**/*.py", "*.ts", "src/ui/**"]),
    (".claude/rules/{n}.md", "", [""]),
]

trees = st.fixed_dictionaries(
    {
        "claude": st.sets(st.sampled_from(DIRS)),
        "agents": st.sets(st.sampled_from(DIRS)),
        "gemini": st.sets(st.sampled_from(DIRS)),
        "root": st.sampled_from(["plain", "import", "link", "none"]),
        "rules": st.lists(
            st.tuples(st.integers(0, len(RULE_SHAPES) - 1), st.integers(0, 2), st.booleans()), max_size=4
        ),
    }
)
touches = st.lists(
    st.tuples(st.sampled_from(TOUCH_KINDS), st.sampled_from([*FILES, *NEW_FILES])), min_size=1, max_size=5
)


def build(root: Path, tree: dict[str, Any]) -> None:
    (root / ".git").mkdir(parents=True)
    for path in FILES:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(f"{path}\n")
    (root / "AGENTS.md").write_text("# Agents\nUse pnpm.\n")
    if tree["root"] == "plain":
        (root / "CLAUDE.md").write_text("# Claude\nRun the tests.\n")
    elif tree["root"] == "import":
        (root / "CLAUDE.md").write_text("@AGENTS.md\n")
    elif tree["root"] == "link":
        (root / "CLAUDE.md").symlink_to("AGENTS.md")
    for name, dirs in (
        ("CLAUDE.md", tree["claude"]),
        ("AGENTS.md", tree["agents"]),
        ("GEMINI.md", tree["gemini"]),
    ):
        for directory in dirs:
            (root / directory / name).write_text(f"{name} of {directory}\n")
    for index, (shape, glob, twin) in enumerate(tree["rules"]):
        place, key, globs = RULE_SHAPES[shape]
        front = f"---\n{key.format(g=globs[glob % len(globs)])}\n---\n" if key else ""
        body = "Shared rule.\n" if twin else f"Rule {index}.\n"
        path = root / place.format(n=f"r{index}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(front + body)


def payload(client: str, root: Path, session: str, call: tuple[str, dict[str, Any]] | None) -> dict[str, Any]:
    """The event as `client` sends it: its session start (call None) or one finished tool call."""
    cwd = str(root)
    if client == "copilot-cli":
        if call is None:
            return {"sessionId": session, "cwd": cwd, "source": "new", "initialPrompt": "go"}
        result = {"resultType": "success", "textResultForLlm": ""}
        return {
            "sessionId": session,
            "cwd": cwd,
            "toolName": call[0],
            "toolArgs": call[1],
            "toolResult": result,
        }
    names = {
        "gemini-cli": ("SessionStart", "AfterTool"),
        "opencode": ("session.start", "tool.execute.after"),
    }.get(client, ("SessionStart", "PostToolUse"))
    if call is None:
        return {"hook_event_name": names[0], "session_id": session, "cwd": cwd, "source": "startup"}
    return {
        "hook_event_name": names[1],
        "session_id": session,
        "cwd": cwd,
        "tool_name": call[0],
        "tool_input": call[1],
        "tool_use_id": "t1",
    }


def carried(answer: dict[str, Any], root: Path) -> set[str]:
    """The files a hook answer carries: whole (`Contents of X`) or named to read (`- Read /abs/X`)."""
    text = json.dumps(answer)
    found: set[str] = set()
    decoded = json.loads(text)

    def texts(value: Any) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return [t for item in value.values() for t in texts(item)]
        if isinstance(value, list):
            return [t for item in value for t in texts(item)]
        return []

    for chunk in texts(decoded):
        for line in chunk.splitlines():
            for head in ("Contents of ", "Updated contents of "):
                if line.startswith(head) and " (" in line:
                    found.add(line[len(head) :].split(" (", 1)[0])
            if line.startswith("- Read ") and " (" in line:
                absolute = line[len("- Read ") :].split(" (", 1)[0]
                found.add(os.path.relpath(absolute, root).replace(os.sep, "/"))
    return found


def view(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    capsys.readouterr()
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def hooked(client: str, root: Path, state: Path, sequence: list[tuple[str, str]]) -> list[set[str]]:
    """What the hook sends at the start and after each touch, in-process from the client's payloads."""
    agent = all_clients.get(client)
    sent = []
    answer = respond(
        agent,
        json.dumps(payload(client, root, "s1", None)),
        state_dir=str(state),
        home=str(state / "home"),
        use_git=False,
    )
    sent.append(carried(answer, root))
    for kind, path in sequence:
        call = agent.sample_call(kind, str(root / path))
        if call is None:
            sent.append(set())
            continue
        raw = json.dumps(payload(client, root, "s1", call))
        sent.append(
            carried(respond(agent, raw, state_dir=str(state), home=str(state / "home"), use_git=False), root)
        )
    return sent


def predicted(
    client: str, root: Path, sequence: list[tuple[str, str]], capsys: pytest.CaptureFixture[str]
) -> list[set[str]]:
    argv = ["touch", "--root", str(root), "--agent", client, "--no-git", "--json"]
    for kind, _ in sequence:
        argv += ["--tool", kind]
    document = view([*argv, *(str(root / path) for _, path in sequence)], capsys)
    moments = [document["startup"], *document["steps"]]
    for moment in moments:
        assert {f["route"] for f in moment["files"]} <= set(ROUTES)
        assert len({f["path"] for f in moment["files"]}) == len(moment["files"])  # one route per file
    return [{f["path"] for f in moment["files"] if f["route"] == "jitctx"} for moment in moments]


@settings(
    max_examples=int(os.environ.get("ONE_ANSWER_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(tree=trees, sequence=touches, client=st.sampled_from(CLIENTS))
def test_the_hook_sends_what_the_views_say(
    tree: dict[str, Any], sequence: list[tuple[str, str]], client: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        root = base / "repo"
        build(root, tree)
        monkeypatch.setenv("JITCTX_HOME", str(base / "state" / "home"))
        monkeypatch.setenv("JITCTX_STATE_DIR", str(base / "views"))
        for kind, path in sequence:  # a write has left its file when the hook hears of it
            if kind in ("write", "shell_write"):
                (root / path).write_text("x\n")
        views = predicted(client, root, sequence, capsys)
        assert hooked(client, root, base / "state", sequence) == views


@pytest.mark.parametrize("client", CLIENTS)
def test_the_hook_as_a_process_sends_what_touch_says(
    client: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = {
        "claude": {"src/ui"},
        "agents": {"pkg/a"},
        "gemini": {"src"},
        "root": "import",
        "rules": [(0, 0, False), (1, 1, False), (2, 0, True), (0, 1, False)],
    }
    root = tmp_path / "repo"
    build(root, tree)
    home = tmp_path / "home"
    monkeypatch.setenv("JITCTX_HOME", str(home))
    sequence = [("read", "src/ui/b.tsx"), ("shell_read", "pkg/a/schema.prisma"), ("edit", "src/a.ts")]
    views = predicted(client, root, sequence, capsys)
    agent = all_clients.get(client)
    env = {**os.environ, "JITCTX_STATE_DIR": str(tmp_path / "state"), "JITCTX_HOME": str(home)}
    sent = []
    calls = [agent.sample_call(kind, str(root / path)) for kind, path in sequence]
    for index, call in enumerate([None, *calls]):
        if index and call is None:  # the client has no tool of that kind: nothing is played
            sent.append(set())
            continue
        done = subprocess.run(
            [sys.executable, "-m", "jitctx", "hook", client, "--no-git"],
            input=json.dumps(payload(client, root, "p1", call)).encode(),
            capture_output=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        sent.append(carried(json.loads(done.stdout or b"{}"), root))
    assert sent == views
    assert any(views), "the example sends something to every client"
