"""OpenCode (npm `opencode-ai`): no command hooks; jitctx installs a plugin (`.opencode/plugins/jitctx.js`
or `~/.config/opencode/plugins/jitctx.js`) that hands each tool call and each session's start to
`jitctx hook opencode` and adds the answer to the tool's output or the system prompt.

Seen in 1.18.33, against a scripted model: at start the system prompt holds one user file (the first of
`~/.config/opencode/AGENTS.md`, `~/.claude/CLAUDE.md`) and, of AGENTS.md, CLAUDE.md and CONTEXT.md, the
first name found from the cwd up to the worktree (so a root AGENTS.md hides the root CLAUDE.md). Its `read`
tool appends to its output, per directory from the file's up to the cwd (not the cwd itself), the first of
those three names, as `<system-reminder>Instructions from: /abs/path ...`, and lists them in the result's
`metadata.loaded`; a file loaded by an earlier read of the session is not attached again. write, edit,
bash, glob and grep attach nothing. The plugin's `tool.execute.after` receives `{tool, sessionID, callID,
args}` and the result, whose `output` it may extend; its `tool.execute.before` receives `{tool,
sessionID, callID}` and `{args}` before the call runs, and an error it throws stops the call, its
message the model's result (so jitctx holds back a write whose rules are not in context, DESIGN §2.11);
`experimental.chat.system.transform` runs before every model request (titles included) with
`{sessionID, model}` and the system prompt's parts. Its `task` tool runs a sub-agent in a child session:
`session.created` names the parent (`info.parentID`, the only place it appears), the child's requests and
tool calls run those hooks with the child's id, and its system prompt is built as any session's (the root
AGENTS.md in it); the parent reads only its final text. The plugin hands the child's events over as a
sub-agent's of the parent (a channel of its own). It compacts a session whose reply reaches the model's
window into a summary followed by the recent part of the conversation, verbatim, as far as it fits in
`compaction.preserve_recent_tokens` (by default the lesser of 15,000 tokens and a quarter of the window;
nothing when the whole conversation fits), and publishes `session.compacted`. Plugins
run only from a project's `.opencode/` (found from the cwd up to the worktree) or the user's config
folder; `--pure` and OPENCODE_PURE run none. There is no trust step.

The modules of this folder: `dialect` (the events its plugin hands over, its tools and answers: all the
fast lane loads), `tools`; `client` (the whole client, for the engine and the views), `profile`,
`loading` (what it loads in one project and cwd); and for install and doctor only, `setup` (its
`Setup`), `hooks` (the plugin's events and places), `plugin` (writing and removing the plugin file),
`doctor`; the plugin itself is `jitctx_plugin.js`.
"""
