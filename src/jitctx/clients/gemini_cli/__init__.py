"""Gemini CLI (npm `@google/gemini-cli`): hooks in `.gemini/settings.json` and `~/.gemini/settings.json`,
run only in a folder the user trusts; loads its context files (GEMINI.md, `context.fileName`) at start
and just in time after its own file tools, never after a shell command, a grep or a glob.

Seen in 0.61.0, against a scripted model: at start it reads the context files from the cwd up to the
`.git` boundary (none below the cwd) and `~/.gemini/GEMINI.md`; its read_file, write_file, replace and
list_directory calls, and `@path` in a prompt, append the context files above the touched path that
this session has not loaded yet to the tool's result, between `--- Context from: PATH ---` lines, and
the AfterTool hook sees that result (`evidence`). A BeforeTool answer `{"decision": "deny", "reason": R}`
stops a call, the model reading `Tool execution blocked: R` as its result: so jitctx holds back a write
whose rules are not in context (DESIGN §2.11). Project settings are read from `<cwd>/.gemini/` only,
and only in a trusted folder.

The modules of this folder: `dialect` (its events, tools and answers, and `compaction`: all the fast
lane loads), `tools`; `client` (the whole client, for the engine and the views), `profile`, `settings`
(reading `context.fileName` and folder trust), `evidence`; and for install and doctor only, `setup`
(its `Setup`), `hooks` (install entries, settings places), `doctor`.
"""
