"""When did each source file last change on the branch being built? Answers by path.

``GitHistory`` looks files up by their path on disk in a ``HistoryMap`` (git's names to
answers, made by ``history_map.read_map``): the one route to git dates, for the build,
the tests and the bench alike.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from mkdocs_sitemap_pro.core.git.answers import LastChange, Unknown
from mkdocs_sitemap_pro.core.git.history_map import HistoryMap, MapKey
from mkdocs_sitemap_pro.core.git.repository import git_names, match_tracked

__all__ = ["GitHistory"]

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
