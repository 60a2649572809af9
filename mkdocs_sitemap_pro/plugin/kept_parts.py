"""The last sitemap part of a build, made again by a rebuild only when it would differ.

A part is what the pipeline makes of one build (of one language, under static-i18n): the
pages collected, dated and made into entries. It depends on the options, each page's
identity (``page_says.identities``), the key of the git answers, the pages neither rendered
nor cached, and what each page says (``Says``). Under ``mkdocs serve --dirty`` a save
renders one page; when all of that is as in the last build and every page rendered now
says what it said then, the last part is this build's: one comparison per build and one
per rendered page, and no page is collected or dated again. A part whose dates or
settings depend on the clock or on file times (``lastmod: mtime``, a fallback by mtime
or build time, a refused front matter lastmod) is never kept.
"""

from collections.abc import Mapping
from typing import Generic, NamedTuple, TypeVar

from mkdocs.structure.files import Files

from mkdocs_sitemap_pro.core.git import GitHistory, LastChange, MapKey
from mkdocs_sitemap_pro.core.page.shown import Shown
from mkdocs_sitemap_pro.core.writer.kept_output import KeptOutput
from mkdocs_sitemap_pro.plugin.page_says import Identity, KeptPages, Seen, identities

__all__ = ["Kept", "KeptParts", "PartKey", "Says", "says"]

P = TypeVar("P")
_KEEP = 8  # parts kept at once: one per language of a static-i18n site, and some spare


class PartKey(NamedTuple):
    """What a build's part depends on besides what each page says."""

    options: Mapping[str, object]  # the plugin's options, as loaded for the build
    context: tuple[object, ...]  # what other plugins decide: redirect stubs, mike's version
    pages: list[Identity]  # every documentation page, in order
    history: MapKey | None  # the key of the git answers (None: no git answers)
    missing: tuple[str, ...]  # pages neither rendered nor in the dependency cache


class Says(NamedTuple):
    """What one page says: its front matter and head, what it showed, git's answers."""

    seen: Seen
    shows: Shown | None
    answers: tuple[LastChange, ...]  # for its source, then each file it showed, sorted


def says(
    seen: Seen, shows: Shown | None, source: str | None, history: GitHistory | None
) -> Says:
    """What a page says, with git's answers for its source and the files it showed."""
    answers: tuple[LastChange, ...] = ()
    if history is not None:
        paths = ([source] if source else []) + (
            [*sorted(shows.files), *(path for path, _ in shows.parts)] if shows else [])
        answers = tuple(history.last_changed(p) for p in paths)
    return Says(seen, shows, answers)


class KeptParts(Generic[P]):
    """The parts of the last builds of this process, each with what it was made from."""

    def __init__(self) -> None:
        self._parts: list[tuple[PartKey, Mapping[str, Says], P]] = []

    def recall(self, key: PartKey, rendered: Mapping[str, Says]) -> P | None:
        """The kept part made from ``key``, if every page rendered now (``rendered``)
        says what it said then; None if this build must make its own."""
        for n, (kept_key, said, part) in enumerate(self._parts):
            if kept_key != key:
                continue
            if any(said.get(src_uri, now) != now for src_uri, now in rendered.items()):
                return None
            self._parts.append(self._parts.pop(n))  # the most recently used is kept longest
            return part
        return None

    def keep(self, key: PartKey, said: Mapping[str, Says], part: P) -> None:
        """Keep the part this build made (``said``: what each of its pages said)."""
        self._parts = [kept for kept in self._parts if kept[0] != key]
        self._parts.append((key, said, part))
        del self._parts[:-_KEEP]

    def clear(self) -> None:
        self._parts.clear()


class Kept(Generic[P]):
    """What the builds of one process keep for the next (``mkdocs serve``): what pages
    said, the parts made of them, the files last written, and the last page list."""

    def __init__(self) -> None:
        self.pages = KeptPages()
        self.parts: KeptParts[P] = KeptParts()
        self.output = KeptOutput()
        self._ids: list[Identity] | None = None

    def identities(self, files: Files) -> list[Identity]:
        """The pages' identities; the last build's own list when they are the same, so
        that every later comparison with it is by identity (one comparison per build)."""
        ids = identities(files)
        if ids == self._ids:
            ids = self._ids
        self._ids = ids
        return ids

    def forget_pages(self) -> None:
        """A build failed: pages it rendered never said what they showed."""
        self.pages.clear()
        self.parts.clear()

    def clear(self) -> None:
        self.forget_pages()
        self.output.clear()
        self._ids = None
