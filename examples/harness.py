"""A minimal agent loop with jitctx: what a harness author wires in, shown with a scripted model.

    python examples/harness.py [ROOT] [--json]     (ROOT defaults to examples/monorepo)

Only the model is fake: `SCRIPT` replays fixed tool calls instead of asking an API, and the tools are not
run (nothing is written). Everything jitctx does is real: the startup load, one discovery per tool call,
the prompt with its cache boundary, and the blocks surviving a system-prompt rebuild (a model switch).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jitctx import Project, Session, affected_paths
from jitctx.assemble import BOUNDARY, PromptAssembler
from jitctx.model import Load

# What the scripted model does, turn by turn: (tool name, tool input) as the model would emit them.
# Tool names are Claude Code's; Codex/Gemini names (read_file, apply_patch...) work the same way.
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("Read", {"file_path": "src/ui/README.md"}),  # brings src/ui/CLAUDE.md (scope src/ui/**)
    ("Read", {"file_path": "src/ui/Footer.tsx"}),  # brings the *.tsx rule; src/ui/CLAUDE.md not again
    ("Edit", {"file_path": "tools/gen.py", "old_string": "generated", "new_string": "done"}),  # writes count
    ("Bash", {"command": "echo x > src/api/new.ts"}),  # a redirection target, though it does not exist yet
    ("Read", {"file_path": "src/ui/Badge.tsx"}),  # nothing new: everything here already arrived
    ("Write", {"file_path": "website/index.md", "content": "# Acme\n"}),
    ("Grep", {"pattern": "render", "path": "src/ink"}),  # grep touches its path, never its pattern
    ("WebFetch", {"url": "https://example.com"}),  # unknown to jitctx: touches nothing
]
SWITCH_AFTER_TURN = 4  # the user switches models here, and the host rebuilds its system prompt


def system_prompt(model: str) -> str:
    """How the host builds its own prompt: a static zone (cached), the boundary, a dynamic zone."""
    static = f"You are {model}, a careful coding agent. Follow the project's instruction files."
    dynamic = "Working directory: the repository root."
    return f"{static}\n\n{BOUNDARY}\n\n{dynamic}"


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    args = [a for a in argv if a != "--json"]
    root = Path(args[0]) if args else Path(__file__).resolve().parent / "monorepo"

    # 1. The engine. Project reads the tree and its config (pass home=Path.home() to add user-level files
    #    such as ~/.claude/CLAUDE.md); Session remembers what this conversation has already received.
    project = Project(root)
    session = Session(project, cwd=root)
    prompt = PromptAssembler()
    prompt.set_system_prompt(system_prompt("model-a"))
    report: dict[str, Any] = {"turns": []}

    def deliver(turn: int, tool: str, touched: str, loads: Sequence[Load], dropped: Sequence[str]) -> None:
        # Each file that arrives becomes a block after the boundary. A file edited since it arrived comes
        # again and replaces its old block in place; a deleted file's block goes away.
        for load in loads:
            prompt.add_block(load.file.display, load.file.text, tier=load.file.tier)
        for path in dropped:
            prompt.remove_block(path)
        size = len(prompt.render("text").encode("utf-8"))
        arrived = [{"path": x.file.display, "reason": x.reason.value} for x in loads]
        report["turns"].append({"turn": turn, "tool": tool, "touched": touched, "arrived": arrived})
        got = ", ".join(f"{a['path']} ({a['reason']})" for a in arrived) or "-"
        show(f"{turn:>4}  {tool:<9}  {touched or '-':<18}  {size:>8}  {got}")

    def show(line: str) -> None:
        if not as_json:
            print(line)

    show(f"{'turn':>4}  {'tool':<9}  {'touched':<18}  {'prompt B':>8}  files that arrived (why)")

    # 2. Startup: unconditional files, plus scoped rules that the cwd or uncommitted changes match.
    startup = session.startup()
    deliver(0, "(startup)", "", startup.loaded, ())

    for turn, (tool, tool_input) in enumerate(SCRIPT, start=1):
        # 3. The model emitted a tool call; the harness runs the tool (skipped here), then asks jitctx
        #    which instruction files that call brings into scope. Reads and writes both count.
        discovery = session.on_tool_call(tool, tool_input)
        touched = ", ".join(affected_paths(tool, tool_input))  # what on_tool_call looked at, for display
        deliver(turn, tool, touched, discovery.loaded, discovery.dropped)

        if turn == SWITCH_AFTER_TURN:
            # 4. A model switch rebuilds the prompt from the host's own parts, which know nothing of the
            #    blocks. The assembler re-appends every block the new text lacks, each exactly once.
            prompt.set_system_prompt(system_prompt("model-b"))
            once = [b.path for b in prompt.blocks if prompt.system_prompt.count(b.rendered) == 1]
            report["switch"] = {"turn": turn, "blocks": len(prompt.blocks), "kept_once": once}
            show(f"{'':>4}  model switch: prompt rebuilt, blocks kept once: {len(once)}/{len(prompt.blocks)}")

    # 5. The request. Anthropic style puts the cache breakpoint at the end of the static zone, so blocks
    #    arriving later never invalidate the cached prefix ("openai" and "text" are the other styles).
    request = prompt.render("anthropic", messages=[{"role": "user", "content": "Fix the footer width."}])
    report["blocks"] = [b.path for b in prompt.blocks]
    report["system"] = request["system"]
    cached = sum(1 for part in request["system"] if "cache_control" in part)
    show(f"\nrequest: {len(request['system'])} system parts ({cached} cached), {len(prompt.blocks)} blocks")
    if as_json:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
