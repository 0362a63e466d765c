"""Why `doctor` and `lint` warn about a link out of the project: OpenCode 1.18.33 reads a file through a
committed link to a folder outside the project and loads the AGENTS.md it finds there by itself, as an
instruction of the project; jitctx, which reads nothing outside the project, never sends it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.e2e import clients as cl
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import jitctx
from tests.e2e.opencode_harness import OpenCodeHarness, deliveries

pytestmark = pytest.mark.e2e

MARKER = "JX-LINKED-OUTSIDE"


def test_opencode_loads_an_agents_md_behind_a_link_and_doctor_and_lint_say_so(
    clients: cl.Clients, tmp_path: Path
) -> None:
    opencode = OpenCodeHarness(clients, tmp_path)
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "AGENTS.md").write_text(f"# Shared\n\n{MARKER}: deploy on Fridays.\n", encoding="utf-8")
    (shared / "tool.ts").write_text("export const tool = 1;\n", encoding="utf-8")
    (opencode.root / "vendor").symlink_to(shared, target_is_directory=True)
    subprocess.run(["git", "add", "vendor"], cwd=opencode.root, check=True, timeout=30)
    subprocess.run(["git", "commit", "-qm", "link"], cwd=opencode.root, check=True, timeout=30)

    read = Call("read", {"filePath": str(opencode.root / "vendor" / "tool.ts")})
    outcome = opencode.run("Read the tool.", [Script([[read]])])
    found = deliveries(outcome.last(), MARKER)
    assert [d.route for d in found] == ["client"], outcome.diagnose()  # OpenCode's own load, not jitctx's

    env = cl.base_env(opencode.home, opencode.state_dir)
    done = jitctx(env, "doctor", "--json", cwd=opencode.root)
    [check] = [
        c for c in json.loads(done.stdout)["checks"] if (c["client"], c["check"]) == ("jitctx", "links")
    ]
    assert check["status"] == "warn" and "vendor/AGENTS.md" in check["detail"]
    done = jitctx(env, "lint", "--json", cwd=opencode.root)
    rules = [(f["path"], f["rule"]) for f in json.loads(done.stdout)["findings"]]
    assert ("vendor/AGENTS.md", "instruction-link-outside") in rules
