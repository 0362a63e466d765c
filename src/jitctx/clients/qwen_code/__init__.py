"""Qwen Code (npm `@qwen-code/qwen-code`): Claude-shaped hooks in `.qwen/settings.json` and
`~/.qwen/settings.json`, on by default; loads its context files (QWEN.md and AGENTS.md, or
`context.fileName`) and its `.qwen/rules` at start only, and never a context file below the cwd.

Seen in 0.24.4, against a scripted model (Chat Completions, `--auth-type openai`): at start it puts into
the system prompt the context files from the cwd up to the `.git` root (and the folder above it, outside
the project), `~/.qwen/QWEN.md` and `~/.qwen/AGENTS.md`, `<root>/.qwen/QWEN.local.md` and the unscoped
`.qwen/rules/**/*.md`, each between `--- Context from: PATH ---` or `--- Rule from: PATH ---` lines. It
reads no CLAUDE.md and no `.claude/rules`. After its read_file, write_file, edit, glob, grep_search,
list_directory and lsp calls it appends the `.qwen/rules` files whose `paths:` match the touched path,
once per session, in a `<system-reminder>` after the hook's context (the PostToolUse hook does not see
them); after read_file of `src/ui/Footer.tsx` nothing of `src/ui/` loads, so every nested QWEN.md,
AGENTS.md and CLAUDE.md is jitctx's to send, after a shell read as after a file tool. It reports each of
its own loads to an InstructionsLoaded hook. Project settings are read from `<cwd>/.qwen/` only. A
SubagentStart hook runs, but its additionalContext does not reach the sub-agent's model (a foreground or a
background `agent` call alike), so jitctx does not answer it: the sub-agent's tool calls, which carry its
`agent_id`, bring what applies in its own channel. A resumed session keeps its tool results but rebuilds
the system prompt, and with it the SessionStart answer, on every run. When it compacts (its prompt near
`model.generationConfig.contextWindowSize`) it keeps the summary, the files read recently and the call
whose result was pending, and fires SessionStart with source `compact` without waiting for it: the
answer, which holds everything the session held but its own files, replaces the SessionStart block of
the system prompt from the second request after the compaction on (the first still has the old block).
Its first run adds `"$version"` to the project's `.qwen/settings.json` (a settings migration).

The modules of this folder: `dialect` (its events, tools and answers: all the fast lane loads), `tools`;
`client` (the whole client, for the engine and the views), `profile`, `settings` (settings places,
`context.fileName`, folder trust); and for install and doctor only, `setup` (its `Setup`), `hooks`
(install entries, settings places), `doctor`.
"""
