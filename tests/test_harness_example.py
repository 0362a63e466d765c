"""examples/harness.py, run as a harness author would run it: each file arrives at its turn, exactly once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
HARNESS = REPO / "examples" / "harness.py"

# turn -> the files that arrive then (0 is the startup load). Imported files (reason "include") are
# left out here: they follow their importer, and the exactly-once check below covers them too.
EXPECTED: dict[int, list[tuple[str, str]]] = {
    0: [("CLAUDE.md", "session_start"), ("AGENTS.md", "session_start")],
    1: [("src/ui/CLAUDE.md", "path_glob_match")],  # Read src/ui/README.md
    2: [(".claude/rules/components.md", "path_glob_match")],  # Read src/ui/Footer.tsx
    3: [(".claude/rules/python.md", "path_glob_match")],  # Edit tools/gen.py: writes count
    4: [("src/api/AGENTS.md", "nested_traversal"), (".claude/rules/api-handlers.md", "path_glob_match")],
    5: [],  # Read src/ui/Badge.tsx: everything there already arrived
    6: [("website/CLAUDE.md", "nested_traversal")],  # Write website/index.md
    7: [],  # Grep in src/ink: src/ui/CLAUDE.md covers it, and it already arrived
    8: [],  # WebFetch: touches no path
}


def run_harness(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(HARNESS), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        check=False,
    )


def test_files_arrive_at_their_turns_once(example_copy: Path) -> None:
    done = run_harness(str(example_copy), "--json", cwd=example_copy.parent)
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    turns = report["turns"]
    assert [t["turn"] for t in turns] == list(EXPECTED)
    arrived = {
        t["turn"]: [(a["path"], a["reason"]) for a in t["arrived"] if a["reason"] != "include"] for t in turns
    }
    assert arrived == EXPECTED
    assert [t["touched"] for t in turns][1:5] == [
        "src/ui/README.md",
        "src/ui/Footer.tsx",
        "tools/gen.py",
        "src/api/new.ts",
    ]

    everything = [a["path"] for t in turns for a in t["arrived"]]
    assert len(everything) == len(set(everything)), "a file arrived twice"
    assert report["blocks"] == everything  # every arrival is a block in the prompt, in arrival order

    # The model switch after turn 4 rebuilt the prompt; every block held then is still in it, once.
    switch = report["switch"]
    held = [a["path"] for t in turns if t["turn"] <= switch["turn"] for a in t["arrived"]]
    assert switch["turn"] == 4 and switch["kept_once"] == held and switch["blocks"] == len(held)

    system = report["system"]
    assert "cache_control" in system[0] and "model-b" in system[0]["text"]
    assert all("cache_control" not in part for part in system[1:])
    assert sum(1 for part in system if part["text"].startswith("Instructions from:")) == len(everything)


def test_human_output_and_no_side_effects(example_copy: Path) -> None:
    done = run_harness(str(example_copy), cwd=example_copy.parent)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:3] == ["turn", "tool", "touched"]
    assert any("model switch" in line for line in lines)
    assert any(line.split()[:3] == ["3", "Edit", "tools/gen.py"] for line in lines)
    # The scripted tools are not executed: the example tree is left as it was.
    assert not (example_copy / "src/api/new.ts").exists()
    assert "generated" in (example_copy / "tools/gen.py").read_text()


def test_default_root_is_the_bundled_example(tmp_path: Path) -> None:
    done = run_harness("--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # Only the shape: uncommitted edits in the checkout may move a scoped rule to startup.
    report = json.loads(done.stdout)
    assert len(report["turns"]) == len(EXPECTED) and "CLAUDE.md" in report["blocks"]
