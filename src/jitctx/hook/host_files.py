"""Which instruction files a host agent loads by itself, so a hook never sends them a second time.

jitctx discovers with its own profile (every format), then asks a host profile what the agent already has:

* at session start (and again after compaction) the host loads its own file names on the chain from the
  root to the cwd, its unconditional rules, and its user and managed files;
* while it works, a host whose profile has `native_jit` loads its own nested files and path-scoped rules
  after the tool calls it follows: which those are, the client's `Follower` says (for Claude Code it
  depends on the release). After anything else jitctx sends them. A host without `native_jit` never
  loads nested files, so everything beyond its startup files goes out;
* an `@import` is native when the file that imports it is, or when its own place is the host's (a
  CLAUDE.md that imports AGENTS.md, for a host that reads AGENTS.md).

Only names and places are compared, never contents: the profile is the single place that knows a host.
"""

from __future__ import annotations

import os
from dataclasses import replace

from jitctx.model import InstructionFile, Load, LoadReason, Tier
from jitctx.paths import is_inside, relative_posix
from jitctx.profiles import Profile, RulesDir


class HostFiles:
    """What one host agent holds by itself, for one project root, cwd and home directory."""

    def __init__(self, host: Profile, root: str, cwd: str, home: str | None) -> None:
        self.host = host
        self.root = root
        self.home = home
        self.managed = {os.path.realpath(p) for p in host.managed_files}
        real_cwd = os.path.realpath(cwd)
        if not is_inside(real_cwd, root):
            real_cwd = root
        chain = {""}
        rel = relative_posix(real_cwd, root)
        parts = rel.split("/") if rel else []
        for depth in range(1, len(parts) + 1):
            chain.add("/".join(parts[:depth]))
        self.cwd_chain = frozenset(chain)  # root-relative directories from the root down to the cwd
        # Longest first: `.claude/CLAUDE.md` must not be read as `CLAUDE.md` in a folder called `.claude`.
        # A fallback name (AGENTS.md) is the host's only where no directory from the root down to the cwd
        # holds the file it stands in for (CLAUDE.md): the real client then reads AGENTS.md in its place.
        fallbacks = tuple(
            name
            for name, unless in host.fallback_files
            if not any(os.path.lexists(os.path.join(root, *d.split("/"), unless)) for d in self.cwd_chain)
        )
        self.dir_names = sorted((*host.dir_files, *fallbacks, *host.local_files), key=len, reverse=True)
        self._budget_ends: dict[str, int] | None = None  # `_ends_on_chain`, once asked for

    # -- what kind of file is it, for this host? --------------------------------------------------------

    def _dir_file(self, rel: str) -> str | None:
        """The root-relative directory of a per-directory file the host knows by name, else None."""
        for name in self.dir_names:
            if rel == name:
                directory = ""
            elif rel.endswith("/" + name):
                directory = rel[: -len(name) - 1]
            else:
                continue
            if (
                self.host.first_match_per_dir
                and name in self.host.dir_files
                and self._first(directory) not in (None, name)  # none on disk: known by name only
            ):
                return None  # one file per directory (Codex): the first that exists, not this one
            return directory
        return None

    def _first(self, directory: str) -> str | None:
        """The first of the host's names that exists in a root-relative directory."""
        base = os.path.join(self.root, *directory.split("/")) if directory else self.root
        return next((n for n in self.host.dir_files if os.path.isfile(os.path.join(base, n))), None)

    @staticmethod
    def _in_rules(rel: str, folders: tuple[RulesDir, ...]) -> bool:
        return any(rel.startswith(f.path + "/") and rel.endswith(f.suffix) for f in folders)

    def _nested_rule_dir(self, rel: str) -> str | None:
        """The root-relative directory holding the nested rules folder `rel` is in (`pkg` for
        `pkg/.claude/rules/a.md`), else None."""
        for folder in self.host.rules_dirs:
            marker = f"/{folder.path}/"
            at = rel.find(marker)
            if folder.nested and at > 0 and rel.endswith(folder.suffix):
                return rel[:at]
        return None

    def _place(self, file: InstructionFile) -> tuple[str, str | None]:
        """('dir', directory) | ('rule', None) | ('dir_rule', directory) | ('user', None) |
        ('managed', None) | ('foreign', None)."""
        if file.tier is Tier.MANAGED:
            return ("managed", None) if os.path.realpath(file.path) in self.managed else ("foreign", None)
        if file.tier is Tier.USER:
            if self.home is None or not is_inside(file.path, self.home):
                return "foreign", None
            rel = relative_posix(file.path, self.home)
            if rel in self.host.user_files:
                return "user", None
            return ("rule", None) if self._in_rules(rel, self.host.user_rules_dirs) else ("foreign", None)
        if not is_inside(file.path, self.root):
            return "foreign", None
        rel = relative_posix(file.path, self.root)
        if rel in self.host.root_files:
            return "dir", ""
        if self._in_rules(rel, self.host.rules_dirs):
            return "rule", None
        nested = self._nested_rule_dir(rel)
        if nested is not None:
            return "dir_rule", nested
        directory = self._dir_file(rel)
        return ("dir", directory) if directory is not None else ("foreign", None)

    # -- the questions a hook asks ----------------------------------------------------------------------

    def at_startup(self, file: InstructionFile) -> bool:
        """Does the host load this file at session start (and reload it after compaction)?"""
        kind, directory = self._place(file)
        if kind in ("managed", "user"):
            return True
        if kind == "rule":
            return not file.conditional
        if kind == "dir_rule":
            return not file.conditional and directory in self.cwd_chain
        if kind == "dir":
            return directory in self.cwd_chain and self._within_budget(file, directory)
        return False

    def _within_budget(self, file: InstructionFile, directory: str | None) -> bool:
        """A host that keeps its files from the root down within a byte budget and drops or cuts the rest
        (Codex, `project_doc_max_bytes`) holds a file only when everything up to its end fits: what it
        cut or dropped is jitctx's to send (a cut file whole: its head may arrive twice, no rule is lost)."""
        if self.host.truncation != "root-first" or directory is None:
            return True
        if self._budget_ends is None:
            self._budget_ends = self._ends_on_chain()
        end = self._budget_ends.get(os.path.realpath(file.path))
        return end is None or end <= self.host.max_bytes

    def _ends_on_chain(self) -> dict[str, int]:
        """Real path -> the byte at which the host's text of it ends, for the host's files from the root
        down to the cwd (one per directory where the host reads only the first), empty files skipped."""
        ends: dict[str, int] = {}
        total = 0
        for directory in sorted(self.cwd_chain, key=lambda d: (d.count("/"), d) if d else (-1, d)):
            base = os.path.join(self.root, *directory.split("/")) if directory else self.root
            names = self.host.dir_files
            if self.host.first_match_per_dir:
                first = self._first(directory)
                names = (first,) if first is not None else ()
            for name in names:
                path = os.path.join(base, name)
                try:
                    size = os.stat(path).st_size if os.path.isfile(path) else 0
                except OSError:
                    size = 0
                if size:
                    total += size
                    ends[os.path.realpath(path)] = total
        return ends

    def after_tool(self, file: InstructionFile, followed: bool) -> bool:
        """Does the host hold this file after a call that brought it into scope (`followed`: a call whose
        touched paths the host follows with its own nested loading)?"""
        if self.at_startup(file):
            return True
        if not followed:
            return False
        if not self.host.native_jit:
            return self.host.rules_after_tool and self._place(file)[0] == "rule"
        return self._place(file)[0] in ("dir", "rule", "dir_rule")

    def loads_later(self, load: Load, native_parents: set[str]) -> bool:
        """Does the host load this file by itself once a file of its place is read, though not at start
        (a nested CLAUDE.md, a scoped rule)? Sent early, the host would load it a second time then."""
        return not self.native(load, None, set()) and self.native(load, True, native_parents)

    def native(self, load: Load, followed: bool | None, native_parents: set[str]) -> bool:
        """Whether the host has this load without jitctx (`followed` None: at session start, else whether
        the call that touched its path is one the host follows); `native_parents` collects native
        displays so that imports of a native file count as native too (pass the same set for one
        batch)."""
        file = load.file
        own = self._held_by_place(file, followed)
        if load.reason is LoadReason.INCLUDE and load.parent is not None:
            # Native through its importer, or by its own place: a host that reads AGENTS.md but not the
            # CLAUDE.md importing it already holds the import, so it brings nothing the host lacks.
            held = own or load.parent in native_parents or self._display_native(load.parent, followed)
        else:
            held = own
        if held:
            native_parents.add(file.display)
        return held

    def _held_by_place(self, file: InstructionFile, followed: bool | None) -> bool:
        """Does the host hold this file by its own place, under this name or, for a link inside the
        project, under the name of the file it links to (`CLAUDE.md -> AGENTS.md`: one file, which a host
        that reads AGENTS.md holds whatever jitctx found it as)?"""
        if self.at_startup(file) if followed is None else self.after_tool(file, followed):
            return True
        real = os.path.realpath(file.path)
        if real == file.path or not is_inside(real, self.root):
            return False
        target = replace(file, path=real, display=relative_posix(real, self.root))
        return self.at_startup(target) if followed is None else self.after_tool(target, followed)

    def _display_native(self, display: str, followed: bool | None) -> bool:
        """Nativeness of an importing file known only by its display path (loaded in an earlier call)."""
        path = display if os.path.isabs(display) else os.path.join(self.root, *display.split("/"))
        tier = Tier.PROJECT
        if self.home is not None and is_inside(path, self.home) and not is_inside(path, self.root):
            tier = Tier.USER
        probe = InstructionFile(path=path, display=display, tier=tier, text="", size=0, mtime_ns=0)
        return self.at_startup(probe) if followed is None else self.after_tool(probe, followed)
