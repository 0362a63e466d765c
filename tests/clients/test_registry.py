"""The client registry: one folder and one line per live client, and no client named outside its folder."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

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
        assert client.events and all_clients.setup(name).entries()  # a hook dialect, entries installing it


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


def test_every_client_registers_with_a_well_formed_tool_table() -> None:
    """Issue #29: each live client declares its tools in its own folder (`tools_module`), and `get`
    checks the table when the client registers."""
    for name in all_clients.CLIENTS:
        client = all_clients.get(name)
        assert client.tools_module == f"{all_clients.CLIENTS[name]}.tools"
        assert client.tools() and all(callable(d) for d in client.tools().values())
        all_clients.check_tools(client)
        all_clients.check_samples(client)


class _Broken(Client):
    name = "broken"

    def __init__(self, tools: dict[str, object], sample: str | None) -> None:
        self._tools = tools
        self._sample = sample

    def tools(self) -> Any:
        return self._tools

    def sample_call(self, kind: str, path: str) -> tuple[str, dict[str, object]] | None:
        return None if self._sample is None else (self._sample, {"path": path})

    def writes(self) -> frozenset[str]:
        return frozenset(self._writes)

    _writes: tuple[str, ...] = ()


def test_the_registration_check_refuses_a_malformed_table() -> None:
    from jitctx.touched.tools import path_field

    whole = _Broken({"view": path_field("path")}, "view")
    whole._writes = ("view",)
    all_clients.check_tools(whole)
    all_clients.check_samples(whole)
    all_clients.check_samples(_Broken({}, None))  # no tools at all: every sample is None
    with pytest.raises(TypeError, match="'view' have no callable declaration"):
        all_clients.check_tools(_Broken({"view": "path"}, None))
    with pytest.raises(TypeError, match="sample calls 'open', not in its tool table"):
        all_clients.check_samples(_Broken({"view": path_field("path")}, "open"))
    with pytest.raises(TypeError, match="its write sample calls 'view', not one of its write tools"):
        all_clients.check_samples(_Broken({"view": path_field("path")}, "view"))
    unknown = _Broken({"view": path_field("path")}, None)
    unknown._writes = ("create",)
    with pytest.raises(TypeError, match="write tools 'create' are not in its tool table"):
        all_clients.check_tools(unknown)


def test_a_generic_client_has_the_generic_tools_and_samples() -> None:
    from jitctx.touched.tools import GENERIC

    plain = Client()
    assert plain.tools() is GENERIC
    assert plain.sample_call("read", "/p/a.py") == ("read", {"file_path": "/p/a.py"})
    assert plain.sample_call("shell_write", "/p/a b.py") == ("bash", {"command": "printf x > '/p/a b.py'"})
    all_clients.check_tools(plain)
    all_clients.check_samples(plain)


def test_a_client_registers_only_whole() -> None:
    """Each part is checked when a client registers: its name as the registry's, an event to answer,
    and (when the registry is listed) a profile of its own; its setup, when asked for, is its own and
    installs no hook for an event its dialect does not read."""
    from dataclasses import replace

    from jitctx.clients.base import Setup
    from jitctx.clients.kit.settings_file import HookEntry
    from jitctx.profiles import Profile, get_profile

    class Half(Client):
        name, title, program = "half", "Half", "half"
        events = frozenset({"SessionStart"})

        def profile(self) -> Profile:
            return replace(get_profile("jitctx"), name="half")

    class HalfSetup(Setup):
        def entries(self, transport: str = "command") -> tuple[HookEntry, ...]:
            return (HookEntry("SessionStart", None, 5), HookEntry("PreToolUse", "Write", 5))

    with pytest.raises(TypeError, match="registered as 'other'"):
        all_clients.check(Half(), "other")
    half = Half()
    all_clients.check(half, "half")
    all_clients.check_parts(half)
    with pytest.raises(TypeError, match="install registers PreToolUse, which its dialect does not read"):
        all_clients.check_setup(HalfSetup(half), half)
    with pytest.raises(TypeError, match="registered for <client half>"):
        all_clients.check_setup(HalfSetup(Half()), half)  # the setup of another client object
    Half.events = frozenset({"SessionStart", "PreToolUse"})
    all_clients.check_setup(HalfSetup(half), half)


def test_each_part_is_loaded_only_when_asked_for() -> None:
    """The fast lane loads a client's dialect, never its own loading or evidence; a hook process loads its
    client, never the setup: install and doctor ask for it by name."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from jitctx.clients import all_clients\n"
        "def loaded(*ends): return sorted(m for m in sys.modules if m.endswith(ends))\n"
        "for name in all_clients.names(): all_clients.dialect(name)\n"
        "assert not loaded('.client', '.evidence', '.profile', '.setup', '.doctor'), loaded('.client')\n"
        "assert 'dataclasses' not in sys.modules and 'pathlib' not in sys.modules\n"
        "assert all_clients.canonical('gemini') == 'gemini-cli' and not loaded('.client')\n"
        "for name in all_clients.names(): all_clients.get(name)\n"
        "install = loaded('.setup', '.doctor', '.hooks', '.plugin', 'kit.settings_file', 'kit.doctor_kit')\n"
        "assert not install, install\n"
        "assert all_clients.drift('codex') is not None and not loaded('.setup')\n"
        "assert all_clients.setup('gemini').client is all_clients.get('gemini-cli')\n"
        "assert 'jitctx.clients.gemini_cli.setup' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_a_client_speaks_its_folders_dialect() -> None:
    """The whole client is its dialect and more: a client object of another dialect does not register."""

    class Stranger(Client):
        name, title, program = "codex", "Codex", "codex"
        events = frozenset({"SessionStart"})

    with pytest.raises(TypeError, match="does not speak its folder's dialect CodexDialect"):
        all_clients.check(Stranger(), "codex")
    all_clients.check(all_clients.get("codex"), "codex")
    codex = type(all_clients.get("codex"))

    class Loud(codex):
        def render(self, event_name: str, text: str) -> dict[str, object]:
            return {"text": text}

    with pytest.raises(TypeError, match="changes its dialect's render; change them in its dialect"):
        all_clients.check(Loud(), "codex")
    assert all_clients.dialect("codex") is not all_clients.get("codex")  # two objects, one dialect
    assert type(all_clients.get("codex")).__mro__[1] is type(all_clients.dialect("codex"))


def test_every_client_reads_its_own_profile() -> None:
    for client in all_clients.every():
        all_clients.check_parts(client)
        assert client.profile().name == client.name
