"""What Codex reads by itself: per directory from the root to the cwd, AGENTS.override.md or else
AGENTS.md, at session start only, within 32 KiB (`project_doc_max_bytes`)."""

from __future__ import annotations

from jitctx.profiles import KIB, Profile

PROFILE = Profile(
    name="codex",
    summary="Codex: AGENTS.override.md > AGENTS.md per directory, root to cwd, 32 KiB",
    dir_files=("AGENTS.override.md", "AGENTS.md"),
    user_files=(".codex/AGENTS.override.md", ".codex/AGENTS.md"),
    max_bytes=32 * KIB,
    truncation="root-first",
    render="agents-md",
    imports=False,
    first_match_per_dir=True,
    native_jit=False,
    native_files=("AGENTS.override.md", "AGENTS.md"),
    # 0.171.0 (bin codex: ext/skills/src/loader, "codex-home-skills.agents/skills"); it reads SKILL.md
    # with serde_yaml 0.9.34 and skips a skill whose frontmatter is not YAML ("invalid YAML: ",
    # "Skipped loading N skill(s) due to invalid SKILL.md files").
    skill_dirs=(".agents/skills",),
    # Codex stops adding AGENTS.md files once they reach project_doc_max_bytes: its own cut.
    max_bytes_owner="codex",
    max_bytes_name="project_doc_max_bytes",
)
