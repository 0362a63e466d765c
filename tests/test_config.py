"""Config: `.jitctx.toml` or `[tool.jitctx]`, validated with messages that name the key and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from jitctx.config import load_config, parse_config
from jitctx.errors import ConfigError
from tests.conftest import write_tree


def test_defaults_without_a_file(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert config.jit_context is True and config.source is None and config.import_depth == 5


def test_jitctx_toml(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {".jitctx.toml": 'jitContext = false\nagent = "codex"\n[imports]\nallow_outside = true\n'}
    )
    config = load_config(tmp_path)
    # allow_outside is the user's to set, not the repository's (see test_user_config.py).
    assert (config.jit_context, config.agent, config.allow_outside_imports) == (False, "codex", False)
    assert any("'imports.allow_outside' ignored" in w for w in config.warnings)


def test_pyproject_tool_table(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": "[project]\nname='x'\n[tool.jitctx]\nmax_bytes = 1000\n"})
    assert load_config(tmp_path).max_bytes == 1000


def test_jitctx_toml_wins_over_pyproject(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {".jitctx.toml": "max_bytes = 1\n", "pyproject.toml": "[tool.jitctx]\nmax_bytes = 2\n"}
    )
    assert load_config(tmp_path).max_bytes == 1


def test_broken_pyproject_without_our_table_is_ignored(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": "[project\n"})
    assert load_config(tmp_path).source is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"jitContext": "no"}, "'jitContext' must be bool, found str 'no'; write e.g. jitContext = false"),
        ({"max_bytes": True}, "'max_bytes' must be int"),
        ({"max_bytes": -1}, "'max_bytes' must be 0 or more"),
        ({"imports": {"max_depth": 99}}, "'imports.max_depth' must be between 0 and 20"),
        ({"layers": {"L0": {"globs": "AGENTS.md"}}}, "'layers.L0.globs' must be list"),
        ({"layers": {"L0": {"globs": [], "max_bytes": "16k"}}}, "'layers.L0.max_bytes' must be int"),
        ({"routes": [{"triggers": "release", "file": "x.md"}]}, "'routes[0].triggers' must be list"),
        ({"budgets": [{"layers": ["L0"], "max_bytes": None}]}, "'budgets[0].max_bytes' must be int"),
    ],
)
def test_wrong_types_name_the_key_and_the_fix(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match="x.toml: " + message.replace("[", r"\[").replace("]", r"\]")):
        parse_config(data, "x.toml")


def test_unknown_keys_are_warnings(tmp_path: Path) -> None:
    config = parse_config({"jitcontext": False, "imports": {"depth": 3}}, "x.toml")
    assert config.jit_context is True
    assert any("unknown key 'jitcontext'" in w for w in config.warnings)
    assert any("unknown key 'imports.depth'" in w for w in config.warnings)


def test_invalid_toml_is_a_config_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {".jitctx.toml": "jitContext = \n"})
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(tmp_path)


def test_layers_routes_and_budgets_are_parsed() -> None:
    config = parse_config(
        {
            "layers": {
                "L0": {"globs": ["AGENTS.md"], "max_bytes": 16384},
                "L1": {"globs": ["src/**/AGENTS.md"]},
            },
            "budgets": [{"layers": ["L0", "L1"], "max_bytes": 57344}],
            "routes": [{"triggers": ["release", "tag"], "file": "docs/release.md"}],
        },
        "x.toml",
    )
    assert [(layer.name, layer.max_bytes) for layer in config.layers] == [("L0", 16384), ("L1", None)]
    assert config.combined_budgets == ((("L0", "L1"), 57344),)
    assert config.routes[0].triggers == ("release", "tag")


def test_an_unknown_agent_is_an_error() -> None:
    with pytest.raises(ConfigError, match="'agent' is 'nonsense', not a profile"):
        parse_config({"agent": "nonsense"}, "x.toml")


def test_holding_writes_is_on_by_default_and_switchable_per_agent() -> None:
    assert parse_config({}, "x").holds_writes("codex") is True
    config = parse_config(
        {"hold": {"writes": False, "codex": {"writes": True}, "gemini": {"writes": True}}}, "x"
    )
    assert (config.holds_writes("claude-code"), config.holds_writes("codex")) == (False, True)
    assert config.holds_writes("gemini-cli") is True  # an alias names the same agent


def test_hold_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match=r"hold\.writes"):
        parse_config({"hold": {"writes": "no"}}, "x")
    config = parse_config({"hold": {"vim": {"writes": False}, "codex": {"writes": True, "reads": 1}}}, "x")
    assert any("'hold.vim' names no profile" in w for w in config.warnings)
    assert any("hold.codex.reads" in w for w in config.warnings)
