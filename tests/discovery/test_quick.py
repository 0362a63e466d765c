"""The quick index may only ever say "nothing loads" when the engine agrees (a property over random walks)."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.discovery.quick import quick_file_name, quiet
from jitctx.discovery.store import SessionStore
from jitctx.project import Project
from tests.conftest import settle, write_tree

FILES = [
    "src/ui/Footer.tsx", "src/ui/README.md", "src/ui/deep/x.tsx", "src/api/users.ts", "tools/gen.py",
    "docs/guide.md", "website/index.md", "README.md", "src/api/v2/new.ts", "src/ui/", "docs/",
]  # fmt: skip


def make(root: Path) -> Path:
    return settle(
        write_tree(
            root,
            {
                "CLAUDE.md": "root",
                "src/ui/CLAUDE.md": '---\npaths: ["src/ui/**/*.tsx"]\n---\nUI\n',
                "src/api/AGENTS.md": "API",
                ".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\nPY\n',
                ".claude/rules/docs.md": '---\npaths: ["docs/**"]\n---\nDOCS\n',
                **{f: "" for f in FILES if not f.endswith("/")},
            },
        )
    )


def index_of(store: SessionStore) -> dict[str, object]:
    data: dict[str, object] = json.loads((store.directory / quick_file_name("s")).read_text())
    return data


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([*FILES, "EDIT:src/ui/CLAUDE.md", "EDIT:.claude/rules/py.md", "NEWRULE",
                                  "NEW:tools/CLAUDE.md", "NEW:src/api/v2/AGENTS.md", "NEW:src/ui/other.tsx",
                                  "NEW:src/api/v2/.claude/CLAUDE.md"]),
                min_size=1, max_size=12))  # fmt: skip
def test_quick_never_contradicts_the_engine(
    tmp_path_factory: pytest.TempPathFactory, steps: list[str]
) -> None:
    root = make(tmp_path_factory.mktemp("q") / "proj")
    store = SessionStore(root.parent / "state")
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
    for number, step in enumerate(steps):
        if step.startswith("EDIT:"):
            target = root / step[5:]
            target.write_text(target.read_text() + f"\nedit {number}\n")
            os.utime(target, ns=(10**18 + number, 10**18 + number))
            continue
        if step.startswith("NEW:"):
            write_tree(root, {step[4:]: f"new {number}\n"})
            continue
        if step == "NEWRULE":
            write_tree(root, {f".claude/rules/new{number}.md": '---\npaths: ["src/**"]\n---\nNEW\n'})
            continue
        verdict = quiet(index_of(store), str(root), step)  # type: ignore[arg-type]
        with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
            discovery = opened.session.discover(step)
        if verdict is not None:
            assert discovery.loaded == (), f"quick said quiet for {step} but the engine loaded"
            assert discovery.dropped == ()
            assert verdict == discovery.scope_skipped


def test_quick_answers_a_warm_touch(tmp_path: Path) -> None:
    root = make(tmp_path / "proj")
    store = SessionStore(tmp_path / "state")
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        opened.session.discover("src/ui/Footer.tsx")
    assert quiet(index_of(store), str(root), "src/ui/README.md") == 2  # py.md and docs.md skipped
    assert quiet(index_of(store), str(root), "tools/gen.py") is None  # the python rule would load
    assert quiet(index_of(store), str(root), "website/index.md") is None  # website/ never scanned
    assert quiet(index_of(store), str(root / "src"), "ui/Footer.tsx") is None  # another cwd
    (root / "src/ui/CLAUDE.md").write_text("changed")
    assert quiet(index_of(store), str(root), "src/ui/README.md") is None  # a loaded file changed


def test_a_session_that_owes_a_file_defers_to_the_engine(tmp_path: Path) -> None:
    """A file left to the client and not confirmed by its transcript yet: the engine checks at each touch."""
    root = make(tmp_path / "proj")
    store = SessionStore(tmp_path / "state")
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        opened.session.discover("src/ui/Footer.tsx")
    assert quiet(index_of(store), str(root), "src/ui/README.md") == 2
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        state = opened.session.channels["main"]
        state.expected[next(iter(state.loaded))] = (1, 1, ("toolu_1",))
    assert quiet(index_of(store), str(root), "src/ui/README.md") is None


def test_a_broken_index_defers_to_the_engine(tmp_path: Path) -> None:
    assert quiet({"v": 1}, str(tmp_path), "x") is None
    assert quiet({"v": 99, "cwd": str(tmp_path)}, str(tmp_path), "x") is None
    assert quiet({"v": 1, "cwd": str(tmp_path), "jit": True, "root": 5}, str(tmp_path), "x") is None


def test_random_walks_reach_quiet_answers(tmp_path: Path) -> None:
    """The property above is only worth something if quiet answers happen: check they do."""
    root = make(tmp_path / "proj")
    store = SessionStore(tmp_path / "state")
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
    answers = 0
    rng = random.Random(5)
    for _ in range(40):
        step = rng.choice(FILES)
        answers += quiet(index_of(store), str(root), step) is not None
        with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
            opened.session.discover(step)
    assert answers >= 20


def test_an_unloaded_rule_edited_in_place_defers_to_the_engine(tmp_path: Path) -> None:
    root = make(tmp_path / "proj")
    store = SessionStore(tmp_path / "state")
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        opened.session.discover("src/api/users.ts")
    assert quiet(index_of(store), str(root), "src/api/users.ts") is not None
    rule = root / ".claude/rules/docs.md"
    rule.write_text('---\npaths: ["src/api/**"]\n---\nDOCS\n')  # same folder, new scope
    assert quiet(index_of(store), str(root), "src/api/users.ts") is None
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        assert [x.file.display for x in opened.session.discover("src/api/users.ts").loaded] == [
            ".claude/rules/docs.md"
        ]


def test_a_directory_dated_in_the_future_is_trusted(tmp_path: Path) -> None:
    """Clock skew or an unpacked archive can date a directory ahead; creating a file there sets its mtime
    to now, which differs, so its listing need not be looked at on every touch."""
    from jitctx.discovery.quick import watch_list

    ahead = time.time_ns() + 3600 * 10**9
    os.utime(tmp_path, ns=(ahead, ahead))
    assert watch_list([str(tmp_path)]) == [[str(tmp_path), ahead, tmp_path.stat().st_size]]
    os.utime(tmp_path, ns=(time.time_ns(), time.time_ns()))
    assert watch_list([str(tmp_path)])[0][1:] == [-1, -1]  # just now: not trusted yet


@pytest.mark.parametrize(
    ("glob", "touch"),
    [
        ("**/*.py", "src/b.py"),  # filed under an extension
        ("**/Makefile", "src/Makefile"),  # under a name
        ("src/*.py", "src/b.py"),  # under a prefix or an extension, whichever fewer rules share
        ("*/b*", "src/b.py"),  # under nothing: tested every time
    ],
)
def test_a_rule_that_would_load_sends_the_touch_to_the_engine(tmp_path: Path, glob: str, touch: str) -> None:
    """The fast lane tests only the rules the engine's index names for a path; a rule it names must not be
    missed, whichever way the index filed it."""
    root = settle(
        write_tree(
            tmp_path / "proj",
            {
                "CLAUDE.md": "root",
                "src/a.ts": "",
                "src/b.py": "",
                "src/Makefile": "",
                ".claude/rules/r.md": f'---\npaths: ["{glob}"]\n---\nR\n',
                **{
                    f".claude/rules/other{i}.md": f'---\npaths: ["lib{i}/**", "**/*.x{i}"]\n---\nO\n'
                    for i in range(40)
                },
            },
        )
    )
    store = SessionStore(root.parent / "state")
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        assert opened.session.discover("src/a.ts").loaded == ()  # src/ scanned, the rule not loaded
    index = index_of(store)
    assert quiet(index, str(root), "src/a.ts") == 41  # the control: nothing there loads
    assert quiet(index, str(root), touch) is None
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        assert [x.file.display for x in opened.session.discover(touch).loaded] == [".claude/rules/r.md"]


def quick_session(root: Path, touches: list[str], home: Path | None = None) -> tuple[SessionStore, Path]:
    """A stored session of `root` that touched `touches`, with its tree settled."""
    settle(root)
    store = SessionStore(root.parent / "state")
    with store.open(Project(root, home=home, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        for path in touches:
            opened.session.discover(path)
    return store, root


def engine_loads(store: SessionStore, root: Path, touch: str, home: Path | None = None) -> list[str]:
    with store.open(Project(root, home=home, managed_files=()), "s", use_git=False) as opened:
        step = opened.session.discover(touch)
    return [load.file.display for load in step.loaded]


def edit_in_place(path: Path, text: str) -> None:
    """A new text with the folder's listing left as it was (an editor that writes in place)."""
    folder = path.parent.stat().st_mtime_ns
    path.write_text(text)
    os.utime(path.parent, ns=(folder, folder))


@pytest.mark.parametrize(
    "before",
    ["---\ndescription: UI notes\n---\nR\n", "R, for every task\n", "---\npaths: []\n---\nR\n"],
)
def test_a_rule_without_a_scope_that_gains_one_is_noticed(tmp_path: Path, before: str) -> None:
    root = write_tree(
        tmp_path / "proj", {"CLAUDE.md": "root", "src/a.ts": "", "src/b.ts": "", ".claude/rules/r.md": before}
    )
    store, _ = quick_session(root, ["src/a.ts"])
    assert quiet(index_of(store), str(root), "src/b.ts") is not None  # the control
    edit_in_place(root / ".claude/rules/r.md", '---\npaths: ["src/**"]\n---\nNOW SCOPED, LONGER\n')
    assert quiet(index_of(store), str(root), "src/b.ts") is None
    assert ".claude/rules/r.md" in engine_loads(store, root, "src/b.ts")


def test_a_rule_edited_while_the_index_was_written_is_noticed(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "proj",
        {
            "CLAUDE.md": "root",
            "src/a.ts": "",
            "src/b.ts": "",
            ".claude/rules/r.md": '---\npaths: ["docs/**"]\n---\nR\n',
        },
    )
    settle(root)
    store = SessionStore(root.parent / "state")
    with store.open(Project(root, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        opened.session.discover("src/a.ts")  # the table is built from the rule as it was
        edit_in_place(root / ".claude/rules/r.md", '---\npaths: ["src/**"]\n---\nR, NOW FOR SRC\n')
    assert quiet(index_of(store), str(root), "src/b.ts") is None
    assert engine_loads(store, root, "src/b.ts") == [".claude/rules/r.md"]


def test_a_held_rule_edited_goes_out_again_on_its_next_match_only(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "proj",
        {
            "CLAUDE.md": "root",
            "src/a.py": "",
            "src/b.py": "",
            "src/c.ts": "",
            ".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\nPY\n',
        },
    )
    store, _ = quick_session(root, ["src/a.py", "src/c.ts"])
    edit_in_place(root / ".claude/rules/py.md", '---\npaths: ["**/*.py"]\n---\nPY, EDITED\n')
    assert engine_loads(store, root, "src/c.ts") == []  # not its match: nothing goes out ...
    assert quiet(index_of(store), str(root), "src/c.ts") == 0  # ... and the fast lane answers again
    assert quiet(index_of(store), str(root), "src/b.py") is None  # its match: the edited text is due
    assert engine_loads(store, root, "src/b.py") == [".claude/rules/py.md"]


def test_an_escaped_glob_is_looked_up_as_the_engine_looks_it_up(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "proj",
        {
            "CLAUDE.md": "root",
            "docs/v1.0/a.md": "",
            "docs/v1.0/b.py": "",
            ".claude/rules/r.md": '---\npaths: ["docs/v1\\\\.0/*.py"]\n---\nR\n',
        },
    )
    store, _ = quick_session(root, ["docs/v1.0/a.md"])
    assert quiet(index_of(store), str(root), "docs/v1.0/b.py") is None
    assert engine_loads(store, root, "docs/v1.0/b.py") == [".claude/rules/r.md"]


def test_a_user_rule_is_matched_on_the_real_path_as_the_engine_matches_it(tmp_path: Path) -> None:
    home = write_tree(tmp_path / "home", {".claude/rules/u.md": '---\npaths: ["src/**/*.py"]\n---\nU\n'})
    root = write_tree(tmp_path / "proj", {"CLAUDE.md": "root", "src/a.ts": "", "src/x.py": ""})
    (root / "link").symlink_to(root / "src")
    store, _ = quick_session(root, ["src/a.ts"], home=home)
    assert quiet(index_of(store), str(root), "link/x.py") is None
    assert engine_loads(store, root, "link/x.py", home=home) == [str(home / ".claude/rules/u.md")]


def test_a_held_user_file_that_is_gone_is_the_engines_to_drop(tmp_path: Path) -> None:
    home = write_tree(tmp_path / "home", {".claude/CLAUDE.md": "MINE"})
    root = write_tree(tmp_path / "proj", {"CLAUDE.md": "root", "src/a.ts": "", "src/b.ts": ""})
    store, _ = quick_session(root, ["src/a.ts"], home=home)
    assert quiet(index_of(store), str(root), "src/b.ts") is not None  # the control
    (home / ".claude" / "CLAUDE.md").unlink()
    assert quiet(index_of(store), str(root), "src/b.ts") is None
    with store.open(Project(root, home=home, managed_files=()), "s", use_git=False) as opened:
        assert opened.session.discover("src/b.ts").dropped == (str(home / ".claude/CLAUDE.md"),)
