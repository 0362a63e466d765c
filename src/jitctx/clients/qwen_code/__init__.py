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

This module is the client as its hook events see it; the other modules of this folder: `profile`,
`tools`, `settings` (settings places, `context.fileName`, folder trust); and for install and doctor
only, `setup` (its `Setup`), `hooks` (install entries, settings places), `doctor`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.hook.event import parse_claude_shaped

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.hook.event import HookEvent
    from jitctx.profiles import Profile

KINDS = {
    "PreToolUse": "before_tool",
    "PostToolUse": "tools",
    "UserPromptSubmit": "prompt",
    "SessionStart": "start",
    "InstructionsLoaded": "host_load",
}

# 0.24.4 (chunks/chunk-DPEB6S2R.js, FS_PATH_TOOL_NAMES and `matchAndConsume`): after a call of one of
# these tools, the conditional `.qwen/rules` its paths match join the tool's result, each rule once. A
# shell call brings none (its paths are not read).
RULE_TOOLS = frozenset(
    {"read_file", "edit", "write_file", "grep_search", "glob", "list_directory", "lsp", "notebook_edit"}
)


# The tools whose result shows the model the edited file's lines ("Showing lines a-b of N").
EDIT_TOOLS = frozenset({"edit", "write_file"})


class QwenFollower(Follower):
    def follows(self, tool_name: str, tool_input: Mapping[str, Any]) -> bool:
        """Its file tools load the scoped `.qwen/rules` their paths match (and nothing nested: the
        profile's `native_jit` is off)."""
        return tool_name in RULE_TOOLS

    def result_text(self, call: Mapping[str, Any]) -> str | None:
        """0.24.4's `edit` answers "Showing lines a-b of N from the edited file:" and the changed lines
        with four around them (the whole file when it is that short), in the result's `llmContent`."""
        if call.get("tool_name") not in EDIT_TOOLS:
            return None  # a shell's output may be cut after the hook saw it: no proof of what arrived
        response = call.get("tool_response")
        content = response.get("llmContent") if isinstance(response, dict) else None
        return content if isinstance(content, str) else None


class QwenCode(Client):
    name = "qwen-code"
    title = "Qwen Code"
    program = "qwen"
    package = "@qwen-code/qwen-code"
    aliases = ("qwen",)
    events = frozenset(KINDS)
    profile_module = "jitctx.clients.qwen_code.profile"
    tools_module = "jitctx.clients.qwen_code.tools"
    fast_lane = True
    # Seen with 0.24.4: the SessionStart answer lives in the system prompt, rebuilt on each run, so a
    # resumed session (`-c`, `-r ID`) holds the tool results of earlier runs but none of the start files.
    resume_drops_start = True
    start_answer_per_run = True

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        return parse_claude_shaped(self, payload, KINDS)

    def discovery_profile(
        self, every_format: Profile, root: str, environ: Mapping[str, str], home: str | None
    ) -> Profile:
        # QWEN.md and the names of `context.fileName` join jitctx's formats, so such a file below the
        # cwd, which it never loads, reaches the model too (and a QWEN.md it was told not to read).
        from dataclasses import replace

        from jitctx.clients.qwen_code.profile import DEFAULT_CONTEXT_FILES, QWEN_RULES
        from jitctx.clients.qwen_code.settings import context_file_names

        names = (*DEFAULT_CONTEXT_FILES, *context_file_names(root, home, environ))
        extra = tuple(dict.fromkeys(n for n in names if n not in every_format.dir_files))
        # Its `.qwen/rules` too: a scoped one is jitctx's to send before a write (a hold) and after a call
        # Qwen Code does not follow (a shell read), which brings it nowhere else.
        rules = (*every_format.rules_dirs, QWEN_RULES)
        return replace(every_format, dir_files=(*every_format.dir_files, *extra), rules_dirs=rules)

    def host_profile(
        self, root: str, environ: Mapping[str, str], home: str | None, follower: Follower | None = None
    ) -> Profile:
        from jitctx.clients.qwen_code.profile import PROFILE, untrusted, with_context_files
        from jitctx.clients.qwen_code.settings import context_file_names, folder_trust

        names = context_file_names(root, home, environ)
        profile = PROFILE if names == PROFILE.dir_files else with_context_files(names)
        return profile if folder_trust(root, home, environ) == "trusted" else untrusted(profile)

    def follower(self, transcript: object, cwd: str, origin_pid: int | None = None) -> Follower:
        return QwenFollower()


CLIENT = QwenCode()
