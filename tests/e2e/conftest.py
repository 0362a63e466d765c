"""Fixtures of the real-client tests: the npm-installed clients (once per session, or a skip that says
why) and a fresh fixture repository with jitctx's hooks for each client."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clients as cl
from tests.e2e.harness import ClaudeHarness, CodexHarness, GeminiHarness, holds

_skip_reason: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "hold_off: the test's project turns holding off (`[hold] writes = false`): its scripted model "
        "writes once into a folder it has not seen, and the test is about what that write brings",
    )


@pytest.fixture(scope="session")
def clients() -> cl.Clients:
    found = cl.install_clients()
    if isinstance(found, str):
        if os.environ.get(cl.CLAUDE_PREFIX_VARIABLE):  # asked for a given release: not having it fails
            pytest.fail(f"e2e: ${cl.CLAUDE_PREFIX_VARIABLE} is set, but {found}")
        _skip_reason.append(found)
        pytest.skip(f"e2e: {found}")
    return found


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _skip_reason:
        terminalreporter.write_line(f"tests/e2e skipped: {_skip_reason[0]}")


@pytest.fixture
def claude(clients: cl.Clients, tmp_path: Path, request: pytest.FixtureRequest) -> ClaudeHarness:
    return ClaudeHarness(clients, tmp_path, hold=holds(request))


@pytest.fixture
def claude_mcp(clients: cl.Clients, tmp_path: Path, request: pytest.FixtureRequest) -> ClaudeHarness:
    """Claude Code with `jitctx install claude-code --transport mcp`: tool calls, prompts and sub-agents
    answered by the `jitctx mcp` server the session runs."""
    return ClaudeHarness(clients, tmp_path, "--transport", "mcp", hold=holds(request))


@pytest.fixture
def codex(clients: cl.Clients, tmp_path: Path, request: pytest.FixtureRequest) -> CodexHarness:
    return CodexHarness(clients, tmp_path, hold=holds(request))


@pytest.fixture
def gemini(clients: cl.Clients, tmp_path: Path, request: pytest.FixtureRequest) -> GeminiHarness:
    return GeminiHarness(clients, tmp_path, hold=holds(request))
