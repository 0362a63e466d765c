"""The client registry: one folder and one line per live client, and no client named outside its folder."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import jitctx
from jitctx.clients import all_clients
from jitctx.clients.base import Client

PACKAGE = Path(jitctx.__file__).parent


def client_names() -> set[str]:
    names = set(all_clients.CLIENTS)
    for client in all_clients.every():
        names.update(client.aliases)
    return names


def module_of_client(name: str) -> str:
    return all_clients.CLIENTS[name]


def test_every_registered_client_is_a_client_with_its_own_folder() -> None:
    for name, module in all_clients.CLIENTS.items():
        client = all_clients.get(name)
        assert isinstance(client, Client) and client.name == name
        assert module == f"jitctx.clients.{name.replace('-', '_')}"
        assert (PACKAGE / "clients" / name.replace("-", "_") / "__init__.py").is_file()
        assert client.profile().name == name  # its `--agent` profile is its own
        assert client.events and client.entries()  # a hook dialect and the entries that install it


def test_aliases_reach_their_client() -> None:
    assert all_clients.canonical("gemini") == "gemini-cli"
    assert all_clients.get("gemini") is all_clients.get("gemini-cli")
    assert all_clients.canonical("no-such-agent") is None
    with pytest.raises(KeyError):
        all_clients.get("no-such-agent")


def _offences(source: Path, names: set[str], modules: set[str]) -> list[str]:
    """String constants equal to a client's name, and imports of a client's folder, in one module."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in names or node.value in modules:
                found.append(f"{node.lineno}: {node.value!r}")
        imported: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            imported = [node.module]
        elif isinstance(node, ast.Import):
            imported = [alias.name for alias in node.names]
        found += [f"{node.lineno}: import {m}" for m in imported if any(m.startswith(x) for x in modules)]
    return found


def test_no_module_outside_the_clients_folder_names_a_client() -> None:
    """Outside `jitctx/clients/<client>/` no code compares with, keys by or imports a client: everything
    else asks the registry (`all_clients`), whose table is the one place that lists them."""
    names = client_names()
    modules = {module_of_client(name) for name in all_clients.CLIENTS}
    offenders = []
    for source in sorted(PACKAGE.rglob("*.py")):
        rel = source.relative_to(PACKAGE).as_posix()
        folder = rel.split("/")[1] if rel.startswith("clients/") and rel.count("/") >= 2 else None
        if folder is not None or rel == "clients/all_clients.py":
            continue
        offenders += [f"{rel}:{hit}" for hit in _offences(source, names, modules)]
    assert offenders == []


def test_the_check_finds_a_name_where_there_is_one(tmp_path: Path) -> None:
    """The scan above would catch a branch on a client's name, or an import of its folder."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        '"""Docstrings may name codex."""\nimport jitctx.clients.codex\nif agent == "codex":\n    pass\n',
        encoding="utf-8",
    )
    names = client_names()
    modules = {module_of_client(name) for name in all_clients.CLIENTS}
    assert _offences(bad, names, modules) == ["2: import jitctx.clients.codex", "3: 'codex'"]
