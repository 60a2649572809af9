"""The files each page showed, kept between builds for pages ``--dirty`` does not render.

``mkdocs build --dirty`` and ``mkdocs serve --dirty`` skip pages whose source is older
than their HTML, so nothing observes what they include. The last observation is kept in
``dependencies.json`` in ``cache_dir`` (a ``core.store`` file; with ``cache: false``, in memory only, for the
builds of one process), by src_uri, with the stamp (mtime, size, inode) the source had:
an entry is used only while the source has that stamp, one ``stat`` and no read. Paths
are stored relative to the folder of mkdocs.yml, so the cache survives a move. A page
that showed nothing is stored as its stamp alone (most pages: one string each).

The lines of a file shown in part (``dependencies: lines``) are numbered as the file was
when the page rendered: they are kept with that file's stamp too. Once the file changed
(a line inserted above a snippet's section moves it down), they may name other lines, so
the file is given as shown whole (``Tracker.from_cache`` reads the lines again where the
page's own text says them): never dated older than the truth.

One instance serves every build of a process (``mkdocs serve``): the file is read again
only when someone else changed it, and an unchanged cache is not rewritten.
"""

from __future__ import annotations

import os
from itertools import chain
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from mkdocs_sitemap_pro.core import store
from mkdocs_sitemap_pro.core.store import flat_ints, string, strings
from mkdocs_sitemap_pro.core.words import printable
from mkdocs_sitemap_pro.core.page.shown import NOTHING, Shown
from mkdocs_sitemap_pro.core.store import Stamp, file_stamp
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["CACHE_FILE", "FORMAT", "DependencyCache", "flat_ints"]

CACHE_FILE = "dependencies.json"  # in cache_dir
# 1 held a SHA-256 of each source; 2 no files shown in part; 3 [first, last] pairs; 4 no
# stamp of a file shown in part; 5 no format name; 6 the store's envelope
FORMAT = store.Format("mkdocs-sitemap-pro dependencies", 6)

#: One page's entry as the file holds it: "mtime:size:inode" for a page that showed
#: nothing, else ["mtime:size:inode", [files, relative, sorted], [posts], [parts]], parts
#: as [[file, relative], [first, last, first, last, ...], "its mtime:size:inode"]
#: (``dependencies: lines``; one flat list per file, read on every build).
_Entry = str | list[object]


class DependencyCache:
    """The cache file of one project: read once, written once at the end of a build."""

    def __init__(self, project: Path, path: Path | None, depth: str = "files") -> None:
        self.path = path  # None: kept in memory only
        self.depth = depth  # the entries' ``dependencies`` value: lines or files
        self._prefix = os.path.join(os.path.abspath(project), "")  # paths are stored below it
        self._entries: dict[str, _Entry] = {}
        self._written: Stamp | None = None  # the file's stamp as last read or written here
        # src_uri -> (its entry, what it decodes to, its parts' stamps), for the pages
        # ``get`` found valid.
        self._valid: dict[str, tuple[_Entry, Shown, tuple[str | None, ...]]] = {}
        self._load()

    def _load(self) -> None:
        self._entries, self._valid = {}, {}
        if self.path is None:
            return
        stamp = file_stamp(self.path)
        pages, why = store.load(self.path, FORMAT, self._pages)
        if why is not None:  # every page is observed afresh
            log.debug(f"{why}: what each page showed is observed again")
        if pages is not None:
            self._entries = pages
            self._written = stamp  # as if written here: the same pages are not written again

    def _pages(self, data: dict[str, Any]) -> dict[str, _Entry]:
        """The file's entries by src_uri (each checked when a page asks for it)."""
        if data["dependencies"] != self.depth:
            raise ValueError(f"kept for dependencies: {data['dependencies']}")
        pages = data["pages"]
        if not isinstance(pages, dict):
            raise TypeError("not a table of pages")
        return pages

    def refresh(self) -> None:
        """A new build: read the file again unless it is as this instance wrote it."""
        if self.path is not None and (self._written is None
                                      or file_stamp(self.path) != self._written):
            self._written = None
            self._load()

    def get(self, src_uri: str, source: str) -> Shown | None:
        """The cached observation of a page, if its source still has the stamp it had."""
        entry = self._entries.get(src_uri)
        stamp = _stamp(source)
        if stamp is None or entry is None:
            return None
        if entry == stamp:
            self._valid[src_uri] = (entry, NOTHING, ())
            return NOTHING
        if not isinstance(entry, list) or len(entry) != 4 or entry[0] != stamp:
            return None
        known = self._valid.get(src_uri)
        if known is None or known[0] is not entry:
            try:
                decoded = self._decode(entry)
            except (TypeError, ValueError, IndexError, KeyError) as error:  # as if not kept
                log.debug(printable(f"{self.path} cannot be used for {src_uri!r} ({error})"))
                return None
            known = self._valid[src_uri] = (entry, *decoded)
        return _current(known[1], known[2])

    def _decode(self, entry: list[object]) -> tuple[Shown, tuple[str | None, ...]]:
        """An entry as the page showed it, and the stamp each file shown in part had;
        ``ValueError`` (or ``TypeError``...) for one this cache would not write."""
        files, posts, parts = strings(entry[1]), strings(entry[2]), entry[3]
        if not isinstance(parts, list):
            raise TypeError("not a list of parts")
        in_part = tuple((os.path.normpath(self._prefix + string(part[0])),
                         _pairs(part[1])) for part in parts)
        stamps = tuple(part[2] if isinstance(part[2], str) else None for part in parts)
        return Shown(frozenset(os.path.normpath(self._prefix + f) for f in files),
                     tuple(posts), in_part), stamps

    def save(
        self, pages: Mapping[str, Shown], sources: Mapping[str, str],
        unrendered: Collection[str] = (),
    ) -> str | None:
        """Replace the cache with these pages (src_uri -> observation), those with a
        source in ``sources`` (src_uri -> its path).

        ``unrendered``: pages this build did not render; an entry ``get`` gave them stays
        as it is (their sources are not looked at again). Returns why the file could not
        be written, or None; a file that already holds these entries is not rewritten.
        """
        entries: dict[str, _Entry] = {}
        for src_uri, source in sources.items():
            shown = pages[src_uri]
            known = self._valid.get(src_uri) if src_uri in unrendered else None
            if known is not None and known[1] == shown:
                entries[src_uri] = known[0]  # its parts' stamps too: still the lines shown
                continue
            stamp = _stamp(source)
            if stamp is None:
                continue
            if shown is NOTHING or not (shown.files or shown.posts or shown.parts):
                entries[src_uri] = stamp
            else:
                files = sorted(_relative(f, self._prefix) for f in shown.files)
                parts = [[_relative(f, self._prefix), list(chain.from_iterable(lines)),
                          _stamp(f) or ""] for f, lines in shown.parts]
                entries[src_uri] = [stamp, files, list(shown.posts), parts]
        changed = entries != self._entries
        self._entries = entries
        if self.path is None:
            return None
        if not changed and self._written is not None and file_stamp(self.path) == self._written:
            return None
        why = store.save(self.path, FORMAT, {"dependencies": self.depth, "pages": entries})
        self._written = None if why is not None else file_stamp(self.path)
        return why


def _current(shown: Shown, stamps: tuple[str | None, ...]) -> Shown:
    """``shown`` with each file shown in part that changed since (another stamp) given
    as shown whole: its lines were numbered as it was then."""
    if not shown.parts:
        return shown
    changed = [path for (path, _), stamp in zip(shown.parts, stamps) if _stamp(path) != stamp]
    if not changed:
        return shown
    return Shown(shown.files | frozenset(changed), shown.posts,
                 tuple(part for part in shown.parts if part[0] not in changed))


def _stamp(path: str) -> str | None:
    """A file's stamp as the cache stores it, ``mtime_ns:size:inode`` (None: no file)."""
    stamp = file_stamp(path)
    return None if stamp is None else "%d:%d:%d" % stamp


def _pairs(flat: object) -> tuple[tuple[int, int], ...]:
    """A part's lines, ``[first, last, ...]``, as (first, last) pairs."""
    items = iter(flat_ints(flat, 2))
    return tuple(zip(items, items))


def _relative(path: str, prefix: str) -> str:
    """A path relative to the project folder (``prefix`` ends in a separator), in / form."""
    rel = path[len(prefix):] if path.startswith(prefix) else os.path.relpath(path, prefix)
    return rel.replace(os.sep, "/")
