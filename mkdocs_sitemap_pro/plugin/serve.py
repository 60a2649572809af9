"""What the builds of one ``mkdocs serve`` process keep for the next: one memo per thing
a rebuild after a save would otherwise make again, each kept because the serve bench
shows it pays (``bench/README.md``, "Figures behind choices in the code").

- ``PagesMemo``: what each page said (front matter, head), for pages ``--dirty`` does not
  render (a rebuild whose part cannot be recalled, e.g. after a front matter edit, reads
  no page back from disk).
- ``PartsMemo``: the last sitemap part of a build, made again only when it would differ.
  A part is what the pipeline makes of one build (of one language, under static-i18n):
  the pages collected, dated and made into entries. It depends on the options, each
  page's identity (``pages.identities``), the key of the git answers, the pages
  neither rendered nor cached, and what each page says and shows (``PageInputs``). When
  all of that is as in the last build, the last part is this build's: no page is
  collected or dated again. A part whose dates depend on the clock
  or on file times (``lastmod: mtime``, a fallback by mtime or build time, a refused
  front matter lastmod) is never kept.
- ``OutputMemo`` (``write_once``): the last sitemap tree written: a rebuild that would
  write the same bytes writes nothing. Its input is every entry and
  option; a file that write left gone or changed on disk (size, mtime, inode) is
  written again; a write that dropped a lastmod for being in the future is never reused.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar

from mkdocs.structure.files import File, Files

from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.git import GitHistory, LastChange, MapKey
from mkdocs_sitemap_pro.core.page.shown import Shown
from mkdocs_sitemap_pro.core.store import Stamp, file_stamp
from mkdocs_sitemap_pro.core.writer import WriteOptions, WriteReport, write_sitemaps
from mkdocs_sitemap_pro.plugin.pages import Identity, PageSays, identities

__all__ = ["OutputMemo", "PageInputs", "PagesMemo", "PartKey", "PartsMemo", "ServeMemos",
           "page_inputs", "write_once"]

P = TypeVar("P")
_KEEP = 8  # parts kept at once: one per language of a static-i18n site, and some spare


class PartKey(NamedTuple):
    """What a build's part depends on besides what each page says."""

    options: Mapping[str, object]  # the plugin's options, as loaded for the build
    context: tuple[object, ...]  # what other plugins decide: redirect stubs, mike's version
    pages: list[Identity]  # every documentation page, in order
    history: MapKey | None  # the key of the git answers (None: no git answers)
    missing: tuple[str, ...]  # pages neither rendered nor in the dependency cache


class PageInputs(NamedTuple):
    """What one page says: its front matter and head, what it showed, git's answers."""

    seen: PageSays
    shows: Shown | None
    answers: tuple[LastChange, ...]  # for its source, then each file it showed, sorted


def page_inputs(
    seen: PageSays, shows: Shown | None, source: str | None, history: GitHistory | None
) -> PageInputs:
    """What a page says, with git's answers for its source and the files it showed."""
    answers: tuple[LastChange, ...] = ()
    if history is not None:
        paths = ([source] if source else []) + (
            [*sorted(shows.files), *(path for path, _ in shows.parts)] if shows else [])
        answers = tuple(history.last_changed(p) for p in paths)
    return PageInputs(seen, shows, answers)


class PartsMemo(Generic[P]):
    """The parts of the last builds of this process, each with what it was made from."""

    def __init__(self) -> None:
        self._parts: list[tuple[PartKey, Mapping[str, PageInputs], P]] = []

    def recall(self, key: PartKey, rendered: Mapping[str, PageInputs]) -> P | None:
        """The kept part made from ``key``, if every page rendered now (``rendered``)
        says what it said then; None if this build must make its own."""
        for n, (kept_key, inputs, part) in enumerate(self._parts):
            if kept_key != key:
                continue
            if any(inputs.get(src_uri, now) != now for src_uri, now in rendered.items()):
                return None
            self._parts.append(self._parts.pop(n))  # the most recently used is kept longest
            return part
        return None

    def keep(self, key: PartKey, inputs: Mapping[str, PageInputs], part: P) -> None:
        """Keep the part this build made (``inputs``: what each of its pages said)."""
        self._parts = [kept for kept in self._parts if kept[0] != key]
        self._parts.append((key, inputs, part))
        del self._parts[:-_KEEP]

    def clear(self) -> None:
        self._parts.clear()


class ServeMemos(Generic[P]):
    """What the builds of one process keep for the next (``mkdocs serve``): what pages
    said, the parts made of them, the files last written, and the last page list."""

    def __init__(self) -> None:
        self.pages = PagesMemo()
        self.parts: PartsMemo[P] = PartsMemo()
        self.output = OutputMemo()
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


class PagesMemo:
    """What each page said in earlier builds of this process, by its source and HTML path."""

    def __init__(self) -> None:
        self._pages: dict[tuple[str | None, str], PageSays] = {}

    def recall(self, file: File) -> PageSays | None:
        """What a page that this build did not render said last time (see the module)."""
        return self._pages.get((file.abs_src_path, file.abs_dest_path))

    def keep(self, file: File, seen: PageSays) -> None:
        self._pages[(file.abs_src_path, file.abs_dest_path)] = seen

    def clear(self) -> None:
        self._pages.clear()


class OutputMemo:
    """The input, report and file stamps of the last write (one site folder)."""

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._report: WriteReport | None = None
        self._stamps: dict[str, Stamp | None] = {}

    def recall(self, key: tuple[Any, ...], folder: Path) -> WriteReport | None:
        if self._key != key or self._report is None:
            return None
        if any(file_stamp(folder / name) != stamp for name, stamp in self._stamps.items()):
            return None
        return self._report._replace(removed=())

    def keep(self, key: tuple[Any, ...], folder: Path, report: WriteReport) -> None:
        reusable = not report.dropped_lastmods and report.url_count > 0
        self._key = key if reusable else None
        self._report = report
        names = (*report.files, *report.gz_files, *report.html_files, *report.feed_files)
        self._stamps = {name: file_stamp(folder / name) for name in names}

    def clear(self) -> None:
        self._key, self._report, self._stamps = None, None, {}


def write_once(
    kept: OutputMemo | None,
    entries: Sequence[SitemapEntry],
    out_dir: str,
    base_url: str,
    options: WriteOptions,
    titles: Mapping[str, str] | None = None,
) -> WriteReport:
    """``write_sitemaps``, skipped when ``kept`` says the same files are already written."""
    if kept is None:
        return write_sitemaps(entries, out_dir, base_url, options, titles)
    folder = Path(out_dir)
    # The build time and the build's maker of texts are new each build, and change no byte.
    fixed = replace(options, build_time=None, lastmod_texts=None)
    key = (tuple(entries), os.path.abspath(out_dir), base_url, fixed,
           tuple(sorted(titles.items())) if titles else None)
    report = kept.recall(key, folder)
    if report is None:
        report = write_sitemaps(entries, out_dir, base_url, options, titles)
        kept.keep(key, folder, report)
    return report
