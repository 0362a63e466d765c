"""Gemini CLI as the engine and the views see it: its hook dialect, what it loads by itself (its context
files, and after its own file tools those above the touched path) and what its tool results show
(`jitctx.clients.base.Client`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.clients.gemini_cli.dialect import GeminiCliDialect
from jitctx.clients.gemini_cli.evidence import context_files_shown
from jitctx.clients.gemini_cli.profile import PROFILE, with_context_files
from jitctx.clients.gemini_cli.settings import context_file_names

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.profiles import Profile

# The file tools after which Gemini CLI loads the context files above the paths they touched
# (read_many_files serves its `@path` expansion, which loads them too).
FOLLOWED_TOOLS = frozenset({"read_file", "read_many_files", "write_file", "replace", "list_directory"})
# The tools whose result shows the model the edited file's new lines ("Here is the updated code:"). Not
# the shell: 0.61.0 cuts a long shell output (over 40,000 characters, or what is left of the context
# window) after AfterTool saw it whole, so a file a shell command printed may not have reached the model.
EDIT_TOOLS = frozenset({"replace", "write_file"})
# With context management on (`experimental.contextManagement` or another experimental profile), a
# result over `contextManagement.tools.distillation.maxOutputTokens` (10,000 by default, counted as 4
# characters each) is cut after AfterTool: a longer one is no evidence of what the model read.
WHOLE_RESULT_CHARS = 40_000


def llm_content(call: Mapping[str, Any]) -> str | None:
    """The `llmContent` string of a call's result: what the model reads of it."""
    response = call.get("tool_response")
    content = response.get("llmContent") if isinstance(response, dict) else None
    return content if isinstance(content, str) else None


class GeminiFollower(Follower):
    def follows(self, tool_name: str, tool_input: Mapping[str, Any]) -> bool:
        return tool_name in FOLLOWED_TOOLS

    def follows_mentions(self) -> bool:
        return True  # an `@path` is expanded by read_many_files, with the context files above it

    def shown_loaded(self, call: Mapping[str, Any]) -> frozenset[str] | None:
        """The context files Gemini CLI provably appended to this call's result ("--- Context from:
        PATH ---", `evidence`); None when the result is not there to read."""
        return context_files_shown(call)

    def result_text(self, call: Mapping[str, Any]) -> str | None:
        """0.61.0's `replace` and `write_file` answer with a status line and "Here is the updated
        code:", then the new file's changed lines with five around them (the whole file when it is new
        or was empty), in the result's `llmContent`."""
        if call.get("tool_name") not in EDIT_TOOLS:
            return None
        content = llm_content(call)
        return content if content is not None and len(content) <= WHOLE_RESULT_CHARS else None


class GeminiCli(GeminiCliDialect, Client):
    title = "Gemini CLI"
    program = "gemini"
    package = "@google/gemini-cli"
    profile_module = "jitctx.clients.gemini_cli.profile"
    # Seen with 0.61.0: `gemini -r` rebuilds the history without the first run's opening prompt, which
    # held the SessionStart context; the prompts after it survive later resumes.
    resume_drops_start = True
    # 0.61.0 splits the history it compresses at a user prompt: the latest prompt and all after it stay.
    compaction_keeps_turn = True

    def host_profile(
        self, root: str, environ: Mapping[str, str], home: str | None, follower: Follower | None = None
    ) -> Profile:
        names = context_file_names(root, home)
        return PROFILE if names == PROFILE.dir_files else with_context_files(names)

    def follower(self, transcript: object, cwd: str, origin_pid: int | None = None) -> Follower:
        return GeminiFollower()


CLIENT = GeminiCli()
