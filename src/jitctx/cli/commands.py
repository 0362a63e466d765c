"""The table of commands: name -> (its module, one line of help). Each module has `configure(parser)` and
`run(args) -> int`; one run on every step of an agent also has `fast_main(argv)` (see `cli.main`)."""

from __future__ import annotations

COMMANDS: dict[str, tuple[str, str]] = {
    "startup": ("jitctx.cli.cmd_startup", "show what loads at session start, and why"),
    "touch": ("jitctx.cli.cmd_touch", "run JIT discovery for touched paths (a session you can resume)"),
    "touched": ("jitctx.cli.cmd_touched", "print the paths a tool call touches"),
    "explain": (
        "jitctx.cli.cmd_explain",
        "which rules reach an agent that touches PATH, and why the others do not",
    ),
    "imports": ("jitctx.cli.cmd_imports", "list and check the @imports of an instruction file"),
    "render": ("jitctx.cli.cmd_render", "print the text an agent would receive"),
    "log": ("jitctx.cli.cmd_log", "timeline of recorded loads; with --session, what a context holds now"),
    "statusline": (
        "jitctx.cli.cmd_statusline",
        "one line for an agent's status line: the instruction files in the session's context now",
    ),
    "stats": ("jitctx.cli.cmd_stats", "statistics of recorded sessions (hit rate, bytes, latency)"),
    "replay": ("jitctx.cli.cmd_replay", "run recorded Claude Code transcripts through JIT discovery"),
    "export": ("jitctx.cli.cmd_export", "send new event records to an OpenTelemetry collector (OTLP/HTTP)"),
    "budget": ("jitctx.cli.cmd_budget", "byte budgets per layer; exits 1 when over"),
    "claims": ("jitctx.cli.cmd_claims", "check facts written in instruction files against the repo"),
    "provenance": ("jitctx.cli.cmd_provenance", "write or check a lock file of instruction file hashes"),
    "lint": ("jitctx.cli.cmd_lint", "find broken imports, bad globs, dead scopes and duplicates"),
    "rules": ("jitctx.cli.cmd_rules", "each instruction file: scope, bytes, twins, who reads it when"),
    "hook": ("jitctx.cli.cmd_hook", "answer one hook event of an agent (stdin JSON -> stdout JSON)"),
    "install": ("jitctx.cli.cmd_install", "add jitctx hooks to an agent's settings"),
    "uninstall": ("jitctx.cli.cmd_install", "remove jitctx hooks from an agent's settings"),
    "doctor": ("jitctx.cli.cmd_doctor", "check that the agents run jitctx: hooks, command, trust, state dir"),
    "mcp": ("jitctx.cli.cmd_mcp", "serve context_for_paths, explain and stats over MCP (stdio)"),
    "profiles": ("jitctx.cli.cmd_profiles", "list the agent profiles and what each reads"),
    "completion": ("jitctx.cli.cmd_completion", "print a tab-completion script for bash or zsh"),
}
