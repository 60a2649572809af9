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
"""

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Literal, NamedTuple

from mkdocs_sitemap_pro.core.git.all_parents import AllParentsWalk
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions, LastChange, Unknown
from mkdocs_sitemap_pro.core.git.first_parent import FirstParentWalk
from mkdocs_sitemap_pro.core.git.process import GitProcesses, NoGit
from mkdocs_sitemap_pro.core.git.repository import (
    Repository,
    find_repository,
    resolve_ignored,
    tree_objects,
)
from mkdocs_sitemap_pro.core.git.walk import Base

__all__ = ["NO_GIT", "HistoryMap", "MapKey", "read_map"]

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
