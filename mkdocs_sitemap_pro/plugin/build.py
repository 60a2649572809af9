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
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_build_datetime

from mkdocs_sitemap_pro.core.deploy.manifest import loc_key, page_key
from mkdocs_sitemap_pro.core.git import GitHistory
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.page.fingerprint import BUILT, CONVERTED, Method, content_of, fingerprint
from mkdocs_sitemap_pro.core.page.html import read_head, written_head_end
from mkdocs_sitemap_pro.core.page.html import ImagesFound, content_images
from mkdocs_sitemap_pro.core.page.shown import Dependencies
from mkdocs_sitemap_pro.core.protocol import LastmodTexts
from mkdocs_sitemap_pro.core.urls import SiteUrl
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.dependencies.copies import date_copies, page_sources, with_added
from mkdocs_sitemap_pro.core.dating import Dater, LastDeploy, Lastmod, Rendered, SitemapPage
from mkdocs_sitemap_pro.core.git.line_dates import LineDateStore
from mkdocs_sitemap_pro.plugin.dependencies.tracker import Tracker
from mkdocs_sitemap_pro.plugin.output.feed import HeadingOf
from mkdocs_sitemap_pro.plugin.integrations import mike
from mkdocs_sitemap_pro.plugin.integrations.redirects import redirected_pages
from mkdocs_sitemap_pro.plugin.serve import ServeMemos
from mkdocs_sitemap_pro.plugin.output.date_on_page import PageDates
from mkdocs_sitemap_pro.plugin.pages import PageCollector
from mkdocs_sitemap_pro.plugin.report import log

if TYPE_CHECKING:  # the pipeline takes a Build; a Build only keeps its parts (serve)
    from mkdocs_sitemap_pro.plugin.pipeline import SitemapPart

__all__ = ["Build"]


class Converted(NamedTuple):
    """What a build knows once its pages are converted: from ``on_env`` on (MkDocs), or
    from the start when another builder wrote the site (``build``)."""

    files: Files
    history: GitHistory | None = None  # None: not dated by git
    dependencies: Dependencies | None = None  # what every page showed (None: not asked)
    last_deploy: LastDeploy | None = None  # what the last deploy's pages rendered
    # ``build``: a page's heading read from the HTML the builder wrote (a feed's titles
    # then need none of the site's Markdown extensions).
    heading_of: HeadingOf | None = None


class GitRead(NamedTuple):
    """What the plugin's git walk gives a build at ``on_env``."""

    history: GitHistory
    options: HistoryOptions
    lines: LineDateStore | None  # ``dependencies: lines``: the line date cache
    last_deploy: LastDeploy | None


class Build:
    """What one build has gathered, and its dates (made at ``on_config``, used up at the
    end). ``built``: the site another builder wrote (``build``), its pages known at once.
    Until its pages are converted (``converted``), only what they say and show is kept."""

    def __init__(self, config: MkDocsConfig, options: SitemapProConfig, memos: ServeMemos[SitemapPart],
                 *, build_time: dt.datetime | None = None, serving: bool = False,
                 texts: LastmodTexts | None = None, tracker: Tracker | None = None,
                 built: Converted | None = None, collector: PageCollector | None = None) -> None:
        self.config, self.options = config, options
        # One build time for the whole build, so every check agrees (SOURCE_DATE_EPOCH).
        self.build_time = build_time if build_time is not None else get_build_datetime()
        # Every <lastmod> text of the build: the page's meta, the sitemap, feed and view
        # (``texts``: an earlier language's, for the one sitemap of all languages).
        self.texts = texts if texts is not None else LastmodTexts(options.lastmod_format)
        self.serving = serving  # under `mkdocs serve`, site_url is the local address
        self.memos = memos  # what the last builds of this process made (kept under serve)
        # What pages said is kept for the next build only where one follows (serve).
        self.collector = collector if collector is not None else PageCollector(
            options.exclude, self.build_time, redirected_pages(config),
            memos.pages if serving else None, images=options.images)
        self.page_dates = PageDates(config, options, self.build_time, self.texts)
        self.tracker = tracker  # what pages read as they converted (None: not asked)
        # What each page rendered (by src_uri), for the manifest and the next deploy;
        # recorded only where a deploy follows (neither `mkdocs serve`, nor without
        # manifest and previous).
        self.fingerprints: dict[str, str] = {}
        self.recording = bool(options.manifest or options.previous) and not serving
        self.fingerprint_method: Method = CONVERTED if built is None else BUILT
        self._pages: tuple[int, Sequence[File]] = (-1, ())  # see documentation_pages
        self._converted: tuple[Converted, Dater] | None = None
        if built is not None:
            if self.recording:  # what each page shows, as the builder wrote it
                self.fingerprints.update(_built_fingerprints(built.files))
            self._converted = (built, self._dater(built))

    @property
    def converted(self) -> bool:
        """Whether its pages are converted (``on_env`` came): it has files to list."""
        return self._converted is not None

    @property
    def _known(self) -> Converted:
        assert self._converted is not None, "known once the pages are converted (on_env)"
        return self._converted[0]

    @property
    def files(self) -> Files:
        """The build's files, known from ``on_env`` on."""
        return self._known.files

    @property
    def history(self) -> GitHistory | None:
        """The git history read for this build (None: not by git, or before ``on_env``)."""
        return self._known.history if self._converted is not None else None

    @property
    def dependencies(self) -> Dependencies | None:
        """What every page showed (None: not asked)."""
        return self._known.dependencies

    @property
    def heading_of(self) -> HeadingOf | None:
        """Where a page's heading is read from its built HTML (``build``); None: MkDocs'."""
        return self._known.heading_of

    @property
    def dater(self) -> Dater:
        """The build's one ``Dater``, made when its pages were converted."""
        assert self._converted is not None, "pages are dated from on_env on"
        return self._converted[1]

    def documentation_pages(self) -> Sequence[File]:
        """``files.documentation_pages()`` of the final file list, listed once for all
        the steps after the build that ask (do not change it). Asked for from
        ``on_post_build`` on, when no plugin adds files any more; listed again if the
        list grew all the same."""
        files = self.files
        if self._pages[0] != len(files):
            self._pages = (len(files), files.documentation_pages())
        return self._pages[1]

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

    def pages_converted(self, files: Files, git: GitRead | None) -> None:
        """``on_env``: every page is converted and every plugin has added its pages; with
        git, the history. The pages are dated from here on, before any template renders:
        what pages not rendered (``--dirty``) showed comes from the cache, untracked
        copies are dated by their tracked twins, (``dependencies: lines``) the lines of
        files shown in part are dated, and the last deploy's pages are known
        (``previous``)."""
        tracker, unexplained, lines = self.tracker, frozenset[str](), None
        if tracker is not None:
            tracker.from_cache(files)
        if git is not None:
            shown = tracker.shown if tracker is not None else {}
            copies = date_copies(git.history, page_sources(files), shown, self.options.git_timeout)
            if tracker is not None and copies.added:  # a staged banner or notice shows too
                shown.update(with_added(shown, files, copies.added))
            unexplained = copies.unexplained_pages(files)
            if tracker is not None and git.lines is not None:  # one blame per changed file
                lines = git.lines.dates(git.history, git.options, shown.values(),
                                        self.options.git_timeout)
        dependencies = None
        if tracker is not None:
            dependencies = Dependencies(
                tracker.shown, self.options.dependencies_exclude, tracker.missing, lines,
                frozenset(tracker.api_files), code=tracker.code, unexplained=unexplained)
        known = Converted(files, git.history if git is not None else None, dependencies,
                          git.last_deploy if git is not None else None)
        self._converted = (known, self._dater(known))

    def page_context(self, page: Page, context: dict[str, Any]) -> None:
        """``on_page_context``: a listing's posts are chosen; the page is dated now,
        once, so the date it shows is its sitemap entry's."""
        if self.tracker is not None and self.tracker.blog:
            self.tracker.listing(page, context)
        if self.recording:  # what the reader gets, before it is dated
            self.fingerprints[page.file.src_uri] = fingerprint(
                _rendered(page, context), (str(page.title or ""), str(page.meta.get("tags") or "")))
        listed = self.collector.candidate(page.file)
        if listed is not None and self._converted is not None:
            self.page_dates.put_in_meta(page, self.dater.date(listed).when)

    def page_written(self, page: Page, output: str) -> str:
        """``on_post_page``: the rendered head is the last word on noindex and canonical
        links; the page's date goes into it where asked. With ``images``, the images of
        its content (final: every plugin's on_page_content has run) are its entry's."""
        end = written_head_end(output)  # found once for both (our tag changes no directive)
        images = ImagesFound()
        if self.options.images and page.content:
            images = content_images(page.content, page.canonical_url or page.file.url)
        self.collector.record(page, read_head(output, end), images)
        self.page_dates.count_in_html(page, output)
        if self.page_dates.in_heads:
            output = self.page_dates.in_head(page, output, end)
        return output

    def finish(self) -> None:
        """After the pages are written: what every final page showed, narrowed from what
        pages showed as they converted; the dependency cache is written."""
        tracker, converted = self.tracker, self._converted
        if tracker is None or converted is None:
            return
        known, dater = converted
        assert known.dependencies is not None  # made from the tracker at on_env
        shown, trouble = tracker.finish(list(self.documentation_pages()))
        if trouble:
            log.debug(trouble)  # "<path> could not be written (why)"
        self._converted = (known._replace(dependencies=known.dependencies._replace(
            pages=shown, missing=tuple(known.dependencies.missing))), dater)
        self.tracker = None  # used up: what it observed lets go with the caches

    def _dater(self, known: Converted) -> Dater:
        """The build's one ``Dater``: the history and what pages showed are known."""
        files, collector = known.files, self.collector
        return Dater(
            mode=self.options.lastmod,
            fallback=self.options.lastmod_fallback,
            history=known.history,
            build_time=self.build_time,
            dependencies=known.dependencies,
            page_of=lambda src_uri: collector.candidate(files.get_file_from_path(src_uri)),
            detail=log.isEnabledFor(logging.DEBUG),  # notes only where DEBUG shows them
            rendered=Rendered(known.last_deploy, self.fingerprint_method, self.fingerprints,
                              self.page_key)
            if known.last_deploy is not None and self.recording else None,
        )

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
        fingerprints = self.fingerprints
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


def _built_fingerprints(files: Files) -> dict[str, str]:
    """Each page's fingerprint, of the content of the HTML another builder wrote."""
    found: dict[str, str] = {}
    for file in files.documentation_pages():
        try:
            html = Path(file.abs_dest_path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue  # no HTML to read: nothing recorded
        found[file.src_uri] = fingerprint([content_of(html)])
    return found


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
