"""The files each page showed, kept between builds for pages ``--dirty`` does not render.

``mkdocs build --dirty`` and ``mkdocs serve --dirty`` skip unchanged pages, so nothing
observes what they include. The last observation is kept in
``.cache/plugin/sitemap-pro/dependencies.json`` beside mkdocs.yml, where Material keeps
its plugins' caches. Entries are keyed by the page's source path (src_uri) and hold the
SHA-256 of the source they were observed with: an entry is used only while the source
is unchanged (a content hash needs no git process, and sees uncommitted edits too).
Paths are stored relative to the folder of mkdocs.yml, so the cache survives a move.
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
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("version") == _VERSION:
                pages = data.get("pages")
                self._pages = pages if isinstance(pages, dict) else {}
        except (OSError, ValueError):
            pass  # no cache yet, or an unreadable one: every page is observed afresh

    def get(self, src_uri: str, source: Path) -> Cached | None:
        """The cached observation of a page, if its source is still what it was then."""
        entry = self._pages.get(src_uri)
        if not isinstance(entry, dict) or entry.get("source") != _digest(source):
            return None
        files = entry.get("files")
        posts = entry.get("posts")
        if not isinstance(files, list) or not isinstance(posts, list):
            return None
        return Cached(
            frozenset(os.path.normpath(self._project / f) for f in files if isinstance(f, str)),
            tuple(p for p in posts if isinstance(p, str)),
        )

    def save(self, pages: Mapping[str, tuple[Path, Cached]]) -> str | None:
        """Replace the cache with these pages (src_uri -> (source, observation)).

        Returns why it could not be written, or None.
        """
        out: dict[str, object] = {}
        prefix = os.path.join(os.path.abspath(self._project), "")
        for src_uri, (source, cached) in sorted(pages.items()):
            digest = _digest(source)
            if digest is None:
                continue
            out[src_uri] = {
                "source": digest,
                "files": sorted(_relative(f, prefix) for f in cached.files),
                "posts": list(cached.posts),
            }
        text = json.dumps({"version": _VERSION, "pages": out}, indent=1, sort_keys=True)
        temp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temp.write_text(text + "\n", encoding="utf-8")
            os.replace(temp, self.path)
        except OSError as error:
            return str(error)
        return None


def _digest(source: Path) -> str | None:
    try:
        return hashlib.sha256(source.read_bytes()).hexdigest()
    except OSError:
        return None


def _relative(path: str, prefix: str) -> str:
    """A path relative to the project folder (``prefix`` ends in a separator), in / form."""
    rel = path[len(prefix):] if path.startswith(prefix) else os.path.relpath(path, prefix)
    return rel.replace(os.sep, "/")
