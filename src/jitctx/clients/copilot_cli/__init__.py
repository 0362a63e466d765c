"""GitHub Copilot CLI (npm `@github/copilot`): hooks under `hooks` in `.github/copilot/settings.json` and
`~/.copilot/settings.json`; the repository's run only in a folder the user trusts. It loads its
instruction files at start and, after its own `view` of a file, those above that file and the scoped
rules that match it.

Seen in 1.0.102, against a scripted model (Chat Completions): at start the system prompt holds
`~/.copilot/copilot-instructions.md`, `.github/copilot-instructions.md`, then AGENTS.md, CLAUDE.md and
GEMINI.md of each directory from the git root to the cwd, then the unscoped rules of
`~/.copilot/instructions/`, `.github/instructions/` and the root's `.claude/rules/` (subfolders too),
each with the files its `@path`s import; a scoped rule (`applyTo:`, or `paths:` in `.claude/rules`) is
only listed in a table of patterns. After a `view` of a file, a user message follows the tool result
with `Custom instructions from PATH` for each AGENTS.md, CLAUDE.md, GEMINI.md above the file and each
scoped rule matching it that the session has not had yet. A `view` of a directory, bash, rg/grep, glob,
create, edit and apply_patch load nothing. Not read at all: CLAUDE.local.md, `.claude/CLAUDE.md`,
`pkg/.claude/rules/`, `~/.claude/`, `~/.codex/`, `~/.gemini/`. A hook's `additionalContext` reaches the
model, and a preToolUse deny stops a call with its reason as the call's result (`events`): so jitctx holds
back a write whose rules are not in context (DESIGN §2.11). In `-p` mode the repository's hooks load only
when the folder is trusted (`trustedFolders` in `~/.copilot/config.json`, `--trust-folder`,
`COPILOT_ALLOW_ALL=true`) or with `GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true`; the repository's settings
are found from a subfolder too, and user hooks need no trust.

Compaction (1.0.102): `preCompact` fires before it, and its answer reaches no model; the compacted
conversation keeps the system prompt (rebuilt, with the start files) and the calls made since, and drops
every hook's context and the client's loads after a view. So jitctx notes the compaction and the next
tool call's answer carries what the session held (`hook.event.COMPACT`). Sub-agents (its `task` tool):
`subagentStart`'s answer is put before the sub-agent's first prompt; a general-purpose sub-agent gets the
start files in its system prompt as the main agent does, one of another type gets none; every type loads
the files above a file after its own view. A sub-agent's events carry its own id, and jitctx keeps them
in a channel of their own in the parent's session (`events.claude_shaped`). What the client loaded is
written to `~/.copilot/session-state/ID/events.jsonl` only when it exits: no hook can read it as evidence.

The modules of this folder: `dialect` (its events, tools and answers: all the fast lane loads), `events`
(its payloads), `tools`; `client` (the whole client, for the engine and the views), `profile`; and for
install and doctor only, `setup` (its `Setup`), `hooks` (install entries, settings places), `settings`
(trust and the switch that turns hooks off), `doctor`.
"""
