"""One build, from ``on_config`` to ``on_post_build``: what it gathers, and its one ``Dater``.

The plugin makes a ``Build`` at ``on_config`` and hands it to ``pipeline.write_sitemap``
at ``on_post_build``; its hooks are a few lines that call it. The standalone ``build``
command makes the same object from a site another builder wrote. Everything a page's
date depends on meets here: the collector (which pages, what their heads say), the
tracker (what they show), the git history, the line dates, and the ``Dater`` made once
from them, so the date a page shows as it renders is the one its sitemap entry gets;
and the one maker of ``<lastmod>`` texts, so the text it shows is the one written.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_build_datetime

from mkdocs_sitemap_pro.core.deploy.manifest import RenderedPages, loc_key, page_key
from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.git import GitHistory
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.page.fingerprint import CONVERTED, Method, fingerprint
from mkdocs_sitemap_pro.core.page.html_head import read_head, written_head_end
from mkdocs_sitemap_pro.core.page.images import ImagesFound, content_images
from mkdocs_sitemap_pro.core.page.shown import Dependencies, LineLookup
from mkdocs_sitemap_pro.core.protocol import LastmodTexts
from mkdocs_sitemap_pro.core.urls import SiteUrl
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.copies import date_copies, page_sources, with_added
from mkdocs_sitemap_pro.core.dating import Dater, LastDeploy, Lastmod, Rendered, SitemapPage
from mkdocs_sitemap_pro.plugin.dependencies.line_dates import LineDateStore
from mkdocs_sitemap_pro.plugin.dependencies.tracker import Tracker
from mkdocs_sitemap_pro.plugin.feed import HeadingOf
from mkdocs_sitemap_pro.plugin.integrations import i18n, mike
from mkdocs_sitemap_pro.plugin.integrations.redirects import redirected_pages
from mkdocs_sitemap_pro.plugin.serve_memos import ServeMemos
from mkdocs_sitemap_pro.plugin.date_on_page import PageDates
from mkdocs_sitemap_pro.plugin.pages import PageCollector
from mkdocs_sitemap_pro.plugin.report import log

if TYPE_CHECKING:  # the pipeline takes a Build; a Build only keeps its parts (serve)
    from mkdocs_sitemap_pro.plugin.pipeline import SitemapPart

__all__ = ["Build"]


class Build:
    """What one build has gathered, and its dates (made at ``on_config``, used up at the
    end). ``files`` is known from ``on_env`` on (the standalone build: from the start)."""

    def __init__(self, config: MkDocsConfig, options: SitemapProConfig, *,
                 build_time: dt.datetime | None = None, serving: bool = False,
                 memos: ServeMemos[SitemapPart] | None = None, collector: PageCollector | None = None,
                 files: Files | None = None, texts: LastmodTexts | None = None) -> None:
        self.config, self.options = config, options
        # One build time for the whole build, so every check agrees (SOURCE_DATE_EPOCH).
        self.build_time = build_time if build_time is not None else get_build_datetime()
        # Every <lastmod> text of the build: the page's meta, the sitemap, feed and view
        # (``texts``: an earlier language's, for the one sitemap of all languages).
        self.texts = texts if texts is not None else LastmodTexts(options.lastmod_format)
        self.serving = serving  # under `mkdocs serve`, site_url is the local address
        self.memos = memos  # what the last builds of this process made (serve)
        # What pages said is kept for the next build only where one follows (serve).
        self.collector = collector if collector is not None else PageCollector(
            options.exclude, self.build_time, redirected_pages(config),
            memos.pages if memos is not None else None, images=options.images)
        self._files = files
        self._pages: tuple[int, Sequence[File]] | None = None  # see documentation_pages
        self.tracker: Tracker | None = None  # what pages read as they converted
        self.history: GitHistory | None = None
        self.lines: LineLookup | None = None  # the dates of files' lines shown in part
        # Staged copies with an added line no tracked file holds (counted in the summary).
        self._unexplained: frozenset[str] = frozenset()
        self.dependencies: Dependencies | None = None  # what every page showed
        self.page_dates: PageDates | None = None  # what pages were shown of their dates
        self._dater: Dater | None = None
        # Languages built one at a time (`build`): their order; None: static-i18n's, if used.
        self.languages: i18n.LanguageOrder | None = None
        # Called with what would be written, before anything is: raises to write nothing
        # (`build` after Zensical: the builder's sitemap's URLs are all kept).
        self.check_before_write: Callable[[SiteUrl, Sequence[SitemapEntry], Sequence[SitemapPart]], None] | None = None
        # A page's heading read from the HTML another builder wrote (`build`): a feed's
        # titles then need none of the site's Markdown extensions.
        self.heading_of: HeadingOf | None = None
        # What each page rendered (by src_uri), for the manifest and the next deploy;
        # None where no deploy follows (`mkdocs serve`, neither manifest nor previous).
        self.fingerprints: dict[str, str] | None = (
            {} if (options.manifest or options.previous) and not serving else None)
        self.fingerprint_method: Method = CONVERTED  # `build`: the built pages' content
        self.last_deploy: LastDeploy | None = None  # what the last deploy's pages rendered

    @property
    def files(self) -> Files:
        """The build's files, known from ``on_env`` on (``converted``)."""
        assert self._files is not None, "a build's files are known from on_env on"
        return self._files

    def documentation_pages(self) -> Sequence[File]:
        """``files.documentation_pages()`` of the final file list, listed once for all
        the steps after the build that ask (do not change it). Asked for from
        ``on_post_build`` on, when no plugin adds files any more; listed again if the
        list grew all the same."""
        files = self.files
        if self._pages is None or self._pages[0] != len(files):
            self._pages = (len(files), files.documentation_pages())
        return self._pages[1]

    @property
    def converted(self) -> bool:
        """Whether its pages are converted (``on_env`` came): it has files to list."""
        return self._files is not None

    # The plugin's hooks, in the order MkDocs calls them.

    def page_opened(self, page: Page) -> None:
        """``on_pre_page``: every file read from here on went into this page."""
        if self.tracker is not None:
            self.tracker.open(page)

    def page_converted(self, page: Page) -> None:
        """``on_page_content``: what it read, and front matter MkDocs dropped."""
        self.collector.note_markdown(page)
        if self.tracker is not None:
            self.tracker.close(page)

    def pages_converted(self, files: Files) -> None:
        """``on_env``: every page is converted and every plugin has added its pages;
        what pages not rendered (``--dirty``) showed comes from the cache."""
        self._files = files
        if self.tracker is not None:
            self.tracker.from_cache(files)

    def history_read(self, history: GitHistory, options: HistoryOptions,
                     lines: LineDateStore | None, last_deploy: LastDeploy | None = None) -> None:
        """``on_env``, with git: the history, untracked copies dated by their tracked
        twins, (``dependencies: lines``) the lines of files shown in part, and what the
        last deploy's pages rendered (``previous``)."""
        self.history = history
        self.last_deploy = last_deploy
        shown = self.tracker.shown if self.tracker is not None else {}
        copies = date_copies(history, page_sources(self.files), shown,
                             self.options.git_timeout)
        if self.tracker is not None and copies.added:  # a staged banner or notice shows too
            shown.update(with_added(shown, self.files, copies.added))
        self._unexplained = copies.unexplained_pages(self.files)
        if self.tracker is not None and lines is not None:  # one blame per changed file
            self.lines = lines.dates(history, options, shown.values(), self.options.git_timeout)

    def page_context(self, page: Page, context: dict[str, Any]) -> None:
        """``on_page_context``: a listing's posts are chosen; the page is dated now,
        once, so the date it shows is its sitemap entry's."""
        if self.tracker is not None and self.tracker.blog:
            self.tracker.listing(page, context)
        if self.fingerprints is not None:  # what the reader gets, before it is dated
            self.fingerprints[page.file.src_uri] = fingerprint(
                _rendered(page, context), (str(page.title or ""), str(page.meta.get("tags") or "")))
        listed = self.collector.candidate(page.file)
        if listed is not None and self.page_dates is not None and self._dater is not None:
            self.page_dates.put_in_meta(page, self._dater.date(listed).when)

    def page_written(self, page: Page, output: str) -> str:
        """``on_post_page``: the rendered head is the last word on noindex and canonical
        links; the page's date goes into it where asked. With ``images``, the images of
        its content (final: every plugin's on_page_content has run) are its entry's."""
        end = written_head_end(output)  # found once for both (our tag changes no directive)
        images = ImagesFound()
        if self.options.images and page.content:
            images = content_images(page.content, page.canonical_url or page.file.url)
        self.collector.record(page, read_head(output, end), images)
        if self.page_dates is not None:
            self.page_dates.count_in_html(page, output)
            if self.page_dates.in_heads:
                output = self.page_dates.in_head(page, output, end)
        return output

    def finish(self) -> None:
        """After the pages are written: what every final page showed, narrowed from what
        pages showed as they converted; the dependency cache is written."""
        if self.tracker is None or self._files is None:
            return
        self.ensure_dater()  # made at on_env: what pages showed as they converted
        assert self.dependencies is not None
        shown, trouble = self.tracker.finish(list(self.documentation_pages()))
        if trouble:
            log.debug(trouble)  # "<path> could not be written (why)"
        self.dependencies = self.dependencies._replace(
            pages=shown, missing=tuple(self.dependencies.missing))
        self.tracker = None  # used up: what it observed lets go with the caches

    def ensure_dater(self) -> Dater:
        """The build's one ``Dater``, made on first use (from ``on_env`` on, or at the
        end of a standalone build): the history and what pages showed are known."""
        if self._dater is None:
            if self.tracker is not None and self.dependencies is None:
                self.dependencies = Dependencies(
                    self.tracker.shown, self.options.dependencies_exclude,
                    self.tracker.missing, self.lines, frozenset(self.tracker.api_files),
                    code=self.tracker.code, unexplained=self._unexplained)
            files, collector = self.files, self.collector
            self._dater = Dater(
                mode=self.options.lastmod,
                fallback=self.options.lastmod_fallback,
                history=self.history,
                build_time=self.build_time,
                dependencies=self.dependencies,
                page_of=lambda src_uri: collector.candidate(files.get_file_from_path(src_uri)),
                detail=log.isEnabledFor(logging.DEBUG),  # notes only where DEBUG shows them
                rendered=Rendered(self.last_deploy, self.fingerprint_method, self.fingerprints,
                                  self.page_key)
                if self.last_deploy is not None and self.fingerprints is not None else None,
            )
        return self._dater

    @functools.cached_property
    def site(self) -> SiteUrl:
        """Where the sitemap's URLs lie (a version's folder under mike)."""
        return mike.listed_under(self.config)

    def page_key(self, page: SitemapPage) -> str:
        """The page's key in a manifest: its loc relative to where the sitemap's lie
        (``loc_key``). Its URL is its loc as MkDocs gives it, absolute (its canonical
        URL) or else relative to the site; one outside (never listed) is keyed whole."""
        site = self.site
        loc = page.url if urlsplit(page.url).scheme else site.join(page.url)
        key = loc_key(loc, site.url)
        return key if key is not None else page_key(loc)

    def rendered_pages(self, pages: Sequence[SitemapPage], lastmods: dict[str, Lastmod],
                       unrendered: Callable[[], Mapping[str, tuple[str, dt.datetime | None]]],
                       ) -> dict[str, tuple[str, dt.datetime | None]]:
        """For the manifest: each listed page's fingerprint and lastmod, by its key. A
        page this build did not render (``--dirty``) keeps the HTML the last build into
        the same folder wrote, so its fingerprint is the one that build recorded
        (``unrendered``, asked only when there is such a page)."""
        fingerprints = self.fingerprints or {}
        recorded: dict[str, tuple[str, dt.datetime | None]] = {}
        earlier: Mapping[str, tuple[str, dt.datetime | None]] | None = None
        for page in pages:
            key = self.page_key(page)
            found = fingerprints.get(page.src_uri)
            if found is None:
                if earlier is None:
                    earlier = unrendered()
                found = earlier.get(key, ("", None))[0] or None
            if found is not None:
                recorded[key] = (found, _instant(lastmods.get(page.src_uri)))
        return recorded


def _rendered(page: Page, context: dict[str, Any]) -> list[str]:
    """What the reader gets of a page's HTML as its template renders (its title and tags
    besides): its content after every plugin, and the excerpts of the posts it lists
    (Material's blog renders them into the template, not the content)."""
    parts = [page.content or ""]
    for post in context.get("posts") or ():
        parts.append(str(getattr(post, "content", "") or ""))
    return parts


def _instant(when: Lastmod) -> dt.datetime | None:
    """A lastmod as the instant a manifest records (a plain date: its midnight, UTC)."""
    if when is None or isinstance(when, dt.datetime):
        return when
    return dt.datetime(when.year, when.month, when.day, tzinfo=dt.timezone.utc)
