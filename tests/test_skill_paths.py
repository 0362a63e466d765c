"""Where a skill's folder is: `<dir>/<skills folder>/<skill>/...`, for every client's skills folders; and
the default profile's folders are the union of what the live clients declare."""

from __future__ import annotations

import pytest

from jitctx.profiles import FORMAT_PROFILES, PROFILES, SKILL_DIRS
from jitctx.skill_paths import SkillPlace, skill_place


@pytest.mark.parametrize(
    ("rel", "place"),
    [
        ("web/.agents/skills/x", SkillPlace("web/.agents/skills", "x")),
        ("web/.agents/skills/x/references", SkillPlace("web/.agents/skills", "x")),
        (".claude/skills/pdf", SkillPlace(".claude/skills", "pdf")),
        (".github/skills/review", SkillPlace(".github/skills", "review")),
        (".qwen/skills/a", SkillPlace(".qwen/skills", "a")),
        (".opencode/skill/a", SkillPlace(".opencode/skill", "a")),
        (".opencode/skills/a/b", SkillPlace(".opencode/skills", "a")),
        ("web/.agents/skills", None),  # the skills folder itself holds no skill's documents
        ("web/.agents", None),
        ("web", None),
        ("", None),
        ("docs/skills/x", None),  # no client's skills folder
        (".claude/rules/x", None),
    ],
)
def test_skill_place(rel: str, place: SkillPlace | None) -> None:
    assert skill_place(rel) == place


def test_the_default_profile_reads_every_live_clients_skills_folders() -> None:
    declared = {folder for name in PROFILES for folder in PROFILES[name].skill_dirs}
    assert declared == set(SKILL_DIRS) == set(FORMAT_PROFILES["jitctx"].skill_dirs)


@pytest.mark.parametrize(
    ("client", "folders"),
    [
        # each from the client's own code (the comment beside its `skill_dirs` names release and file)
        ("claude-code", {".claude/skills"}),
        ("codex", {".agents/skills"}),
        ("copilot-cli", {".github/skills", ".claude/skills", ".agents/skills"}),
        ("gemini-cli", {".gemini/skills", ".agents/skills"}),
        ("opencode", {".opencode/skills", ".opencode/skill", ".claude/skills", ".agents/skills"}),
        ("qwen-code", {".qwen/skills", ".agents/skills"}),
    ],
)
def test_each_live_client_declares_its_own_skills_folders(client: str, folders: set[str]) -> None:
    assert set(PROFILES[client].skill_dirs) == folders
