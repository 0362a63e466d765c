"""Qwen Code as the engine and the views see it: its hook dialect, and what it loads by itself (its
context files as its settings name them, the `.qwen/rules` its file tools match, nothing untrusted)
(`jitctx.clients.base.Client`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.clients.qwen_code.dialect import QwenCodeDialect
from jitctx.clients.qwen_code.profile import (
    DEFAULT_CONTEXT_FILES,
    PROFILE,
    QWEN_RULES,
    untrusted,
    with_context_files,
)
from jitctx.clients.qwen_code.settings import context_file_names, folder_trust

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.profiles import Profile

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


class QwenCode(QwenCodeDialect, Client):
    title = "Qwen Code"
    program = "qwen"
    package = "@qwen-code/qwen-code"
    profile_module = "jitctx.clients.qwen_code.profile"
    # Seen with 0.24.4: the SessionStart answer lives in the system prompt, rebuilt on each run, so a
    # resumed session (`-c`, `-r ID`) holds the tool results of earlier runs but none of the start files.
    resume_drops_start = True
    start_answer_per_run = True

    def discovery_profile(
        self, every_format: Profile, root: str, environ: Mapping[str, str], home: str | None
    ) -> Profile:
        # QWEN.md and the names of `context.fileName` join jitctx's formats, so such a file below the
        # cwd, which it never loads, reaches the model too (and a QWEN.md it was told not to read).
        names = (*DEFAULT_CONTEXT_FILES, *context_file_names(root, home, environ))
        extra = tuple(dict.fromkeys(n for n in names if n not in every_format.dir_files))
        # Its `.qwen/rules` too: a scoped one is jitctx's to send before a write (a hold) and after a call
        # Qwen Code does not follow (a shell read), which brings it nowhere else.
        rules = (*every_format.rules_dirs, QWEN_RULES)
        return replace(every_format, dir_files=(*every_format.dir_files, *extra), rules_dirs=rules)

    def host_profile(
        self, root: str, environ: Mapping[str, str], home: str | None, follower: Follower | None = None
    ) -> Profile:
        names = context_file_names(root, home, environ)
        profile = PROFILE if names == PROFILE.dir_files else with_context_files(names)
        return profile if folder_trust(root, home, environ) == "trusted" else untrusted(profile)

    def follower(self, transcript: object, cwd: str, origin_pid: int | None = None) -> Follower:
        return QwenFollower()


CLIENT = QwenCode()
