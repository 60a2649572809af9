"""When did each source file last change on the branch being built? Answers by path.

``GitHistory`` looks files up by their path on disk in a map from git's names to
answers: a whole ``HistoryMap`` (``GitHistory.of``, what a build dates its pages by), or
the answers of one read for some files only (``GitHistory.read``, which stops walking as
soon as they are answered). Both rules agree exactly with a per-file git command:
``first-parent`` (``first_parent.py``) and ``all`` (``all_parents.py``).

Neither walk takes a pathspec: under one, git runs a tree diff per commit for its own
simplification on top of the diff it prints, about doubling the cost when most commits
touch the docs; and under ``all`` that simplification would drop parents some file's
chain needs. Names outside the wanted set are simply not looked up.

``ignore_commits``: a change made by an ignored commit does not count. A file whose every
change is ignored is ``Unknown("ignored")``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from mkdocs_sitemap_pro.core.git.all_parents import AllParentsWalk
from mkdocs_sitemap_pro.core.git.answers import (
    DateKind,
    HistoryOptions,
    HistoryRule,
    LastChange,
    Unknown,
)
from mkdocs_sitemap_pro.core.git.first_parent import FirstParentWalk
from mkdocs_sitemap_pro.core.git.history_map import NO_GIT, HistoryMap, MapKey
from mkdocs_sitemap_pro.core.git.process import GitProcesses, NoGit
from mkdocs_sitemap_pro.core.git.repository import (
    find_repository,
    git_names,
    match_tracked,
    resolve_ignored,
    tracked_files,
)

__all__ = ["GitHistory"]

_UNTRACKED = Unknown("untracked")
_UNSEEN = b"\0"  # no git name holds NUL
# What os.fsencode does, without its checks (a path here is always a str).
_FS_ENCODING = (sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())


class GitHistory:
    """The last change of files, looked up by their path on disk."""

    def __init__(
        self,
        changes: Mapping[bytes, LastChange],
        *,
        top: str | None,
        warnings: Sequence[str] = (),
        commits_read: int = 0,
        key: MapKey | None = None,
        default: LastChange = _UNTRACKED,
        objects: Mapping[bytes, str] | None = None,
        links: frozenset[bytes] | None = None,
    ) -> None:
        self._changes = changes
        self.objects: Mapping[bytes, str] = objects or {}  # git name -> its object id
        self._links = links  # names git tracks as symbolic links (None: not known)
        self.top = top  # the repository's top level (None: no repository)
        self.warnings: tuple[str, ...] = tuple(dict.fromkeys(warnings))
        self.commits_read = commits_read
        self.key = key  # what every answer depends on (None: nothing to keep)
        self._default = default  # the answer when no repository could be read
        self._folders: dict[str, str] = {}  # folder -> its real path, for ``git_names``
        self._names: dict[str, bytes | None] = {}  # path -> its git name

    @classmethod
    def of(cls, history: HistoryMap) -> GitHistory:
        """Answers from a whole history map."""
        return cls(history.changes, top=history.top, warnings=history.warnings,
                   commits_read=history.commits_read, key=history.key,
                   default=history.default, objects=history.objects, links=history.links)

    @classmethod
    def read(
        cls,
        folder: Path,
        paths: Iterable[Path],
        *,
        history: HistoryRule = "first-parent",
        date: DateKind = "committer",
        ignore_commits: Sequence[str] = (),
        processes: GitProcesses | None = None,
    ) -> GitHistory:
        """Read history once for ``paths`` (source paths) in ``folder``'s repository, and
        no further than they need.

        Never raises for git trouble: a missing git program, a folder outside any
        repository or a repository without commits gives one warning and every file
        ``Unknown`` with the reason.
        """
        options = HistoryOptions(history, date, tuple(ignore_commits))
        paths = [Path(p) for p in paths]
        if not paths:
            return cls({}, top=None)
        warnings: list[str] = []
        try:
            repo = find_repository(Path(folder), warnings, processes=processes)
            if isinstance(repo, Unknown):
                return cls({}, top=None, warnings=warnings, default=repo)
            names = {n for n in git_names(paths, repo.top) if n}
            tracked = tracked_files(repo.top, names, warnings, processes=processes)
            want = {t for t in (match_tracked(n, tracked) for n in names) if t is not None}
            ignored = resolve_ignored(repo.top, options.ignore_commits, warnings,
                                      processes=processes)
            rule = FirstParentWalk if history == "first-parent" else AllParentsWalk
            walk = rule(repo, want, date, ignored)
            changes = walk.run(processes)
        except NoGit:
            return cls({}, top=None, warnings=[NO_GIT], default=Unknown("no-git"))
        if walk.failure:
            warnings.append(walk.failure)
        return cls(changes, top=repo.top, warnings=warnings, commits_read=walk.commits_read)

    def last_changed(self, path: str | os.PathLike[str]) -> LastChange:
        """The last change of the file at ``path``; a file git does not track is untracked."""
        if self.top is None:
            return self._default
        name = self.name(path)
        if name is None:
            return _UNTRACKED
        return self._changes.get(name, _UNTRACKED)

    def tracked(self, path: str | os.PathLike[str]) -> bool:
        """Whether the map has an answer for the file at ``path`` (a twin's counts)."""
        return self.top is not None and (name := self.name(path)) is not None and (
            name in self._changes)

    def adopt(self, twins: Mapping[str, bytes]) -> None:
        """Answer for each path (an untracked copy) by its twin's git name (``twins``)."""
        self._names.update(twins)

    def change(self, name: bytes) -> LastChange:
        """The last change of the file git calls ``name`` (a path from the top level)."""
        if self.top is None:
            return self._default
        return self._changes.get(name, _UNTRACKED)

    def name(self, path: str | os.PathLike[str]) -> bytes | None:
        """The file's name in git's tree (its symlinks resolved; of the Unicode forms,
        the one git tracks), or None when it lies outside the repository."""
        text = os.fspath(path)
        known = self._names.get(text, _UNSEEN)
        if known is not _UNSEEN:
            return known
        assert self.top is not None
        prefix = self.top + os.sep
        if text.startswith(prefix) and "/./" not in text and "/../" not in text:
            # Most paths are a tracked file's own, below the (real) top level, through no
            # symlinked folder (git would track that folder as a link, not this name).
            direct = text[len(prefix):].replace(os.sep, "/").encode(*_FS_ENCODING)
            links = self._links
            # A file git tracks as a link is dated by its target; the map says which
            # are links, saving a stat a page (a read without a map looks at the file).
            if direct in self._changes and (
                    direct not in links if links is not None else not os.path.islink(text)):
                self._names[text] = direct
                return direct
        name = git_names([text], self.top, self._folders)[0]
        tracked = match_tracked(name, self._changes) if name is not None else None
        self._names[text] = tracked if tracked is not None else name
        return self._names[text]

    def relative(self, path: str | os.PathLike[str]) -> str | None:
        """A path as git names it, relative to the top level (None: outside, or no repository)."""
        if self.top is None:
            return None
        name = self.name(path)
        return None if name is None else os.fsdecode(name)
