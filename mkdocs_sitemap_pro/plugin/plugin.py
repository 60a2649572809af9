"""The ``sitemap-pro`` MkDocs plugin: hooks only, each a few lines into the MkDocs layer.

The work lives in modules that know nothing of hooks: ``history`` (the git history map,
read in the background), ``dependencies`` (what pages show), ``pages`` (which pages),
``dating`` (their lastmod), ``pipeline`` (the steps after the build), and the core.

A page's path through the plugin: ``on_files`` knows it; ``on_pre_page`` ..
``on_page_content`` observe what it shows (``Tracker``); ``on_env`` waits for the
history map, so its date is known before ``on_page_context`` renders it; ``on_post_page``
records its head; ``on_post_build`` collects, dates and writes it as a ``<url>``.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_build_datetime

from mkdocs_sitemap_pro.core.collector_pause import collector_paused
from mkdocs_sitemap_pro.core.html_head import read_head, written_head_end
from mkdocs_sitemap_pro.core.git import GitHistory
from mkdocs_sitemap_pro.plugin import pipeline, theme
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig, check_cache_dir
from mkdocs_sitemap_pro.core.shown import Dependencies, LineLookup
from mkdocs_sitemap_pro.plugin.dependencies.tracker import Tracker, Tracking
from mkdocs_sitemap_pro.plugin.doc_pages import final_documentation_pages
from mkdocs_sitemap_pro.plugin.copies import date_copies, page_sources
from mkdocs_sitemap_pro.plugin.history import BuildHistory
from mkdocs_sitemap_pro.plugin.integrations import i18n
from mkdocs_sitemap_pro.plugin.integrations.redirects import redirected_pages
from mkdocs_sitemap_pro.plugin.dating import Dater
from mkdocs_sitemap_pro.plugin.kept_parts import Kept
from mkdocs_sitemap_pro.plugin.page_date import PageDates
from mkdocs_sitemap_pro.plugin.page_says import writes_no_page
from mkdocs_sitemap_pro.plugin.pages import PageCollector
from mkdocs_sitemap_pro.plugin.report import log

# A page's conversion window opens before every other plugin and closes after all.
FIRST, LAST = 1e9, -1e9


class SitemapProPlugin(BasePlugin[SitemapProConfig]):
    """Writes the sitemap (split, indexed, gzipped) and the robots.txt line after a build."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self._serving = False
        self._build: _Build | None = None
        self._history = BuildHistory()  # the git walk, and the last map (serve)
        self._tracking = Tracking()  # the observer and the dependency cache
        self._kept: Kept[pipeline.Part] = Kept()  # what a build keeps for the next (serve)
        self._languages: i18n.LanguageBuilds[pipeline.Build] = i18n.LanguageBuilds()

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # Under `mkdocs serve` site_url is the local address: no robots.txt advice then.
        self._serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return None
        # Sitemaps need absolute URLs; a bad site_url cannot give any, so stop here.
        pipeline.site_url_of(config)
        check_cache_dir(config, self.config)
        # static-i18n starts its next language: the one just built is complete, keep it
        # for the one sitemap written at the end.
        if i18n.nested_build(config):
            if (language := self._finished_build(config)) is not None:
                self._languages.keep(language, language.files)
        else:
            self._languages.clear()
        self._build = _Build(config, self.config, self._kept if self._serving else None)
        # Git history is walked beside MkDocs' reading of the pages, from now on.
        if self.config.lastmod == "git":
            self._history.start(config, self.config)
            if self.config.dependencies:
                self._build.tracker = self._tracking.tracker(config, self.config)
        return None

    @event_priority(FIRST)
    def on_pre_page(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page | None:
        # Every file read from here to on_page_content went into this page.
        if self._build is not None and self._build.tracker is not None:
            self._build.tracker.open(page)
        return None

    @event_priority(LAST)
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        # A page's Markdown is HTML now: what it read, and front matter MkDocs dropped.
        if self._build is not None:
            self._build.collector.note_markdown(page)
            if self._build.tracker is not None:
                self._build.tracker.close(page)
        return None

    @event_priority(LAST)
    def on_page_context(
        self, context: Any, /, *, page: Page, config: MkDocsConfig, nav: Any
    ) -> Any:
        build = self._build
        if build is None:
            return context
        # After Material's blog has chosen the posts a listing page shows.
        if build.tracker is not None and build.tracker.blog:
            build.tracker.listing(page, context)
        # The page is dated now, once: the date it shows is its sitemap entry's.
        listed = build.collector.candidate(page.file)
        if listed is not None and build.dater is not None:
            build.page_dates.show(page, build.dater.date(listed).when)
        return context

    @event_priority(-100)
    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        if self._build is None:
            return env
        # Every page is converted and every plugin has added its pages: what pages not
        # rendered showed comes from the cache, and the dates are known from here on,
        # before any template renders.
        self._build.files = files
        if self._build.tracker is not None:
            self._build.tracker.recall(files)
        if self._history.started:
            self._build.history = self._history.dates()
            # A copied docs folder: untracked sources dated by their tracked twins.
            date_copies(self._build.history, page_sources(files),
                        self._build.tracker.shown if self._build.tracker is not None else {},
                        self.config.git_timeout)
            # Of files shown in part, the lines shown: one blame per changed file.
            if self._build.tracker is not None and self.config.dependencies == "lines":
                self._build.lines = self._tracking.line_dates(config, self.config).dates(
                    self._build.history, self._history.options, self._build.tracker.shown.values(),
                    self.config.git_timeout)
        self._build.start_dating(self.config)
        # MkDocs' own sitemap would carry the build date on every page: never render it.
        theme.drop_theme_sitemap(config, files)
        return env

    @event_priority(LAST)
    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        # The rendered head, after every other plugin's change, is the last word on
        # noindex and canonical links.
        if self._build is None:
            return None
        end = written_head_end(output)  # found once for both (our tag changes no directive)
        self._build.collector.record(page, read_head(output, end))
        self._build.page_dates.shown(page, output)
        if self._build.page_dates.in_heads:
            output = self._build.page_dates.in_head(page, output, end)
        return output

    @event_priority(FIRST)
    def _pages_written(self, *, config: MkDocsConfig) -> None:
        # Before any other plugin's on_post_build can replace a page's HTML; whether one
        # could (only a search index is written after this: no page is read again).
        if self._build is not None:
            others = [m for m in config.plugins.events["post_build"]
                      if getattr(m, "__self__", None) is not self]
            self._build.collector.written(replaceable=not all(map(writes_no_page, others)))

    @event_priority(-200)
    def _write(self, *, config: MkDocsConfig) -> None:
        # Late, so that other plugins' output is on disk: the sitemap describes it. Below
        # static-i18n's -100, whose on_post_build builds the other languages: a nested
        # language build waits, and the outer one writes once for every language.
        if i18n.nested_build(config):
            return
        build = self._finished_build(config)
        if build is not None:
            # Writing allocates much and frees it all: no full collection of MkDocs' heap.
            with collector_paused():
                pipeline.write_sitemap(self.config, build, self._languages.earlier(build.files))

    on_post_build = CombinedEvent(_pages_written, _write)

    def on_build_error(self, *, error: Exception) -> None:
        # A walk left running would hold git; pages rendered before the failure never
        # said what they showed: nothing kept about pages holds for the next build.
        self._history.stop()
        self._build = None
        self._kept.forget_pages()

    def on_shutdown(self) -> None:
        # The git walk belongs to this instance; it ends with MkDocs.
        self._history.stop()
        self.forget()

    @property
    def dates(self) -> GitHistory | None:
        """The build's git dates, known from ``on_env`` on (None before, or without git)."""
        return self._build.history if self._build is not None else None

    def forget(self) -> None:
        """Drop what is kept across builds: the next one reads git and pages afresh."""
        self._history.forget()
        self._tracking.forget()
        self._kept.clear()

    def _finished_build(self, config: MkDocsConfig) -> pipeline.Build | None:
        """What the pipeline needs of the build that has just rendered its pages."""
        build, self._build = self._build, None
        if build is None or build.files is None:
            return None
        dependencies = build.dependencies(self.config)
        if not self._serving:
            # No build of this process reuses what the caches hold (their files are
            # written by now): let it go before the sitemap is written, at the peak.
            self._tracking.forget()
        return pipeline.Build(
            config=config,
            files=build.files,
            collector=build.collector,
            history=build.history,
            build_time=build.build_time,
            serving=self._serving,
            dependencies=dependencies,
            kept=self._kept if self._serving else None,
            dater=build.dater,
            page_dates=build.page_dates,
        )


class _Build:
    """What one build has gathered so far (made at ``on_config``, used up at the end)."""

    def __init__(self, config: MkDocsConfig, options: SitemapProConfig,
                 kept: Kept[pipeline.Part] | None) -> None:
        # One build time for the whole build, so every check agrees (SOURCE_DATE_EPOCH).
        self.build_time = get_build_datetime()
        # What pages said is kept for the next build only where one follows (serve).
        self.collector = PageCollector(options.exclude, self.build_time,
                                       redirected_pages(config), kept.pages if kept else None)
        self.tracker: Tracker | None = None
        self.history: GitHistory | None = None
        self.files: Files | None = None
        self.dater: Dater | None = None  # from on_env on: every date is known
        self.lines: LineLookup | None = None  # the dates of files' lines shown in part
        self.page_dates = PageDates(config, options, self.build_time)

    def start_dating(self, options: SitemapProConfig) -> None:
        """From ``on_env``: the history and what converted pages showed are known."""
        assert self.files is not None
        tracker = self.tracker
        deps = None if tracker is None else Dependencies(
            tracker.shown, options.dependencies_exclude, tracker.missing, self.lines,
            frozenset(tracker.api_files))
        self.dater = pipeline.dater(options, self.files, self.collector, self.history,
                                    self.build_time, deps)

    def dependencies(self, options: SitemapProConfig) -> Dependencies | None:
        """What every page showed (None without ``dependencies``)."""
        if self.tracker is None or self.files is None:
            return None
        shown, trouble = self.tracker.finish(list(final_documentation_pages(self.files)))
        if trouble:
            log.debug(f"the dependency cache could not be written: {trouble}")
        return Dependencies(shown, options.dependencies_exclude, tuple(self.tracker.missing),
                            self.lines, frozenset(self.tracker.api_files))

