"""`jitctx install --help` says where each client's entries go, from the registry: a new client gets its
rows without anyone editing the help."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jitctx.cli.install_help import where_entries_go
from jitctx.clients import all_clients
from jitctx.clients.base import Client, Setup


def test_every_client_and_scope_has_its_row() -> None:
    text = where_entries_go()
    for client in all_clients.every_setup():
        assert client.name in text
        for scope in client.scopes:
            assert f"--scope {scope}" in text
    assert "<root>/.gemini/settings.json" in text and "~/.codex/hooks.json" in text
    assert "($CODEX_HOME/hooks.json when set)" in text  # the variable that moves a file, found by asking


def test_a_client_added_to_the_registry_is_described() -> None:
    class FakeClient(Client):
        name = "fake-cli"

    class Fake(Setup):
        scopes = ("project", "user")

        def settings_path(self, scope: str, root: str, home: str, environ: Any) -> Path:
            return Path(home if scope == "user" else root) / ".fake" / "hooks.json"

    text = where_entries_go([Fake(FakeClient())])
    assert "fake-cli" in text and "<root>/.fake/hooks.json" in text and "~/.fake/hooks.json" in text
