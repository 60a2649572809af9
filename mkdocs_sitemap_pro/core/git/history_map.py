"""Git history as a value: every file HEAD tracks -> its last change, from one walk.

``read_map`` gives the map of the repository a folder lies in, for its HEAD and the rule
options. Given an earlier map (``known``, from memory or from ``map_store``), it runs no
``git log`` at all while HEAD, the shallow boundary and the options are the same, and
when HEAD moved on it brings the map forward: the walk stops where each file's chain
reaches the earlier HEAD and takes the answer found there (``walk.Base``), so it reads
only the new commits. A HEAD that is not a descendant gets a full walk, which is what
the same code does when the earlier HEAD is never reached: the result is always that
of a full walk.

Git processes per read: one ``rev-parse``; with a map to make, one ``ls-tree`` (which
also gives each file's object id, the identity of its content), one
``cat-file`` if ``ignore_commits`` is set, and one ``log``.

``GitHistory`` answers by path from the map.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Literal, NamedTuple

from mkdocs_sitemap_pro.core.git.answers import HistoryOptions, LastChange, Unknown
from mkdocs_sitemap_pro.core.git.process import GitProcesses, NoGit
from mkdocs_sitemap_pro.core.git.repository import (
    Repository,
    find_repository,
    git_names,
    match_tracked,
    resolve_ignored,
    tree_objects,
)
from mkdocs_sitemap_pro.core.git.walk import AllParentsWalk, Base, FirstParentWalk

__all__ = ["NO_GIT", "HistoryMap", "MapKey", "read_map", "GitHistory"]

NO_GIT = (
    "git is not installed (no `git` program on PATH), so no file can be dated "
    "from git history; install git on the machine that builds the site."
)

#: How a map was had: from the earlier one as it was, by walking the new commits only,
#: by a whole walk, or not at all (no repository, no git: every file gets ``default``).
Made = Literal["kept", "forward", "full", "none"]

_NONE: Mapping[bytes, str] = MappingProxyType({})


class MapKey(NamedTuple):
    """Everything the map depends on: the repository, HEAD, the shallow boundary, options."""

    top: str
    head: str
    boundary: frozenset[bytes]
    options: HistoryOptions

    @classmethod
    def of(cls, repo: Repository, options: HistoryOptions) -> "MapKey":
        return cls(repo.top, repo.head, repo.boundary, options)


class HistoryMap(NamedTuple):
    """The last change of every file HEAD tracks (git's names: paths from the top level).

    ``key`` is None where the map must not be kept: no repository, no git, a failed walk.
    ``map_warnings``: warnings that belong to the map (from ``ls-tree``, ``ignore_commits``),
    given again whenever it is used; ``warnings``: everything this read has to say.
    """

    key: MapKey | None
    changes: Mapping[bytes, LastChange]
    top: str | None = None
    objects: Mapping[bytes, str] = _NONE  # each file's object id at HEAD (its content)
    links: frozenset[bytes] = frozenset()  # the files that are symbolic links at HEAD
    default: LastChange = Unknown("untracked")  # the answer for a file not in ``changes``
    map_warnings: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    commits_read: int = 0
    made: Made = "full"


def read_map(
    folder: Path,
    options: HistoryOptions,
    *,
    known: HistoryMap | None = None,
    processes: GitProcesses | None = None,
) -> HistoryMap:
    """The history map of ``folder``'s repository at its HEAD under ``options``.

    Never raises for git trouble (no git, no repository, no commits, a failed walk: a
    warning, and ``default`` says why no file can be dated), except ``GitTimeout`` from
    ``processes``, which the caller reports.
    """
    warnings: list[str] = []
    try:
        repo = find_repository(Path(folder), warnings, processes=processes)
        if isinstance(repo, Unknown):
            return HistoryMap(None, {}, default=repo, warnings=tuple(warnings), made="none")
        key = MapKey.of(repo, options)
        if known is not None and known.key == key:
            return HistoryMap(key, known.changes, repo.top, known.objects, known.links,
                              map_warnings=known.map_warnings,
                              warnings=(*warnings, *known.map_warnings), made="kept")
        return _walk(repo, key, warnings, _base_of(known, key), processes)
    except NoGit:
        return HistoryMap(None, {}, default=Unknown("no-git"), warnings=(NO_GIT,), made="none")


def _base_of(known: HistoryMap | None, key: MapKey) -> Base | None:
    """The earlier map's answers, if they can be brought forward to ``key``."""
    if known is None or known.key is None:
        return None
    top, _, boundary, options = known.key
    if (top, boundary, options) != (key.top, key.boundary, key.options):
        return None
    return Base(known.key.head.encode("ascii"), known.changes)


def _walk(repo: Repository, key: MapKey, warnings: list[str], base: Base | None,
          processes: GitProcesses | None) -> HistoryMap:
    """One walk over the history of every file HEAD tracks (from ``base``, if any)."""
    map_warnings: list[str] = []
    objects, links = tree_objects(repo.top, map_warnings, processes=processes)
    options = key.options
    ignored = resolve_ignored(repo.top, options.ignore_commits, map_warnings, processes=processes)
    rule = FirstParentWalk if options.rule == "first-parent" else AllParentsWalk
    walk = rule(repo, set(objects), options.date, ignored, base)
    changes = walk.run(processes)
    failed = walk.failure is not None or (not objects and bool(map_warnings))
    notes = (*warnings, *map_warnings, *([walk.failure] if walk.failure else []))
    return HistoryMap(
        None if failed else key, changes, repo.top, objects, links, map_warnings=tuple(map_warnings),
        warnings=notes,
        commits_read=walk.commits_read, made="forward" if walk.reached_base else "full",
    )


_UNTRACKED = Unknown("untracked")
_UNSEEN = b"\0"  # no git name holds NUL


class GitHistory:
    """The last change of files in one history map (``map``), looked up by their path on
    disk; a path's git name is found once."""

    def __init__(self, history: HistoryMap) -> None:
        self.map = history
        self._folders: dict[str, str] = {}  # folder -> its real path, for ``git_names``
        self._names: dict[str, bytes | None] = {}  # path -> its git name

    @property
    def top(self) -> str | None:
        """The repository's top level (None: no repository)."""
        return self.map.top

    @property
    def key(self) -> MapKey | None:
        """What every answer depends on (None: nothing to keep)."""
        return self.map.key

    @property
    def objects(self) -> Mapping[bytes, str]:
        """Each file's object id at HEAD, by its git name."""
        return self.map.objects

    @property
    def warnings(self) -> tuple[str, ...]:
        """What the map has to say, each once."""
        return tuple(dict.fromkeys(self.map.warnings))

    def last_changed(self, path: str | os.PathLike[str]) -> LastChange:
        """The last change of the file at ``path``; a file git does not track is untracked."""
        if self.map.top is None:
            return self.map.default
        name = self.name(path)
        if name is None:
            return _UNTRACKED
        return self.map.changes.get(name, _UNTRACKED)

    def tracked(self, path: str | os.PathLike[str]) -> bool:
        """Whether the map has an answer for the file at ``path`` (a twin's counts)."""
        return self.map.top is not None and (name := self.name(path)) is not None and (
            name in self.map.changes)

    def untracked(self, paths: Iterable[str]) -> list[str]:
        """The files of ``paths`` that exist and that the map has no answer for, sorted
        (none when the map has no file ids to date a copy by)."""
        if self.map.top is None or not self.map.objects:
            return []
        return sorted({p for p in paths if not self.tracked(p) and os.path.isfile(p)})

    def adopt(self, twins: Mapping[str, bytes]) -> None:
        """Answer for each path (an untracked copy) by its twin's git name (``twins``)."""
        self._names.update(twins)

    def change(self, name: bytes) -> LastChange:
        """The last change of the file git calls ``name`` (a path from the top level)."""
        if self.map.top is None:
            return self.map.default
        return self.map.changes.get(name, _UNTRACKED)

    def name(self, path: str | os.PathLike[str]) -> bytes | None:
        """The file's name in git's tree (its symlinks resolved; of the Unicode forms,
        the one git tracks), or None when it lies outside the repository."""
        text = os.fspath(path)
        known = self._names.get(text, _UNSEEN)
        if known is not _UNSEEN:
            return known
        top, changes = self.map.top, self.map.changes
        assert top is not None
        prefix = top + os.sep
        if text.startswith(prefix) and "/./" not in text and "/../" not in text:
            # Most paths are a tracked file's own, below the (real) top level, through no
            # symlinked folder (git would track that folder as a link, not this name).
            direct = os.fsencode(text[len(prefix):].replace(os.sep, "/"))
            # A file git tracks as a link is dated by its target; the map says which
            # are links, saving a stat a page.
            if direct in changes and direct not in self.map.links:
                self._names[text] = direct
                return direct
        name = git_names([text], top, self._folders)[0]
        tracked = match_tracked(name, changes) if name is not None else None
        self._names[text] = tracked if tracked is not None else name
        return self._names[text]

    def relative(self, path: str | os.PathLike[str]) -> str | None:
        """A path as git names it, relative to the top level (None: outside, or no repository)."""
        if self.map.top is None:
            return None
        name = self.name(path)
        return None if name is None else os.fsdecode(name)
