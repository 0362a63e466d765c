"""`jitctx rules` as data: every instruction file of a project, and for each agent when it reads it.

Each agent profile reads the tree by itself (a Project per profile), so a row says what that agent
makes of the file, not what the file declares: Claude Code loads a nested CLAUDE.md on any touch of its
folder whatever its `paths:` says, Cursor reads only `globs:`, Codex reads a nested AGENTS.md only when
the session starts in its folder. The file's own declared scope comes from the profile that reads every
format. Only project files are listed: user and managed files are the same for every repository.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from jitctx.govern.glob_counts import GlobCount, GlobCounter
from jitctx.govern.readers import profile_reads
from jitctx.imports import expand
from jitctx.model import InstructionFile, Skip, Tier
from jitctx.profiles import DEFAULT_PROFILE, FORMAT_PROFILES, Profile
from jitctx.project import Project
from jitctx.reading import LITERAL_LIST
from jitctx.scope import compiled_scope
from jitctx.twins import twin_groups

START, TOUCH, NEVER = "start", "touch", "never"


@dataclass(frozen=True)
class Reading:
    """When one agent reads one file: at START, on TOUCH of `on` (globs or a folder), or NEVER."""

    agent: str
    when: str
    on: tuple[str, ...] = ()  # TOUCH: what a touched path must match; START: the folder to start in
    note: str = ""  # why, when the reason is not plain from `when`
    globs: tuple[GlobCount, ...] = ()  # TOUCH by globs: their matches in this agent's dialect
    via: str = ""  # the file whose `@import` brings this one, when the agent reads it only so
    # With jitctx's hook (a live client): who brings the file at each moment the hook was asked about,
    # as (moment, route) pairs — moment "start", "read" or "shell_read"; route "client", "jitctx" or
    # "none" (`hook.decide`). Empty: not a hooked agent, or no moment brings the file.
    routes: tuple[tuple[str, str], ...] = ()

    def describe(self) -> str:
        """`start`, `start in pkg/`, `on touch of src/ui/`, `never (why)`, each with `(imported by
        CLAUDE.md)` when an import brings the file, then who brings it with jitctx's hook: for people."""
        if self.when == NEVER:
            text = f"never ({self.note})" if self.note else NEVER
            if self.routes and not self.note:
                text = "never by itself"
        elif self.when == TOUCH:
            text = f"on touch of {', '.join(self.on)}"
        else:
            text = f"start in {self.on[0]}" if self.on else START
        if self.via:
            text = f"{text} (imported by {self.via})"
        if self.routes:
            text += "; with the hook: " + ", ".join(
                f"{MOMENTS.get(m, m)} {BROUGHT[r]}" for m, r in self.routes
            )
        return text


MOMENTS = {"start": "at start", "read": "after a read", "shell_read": "after a shell read"}
BROUGHT = {"client": "by the client", "jitctx": "by jitctx", "none": "by nobody"}


@dataclass(frozen=True)
class RuleRow:
    """One instruction file: what it is, what it declares, and who reads it when."""

    path: str  # root-relative POSIX
    format: str  # `CLAUDE.md`, `AGENTS.md`, `.claude/rules`, `.cursor/rules`, ...
    scope: str  # "always", "globs", "manual" (only on request) or "unreadable" (broken frontmatter)
    globs: tuple[GlobCount, ...]  # the declared globs; matches: the most for any agent reading by them
    bytes: int  # the body: the text after frontmatter, what reaches an agent
    file_bytes: int
    twins: tuple[str, ...]  # other files whose body is the same (jitctx.twins)
    readings: tuple[Reading, ...]

    @property
    def dead_globs(self) -> tuple[str, ...]:
        return tuple(count.glob for count in self.globs if count.dead)


@dataclass(frozen=True)
class RulesTable:
    rows: tuple[RuleRow, ...]
    agents: tuple[str, ...]
    skipped: tuple[Skip, ...]  # instruction files that could not be read, and why
    files_counted: int  # repository files the globs were counted against
    listed_by: str  # "git" or "walk"


def rules_table(
    root: str,
    profiles: Sequence[Profile],
    repo_paths: Sequence[str],
    listed_by: str = "git",
    hooked: frozenset[str] = frozenset(),
    routes: Mapping[str, Mapping[str, tuple[tuple[str, str], ...]]] | None = None,
) -> RulesTable:
    """The table for the project at `root`, for the agents of `profiles`, globs counted over
    `repo_paths` (root-relative POSIX files, e.g. `repo_files.list_repo_files(root).paths`). For the
    agents in `hooked` (those with a jitctx hook), a file the agent never reads itself says when the
    hook sends it instead; `routes` (agent -> display -> (moment, route) pairs, as the hook decided them
    for a previewed session: `example_touches`) says who brings each file with the hook."""
    every = FORMAT_PROFILES[DEFAULT_PROFILE]
    base = Project(root, every)
    read_by: dict[str, dict[str, InstructionFile]] = {}
    files: dict[str, InstructionFile] = {}
    skipped: dict[str, Skip] = {}
    for profile in (every, *profiles):
        if profile.name in read_by:
            continue
        project = base if profile is every else Project(root, profile)
        found, skips = project.all_instruction_files()
        read_by[profile.name] = {file.path: file for file in found}
        for file in found:
            files.setdefault(file.path, file)
        for skip in skips:
            skipped.setdefault(skip.path, skip)
    # `[pin] paths`: files the config keeps in context, whatever their name; no agent reads them by
    # itself, the hook sends them at start.
    pinned: set[str] = set()
    for candidate in base.pinned_candidates():
        outcome = base.read(candidate)
        if outcome is not None and outcome.file is not None:
            pinned.add(candidate.path)
            files.setdefault(candidate.path, outcome.file)
            read_by[every.name].setdefault(candidate.path, outcome.file)
    twins = twin_groups(files, lambda path: files[path].text)
    counter = GlobCounter(repo_paths)
    known = (every, *profiles)

    # Each file as it declares itself (the profile reading every format), and the folder it belongs to.
    declared_as = {path: read_by[every.name].get(path, file) for path, file in files.items()}
    folders = {
        path: "" if path in pinned else owner_folder(declared, known)
        for path, declared in declared_as.items()
    }

    def read(profile: Profile, path: str) -> Reading:
        declared = declared_as[path]
        if path in pinned and profile is every:
            return Reading(profile.name, START, note="pinned by the project's config ([pin] paths)")
        return reading_of(profile, read_by[profile.name].get(path), declared, root, folders[path], counter)

    # What the files each agent reads import, which the agent loads with them (hook.host_files: an
    # import is native when the file importing it is).
    importers = {p.name: imported_by(base, read_by[p.name].values()) for p in profiles if p.imports}
    rows = []
    for path in files:
        declared, folder = declared_as[path], folders[path]
        readings = tuple(
            _through_import(
                read(profile, path),
                [(f.display, read(profile, f.path)) for f in importers.get(profile.name, {}).get(path, ())],
            )
            for profile in profiles
        )
        if hooked & {r.agent for r in readings if r.when == NEVER}:
            sent = reading_of(every, read_by[every.name].get(path), declared, root, folder, counter)
            # A link to a file the agent reads (`CLAUDE.md -> AGENTS.md`) is that file: the hook holds it
            # as the agent's own and sends nothing (hook.host_files, `_held_by_place`).
            real = os.path.realpath(path)
            readings = tuple(
                r
                if r.agent not in hooked
                else _read_through_link(r, read_by[r.agent][real])
                if real != path and real in read_by[r.agent]
                else r
                if routes is not None
                else _sent_by_the_hook(r, sent)
                for r in readings
            )
        if routes is not None:
            readings = tuple(
                replace(r, routes=routes[r.agent].get(declared.display, ())) if r.agent in routes else r
                for r in readings
            )
        rows.append(
            RuleRow(
                path=declared.display,
                format="[pin]" if path in pinned else format_of(declared, known),
                scope=scope_kind(declared),
                globs=_row_counts(_counts(declared, folder, counter), readings),
                bytes=declared.body_bytes,
                file_bytes=declared.size,
                twins=tuple(files[twin].display for twin in twins.get(path, ())),
                readings=readings,
            )
        )
    rows.sort(key=lambda row: (row.path.count("/"), row.path))
    return RulesTable(
        tuple(rows), tuple(p.name for p in profiles), tuple(skipped.values()), counter.files, listed_by
    )


def example_touches(root: str, repo_paths: Sequence[str]) -> dict[str, str]:
    """Per instruction file of the project (display), a repository file whose touch brings it into
    scope (root-relative): one its globs match, in its format's dialect, or one in its folder; none for
    a file at the root without a scope (it loads at start) or a scope that matches nothing."""
    every = FORMAT_PROFILES[DEFAULT_PROFILE]
    found, _ = Project(root, every).all_instruction_files()
    ordered = sorted(repo_paths)
    examples: dict[str, str] = {}
    for file in found:
        if file.tier not in (Tier.PROJECT, Tier.LOCAL):
            continue
        folder = owner_folder(file, (every,))
        example = _example(file, folder, ordered)
        if example is not None:
            examples[file.display] = example
    return examples


def _example(file: InstructionFile, folder: str, paths: Sequence[str]) -> str | None:
    if file.scope is not None:
        base = _glob_folder(file, folder)
        pattern = compiled_scope(file.scope.regex)
        return next(
            (path for path in paths if path.startswith(base) and pattern.fullmatch(path[len(base) :])), None
        )
    if folder:
        return next((path for path in paths if path.startswith(folder)), None)
    return None


def imported_by(project: Project, own: Iterable[InstructionFile]) -> dict[str, list[InstructionFile]]:
    """Real path -> the project files of `own` whose `@imports`, at any depth, bring it in."""
    found: dict[str, list[InstructionFile]] = {}
    for file in own:
        if "@" not in file.text or file.tier not in (Tier.PROJECT, Tier.LOCAL):
            continue
        expansion = expand(
            file.text, file.path, root=project.root, max_depth=project.config.import_depth,
            allow_outside=False, first_line=file.body_line, display=project.display,
        )  # fmt: skip
        for result in expansion.included:
            if result.path is not None and result.path != file.path:
                found.setdefault(result.path, []).append(file)
    return found


def _through_import(reading: Reading, importers: Sequence[tuple[str, Reading]]) -> Reading:
    """An agent's NEVER for a file that a file it reads imports: the agent loads it with that file (the
    earliest, when several import it), and jitctx's hook sends nothing for it."""
    if reading.when != NEVER:
        return reading
    ready = [(display, r) for display, r in importers if r.when != NEVER]
    if not ready:
        return reading
    display, first = min(ready, key=lambda item: (item[1].when != START, bool(item[1].on)))
    return Reading(reading.agent, first.when, first.on, note=f"imported by {display}", via=display)


def _read_through_link(reading: Reading, target: InstructionFile) -> Reading:
    """An agent's NEVER for a link to a file the agent reads itself: the hook sends nothing for it."""
    if reading.when != NEVER:
        return reading
    note = (
        f"not under this name; it reads the file this links to, {target.display}, and the hook sends nothing"
    )
    return Reading(reading.agent, NEVER, note=note)


def _sent_by_the_hook(reading: Reading, sent: Reading) -> Reading:
    """An agent's NEVER, when jitctx's hook sends the file to it (as jitctx's own profile reads it)."""
    if reading.when != NEVER or sent.when == NEVER:
        return reading
    why = f"{reading.note}; " if reading.note else ""
    note = f"{why}not by itself; jitctx's hook sends it: {sent.describe()}"
    return Reading(reading.agent, NEVER, note=note)


def reading_of(
    profile: Profile,
    own: InstructionFile | None,
    declared: InstructionFile,
    root: str,
    folder: str,
    counter: GlobCounter,
) -> Reading:
    """When `profile`'s agent reads the file it read as `own` (None: it did not list it)."""
    agent = profile.name
    note = ""
    if own is None:
        unless = dict(profile.fallback_files).get(os.path.basename(declared.path))
        if unless is None or not profile_reads(profile, declared.display, root):
            return Reading(agent, NEVER)
        # A fallback file (AGENTS.md where no CLAUDE.md is on its way from the root) is read as a plain
        # directory file, scope ignored.
        own = InstructionFile(declared.path, declared.display, declared.tier, declared.text, 0, 0)
        note = f"no {unless} from the root down to its folder"
    if own.scope_error is not None:
        if LITERAL_LIST in own.scope_error:
            return Reading(agent, NEVER, note=own.scope_error)
        return Reading(agent, NEVER, note=f"frontmatter cannot be read: {own.scope_error}")
    if own.manual:
        return Reading(agent, NEVER, note="no globs and no alwaysApply: only when asked for by name")
    if own.scope is not None:
        counts = tuple(
            counter.count(glob, own.scope.dialect, _glob_folder(own, folder)) for glob in own.scope.patterns
        )
        return Reading(agent, TOUCH, own.scope.patterns, globs=counts)
    if not folder:
        return Reading(agent, START, note=note)
    if own.from_rules_dir or profile.native_jit:
        return Reading(agent, TOUCH, (folder,), note=note)
    return Reading(
        agent, START, (folder,), note=note or "read at start from the root down to where it starts"
    )


def owner_folder(file: InstructionFile, profiles: Sequence[Profile]) -> str:
    """The folder the file belongs to, as a marker (`pkg/`), "" for the root: a directory file's folder,
    or the folder holding a nested rules folder."""
    display = file.display
    if file.from_rules_dir:
        for folder in _rules_dirs(profiles):
            if display.startswith(folder + "/"):
                return ""
            at = display.find(f"/{folder}/")
            if at >= 0:
                return display[: at + 1]
        return ""
    name = _file_name(display, profiles)
    return display[: len(display) - len(name)]


def format_of(file: InstructionFile, profiles: Sequence[Profile]) -> str:
    """The instruction format: the rules folder of a rule, else the name agents look for."""
    if file.from_rules_dir:
        for folder in _rules_dirs(profiles):
            if file.display.startswith(folder + "/") or f"/{folder}/" in file.display:
                return folder
    return _file_name(file.display, profiles)


def scope_kind(file: InstructionFile) -> str:
    if file.scope_error is not None:
        return "unreadable"
    if file.manual:
        return "manual"
    return "globs" if file.scope is not None else "always"


def _counts(file: InstructionFile, folder: str, counter: GlobCounter) -> tuple[GlobCount, ...]:
    if file.scope is None:
        return ()
    where = _glob_folder(file, folder)
    return tuple(counter.count(glob, file.scope.dialect, where) for glob in file.scope.patterns)


def _row_counts(declared: tuple[GlobCount, ...], readings: Sequence[Reading]) -> tuple[GlobCount, ...]:
    """Each declared glob with the most files it matches for an agent that reads the file by it (agents
    disagree: Claude Code's `*.py` matches at any depth, the default dialect's at the root only), so
    that 0 means dead for every one of them; the default dialect's count when no agent reads it so."""
    merged = []
    for count in declared:
        seen = [c.matches for r in readings for c in r.globs if c.glob == count.glob]
        merged.append(replace(count, matches=max(seen)) if seen else count)
    return tuple(merged)


def _glob_folder(file: InstructionFile, folder: str) -> str:
    """What a file's globs are relative to: its folder for a nested rules folder's rule; otherwise the
    root (the scope of a nested directory file is written from the root)."""
    return folder if file.from_rules_dir else ""


def _rules_dirs(profiles: Sequence[Profile]) -> list[str]:
    return sorted({r.path for p in profiles for r in p.rules_dirs}, key=len, reverse=True)


def _file_name(display: str, profiles: Sequence[Profile]) -> str:
    """The longest candidate name of any profile that `display` ends with (`.claude/CLAUDE.md` over
    `CLAUDE.md`); the base name when none does."""
    names = {
        name
        for p in profiles
        for name in (*p.dir_files, *p.local_files, *p.root_files, *(n for n, _ in p.fallback_files))
    }
    fitting = [n for n in names if display == n or display.endswith("/" + n)]
    return max(fitting, key=len) if fitting else display.rpartition("/")[2]
