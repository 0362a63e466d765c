"""Hostile repositories: every hook call against the goal of 1 s, whatever a cloned repository holds.

    python benchmarks/bench_hostile.py [--cases NAME,...] [--timeout 120] [--work DIR]

Each case is a repository built in a temp dir (or under --work), and the real hook, `python -m jitctx
hook claude-code` as a process, fed what Claude Code sends: a SessionStart (startup), then a PostToolUse
(a Read, or a Bash command), then the same PostToolUse again (the warm case, which the fast lane answers
when it can), with a state dir and home of its own:

* baseline:          a small repository, for reference (its Read sends a nested AGENTS.md);
* stars-20:          300 `.claude/rules` whose glob is `**/` + 20 `*` + `x`; the session starts in a
                     folder with a 20-character name, and reads a file with one;
* stars-60:          the same with 60 `*`, and 4-character names;
* globstars:         300 rules `**/a/**/a/…/**/b` (8 times), started 40 folders deep in `a/a/…`;
* yaml-bomb-1, -60:  1 and 60 rules whose `paths:` is a nine-level YAML alias chain (9^9 values);
* deep-tree:         200 nested folders (a CLAUDE.md every 10th), a Read at the bottom;
* wide-tree:         20,000 files in one folder, all untracked in git (20,000 startup signals), and
                     30 scoped rules; a Read of one of them;
* transcript-huge:   a 40 MiB transcript of Claude Code JSONL records (4 KiB paths, JSON nested 5,000
                     deep), named by the Read;
* shell-10k:         a Bash command touching 10,000 paths.

Prints one row per hook call: seconds, bytes answered, problems the hook logged (hook.log), and whether it
met the goal; then the slowest. A call still running after --timeout seconds is stopped and reported as
such. Figures are wall time of one process each (interpreter start included), on whatever else the
machine is doing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

GOAL_S = 1.0
RULES = 300


def write(root: Path, rel: str, text: str = "") -> None:
    target = root / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def git_repo(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")


def commit(root: Path) -> None:
    """Commit the tree: no changed file is then a startup signal, and the Read brings what is nested."""
    git(root, "add", "-A")
    git(root, "-c", "user.email=bench@example.invalid", "-c", "user.name=bench", "commit", "-q", "-m", "x")


def rule(root: Path, name: str, glob: str) -> None:
    write(root, f".claude/rules/{name}.md", f'---\npaths: ["{glob}"]\n---\n# Rule {name}\n')


def alias_bomb() -> str:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{','.join([f'*{previous}'] * 9)}]")
    return "---\n" + "\n".join([*lines, "paths: *i"]) + "\n---\n# Bomb\n"


class Case:
    """A repository, where the session starts, and the tool call that follows the start."""

    def __init__(self, cwd: str, tool: Callable[[Path], tuple[str, dict[str, object]]]) -> None:
        self.cwd = cwd  # relative to the repository
        self.tool = tool  # (tool name, tool input) for the repository's root


def read_of(rel: str) -> Callable[[Path], tuple[str, dict[str, object]]]:
    return lambda root: ("Read", {"file_path": str(root / rel)})


def build_baseline(root: Path) -> Case:
    git_repo(root)
    write(root, "CLAUDE.md", "# Guide\n")
    write(root, "src/AGENTS.md", "# Source guide\n")  # Claude Code does not read it: jitctx sends it
    rule(root, "py", "**/*.py")
    write(root, "src/app.py")
    commit(root)
    return Case("", read_of("src/app.py"))


def build_stars(count: int, name_length: int) -> Callable[[Path], Case]:
    def build(root: Path) -> Case:
        git_repo(root)
        for index in range(RULES):
            rule(root, f"x{index}", "**/" + "*" * count + "x")
        folder = "c" * name_length
        write(root, f"{folder}/{'a' * name_length}")
        return Case(folder, read_of(f"{folder}/{'a' * name_length}"))

    return build


def build_globstars(root: Path) -> Case:
    git_repo(root)
    for index in range(RULES):
        rule(root, f"g{index}", "**/a/" * 8 + "**/b")
    deep = "/".join(["a"] * 40)
    write(root, f"{deep}/c")
    return Case(deep, read_of(f"{deep}/c"))


def build_bombs(count: int) -> Callable[[Path], Case]:
    def build(root: Path) -> Case:
        git_repo(root)
        for index in range(count):
            write(root, f".claude/rules/bomb{index}.md", alias_bomb())
        write(root, "src/a.py")
        return Case("", read_of("src/a.py"))

    return build


def build_deep_tree(root: Path) -> Case:
    git_repo(root)
    parts = [f"level{index:04d}" for index in range(200)]
    for depth in range(0, 200, 10):
        write(root, "/".join(parts[: depth + 1]) + "/CLAUDE.md", f"# Level {depth}\n")
    bottom = "/".join(parts) + "/deep.py"
    write(root, bottom)
    rule(root, "py", "**/*.py")
    return Case("", read_of(bottom))


def build_wide_tree(root: Path) -> Case:
    git_repo(root)
    wide = root / "wide"
    wide.mkdir(parents=True)
    for index in range(20_000):
        (wide / f"file{index:05d}.py").write_bytes(b"")
    for index in range(30):
        rule(root, f"w{index}", f"wide/**/*{index}.py")
    return Case("", read_of("wide/file12345.py"))


def build_transcript(root: Path) -> Case:
    build_baseline(root)  # its src/AGENTS.md goes out once the transcript shows it did not arrive
    return Case("", read_of("src/app.py"))


def huge_transcript(path: Path, root: Path, size: int = 40 * 2**20) -> None:
    """Claude Code JSONL: assistant tool uses of very long paths, their results, and JSON nested 5,000
    deep, up to `size` bytes."""
    long_path = str(root) + "/" + ("d" * 200 + "/") * 20 + "x.py"
    nested = "[" * 5000 + '"leaf"' + "]" * 5000  # written as text: json.dumps would recurse that deep
    records = [
        {"type": "assistant", "sessionId": "bench", "version": "2.1.332", "cwd": str(root),
         "message": {"role": "assistant", "content": [
             {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": long_path}}]}},
        {"type": "user", "sessionId": "bench", "version": "2.1.332", "cwd": str(root),
         "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "toolu_1", "content": "x" * 8000}]}},
    ]  # fmt: skip
    lines = [json.dumps(record) for record in records]
    deep = '{"type": "user", "sessionId": "bench", "version": "2.1.332", "nested": ' + nested + "}"
    with path.open("w", encoding="utf-8") as out:
        written = 0
        while written < size:
            for line in (*lines, deep):
                out.write(line + "\n")
                written += len(line) + 1


def build_shell(root: Path) -> Case:
    git_repo(root)
    write(root, "CLAUDE.md", "# Guide\n")
    rule(root, "out", "out/**")
    command = "touch " + " ".join(f"out/dir{index % 100}/file{index}.txt" for index in range(10_000))
    return Case("", lambda repo: ("Bash", {"command": command, "description": "touch many"}))


CASES: dict[str, Callable[[Path], Case]] = {
    "baseline": build_baseline,
    "stars-20": build_stars(20, 20),
    "stars-60": build_stars(60, 4),
    "globstars": build_globstars,
    "yaml-bomb-1": build_bombs(1),
    "yaml-bomb-60": build_bombs(60),
    "deep-tree": build_deep_tree,
    "wide-tree": build_wide_tree,
    "transcript-huge": build_transcript,
    "shell-10k": build_shell,
}


def hook_call(
    env: dict[str, str], payload: dict[str, object], timeout: float
) -> tuple[float | None, int, str]:
    """(seconds or None when stopped at the timeout, bytes answered, the hook's stderr)."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "jitctx", "hook", "claude-code"],
            input=json.dumps(payload).encode(),
            capture_output=True,
            env=env,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None, 0, ""
    return time.perf_counter() - started, len(done.stdout), done.stderr.decode(errors="replace")


def run_case(name: str, base: Path, timeout: float) -> list[tuple[str, str, float | None, int, int]]:
    root = base / name / "repo"
    if root.exists():
        shutil.rmtree(base / name)
    case = CASES[name](root)
    state, home = base / name / "state", base / name / "home"
    transcript = home / ".claude" / "projects" / "bench" / f"{name}.jsonl"
    transcript.parent.mkdir(parents=True)
    if name == "transcript-huge":
        huge_transcript(transcript, root)
    else:
        transcript.write_text(json.dumps({"type": "user", "sessionId": name, "version": "2.1.332"}) + "\n")
    env = {**os.environ, "JITCTX_STATE_DIR": str(state), "JITCTX_HOME": str(home), "HOME": str(home)}
    cwd = str(root / case.cwd) if case.cwd else str(root)
    common = {"session_id": name, "transcript_path": str(transcript), "cwd": cwd}
    tool_name, tool_input = case.tool(root)
    touch = {**common, "hook_event_name": "PostToolUse", "tool_name": tool_name, "tool_input": tool_input,
             "tool_response": {}, "tool_use_id": "toolu_bench"}  # fmt: skip
    events = [
        ("SessionStart", {**common, "hook_event_name": "SessionStart", "source": "startup"}),
        ("PostToolUse", touch),
        ("again (warm)", touch),  # settled now: the fast lane's turn
    ]
    rows = []
    for event, payload in events:
        log = state / "hook.log"
        before = len(log.read_text("utf-8").splitlines()) if log.exists() else 0
        seconds, answered, _ = hook_call(env, payload, timeout)
        after = len(log.read_text("utf-8").splitlines()) if log.exists() else 0
        rows.append((name, event, seconds, answered, after - before))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of: {', '.join(CASES)}")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a hook call is stopped")
    parser.add_argument("--work", type=Path, help="build here and keep it (default: a temp dir, removed)")
    args = parser.parse_args()
    names = [name.strip() for name in args.cases.split(",") if name.strip()]
    unknown = [name for name in names if name not in CASES]
    if unknown:
        parser.error(f"unknown case(s): {', '.join(unknown)}")
    base = args.work.resolve() if args.work else Path(tempfile.mkdtemp(prefix="jitctx-hostile-"))
    base.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
        print(f"{'case':<16}{'event':<13}{'seconds':>9}{'answer B':>10}{'problems':>10}   goal {GOAL_S:g} s")
        for name in names:
            for row in run_case(name, base, args.timeout):
                rows.append(row)
                case, event, seconds, answered, problems = row
                shown = f">{args.timeout:g}" if seconds is None else f"{seconds:.2f}"
                met = "no (stopped)" if seconds is None else ("yes" if seconds <= GOAL_S else "no")
                print(f"{case:<16}{event:<13}{shown:>9}{answered:>10}{problems:>10}   {met}", flush=True)
    finally:
        if args.work is None:
            shutil.rmtree(base, ignore_errors=True)
    timed = [(args.timeout + 1 if s is None else s, case, event) for case, event, s, _, _ in rows]
    worst = max(timed)
    over = sum(1 for seconds, _, _ in timed if seconds > GOAL_S)
    stopped = "stopped at the timeout" if worst[0] > args.timeout else f"{worst[0]:.2f} s"
    print(f"slowest: {worst[1]} {worst[2]}, {stopped}; {over} of {len(timed)} calls over {GOAL_S:g} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
