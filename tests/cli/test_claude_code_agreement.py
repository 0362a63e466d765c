"""`explain`, `touch` and `lint` under `--agent claude-code` say what the Claude Code hook does.

One tree, every file of it touched three ways: `explain PATH`, `touch PATH` and the hook answering a shell
write of PATH (a call Claude Code does not follow, so jitctx sends the rules itself). The three must name
the same rules for every file, and `lint` must call a glob dead exactly when no file brings its rule.
The rows are the shapes that split them: GrowthBook's brace globs, gitignore's any-depth names.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.hook.engine import HookEnv
from jitctx.hook.pipeline import run_hook
from tests.conftest import write_tree

AGENT = "claude-code"

RULES = {
    # GrowthBook's `.claude/rules/react-and-data.md` and its siblings
    "react": "packages/front-end/**/*.{ts,tsx}",
    "sources": "{src,lib}/**/*.js",
    # gitignore: a slash-less glob matches at any depth
    "python": "*.py",
    "docs": "docs/**",
    # matches no file of the tree
    "dead": "nowhere/**/*.{x,y}",
}

FILES = [
    "packages/front-end/components/ActivityList.tsx",
    "packages/front-end/services/api.ts",
    "packages/front-end/styles/a.scss",
    "packages/back-end/src/api.ts",
    "src/a.js",
    "lib/deep/b.js",
    "test/c.js",
    "tools/gen.py",
    "docs/guide/x.md",
    "README.md",
]

# What Claude Code loads for each file: the expected answer the three views are checked against.
EXPECTED = {
    "packages/front-end/components/ActivityList.tsx": {"react"},
    "packages/front-end/services/api.ts": {"react"},
    "src/a.js": {"sources"},
    "lib/deep/b.js": {"sources"},
    "tools/gen.py": {"python"},
    "docs/guide/x.md": {"docs"},
}


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files: dict[str, str] = {".git/HEAD": "ref: refs/heads/main\n"}
    for name, glob in RULES.items():
        files[f".claude/rules/{name}.md"] = f'---\npaths: ["{glob}"]\n---\n# rule {name}\n'
    files.update(dict.fromkeys(FILES, "x\n"))
    root = write_tree(tmp_path / "repo", files)
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(root)
    return root


def _rule_names(paths: list[str]) -> set[str]:
    prefix = ".claude/rules/"
    return {p[len(prefix) : -len(".md")] for p in paths if p.startswith(prefix)}


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    capsys.readouterr()
    code = main(argv)
    out = capsys.readouterr().out
    assert code in (0, 1), out
    return json.loads(out)


def _explained(root: Path, path: str, capsys: pytest.CaptureFixture[str]) -> set[str]:
    document = _json(["explain", path, "--root", str(root), "--agent", AGENT, "--no-git", "--json"], capsys)
    return _rule_names([v["path"] for v in document["verdicts"] if v["loads"]])


def _touched(root: Path, path: str, capsys: pytest.CaptureFixture[str]) -> set[str]:
    document = _json(["touch", "--root", str(root), "--agent", AGENT, "--no-git", "--json", path], capsys)
    return _rule_names([load["path"] for step in document["steps"] for load in step["loaded"]])


def _events(root: Path, session: str, path: str) -> list[dict[str, Any]]:
    start = {"hook_event_name": "SessionStart", "session_id": session, "cwd": str(root), "source": "startup"}
    write = {
        "hook_event_name": "PostToolUse",
        "session_id": session,
        "cwd": str(root),
        "tool_name": "Bash",
        "tool_input": {"command": f"touch {path}"},
        "tool_response": {"stdout": "", "stderr": "", "interrupted": False},
    }
    return [start, write]


def _sent(answer: dict[str, Any]) -> set[str]:
    text = answer.get("hookSpecificOutput", {}).get("additionalContext", "") if answer else ""
    heads = [line.split(" of ", 1)[1].split(" (", 1)[0] for line in text.splitlines() if " of " in line]
    return _rule_names([h for h in heads if h.startswith(".claude/rules/")])


def _hooked(root: Path, tmp_path: Path, path: str) -> set[str]:
    env = HookEnv(state_dir=tmp_path / "hook-state", home=str(tmp_path / "home"), use_git=False)
    answers = [run_hook(AGENT, json.dumps(event), env) for event in _events(root, f"s-{path}", path)]
    return _sent(answers[-1])


@pytest.mark.parametrize("path", FILES)
def test_explain_touch_and_the_hook_agree(
    tree: Path, tmp_path: Path, path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = EXPECTED.get(path, set())
    assert _explained(tree, path, capsys) == expected
    assert _touched(tree, path, capsys) == expected
    assert _hooked(tree, tmp_path, path) == expected


def test_lint_calls_dead_exactly_the_globs_no_file_brings(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _json(["lint", "--root", str(tree), "--agent", AGENT, "--json"], capsys)
    dead = _rule_names([f["path"] for f in document["findings"] if f["rule"] == "scope-matches-nothing"])
    brought = set().union(*EXPECTED.values())
    assert dead == set(RULES) - brought == {"dead"}


def test_the_hook_as_a_process_sends_the_brace_rule(tree: Path, tmp_path: Path) -> None:
    path = "packages/front-end/components/ActivityList.tsx"
    env = {**os.environ, "JITCTX_STATE_DIR": str(tmp_path / "process-state")}
    answers = []
    for event in _events(tree, "s-process", path):
        done = subprocess.run(
            [sys.executable, "-m", "jitctx", "hook", AGENT, "--no-git"],
            input=json.dumps(event).encode(),
            capture_output=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0
        answers.append(json.loads(done.stdout))
    assert _sent(answers[-1]) == {"react"}


def test_every_profile_reads_a_rules_folder_in_its_formats_dialect(tmp_path: Path) -> None:
    """A rule's globs mean what the agent of its format means, whichever agent receives it: every
    client's own profile and the one its hook discovers with give a folder the same dialect as jitctx's
    default profile does (`.claude/rules` Claude Code's, `.github/instructions` Copilot's)."""
    from jitctx.clients import all_clients
    from jitctx.profiles import DEFAULT_PROFILE, get_profile

    default = get_profile(DEFAULT_PROFILE)
    formats = {f.path: f.dialect for f in (*default.rules_dirs, *default.user_rules_dirs)}
    assert formats[".claude/rules"] == "gitignore" and formats[".github/instructions"] == "copilot"
    for client in all_clients.every():
        seen = client.discovery_profile(default, str(tmp_path), {}, None)
        for profile in (client.profile(), seen):
            for folder in (*profile.rules_dirs, *profile.user_rules_dirs):
                if folder.path in formats:
                    assert (client.name, folder.path, folder.dialect) == (
                        client.name,
                        folder.path,
                        formats[folder.path],
                    )
