"""Byte budgets per layer (L0 every turn, L1 scoped, L2 task material, L3 history) and for the host.

A layer's budget is compared with the body bytes of its files, as people size the text they write; the
host's limit is compared with what the host counts (the rendered payload, or Codex's raw file bytes).

What an agent gets at startup depends on where it starts: Codex concatenates AGENTS.md files from the
root down to its start directory and stops at 32 KiB, so a small root file says nothing about a session
started in `tests/`. Every directory an agent can start in is therefore measured (the root, each folder
holding an instruction file, and the deepest folders of the repository), and the worst one decides. The
same computation (`fit_start`) backs `jitctx render`, so the two commands never disagree.

Each number has an owner (`Profile.startup_limit`, `Profile.size_limits`): Codex cuts at its own
`project_doc_max_bytes`; Claude Code cuts nothing of its files and only warns past its sizes, so for it
the profile's `max_bytes` is jitctx's model and never reported as a cut.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from jitctx.assemble.budget import BudgetResult, FileBudget, fit_profile
from jitctx.assemble.render import GLOBAL_TIERS, rendered_size
from jitctx.config import Layer
from jitctx.discovery.session import Session
from jitctx.errors import ConfigError
from jitctx.govern.limits import HookUsage, SizeWarning, hook_usage, startup_warnings
from jitctx.govern.skills import SkillListing, find_skills
from jitctx.model import InstructionFile
from jitctx.paths import is_inside
from jitctx.profiles import SizeLimit
from jitctx.project import Project
from jitctx.scope import compile_scope, scope_matches


@dataclass(frozen=True)
class LayerUsage:
    name: str
    files: tuple[str, ...]
    body_bytes: int
    payload_bytes: int
    limit: int | None
    inject: bool = True

    @property
    def headroom(self) -> int | None:
        return None if self.limit is None else self.limit - self.body_bytes

    @property
    def over(self) -> bool:
        return self.limit is not None and self.body_bytes > self.limit


@dataclass(frozen=True)
class StartUsage:
    """What an agent starting in one directory gets, fitted to the host's limit."""

    path: str  # the start directory, POSIX relative to the root ("." for the root)
    files: tuple[str, ...]  # what loads at startup there, in load order
    need: int  # what the host would count if nothing were cut (Codex: raw bytes; else rendered payload)
    payload: int  # the rendered payload of all of them, uncut
    fit: BudgetResult
    limit_info: SizeLimit | None = None  # whose limit `fit` applies, and whether it cuts
    chars: int = 0  # characters of the files' text, as agents that count characters count them
    warnings: tuple[SizeWarning, ...] = ()  # the agent's warning limits gone past (nothing is cut)

    @property
    def limit(self) -> int:
        return self.fit.limit

    @property
    def cuts(self) -> bool:
        """Does the agent itself cut at `limit`? (False: the limit is jitctx's model only.)"""
        return self.limit_info is None or self.limit_info.cuts

    @property
    def headroom(self) -> int:
        return self.limit - self.need

    @property
    def cut(self) -> tuple[FileBudget, ...]:
        """Files that do not arrive whole: truncated or dropped (none where the agent cuts nothing)."""
        if not self.cuts:
            return ()
        return tuple(f for f in self.fit.files if f.status != "kept")

    @property
    def over(self) -> bool:
        return bool(self.cut)


NO_SKILLS = SkillListing(())
NO_HOOK = HookUsage(None)


@dataclass(frozen=True)
class BudgetReport:
    layers: tuple[LayerUsage, ...]  # configured layers, then combined budgets, then unlayered files
    injected_body: int  # body bytes of every injected layer together
    injected_payload: int  # their rendered payload
    host_limit: int
    style: str
    configured: bool
    starts: tuple[StartUsage, ...] = ()  # every start directory measured, worst first
    skills: SkillListing = NO_SKILLS  # the Agent Skills listed at session start
    startup_limit: SizeLimit | None = None  # whose `host_limit` is, and whether it cuts
    hook: HookUsage = NO_HOOK  # files too large for one hook answer
    limits: tuple[SizeLimit, ...] = ()  # every size limit that applies, with its owner

    @property
    def host_headroom(self) -> int:
        return self.host_limit - self.injected_payload

    @property
    def host_over(self) -> bool:
        # Without layers the host's verdict is the start directories' (whether anything is cut there).
        # A limit the agent does not apply itself cannot be exceeded.
        cuts = self.startup_limit is None or self.startup_limit.cuts
        return cuts and self.configured and self.injected_payload > self.host_limit

    @property
    def worst(self) -> StartUsage | None:
        return self.starts[0] if self.starts else None

    @property
    def over(self) -> bool:
        return (
            self.host_over
            or any(layer.over for layer in self.layers)
            or any(start.over for start in self.starts)
            or bool(self.skills.cut)
        )


def fit_files(files: Iterable[InstructionFile], project: Project) -> BudgetResult:
    """The files fitted to the project's limit (the config's max_bytes, else the profile's)."""
    return fit_profile(files, project.profile, limit=project.max_bytes)


def fit_start(project: Project, cwd: str) -> StartUsage:
    """What loads at the start of a session in `cwd` (no git signals: a clean checkout), fitted."""
    session = Session(project, cwd=cwd, use_git=False)
    session.startup()
    files = session.blocks()
    payload = rendered_size(files, project.profile.render)
    if project.profile.truncation == "root-first":
        need = sum(f.body_bytes for f in files if f.tier not in GLOBAL_TIERS)
    else:
        need = payload
    shown = project.display(os.path.realpath(cwd))
    return StartUsage(
        shown,
        tuple(f.display for f in files),
        need,
        payload,
        fit_files(files, project),
        limit_info=startup_limit(project),
        chars=sum(len(f.text) for f in files),
        warnings=startup_warnings(files, project.profile),
    )


def startup_limit(project: Project) -> SizeLimit:
    """The limit on what loads at startup, and whose it is: the config's max_bytes, else the profile's."""
    configured = project.config.max_bytes is not None
    return project.profile.startup_limit(project.max_bytes, configured=configured)


def start_dirs(project: Project, files: Iterable[InstructionFile], directories: Iterable[str]) -> list[str]:
    """Where an agent can start: the root, every folder holding an instruction file (a folder's own
    `.claude/` counts as the folder), and the deepest of `directories` (root-relative markers like
    `src/ui/`), whose cwd marker matches the most scoped rules."""
    found = {project.root}
    for file in files:
        if not is_inside(file.path, project.root):
            continue
        parts = file.display.split("/")[:-1]
        hidden = next((i for i, part in enumerate(parts) if part.startswith(".")), len(parts))
        # `pkg/.claude/CLAUDE.md` and `pkg/.claude/rules/a/b.md` belong to `pkg`.
        found.add(os.path.join(project.root, *parts[:hidden]))
    # Agents start in the project's own folders, not in tool folders like `.claude/skills/x`.
    markers = sorted(
        d.rstrip("/")
        for d in directories
        if d.strip("/") and not any(p.startswith(".") for p in d.split("/"))
    )
    for index, marker in enumerate(markers):
        deeper = index + 1 < len(markers) and markers[index + 1].startswith(marker + "/")
        if not deeper:
            found.add(os.path.join(project.root, *marker.split("/")))
    return sorted(d for d in found if os.path.isdir(d))


def measure_starts(project: Project, cwds: Iterable[str]) -> tuple[StartUsage, ...]:
    """Each start directory measured, worst first (most needed bytes; ties: shallower path first)."""
    usages = [fit_start(project, cwd) for cwd in cwds]
    return tuple(sorted(usages, key=lambda u: (-u.need, u.path.count("/"), u.path)))


def measure(
    project: Project,
    *,
    cwd: str | None = None,
    directories: Iterable[str] | None = None,
    paths: Iterable[str] = (),
) -> BudgetReport:
    """Layers (when configured), every start directory, and the skill listing; `cwd` measures that one
    start only.

    `directories` are the repository's folders (root-relative markers, e.g. from `RepoFiles`); without
    them only the root and the folders holding instruction files are start directories. `paths` are the
    repository's files, where Agent Skills are found."""
    style = project.profile.render
    limit = project.max_bytes
    config = project.config
    files, _ = project.all_instruction_files()
    cwds = [cwd] if cwd is not None else start_dirs(project, files, directories or ())
    starts = measure_starts(project, cwds)
    skills = SkillListing(find_skills(project.root, paths, project.profile.name))
    root = next((s for s in starts if s.path == "."), None) or fit_start(project, project.root)
    start_limit = startup_limit(project)
    owned = _Owned(
        start_limit,
        hook_usage(files, project.profile, root.files),
        (start_limit, *project.profile.size_limits),
    )
    if not config.layers:
        body = sum(f.body_bytes for f in root.fit.files)
        usage = LayerUsage("startup", root.files, body, root.payload, None)
        return owned.report((usage,), body, root.payload, limit, style, False, starts, skills)

    members = assign_layers(files, config.layers, config.source or "config")
    usages = [
        _usage(layer.name, members[layer.name], layer.max_bytes, style, layer.inject)
        for layer in config.layers
    ]
    for names, combined_limit in config.combined_budgets:
        unknown = [n for n in names if n not in members]
        if unknown:
            raise ConfigError(
                f"{config.source}: budgets name unknown layer(s) {unknown}; define [layers.{unknown[0]}]"
            )
        chosen = [f for n in names for f in members[n]]
        usages.append(_usage("+".join(names), chosen, combined_limit, style, True))
    layered = {f.path for group in members.values() for f in group}
    rest = [f for f in files if f.path not in layered]
    if rest:
        usages.append(_usage("(no layer)", rest, None, style, False))
    injected = [f for layer in config.layers if layer.inject for f in members[layer.name]]
    body = sum(f.body_bytes for f in injected)
    payload = rendered_size(injected, style)
    return owned.report(tuple(usages), body, payload, limit, style, True, starts, skills)


@dataclass(frozen=True)
class _Owned:
    """The limits of a report and whose they are, the same whether layers are configured or not."""

    startup_limit: SizeLimit
    hook: HookUsage
    limits: tuple[SizeLimit, ...]

    def report(
        self,
        layers: tuple[LayerUsage, ...],
        body: int,
        payload: int,
        limit: int,
        style: str,
        configured: bool,
        starts: tuple[StartUsage, ...],
        skills: SkillListing,
    ) -> BudgetReport:
        return BudgetReport(
            layers, body, payload, limit, style, configured, starts, skills,
            startup_limit=self.startup_limit, hook=self.hook, limits=self.limits,
        )  # fmt: skip


def assign_layers(
    files: list[InstructionFile], layers: tuple[Layer, ...], source: str
) -> dict[str, list[InstructionFile]]:
    """Each file goes to the one layer whose globs match its path; two layers claiming it is an error."""
    compiled = {layer.name: compile_scope(layer.globs) for layer in layers}
    members: dict[str, list[InstructionFile]] = {layer.name: [] for layer in layers}
    for file in files:
        owners = [name for name, regex in compiled.items() if scope_matches(regex, file.display)]
        if len(owners) > 1:
            raise ConfigError(
                f"{source}: layers {owners} overlap on {file.display}; a file belongs to one layer, "
                "so narrow the globs of all but one"
            )
        if owners:
            members[owners[0]].append(file)
    return members


def _usage(
    name: str, files: list[InstructionFile], limit: int | None, style: str, inject: bool
) -> LayerUsage:
    return LayerUsage(
        name,
        tuple(f.display for f in files),
        sum(f.body_bytes for f in files),
        rendered_size(files, style),
        limit,
        inject,
    )
