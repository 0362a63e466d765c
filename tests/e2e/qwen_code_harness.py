"""The real Qwen Code, headless (`qwen -p PROMPT --yolo --auth-type openai`), against the scripted model as
an OpenAI-compatible endpoint (Chat Completions), and what reached that model, by route.

Qwen Code 0.24.4 speaks Chat Completions: its own loads sit in the system message (`--- Context from:
PATH ---` and `--- Rule from: PATH ---` blocks, and a `<qwen:session-start-context>` frame holding the
SessionStart hook's context); a UserPromptSubmit context is a `<qwen:user-prompt-submit-context>` frame in
a user turn; a tool's `role: tool` message holds its output, then the PostToolUse hook's context, then the
`.qwen/rules` files it adds itself (a `<system-reminder>` of `--- Rule from:` blocks). jitctx's blocks
start with `Contents of PATH`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.e2e import clients as cl
from tests.e2e.evidence import Delivery
from tests.e2e.fake_api import FakeModel, Script
from tests.e2e.harness import FILES, MARKERS, Harness, Outcome

QWEN_MODEL = "qwen3-coder-plus"
# No usage statistics, telemetry or update checks, and no background memory extraction after a turn (a
# request of its own, with tools, that a script would answer); the API-key sign-in comes from --auth-type.
QWEN_USER_SETTINGS = {
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False},
    "memory": {"enableManagedAutoMemory": False, "enableManagedAutoDream": False},
}

# Qwen Code's own files on top of the shared fixture: QWEN.md at the root and below it, and its rules
# folder (an unscoped rule it loads at start, a scoped one it adds after its own file tools).
QWEN_FILES: dict[str, str] = {
    **FILES,
    "QWEN.md": "# Qwen\n\nJX-ROOT-QWEN: answer briefly.\n",
    "src/ui/QWEN.md": "# UI for Qwen\n\nJX-UI-QWEN: no inline styles.\n",
    "src/api/QWEN.md": "# API for Qwen\n\nJX-API-QWEN: log every rejected request.\n",
    "src/ui/Header.tsx": "export const Header = () => null;\n",
    ".qwen/rules/always.md": "JX-QRULE-ALWAYS: say which files you changed.\n",
    ".qwen/rules/api.md": '---\npaths:\n  - "src/api/**"\n---\n\nJX-QRULE-API: keep handlers small.\n',
}
# Beside the project (in the folder above its root): nothing there may come from jitctx.
OUTSIDE_FILES = {
    "CLAUDE.md": "JX-OUTSIDE-CLAUDE: not this project's.\n",
    "QWEN.md": "JX-OUTSIDE-QWEN: not this project's.\n",
}
QWEN_MARKERS = (
    *MARKERS,
    "JX-ROOT-QWEN",
    "JX-UI-QWEN",
    "JX-API-QWEN",
    "JX-QRULE-ALWAYS",
    "JX-QRULE-API",
    "JX-OUTSIDE-CLAUDE",
    "JX-OUTSIDE-QWEN",
)
# A file the project pins (`[pin] paths`): sent at every start, after every compaction, to every sub-agent.
PINNED: dict[str, str] = {
    ".jitctx.toml": '[pin]\npaths = ["docs/PINNED.md"]\n',
    "docs/PINNED.md": "# Pinned\n\nJX-PINNED: name every public function in the changelog.\n",
}
FILE_OF = {
    marker: path
    for files in (QWEN_FILES, OUTSIDE_FILES, PINNED)
    for path, text in files.items()
    for marker in (*QWEN_MARKERS, "JX-PINNED")
    if marker in text
}


def qwen_env(home: Path, state_dir: Path, base_url: str) -> dict[str, str]:
    """The fake model as the OpenAI endpoint, and as the proxy of anything else the client might fetch."""
    env = cl.base_env(home, state_dir)
    env.update(
        OPENAI_BASE_URL=f"{base_url}/v1",
        OPENAI_API_KEY="sk-e2e-fake",
        OPENAI_MODEL=QWEN_MODEL,
        HTTPS_PROXY=base_url,
        HTTP_PROXY=base_url,
        https_proxy=base_url,
        http_proxy=base_url,
        QWEN_CODE_SUPPRESS_YOLO_WARNING="1",
        TERM="dumb",
    )
    return env


def write_qwen_settings(home: Path) -> Path:
    """~/.qwen/settings.json with QWEN_USER_SETTINGS (over what it held: a user-scope install's hooks)."""
    path = home / ".qwen" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    held = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    path.write_text(json.dumps({**held, **QWEN_USER_SETTINGS}, indent=2), encoding="utf-8")
    return path


# -- what reached the model ---------------------------------------------------------------------------

_FRAMES = {
    "system": ("<qwen:session-start-context", "</qwen:session-start-context>", "SessionStart"),
    "user": ("<qwen:user-prompt-submit-context>", "</qwen:user-prompt-submit-context>", "UserPromptSubmit"),
}
_OWN_BLOCK = re.compile(r"^--- (?:Context|Rule) from: .+? ---$", re.MULTILINE)
_JITCTX_BLOCK = re.compile(r"^Contents of \S+", re.MULTILINE)


def _texts(content: Any) -> Iterator[str]:
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                yield part["text"]


def _last_before(pattern: re.Pattern[str], text: str, position: int) -> int:
    starts = [m.start() for m in pattern.finditer(text, 0, position)]
    return starts[-1] if starts else -1


def _route(role: str, text: str, position: int) -> Delivery:
    frame = _FRAMES.get(role)
    if frame is not None:
        opened = text.rfind(frame[0], 0, position)
        if opened >= 0 and text.find(frame[1], opened) >= position:
            return Delivery("hook", frame[2])
    own = _last_before(_OWN_BLOCK, text, position)
    ours = _last_before(_JITCTX_BLOCK, text, position)
    if role == "tool":
        if ours > own:
            return Delivery("hook", "PostToolUse")
        return Delivery("client", "rule after the tool") if own >= 0 else Delivery("tool-output", "result")
    return Delivery("client", "system prompt" if role == "system" else f"{role} turn")


def qwen_deliveries(body: Mapping[str, Any], marker: str) -> list[Delivery]:
    """Every occurrence of `marker` in a Chat Completions request of Qwen Code, with its route."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(marker)}(?![\w-])")
    return [
        _route(str(message.get("role")), text, found.start())
        for message in body.get("messages") or []
        for text in _texts(message.get("content"))
        for found in pattern.finditer(text)
    ]


class QwenOutcome(Outcome):
    """An outcome read with Qwen Code's routes."""

    def expect(self, marker: str, route: str | None = None, times: int = 1, script: str = "main") -> None:
        self.expect_in(self.last(script), marker, route, times, f"the last {script!r} request")

    def expect_in(
        self, body: dict[str, Any], marker: str, route: str | None = None, times: int = 1, which: str = ""
    ) -> None:
        """`marker` reached the model in request `body` exactly `times` times, each by `route`."""
        found = qwen_deliveries(body, marker)
        wanted = f"{times}x via {route or 'any route'}"
        assert len(found) == times and all(route in (None, d.route) for d in found), (
            f"{marker} ({FILE_OF[marker]}) in {which or 'the request'}: expected {wanted}, "
            f"got {len(found)}x {[str(d) for d in found]}\n{self.diagnose(body)}"
        )

    def diagnose(self, body: dict[str, Any] | None = None) -> str:
        lines = []
        if body is not None:
            for marker in self.markers:
                found = qwen_deliveries(body, marker)
                lines.append(f"  {marker}: {len(found)}x {', '.join(str(d) for d in found) or '-'}")
        head = "what arrived, by marker:\n" + "\n".join(lines) + "\n" if lines else ""
        return head + super().diagnose()


class QwenHarness(Harness):
    """Qwen Code headless, run from the project root (where its project settings, and jitctx's hooks in
    them, are read)."""

    agent = "qwen-code"
    files = QWEN_FILES
    markers: Sequence[str] = QWEN_MARKERS

    def __init__(
        self,
        clients: cl.Clients,
        tmp_path: Path,
        *install: str,
        hold: bool = True,
        files: Mapping[str, str] | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> None:
        """`files`: more files in the fixture repository (their markers join the diagnosis); `settings`:
        the project's `.qwen/settings.json` before `jitctx install` adds its hooks to it."""
        if files or settings:
            more = {**(files or {}), **({".qwen/settings.json": json.dumps(settings)} if settings else {})}
            self.files = {**QWEN_FILES, **more}
            self.markers = (*QWEN_MARKERS, *(m for m, path in FILE_OF.items() if path in more))
        super().__init__(clients, tmp_path, *install, hold=hold)
        for name, text in OUTSIDE_FILES.items():
            (self.root.parent / name).write_text(text, encoding="utf-8")
        write_qwen_settings(self.home)

    def run(
        self,
        prompt: str,
        scripts: Sequence[Script],
        *args: str,
        cwd: Path | None = None,
        side_tokens: int | None = None,
    ) -> QwenOutcome:
        """`side_tokens`: the prompt size the replies to side requests (a compaction's summary) report."""
        fake = FakeModel(scripts) if side_tokens is None else FakeModel(scripts, side_tokens=side_tokens)
        with fake as model:
            env = qwen_env(self.home, self.state_dir, model.base_url)
            command = [str(self.clients.qwen), "-p", prompt, "--yolo", "--auth-type", "openai"]
            command += ["--output-format", "json", *args]
            run = cl.run_client(command, cwd or self.root, env)
        outcome = QwenOutcome(run, model, self.session_id(run), self.state_dir, self.markers)
        assert run.returncode == 0, f"{self.agent} failed\n{outcome.diagnose()}"
        assert not model.errors, f"fake model: {model.errors}\n{outcome.diagnose()}"
        assert not model.refused, f"sent past the fake model: {model.refused}\n{outcome.diagnose()}"
        return outcome

    def session_id(self, run: cl.Run) -> str | None:
        """The `session_id` of the `--output-format json` result (a list of messages)."""
        try:
            messages = json.loads(run.stdout)
        except ValueError:
            return None
        for message in messages if isinstance(messages, list) else []:
            if isinstance(message, dict) and isinstance(message.get("session_id"), str):
                return str(message["session_id"])
        return None
