"""JIT discovery: the seed's fixtures for the boundary, dedup poisoning, freshness, plus the switches."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jitctx.discovery import session as session_module
from jitctx.discovery.session import Session
from jitctx.model import Discovery
from jitctx.project import Project
from tests.conftest import settle, write_tree


def session(root: Path, cwd: Path | None = None) -> Session:
    return Session(Project(root, managed_files=()), cwd=cwd or root, use_git=False)


def names(discovery: Discovery) -> list[tuple[str, str]]:
    return [(load.file.display, load.reason.value) for load in discovery.loaded]


def all_text(s: Session) -> str:
    return "\n".join(f.text for channel in s.channels for f in s.blocks(channel))


# -- boundary -------------------------------------------------------------------------------------


@pytest.fixture
def lab(tmp_path: Path) -> tuple[Path, Path]:
    """The seed's proj / proj-evil pair: the sibling shares the root's string prefix."""
    proj = write_tree(tmp_path / "jitlab/proj", {"CLAUDE.md": "proj rules", "src/a.ts": ""})
    evil = write_tree(tmp_path / "jitlab/proj-evil", {"CLAUDE.md": "EVIL_RULE_LEAKED", "src/a.ts": ""})
    return proj, evil


def test_sibling_with_the_same_prefix_is_outside(lab: tuple[Path, Path]) -> None:
    proj, evil = lab
    s = session(proj)
    step = s.discover(str(evil / "src/a.ts"))
    assert step.hit is False and step.loaded == ()
    assert step.note is not None and "outside the project" in step.note
    assert "EVIL_RULE_LEAKED" not in all_text(s)


def test_relative_escape_is_outside(lab: tuple[Path, Path]) -> None:
    proj, _ = lab
    s = session(proj)
    assert s.discover("../proj-evil/src/a.ts").hit is False
    assert "EVIL_RULE_LEAKED" not in all_text(s)


def test_symlinked_vendor_pointing_outside_is_outside(tmp_path: Path) -> None:
    elsewhere = write_tree(tmp_path / "elsewhere/pkg", {"CLAUDE.md": "EVIL_RULE_LEAKED", "index.js": ""})
    proj = write_tree(tmp_path / "proj", {"CLAUDE.md": "proj"})
    os.symlink(elsewhere, proj / "vendor")
    s = session(proj)
    step = s.discover("vendor/index.js")
    assert step.hit is False
    assert "EVIL_RULE_LEAKED" not in all_text(s)


def test_entry_inside_whose_ancestors_leave_the_project(tmp_path: Path) -> None:
    """`proj/link/deep/x` resolves to `/outside/a/deep/x`: its ancestors are /outside's, never walked."""
    outside = write_tree(
        tmp_path / "outside", {"CLAUDE.md": "EVIL_RULE_LEAKED", "a/CLAUDE.md": "EVIL_TOO", "a/deep/x.ts": ""}
    )
    proj = write_tree(tmp_path / "proj", {"CLAUDE.md": "proj"})
    os.symlink(outside / "a", proj / "link")
    s = session(proj)
    assert s.discover("link/deep/x.ts").hit is False
    assert "EVIL" not in all_text(s)


def test_linked_instruction_file_pointing_outside_is_not_read(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"secret.md": "EVIL_RULE_LEAKED"})
    proj = write_tree(tmp_path / "proj", {"src/x.ts": ""})
    os.symlink(outside / "secret.md", proj / "src/CLAUDE.md")
    s = session(proj)
    step = s.discover("src/x.ts")
    assert step.hit is False
    assert any("outside the project" in skip.why for skip in step.skipped)
    assert "EVIL_RULE_LEAKED" not in all_text(s)


def test_the_root_itself_is_inside(lab: tuple[Path, Path]) -> None:
    proj, _ = lab
    step = session(proj).discover("src/a.ts")
    assert names(step) == [("CLAUDE.md", "nested_traversal")]


# -- dedup without poisoning ----------------------------------------------------------------------


@pytest.fixture
def ui(tmp_path: Path) -> Path:
    tree = write_tree(
        tmp_path / "proj",
        {
            "CLAUDE.md": "root",
            "src/ui/CLAUDE.md": '---\npaths: ["src/ui/**/*.tsx"]\n---\nUI_RULE\n',
            "src/ui/README.md": "readme",
            "src/ui/Footer.tsx": "",
            "src/ui/Badge.tsx": "",
        },
    )
    return settle(tree)


def test_seed_poisoning_sequence(ui: Path) -> None:
    s = session(ui)
    first = s.discover("src/ui/README.md")
    assert first.hit is True and first.scope_skipped == 1
    assert names(first) == [("CLAUDE.md", "nested_traversal")]
    second = s.discover("src/ui/Footer.tsx")
    assert second.hit is True and second.scope_skipped == 0
    assert names(second) == [("src/ui/CLAUDE.md", "path_glob_match")]
    assert second.loaded[0].globs == ("src/ui/**/*.tsx",)


def test_loaded_files_never_load_twice(ui: Path) -> None:
    s = session(ui)
    s.discover("src/ui/Footer.tsx")
    again = s.discover("src/ui/Badge.tsx")
    assert again.hit is False and again.loaded == ()
    assert [f.display for f in s.blocks()] == ["CLAUDE.md", "src/ui/CLAUDE.md"]


def test_a_scanned_chain_is_not_read_again(ui: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = session(ui)
    s.discover("src/ui/Footer.tsx")
    reads: list[str] = []
    original = s.project.read
    monkeypatch.setattr(s.project, "read", lambda c: reads.append(c.path) or original(c))
    s.discover("src/ui/Badge.tsx")
    assert reads == []


# -- freshness ------------------------------------------------------------------------------------


def bump(path: Path, text: str) -> None:
    before = path.stat().st_mtime_ns
    path.write_text(text)
    os.utime(path, ns=(before + 10_000_000, before + 10_000_000))


def test_seed_mtime_fixture_replaces_v1_with_v2(tmp_path: Path) -> None:
    proj = write_tree(
        tmp_path / "proj", {"CLAUDE.md": "root", "src/ui/CLAUDE.md": "RULE_V1", "src/ui/Footer.tsx": ""}
    )
    s = session(proj)
    first = s.discover("src/ui/Footer.tsx")
    assert len(first.loaded) == 2
    assert "RULE_V1" in all_text(s)
    bump(proj / "src/ui/CLAUDE.md", "RULE_V2")
    second = s.discover("src/ui/Footer.tsx")
    assert second.hit is True and len(second.loaded) == 1
    assert second.loaded[0].file.text == "RULE_V2"
    assert "RULE_V1" not in all_text(s) and all_text(s).count("RULE_V2") == 1


@pytest.fixture
def spaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Touches a second or more apart, as an agent's tool calls are: every one compares watch lists."""
    monkeypatch.setattr(session_module, "WATCH_RECHECK_NS", 0)


@pytest.mark.usefixtures("spaced")
def test_a_claude_md_created_in_a_scanned_directory_loads_on_the_next_touch(tmp_path: Path) -> None:
    files = {"CLAUDE.md": "root", "src/api/users.ts": "", "src/api/.claude/x": ""}
    proj = settle(write_tree(tmp_path / "proj", files))
    s = session(proj)
    s.startup()
    assert s.discover("src/api/users.ts").loaded == ()
    (proj / "src/api/CLAUDE.md").write_text("API_RULE")
    assert names(s.discover("src/api/users.ts")) == [("src/api/CLAUDE.md", "nested_traversal")]
    settle(proj, age=30)  # src/api/ as the next scan sees it; then a file appears only in its .claude/
    assert s.discover("src/api/users.ts").loaded == ()
    (proj / "src/api/.claude/CLAUDE.md").write_text("API_RULE_2")
    assert names(s.discover("src/api/users.ts")) == [("src/api/.claude/CLAUDE.md", "nested_traversal")]
    assert all_text(s).count("API_RULE") == 2


@pytest.mark.usefixtures("spaced")
def test_a_file_created_in_the_clock_tick_of_the_scan_is_not_missed(tmp_path: Path) -> None:
    """A directory whose mtime is that recent is looked at again, so a same-tick creation still shows."""
    proj = settle(write_tree(tmp_path / "proj", {"CLAUDE.md": "root", "src/api/users.ts": ""}), age=0.5)
    tick = (proj / "src/api").stat().st_mtime_ns
    s = session(proj)
    s.startup()
    assert s.discover("src/api/users.ts").loaded == ()
    (proj / "src/api/CLAUDE.md").write_text("API_RULE")
    os.utime(proj / "src/api", ns=(tick, tick))  # the creation left the mtime as the scan saw it
    assert names(s.discover("src/api/users.ts")) == [("src/api/CLAUDE.md", "nested_traversal")]


def test_a_long_lived_session_compares_a_watch_list_at_most_once_a_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deliberate: touches in quick succession trust the listing; the first a second later looks again."""
    clock = [10**12]
    monkeypatch.setattr(session_module.time, "monotonic_ns", lambda: clock[0])
    proj = settle(write_tree(tmp_path / "proj", {"CLAUDE.md": "root", "src/api/users.ts": ""}))
    s = session(proj)
    s.startup()
    assert s.discover("src/api/users.ts").loaded == ()
    (proj / "src/api/CLAUDE.md").write_text("API_RULE")
    clock[0] += 900_000_000
    assert s.discover("src/api/users.ts").loaded == ()  # compared 0.9 s ago: trusted
    clock[0] += 200_000_000
    assert names(s.discover("src/api/users.ts")) == [("src/api/CLAUDE.md", "nested_traversal")]


@pytest.mark.usefixtures("spaced")
def test_a_new_first_match_replaces_the_file_it_displaces(tmp_path: Path) -> None:
    """Codex reads one file per directory: an AGENTS.override.md created mid-session takes the place
    of the AGENTS.md there, as in a new session, instead of joining it."""
    proj = settle(
        write_tree(tmp_path / "proj", {"AGENTS.md": "root", "src/AGENTS.md": "SRC", "src/a.py": ""})
    )
    s = Session(Project(proj, "codex", managed_files=()), cwd=proj, use_git=False)
    s.startup()
    assert names(s.discover("src/a.py")) == [("src/AGENTS.md", "nested_traversal")]
    (proj / "src/AGENTS.override.md").write_text("OVERRIDE")
    step = s.discover("src/a.py")
    assert names(step) == [("src/AGENTS.override.md", "nested_traversal")]
    assert step.dropped == ("src/AGENTS.md",)
    assert [f.display for f in s.blocks()] == ["AGENTS.md", "src/AGENTS.override.md"]


@pytest.mark.usefixtures("spaced")
def test_a_renamed_instruction_file_loads_under_its_new_name(tmp_path: Path) -> None:
    """The file keeps its inode across a rename; the identity of the dropped name must not block it."""
    proj = settle(
        write_tree(tmp_path / "proj", {"CLAUDE.md": "root", "src/CLAUDE.md": "SRC", "src/a.py": ""})
    )
    s = session(proj)
    s.startup()
    s.discover("src/a.py")
    (proj / "src/CLAUDE.md").rename(proj / "src/AGENTS.md")
    step = s.discover("src/a.py")
    assert step.dropped == ("src/CLAUDE.md",)
    assert names(step) == [("src/AGENTS.md", "nested_traversal")]
    assert [f.display for f in s.blocks()] == ["CLAUDE.md", "src/AGENTS.md"]


def test_a_hard_link_to_a_loaded_file_still_loads_once(tmp_path: Path) -> None:
    proj = write_tree(tmp_path / "proj", {"CLAUDE.md": "root", "src/a.py": ""})
    os.link(proj / "CLAUDE.md", proj / "src/CLAUDE.md")
    s = session(proj)
    s.startup()
    assert s.discover("src/a.py").loaded == ()


def test_another_new_file_beside_a_loaded_rule_loads_nothing_twice(ui: Path) -> None:
    s = session(ui)
    s.discover("src/ui/Footer.tsx")
    (ui / "src/ui/New.tsx").write_text("")
    again = s.discover("src/ui/New.tsx")
    assert again.hit is False and again.loaded == ()
    assert [f.display for f in s.blocks()] == ["CLAUDE.md", "src/ui/CLAUDE.md"]


def test_a_re_sent_scoped_rule_keeps_its_globs(tmp_path: Path) -> None:
    proj = write_tree(
        tmp_path / "proj",
        {"CLAUDE.md": "root", ".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\nPY_V1\n', "a.py": ""},
    )
    s = session(proj)
    s.startup()
    assert [(load.globs, load.updated) for load in s.discover("a.py").loaded] == [(("**/*.py",), False)]
    bump(proj / ".claude/rules/py.md", '---\npaths: ["**/*.py"]\n---\nPY_V2\n')
    again = s.discover("a.py").loaded
    assert [(load.file.text.strip(), load.globs, load.updated) for load in again] == [
        ("PY_V2", ("**/*.py",), True)
    ]


def test_deleted_rule_file_leaves_the_blocks(tmp_path: Path) -> None:
    proj = write_tree(tmp_path / "proj", {"src/CLAUDE.md": "GONE_SOON", "src/a.ts": ""})
    s = session(proj)
    s.discover("src/a.ts")
    (proj / "src/CLAUDE.md").unlink()
    step = s.discover("src/a.ts")
    assert step.dropped == ("src/CLAUDE.md",)
    assert "GONE_SOON" not in all_text(s)


def test_rules_folder_rule_is_refreshed_too(tmp_path: Path) -> None:
    proj = write_tree(
        tmp_path / "proj",
        {".claude/rules/py.md": '---\npaths: ["**/*.py"]\n---\nPY_V1\n', "a.py": "", "b.py": ""},
    )
    s = session(proj)
    assert names(s.discover("a.py")) == [(".claude/rules/py.md", "path_glob_match")]
    bump(proj / ".claude/rules/py.md", '---\npaths: ["**/*.py"]\n---\nPY_V2\n')
    s.discover("b.py")
    assert "PY_V2" in all_text(s) and "PY_V1" not in all_text(s)


# -- switches, channels, odd paths ----------------------------------------------------------------


def test_jit_context_false_turns_discovery_off_but_not_startup(tmp_path: Path) -> None:
    proj = write_tree(
        tmp_path / "proj",
        {
            ".jitctx.toml": "jitContext = false\n",
            "CLAUDE.md": "root",
            "src/CLAUDE.md": "nested",
            "src/a.ts": "",
        },
    )
    s = session(proj)
    assert [x.file.display for x in s.startup().loaded] == ["CLAUDE.md"]
    step = s.discover("src/a.ts")
    assert step.hit is False and step.note is not None and "jitContext = false" in step.note


def test_subagent_channel_has_its_own_state_and_inherits_the_switch(ui: Path) -> None:
    s = session(ui)
    s.discover("src/ui/Footer.tsx")
    sub = s.discover("src/ui/Footer.tsx", channel="subagent")
    assert sub.channel == "subagent" and len(sub.loaded) == 2  # the sub-agent's context is fresh
    (ui / ".jitctx.toml").write_text("jitContext = false\n")
    off = session(ui).discover("src/ui/Footer.tsx", channel="subagent")
    assert off.hit is False  # positive control above, negative here


def test_a_path_that_does_not_exist_yet(ui: Path) -> None:
    step = session(ui).discover("src/ui/new/Widget.tsx")
    assert names(step) == [("CLAUDE.md", "nested_traversal"), ("src/ui/CLAUDE.md", "path_glob_match")]
    assert step.note is not None and "does not exist yet" in step.note


def test_a_directory_touch(tmp_path: Path) -> None:
    proj = write_tree(tmp_path / "proj", {"src/ui/CLAUDE.md": '---\npaths: ["src/ui/**"]\n---\nUI\n'})
    assert names(session(proj).discover("src/ui")) == [("src/ui/CLAUDE.md", "path_glob_match")]


def test_a_miss_is_a_discovery_too(tmp_path: Path) -> None:
    proj = write_tree(tmp_path / "proj", {"src/a.ts": ""})
    step = session(proj).discover("src/a.ts")
    assert step.hit is False and step.loaded == () and step.elapsed_ms >= 0


def test_cwd_relative_paths(ui: Path) -> None:
    s = session(ui, cwd=ui / "src/ui")
    assert ("src/ui/CLAUDE.md", "path_glob_match") in names(s.discover("Footer.tsx"))


def test_linked_subfolders_of_candidates_stay_outside(tmp_path: Path) -> None:
    """`.claude/CLAUDE.md` through `.claude -> /elsewhere`, `.github/...` through a linked `.github`."""
    outside = write_tree(
        tmp_path / "outside",
        {"CLAUDE.md": "EVIL_1", "instructions.md": "EVIL_2", "copilot-instructions.md": "EVIL_3"},
    )
    proj = write_tree(tmp_path / "proj", {"CLAUDE.md": "proj", "src/a.py": ""})
    for link in (".claude", ".github", "src/.claude"):
        os.symlink(outside, proj / link)
    s = session(proj)
    s.startup()
    s.discover("src/a.py")
    assert "EVIL" not in all_text(s)
    assert [f.display for f in s.blocks()] == ["CLAUDE.md"]


def test_an_edited_import_is_sent_again(tmp_path: Path) -> None:
    proj = write_tree(
        tmp_path / "proj",
        {"src/ui/AGENTS.md": "see @../../docs/ui.md\n", "docs/ui.md": "UI_V1", "src/ui/a.tsx": ""},
    )
    s = session(proj)
    assert [x.file.display for x in s.discover("src/ui/a.tsx").loaded] == ["src/ui/AGENTS.md", "docs/ui.md"]
    bump(proj / "docs/ui.md", "UI_V2")
    again = s.discover("src/ui/a.tsx")
    assert [x.file.text for x in again.loaded] == ["UI_V2"]
    assert "UI_V1" not in all_text(s)


def test_compaction_text_is_not_sent_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A resumed session hands out the current text once; the next touch does not send it again."""
    from jitctx.discovery.store import SessionStore

    proj = write_tree(tmp_path / "proj", {"AGENTS.md": "V1", "src/a.tsx": ""})
    store = SessionStore(tmp_path / "state")
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        opened.session.startup()
        opened.session.discover("src/a.tsx")
    bump(proj / "AGENTS.md", "V2")
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        assert [x.file.text for x in opened.session.after_compaction()] == ["V2"]
    with store.open(Project(proj, managed_files=()), "s", use_git=False) as opened:
        assert opened.session.discover("src/a.tsx").loaded == ()


def test_a_path_with_a_nul_character_is_a_miss_with_a_note(ui: Path) -> None:
    step = session(ui).discover("src/ui/a\0b.tsx")
    assert step.hit is False and step.note is not None and "NUL" in step.note


def test_a_file_gone_before_compaction_leaves_the_session_quietly(ui: Path) -> None:
    s = session(ui)
    s.startup()
    s.discover("src/ui/Footer.tsx")
    (ui / "src/ui/CLAUDE.md").unlink()
    resent = [load.file.display for load in s.after_compaction(host_reloads=lambda file: False)]
    assert resent == ["CLAUDE.md"]
    assert s.discover("src/ui/Footer.tsx").dropped == ()  # the agent no longer holds it anyway
