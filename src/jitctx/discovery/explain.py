"""Why each instruction file would, or would not, reach an agent that touches one path.

The troubleshooting order a person would follow, made mechanical: was the directory ever touched, does
the scope match the actual path (shown side by side), is the path inside the project, can the frontmatter
be read, is the file readable at all.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from jitctx.discovery.session import Session
from jitctx.model import Discovery, InstructionFile, Load, LoadReason, Startup
from jitctx.paths import is_inside
from jitctx.project import Project


@dataclass(frozen=True)
class Verdict:
    path: str
    loads: bool
    kind: str  # startup | touch | scope_mismatch | off_chain | frontmatter | on_request | unreadable | native
    why: str
    reason: str | None = None  # the load reason, for files that load
    globs: tuple[str, ...] = ()
    against: str | None = None  # the path or signal the scope was compared with
    # With a client's hook (`explain --agent CLIENT`): who brings the file — "client" (the client itself),
    # "jitctx" (jitctx's hook) or "none" — as the hook decides (`hook.decide`); None: the agent alone.
    route: str | None = None


@dataclass(frozen=True)
class Explanation:
    target: str
    rel: str | None  # the target relative to the root; None outside the project
    startup: Startup
    discovery: Discovery
    verdicts: tuple[Verdict, ...]
    notes: tuple[str, ...]
    blocks: tuple[InstructionFile, ...] = ()  # what the session holds afterwards, in load order


def explain(project: Project, target: str, *, cwd: str | None = None, use_git: bool = True) -> Explanation:
    session = Session(project, cwd=cwd, use_git=use_git)
    startup = session.startup()
    absolute = os.path.abspath(os.path.join(session.cwd, target))
    discovery = session.discover(absolute)
    real = os.path.realpath(absolute)
    rel = project.display(real) if is_inside(real, project.root) else None
    verdicts: list[Verdict] = []
    seen: set[str] = set()
    for load in startup.loaded:
        verdicts.append(
            Verdict(load.file.display, True, "startup", _startup_why(load),
                    load.reason.value, load.globs, load.trigger)
        )  # fmt: skip
        seen.add(load.file.display)
    for load in discovery.loaded:
        if load.reason is LoadReason.INCLUDE:
            why = f"imported with @ by {load.trigger}"
        elif load.globs:
            why = f"scope {list(load.globs)} matches {load.trigger}"
        else:
            why = "unconditional file on the directory chain of the touched path"
        verdicts.append(
            Verdict(load.file.display, True, "touch", why, load.reason.value, load.globs, load.trigger)
        )
        seen.add(load.file.display)
    files, skips = project.all_instruction_files()
    for skip in skips:
        if skip.path not in seen:
            verdicts.append(Verdict(skip.path, False, "unreadable", skip.why))
            seen.add(skip.path)
    chain = _chain_of(rel) if rel is not None else set()
    for file in files:
        if file.display in seen:
            continue
        seen.add(file.display)
        verdicts.append(_why_not(file, rel, chain, project))
    notes = list(dict.fromkeys([*startup.warnings, *discovery.warnings]))
    if discovery.note:
        notes.append(discovery.note)
    if not project.profile.native_jit:
        notes.append(
            f"{project.profile.name} itself reads instruction files only from the root down to the cwd at "
            "startup; the files marked 'touch' reach it only through jitctx hooks"
        )
    return Explanation(
        target, rel, startup, discovery, tuple(verdicts), tuple(notes), tuple(session.blocks())
    )


def _startup_why(load: Load) -> str:
    if load.pinned:
        return "pinned by the project's config ([pin] paths): loads at every session start"
    if load.reason is LoadReason.INCLUDE:
        return f"imported with @ by {load.trigger}"
    if load.trigger is None:
        return "unconditional: loads at session start"
    if not load.globs:
        return f"on the directory chain of {load.trigger}, which git reports as changed"
    return f"scope {list(load.globs)} matches the startup signal {load.trigger}"


def _chain_of(rel: str) -> set[str]:
    """Directories (POSIX, relative, "" for the root) walked when `rel` is touched."""
    parts = rel.rstrip("/").split("/") if rel not in ("", ".") else []
    dirs = {""}
    for index in range(1, len(parts)):
        dirs.add("/".join(parts[:index]))
    if rel.endswith("/"):
        dirs.add(rel.rstrip("/"))
    return dirs


def _nested_rules_home(file: InstructionFile, project: Project) -> str | None:
    """The directory whose nested rules folder holds `file` (`pkg` for `pkg/.claude/rules/a.md`)."""
    if not file.from_rules_dir:
        return None
    for folder in project.profile.rules_dirs:
        at = file.display.find(f"/{folder.path}/")
        if folder.nested and at > 0:
            return file.display[:at]
    return None


def _directory_of(file: InstructionFile) -> str:
    parent = os.path.dirname(file.display)
    if os.path.basename(parent) == ".claude":
        parent = os.path.dirname(parent)
    return parent


def _why_not(file: InstructionFile, rel: str | None, chain: set[str], project: Project) -> Verdict:
    if file.scope_error is not None:
        return Verdict(file.display, False, "frontmatter", f"never injected: {file.scope_error}")
    if file.manual:
        return Verdict(
            file.display, False, "on_request", "applies only when asked for (no scope, not always-apply)"
        )
    if rel is None:
        return Verdict(file.display, False, "off_chain", "the touched path is outside the project")
    home = _nested_rules_home(file, project)
    on_chain = home in chain if home is not None else file.from_rules_dir or _directory_of(file) in chain
    if not on_chain:
        where = home or _directory_of(file) or "."
        return Verdict(
            file.display, False, "off_chain",
            f"directory {where}/ is never walked when {rel} is touched; it loads when a path under it is",
        )  # fmt: skip
    if file.scope is not None:
        # A nested rule's scope is relative to the directory that holds its rules folder.
        against = rel[len(home) + 1 :] if home else rel
        return Verdict(
            file.display, False, "scope_mismatch",
            f"scope {list(file.scope.patterns)} does not match {against}", globs=file.scope.patterns,
            against=against,
        )  # fmt: skip
    return Verdict(file.display, False, "native", f"not read by the {project.profile.name} profile here")
