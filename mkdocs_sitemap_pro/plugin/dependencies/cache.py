"""The files each page showed, kept between builds for pages ``--dirty`` does not render.

``mkdocs build --dirty`` and ``mkdocs serve --dirty`` skip unchanged pages, so nothing
observes what they include. The last observation is kept in ``dependencies.json`` in
``cache_dir`` (with ``cache: false``, in memory only, for the builds of one process).
Entries are keyed by the page's source path (src_uri) and hold the SHA-256 of the source
they were observed with: an entry is used only while the source is unchanged (a content
hash needs no git process, and sees uncommitted edits too). The source's stamp (mtime,
size, inode) is stored beside it: while the stamp is the same, a later build takes the
stored hash instead of reading the source again. Paths are stored relative to the
folder of mkdocs.yml, so the cache survives a move.

One instance serves every build of a process (``mkdocs serve``): the file is read once
while it stays as this instance last wrote it, a source is hashed again only when its
stamp changed, and an unchanged cache is not rewritten.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.atomic import replace_file
from mkdocs_sitemap_pro.plugin.paths import Stamp, file_stamp

__all__ = ["CACHE_FILE", "Cached", "DependencyCache"]

CACHE_FILE = "dependencies.json"  # in cache_dir
_VERSION = 1


class Cached(NamedTuple):
    """One page's observation: the files it showed and, for a listing page, its posts."""

    files: frozenset[str] = frozenset()  # absolute paths
    posts: tuple[str, ...] = ()


@dataclass
class _Made:
    """One page's entry as this instance wrote it, and what it was made from."""

    digest: str
    stamp: Stamp
    cached: Cached
    entry: dict[str, object]


class DependencyCache:
    """The cache file of one project: read once, written once at the end of a build."""

    def __init__(self, project: Path, path: Path | None) -> None:
        self._project = project
        self.path = path  # None: kept in memory only
        self._prefix = os.path.join(os.path.abspath(project), "")  # paths are stored below it
        self._pages: dict[str, dict[str, object]] = {}
        self._digests: dict[str, tuple[Stamp, str]] = {}
        self._written: Stamp | None = None  # the file's stamp as last read or written here
        self._decoded: dict[str, tuple[str, Cached]] = {}  # src_uri -> (digest, entry)
        self._made: dict[str, _Made] = {}  # src_uri -> its entry as last made here
        self._load()

    def _load(self) -> None:
        self._pages = {}
        if self.path is None:
            return
        try:
            stamp = file_stamp(self.path)
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("version") == _VERSION:
                pages = data.get("pages")
                self._pages = pages if isinstance(pages, dict) else {}
                self._written = stamp  # as if written here: the same pages are not written again
        except (OSError, ValueError):
            pass  # no cache yet, or an unreadable one: every page is observed afresh

    def refresh(self) -> None:
        """A new build: read the file again unless it is as this instance wrote it."""
        if self.path is not None and (self._written is None
                                      or file_stamp(self.path) != self._written):
            self._written = None
            self._load()

    def get(self, src_uri: str, source: Path) -> Cached | None:
        """The cached observation of a page, if its source is still what it was then."""
        entry = self._pages.get(src_uri)
        if not isinstance(entry, dict):
            return None
        digest = entry.get("source")
        if digest != self._digest(source, src_uri):
            return None
        known = self._decoded.get(src_uri)
        if known is not None and known[0] == digest:
            return known[1]
        files = entry.get("files")
        posts = entry.get("posts")
        if not isinstance(files, list) or not isinstance(posts, list):
            return None
        cached = Cached(
            frozenset(os.path.normpath(self._project / f) for f in files if isinstance(f, str)),
            tuple(p for p in posts if isinstance(p, str)),
        )
        self._decoded[src_uri] = (str(digest), cached)
        return cached

    def save(
        self, pages: Mapping[str, tuple[Path, Cached]], unrendered: Collection[str] = ()
    ) -> str | None:
        """Replace the cache with these pages (src_uri -> (source, observation)).

        ``unrendered``: pages this build did not render, whose entry stays as this
        instance wrote it if it says the same (their sources are not looked at). Returns
        why the file could not be written, or None; a file that already holds these
        entries is not written again (the common case: a build that changed nothing).
        """
        out: dict[str, _Made] = {}
        for src_uri, (source, cached) in pages.items():
            made = self._made.get(src_uri)
            if made is None or made.cached != cached or src_uri not in unrendered:
                made = self._make(src_uri, source, cached)
            if made is not None:
                out[src_uri] = made
        entries = {src_uri: made.entry for src_uri, made in out.items()}
        return self._write(out, entries != self._pages)

    def _make(self, src_uri: str, source: Path, cached: Cached) -> _Made | None:
        """A page's entry for its source as it is now (None: the source cannot be read)."""
        digest = self._digest(source, src_uri)
        if digest is None:
            return None
        stamp = self._digests[str(source)][0]
        made = self._made.get(src_uri)
        if made is not None and (made.digest, made.stamp, made.cached) == (digest, stamp, cached):
            return made
        stored = self._pages.get(src_uri)
        if (not cached.files and isinstance(stored, dict) and stored.get("files") == []
                and stored.get("source") == digest and stored.get("posts") == list(cached.posts)
                and stored.get("stamp") == list(stamp)):
            # The file says so already (most pages show nothing): its entry, as it is.
            made = self._made[src_uri] = _Made(digest, stamp, cached, stored)
            return made
        entry: dict[str, object] = {
            "files": sorted(_relative(f, self._prefix) for f in cached.files),
            "posts": list(cached.posts),
            "source": digest,
            "stamp": list(stamp),
        }
        made = self._made[src_uri] = _Made(digest, stamp, cached, entry)
        self._decoded[src_uri] = (digest, cached)
        return made

    def _write(self, out: dict[str, _Made], changed: bool) -> str | None:
        """Write ``out`` unless the file already holds it (or the cache is in memory)."""
        if changed or self._written is None:
            self._pages = {src_uri: made.entry for src_uri, made in out.items()}
        if self.path is None:
            return None
        if not changed and self._written is not None and file_stamp(self.path) == self._written:
            return None
        text = json.dumps({"pages": {k: out[k].entry for k in sorted(out)}, "version": _VERSION})
        try:
            replace_file(self.path, (text + "\n").encode("utf-8"))
        except OSError as error:
            self._written = None
            return str(error)
        self._written = file_stamp(self.path)
        return None

    def _digest(self, source: Path, src_uri: str) -> str | None:
        """The source's SHA-256, hashed again only if its stamp changed: since this
        instance hashed it, or since the cache file stored it for ``src_uri``."""
        key = str(source)
        stamp = file_stamp(source)
        if stamp is None:
            return None
        known = self._digests.get(key)
        if known is not None and known[0] == stamp:
            return known[1]
        stored = self._pages.get(src_uri)
        if (
            isinstance(stored, dict)
            and isinstance(stored.get("source"), str)
            and stored.get("stamp") == list(stamp)
        ):
            digest = str(stored["source"])
            self._digests[key] = (stamp, digest)
            return digest
        try:
            digest = hashlib.sha256(source.read_bytes()).hexdigest()
        except OSError:
            return None
        self._digests[key] = (stamp, digest)
        return digest



def _relative(path: str, prefix: str) -> str:
    """A path relative to the project folder (``prefix`` ends in a separator), in / form."""
    rel = path[len(prefix):] if path.startswith(prefix) else os.path.relpath(path, prefix)
    return rel.replace(os.sep, "/")
