"""One piece of advice for a scope written with an unquoted glob, whichever command shows it.

`paths: **/trigger/**/*.ts, src/a.ts` is invalid YAML (`*` opens an alias); jitctx reads it line by line
and asks for quotes. `lint`, `startup`, `explain`, `touch` and `replay` take that advice from one function
(jitctx.scope_fix.unquoted_fix), so the same file gets the same words everywhere, keeping every glob, in
the form the agent of the file's format reads. A Cursor rule gets none: unquoted comma-separated text is
Cursor's own form for `globs`, and Cursor reads quotes or brackets there as part of the globs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from tests.conftest import git_init, write_tree

GLOBS = "**/trigger/**/*.ts, **/jobs/*.ts, src/a.ts, src/b.ts"
EVERY = ["**/trigger/**/*.ts", "**/jobs/*.ts", "src/a.ts", "src/b.ts"]

CASES = [
    pytest.param(
        ".claude/rules/trigger.md",
        "paths",
        f"quote it: paths: {json.dumps(EVERY)}",
        id="claude-rules-paths",
    ),
    pytest.param(
        ".github/instructions/trigger.instructions.md",
        "applyTo",
        f'quote it: applyTo: "{",".join(EVERY)}"',
        id="copilot-applyTo",
    ),
    # Cursor's own form: no advice from any command (lint has always said nothing here).
    pytest.param(".cursor/rules/trigger.mdc", "globs", None, id="cursor-globs"),
]


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))


def project(tmp_path: Path, rule: str, key: str) -> Path:
    files = {rule: f"---\ndescription: trigger jobs\n{key}: {GLOBS}\n---\nRetry every job.\n", "src/a.ts": ""}
    return git_init(write_tree(tmp_path / "proj", files))


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr().out
    assert code in (0, 1), out
    return json.loads(out)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def warned(document: Any, rule: str) -> set[str]:
    """The advice of each warning about `rule`'s unquoted glob, wherever the document holds it."""
    return {
        text.split(", but ", 1)[1]
        for text in strings(document)
        if text.startswith(f"{rule}:") and "unquoted glob" in text
    }


@pytest.mark.parametrize(("rule", "key", "advice"), CASES)
def test_every_command_gives_the_same_advice_keeping_every_glob(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rule: str, key: str, advice: str | None
) -> None:
    root = project(tmp_path, rule, key)
    expected = {advice} if advice else set()
    lint = run_json(capsys, "lint", "--root", str(root), "--json")
    fixes = {f["fix"] for f in lint["findings"] if f["path"] == rule and f["rule"] == "unquoted-glob"}
    assert fixes == expected
    transcript = tmp_path / "session.jsonl"
    prompt = {"role": "user", "content": "hi"}
    record = {"type": "user", "sessionId": "s", "cwd": str(root), "message": prompt}
    transcript.write_text(json.dumps(record) + "\n", encoding="utf-8")
    views = {
        "startup": ["startup", "--root", str(root), "--json"],
        "explain": ["explain", "src/a.ts", "--root", str(root), "--json"],
        "touch": ["touch", "--root", str(root), "--json", "src/a.ts"],
        "replay": ["replay", "--root", str(root), "--json", str(transcript)],
    }
    for name, argv in views.items():
        document = run_json(capsys, *argv)
        assert warned(document, rule) == expected, name
        assert not any('["**/trigger/**/*.ts"]' in text for text in strings(document)), name  # not 1 of 4


def test_the_text_views_print_it_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path, ".claude/rules/trigger.md", "paths")
    assert main(["startup", "--root", str(root)]) == 0
    err = capsys.readouterr().err
    assert f"but quote it: paths: {json.dumps(EVERY)}" in err
