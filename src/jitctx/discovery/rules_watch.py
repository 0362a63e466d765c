"""Whether the rules folders changed since a session built its table of scoped rules (§2.4 Freshness).

A rule edited in place, added, deleted or replaced must show on the next touch it matters for, and the
one that matters may be any rule: an edit can give a rule a scope that matches a path its old scope did
not, so the glob index, which names the rules whose *old* scope may match, cannot say which to look at.
Hence two ways to know, each exact:

* **stat** (anywhere; the first calls of every session): the rules folders are listed again and each rule
  file is stat'ed, and both compared with what the table was built from. A stat per rule per call.
* **notified** (Linux, local file systems): inotify watches on the rules folders and their sub-folders,
  and on the folder each of them sits in, set up *before* the folders are listed and their files stat'ed.
  A change then either happened before that stat, which saw it, or is in the queue; a call polls the
  queue once and stats only the rule files a folder's watch cannot vouch for: links (a write through a
  link is reported to the folder of its target) and files with hard links elsewhere (reported to the
  folder they were opened through). Where any folder is on a file system inotify may not hear (network,
  FUSE, a host folder shared into a VM), or the kernel refuses an instance or a watch, it stays *stat*.

Setting up inotify costs about what 2,000 stats do (an instance, walking the folders), so a session
switches to *notified* once its full comparisons have cost that much: on its third touch with 1,000 rules,
its second with 5,000. A hook process answering one touch never pays for it, nor does the session a warm
daemon builds for an event that touches one path. On a change either way, the table is built again: a
stat per rule, and a read of each file whose version changed or that the queue named (two writes within
one tick of a coarse file clock leave the version as it was; the queue still names the file).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from jitctx.discovery.inotify import Notifier, Watch, local_filesystem, notifier
from jitctx.discovery.rule_table import ScopeCache
from jitctx.project import Project
from jitctx.walk import MAX_DEPTH

# Stats a session spends on full comparisons before it sets up inotify (about what that costs).
ARM_AFTER_STATS = 2_000


class RulesWatch:
    """Tells one session whether its table of scoped rules is still what the rules folders hold.

    `begin()` before each build of the table, `built(cache)` after it, `changed()` on each later call.
    `notify=False` keeps to the stat way (a benchmark compares the two)."""

    def __init__(self, project: Project, *, notify: bool = True) -> None:
        self.project = project
        self.notify = notify
        self.stats_spent = 0
        self._cache: ScopeCache = {}  # the versions the table was built from
        self._rules: list[str] = []
        self._notifier: Notifier | None = None
        self._watches: list[Watch] = []
        self._folder_of: dict[Watch, str] = {}  # the folder each suffix watch is on
        self._heard: list[str] = []  # rule files the queue named since the table was built
        self._seen = 0  # the notifier's serial when the watches were (re)checked
        self._unheard: frozenset[str] = frozenset()  # rule files their folder's watch cannot vouch for

    @property
    def notified(self) -> bool:
        return self._notifier is not None

    def begin(self, cache: ScopeCache) -> list[str]:
        """Before the table is built: sets up the watches, if it is time, before the build lists the
        folders and stats each rule file. Returns the files the queue named since the last build, which
        `cache` and the project forget here: their version may be the one the table was built from (two
        writes within one tick of a coarse file clock), and what was heard is read again all the same."""
        before, seen, folder_of = self._notifier, self._seen, self._folder_of
        self._notifier = None
        if self.notify and self.stats_spent >= ARM_AFTER_STATS:
            self._arm()
        found = self._notifier
        if found is not None and found is before:
            # What the queue brought since `changed()` last looked, up to the poll the build starts from.
            for watch, folder in {**folder_of, **self._folder_of}.items():
                self._heard.extend(os.path.join(folder, name) for name in found.names_since(seen, watch))
        heard, self._heard = list(dict.fromkeys(self._heard)), []
        for path in heard:
            cache.pop(path, None)
            self.project.forget(path)
        return heard

    def built(self, cache: ScopeCache) -> None:
        """After the build: `cache` holds the version of each rule file the table was built from."""
        self._cache = cache
        self._rules = [candidate.path for candidate in self.project.rule_candidates()]
        self._unheard = frozenset(self._unheard.intersection(self._rules))

    def changed(self) -> bool:
        """Whether any rules folder or rule file differs from what the table was built from."""
        found = self._notifier
        if found is not None:
            if found is not notifier(create=False):  # a forked child: its parent's watches are not its own
                return True
            serial = found.poll()
            if serial != self._seen:
                if found.changed_since(self._seen, self._watches):
                    self._heard = [
                        os.path.join(folder, name)
                        for watch, folder in self._folder_of.items()
                        for name in found.names_since(self._seen, watch)
                    ]
                    return True
                self._seen = serial
            return _differs(self._unheard, self._cache)
        self.stats_spent += len(self._rules)
        if self.notify and self.stats_spent >= ARM_AFTER_STATS:
            self._arm()  # before the comparison below: what it does not see, the watches hear
            self._unheard = frozenset(self._unheard.intersection(self._rules))
        return self.project.rule_file_paths() != self._rules or _differs(self._rules, self._cache)

    def unchanged(self, path: str, mtime_ns: int, size: int) -> bool:
        """Whether rule file `path` is known, without a stat, to still be at this version: the watches
        vouch that nothing changed since the table was built from it (true only right after `changed()`
        said False, which polled the queue; never in the stat way, where the caller stats)."""
        if self._notifier is None or path in self._unheard:
            return False
        entry = self._cache.get(path)
        return entry is not None and entry[0] == mtime_ns and entry[1] == size

    def _arm(self) -> None:
        found = notifier()
        watches: dict[Watch, str] = {}
        unheard: list[str] = []
        if found is None or not all(
            _watch_folder(found, top, folder.suffix, watches, unheard)
            for top, folder, _ in self.project.rule_folders()
        ):
            self.notify = False  # refused once, refused for this session: it keeps to stats
            return
        self._notifier, self._watches, self._unheard = found, list(watches), frozenset(unheard)
        self._folder_of = {watch: folder for watch, folder in watches.items() if watch[1][0] == "suffix"}
        self._seen = found.poll()  # what came before this is before the stats that follow


def _watch_folder(
    found: Notifier, top: str, suffix: str, watches: dict[Watch, str], unheard: list[str]
) -> bool:
    """Watch a rules folder, its sub-folders and where it sits (or, while it does not exist, its nearest
    existing ancestor for the next name on the way down); False when a watch cannot vouch for it."""
    current = top
    while not os.path.isdir(current):
        parent = os.path.dirname(current)
        if parent == current:
            return True
        name, current = os.path.basename(current), parent
        if os.path.exists(current):
            return os.path.isdir(current) and _add(found, current, "name", name, watches)
    parent = os.path.dirname(top)
    if parent != top and not _add(found, parent, "name", os.path.basename(top), watches):
        return False
    stack = [(top, 0)]
    while stack:
        directory, depth = stack.pop()
        if not _add(found, directory, "suffix", suffix, watches):
            return False
        try:
            with os.scandir(directory) as entries:  # listed after the watch: nothing falls between
                for entry in entries:
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            if depth < MAX_DEPTH:
                                stack.append((entry.path, depth + 1))
                        elif (
                            entry.name.endswith(suffix)
                            and not entry.is_dir()
                            and (entry.is_symlink() or entry.stat(follow_symlinks=False).st_nlink > 1)
                        ):
                            unheard.append(entry.path)
                    except OSError:
                        unheard.append(entry.path)
        except OSError:
            pass  # an unreadable folder lists no rules; the watch on it hears when that changes
    return True


def _add(found: Notifier, directory: str, kind: str, value: str, watches: dict[Watch, str]) -> bool:
    try:
        local = local_filesystem(os.stat(directory).st_dev)
    except (OSError, ValueError):
        return False
    watch = found.watch(directory, kind, value) if local else None
    if watch is not None:
        watches[watch] = directory
    return watch is not None


def _differs(paths: Iterable[str], cache: ScopeCache) -> bool:
    """Whether any of `paths` has a version other than the one in `cache` (none there: it could not be
    stat'ed then, so it differs once it can)."""
    for path in paths:
        entry = cache.get(path)
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            if entry is not None:
                return True
            continue
        if (
            entry is None
            or entry[0] != info.st_mtime_ns
            or entry[1] != info.st_size
            or entry[2] != info.st_ino
        ):
            return True
    return False
