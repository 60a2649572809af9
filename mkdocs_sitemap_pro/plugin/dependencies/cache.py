"""The files each page showed, kept between builds for pages ``--dirty`` does not render.

``mkdocs build --dirty`` and ``mkdocs serve --dirty`` skip unchanged pages, so nothing
observes what they include. The last observation is kept in
``.cache/plugin/sitemap-pro/dependencies.json`` beside mkdocs.yml, where Material keeps
its plugins' caches. Entries are keyed by the page's source path (src_uri) and hold the
SHA-256 of the source they were observed with: an entry is used only while the source
is unchanged (a content hash needs no git process, and sees uncommitted edits too).
Paths are stored relative to the folder of mkdocs.yml, so the cache survives a move.

One instance serves every build of a process (``mkdocs serve``): the file is read once
while it stays as this instance last wrote it, a source is hashed again only when its
stamp (size, mtime, inode) changed, and an unchanged cache is not rewritten.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CACHE_FILE", "Cached", "DependencyCache"]

CACHE_FILE = Path(".cache", "plugin", "sitemap-pro", "dependencies.json")
_VERSION = 1


@dataclass(frozen=True)
class Cached:
    """One page's observation: the files it showed and, for a listing page, its posts."""

    files: frozenset[str]  # absolute paths
    posts: tuple[str, ...] = ()


class DependencyCache:
    """The cache file of one project: read once, written once at the end of a build."""

    def __init__(self, project: Path) -> None:
        self._project = project
        self.path = project / CACHE_FILE
        self._pages: dict[str, dict[str, object]] = {}
        self._digests: dict[str, tuple[tuple[int, int, int], str]] = {}
        self._written: tuple[str, tuple[int, int, int] | None] | None = None  # text, stamp
        self._decoded: dict[str, tuple[str, Cached]] = {}  # src_uri -> (digest, entry)
        self._made: dict[str, tuple[tuple[str, Cached], dict[str, object], str]] = {}
        self._load()

    def _load(self) -> None:
        self._pages = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("version") == _VERSION:
                pages = data.get("pages")
                self._pages = pages if isinstance(pages, dict) else {}
        except (OSError, ValueError):
            pass  # no cache yet, or an unreadable one: every page is observed afresh

    def refresh(self) -> None:
        """A new build: read the file again unless it is as this instance wrote it."""
        if self._written is None or _stamp(self.path) != self._written[1]:
            self._written = None
            self._load()

    def get(self, src_uri: str, source: Path) -> Cached | None:
        """The cached observation of a page, if its source is still what it was then."""
        entry = self._pages.get(src_uri)
        if not isinstance(entry, dict):
            return None
        digest = entry.get("source")
        if digest != self._digest(source):
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

    def save(self, pages: Mapping[str, tuple[Path, Cached]]) -> str | None:
        """Replace the cache with these pages (src_uri -> (source, observation)).

        Returns why it could not be written, or None. Each page's JSON is made once per
        (digest, observation); an unchanged file is not written again.
        """
        out: dict[str, dict[str, object]] = {}
        parts: list[str] = []
        prefix = os.path.join(os.path.abspath(self._project), "")
        for src_uri, (source, cached) in sorted(pages.items()):
            digest = self._digest(source)
            if digest is None:
                continue
            made = self._made.get(src_uri)
            if made is None or made[0] != (digest, cached):
                entry: dict[str, object] = {
                    "files": sorted(_relative(f, prefix) for f in cached.files),
                    "posts": list(cached.posts),
                    "source": digest,
                }
                made = self._made[src_uri] = ((digest, cached), entry, json.dumps(entry))
                self._decoded[src_uri] = (digest, cached)
            out[src_uri] = made[1]
            parts.append(f"{json.dumps(src_uri)}: {made[2]}")
        text = '{"pages": {' + ",\n".join(parts) + '}, "version": ' + str(_VERSION) + "}"
        self._pages = out  # type: ignore[assignment]  # what the file now holds
        if self._written is not None and self._written == (text, _stamp(self.path)):
            return None
        temp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temp.write_text(text + "\n", encoding="utf-8")
            os.replace(temp, self.path)
        except OSError as error:
            self._written = None
            return str(error)
        self._written = (text, _stamp(self.path))
        return None

    def _digest(self, source: Path) -> str | None:
        """The source's SHA-256, hashed again only if its stamp changed."""
        key = str(source)
        stamp = _stamp(source)
        if stamp is None:
            return None
        known = self._digests.get(key)
        if known is not None and known[0] == stamp:
            return known[1]
        try:
            digest = hashlib.sha256(source.read_bytes()).hexdigest()
        except OSError:
            return None
        self._digests[key] = (stamp, digest)
        return digest


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _relative(path: str, prefix: str) -> str:
    """A path relative to the project folder (``prefix`` ends in a separator), in / form."""
    rel = path[len(prefix):] if path.startswith(prefix) else os.path.relpath(path, prefix)
    return rel.replace(os.sep, "/")
