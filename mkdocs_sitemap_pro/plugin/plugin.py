"""The ``sitemap-pro`` MkDocs plugin: hooks only, each a few lines into one ``Build``.

A ``Build`` (``build``) is made at ``on_config`` and used up at ``on_post_build``, where
``pipeline`` writes what it gathered. What lasts across builds (``mkdocs serve``) stays
on the plugin: the git walk (``history``), the dependency observer and caches, the kept
parts.

A page's path through the plugin: ``on_pre_page`` .. ``on_page_content`` observe what it
shows (``Tracker``); ``on_env`` waits for the history map, so its date is known before
``on_page_context`` renders it; ``on_post_page`` records its head; ``on_post_build``
collects, dates and writes it as a ``<url>``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from mkdocs_sitemap_pro.core.git import GitHistory
from mkdocs_sitemap_pro.plugin import pipeline
from mkdocs_sitemap_pro.plugin.output import theme
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig, check_cache_dir
from mkdocs_sitemap_pro.plugin.build import Build, GitRead
from mkdocs_sitemap_pro.plugin.dependencies.tracker import Tracker, Tracking
from mkdocs_sitemap_pro.plugin.history import BuildHistory
from mkdocs_sitemap_pro.plugin.integrations import i18n
from mkdocs_sitemap_pro.plugin.mkdocs_internals import event_handlers
from mkdocs_sitemap_pro.plugin.serve import ServeMemos
from mkdocs_sitemap_pro.plugin.pages import writes_no_page

# A page's conversion window opens before every other plugin and closes after all.
FIRST, LAST = 1e9, -1e9


# The ignore: MkDocs' BasePlugin.__init_subclass__, run for a subclass, is untyped.
class SitemapProPlugin(BasePlugin[SitemapProConfig]):  # type: ignore[no-untyped-call]
    """Writes the sitemap (split, indexed, gzipped) and the robots.txt line after a build."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self._serving = False
        self._build: Build | None = None
        self._history = BuildHistory()  # the git walk, and the last map (serve)
        self._tracking = Tracking()  # the observer and the dependency cache
        self._memos: ServeMemos[pipeline.SitemapPart] = ServeMemos()  # kept for the next (serve)
        self._languages: i18n.LanguageBuilds[Build] = i18n.LanguageBuilds()

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # Under `mkdocs serve` site_url is the local address: no robots.txt advice then.
        self._serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        # Hooks are loaded: what they read as they loaded is known (it may date pages).
        self._tracking.config_loaded()
        if not self.config.enabled:
            return None
        # Sitemaps need absolute URLs; a bad site_url cannot give any, so stop here.
        pipeline.site_url_of(config)
        check_cache_dir(config, self.config)
        # static-i18n starts its next language: the one just built is kept for the one
        # sitemap written at the end (its texts too: one text per date).
        language = self._keep_language(config)
        # Git history is walked beside MkDocs' reading of the pages, from now on.
        self._build = Build(config, self.config, self._memos, serving=self._serving,
                            texts=language.texts if language is not None else None,
                            tracker=self._start_git(config))
        return None

    def _keep_language(self, config: MkDocsConfig) -> Build | None:
        """Under static-i18n, the language build just finished (kept until the sitemap
        is written); None for the first, or a site of one language."""
        if not i18n.nested_build(config):
            self._languages.clear()
            return None
        language = self._finished_build()
        if language is not None:
            self._languages.keep(language, language.documentation_pages())
        return language

    def _start_git(self, config: MkDocsConfig) -> Tracker | None:
        """With ``lastmod: git``, the history walk started; with ``dependencies``, the
        tracker of what pages show."""
        if self.config.lastmod != "git":
            return None
        self._history.start(config, self.config, self._serving)
        return self._tracking.tracker(config, self.config) if self.config.dependencies else None

    @event_priority(FIRST)
    def on_pre_page(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page | None:
        if self._build is not None:
            self._build.page_opened(page)
        return None

    @event_priority(LAST)
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self._build is not None:
            self._build.page_converted(page)
        return None

    @event_priority(LAST)
    def on_page_context(
        self, context: Any, /, *, page: Page, config: MkDocsConfig, nav: Any
    ) -> Any:
        # After Material's blog has chosen the posts a listing page shows.
        if self._build is not None:
            self._build.page_context(page, context)
        return context

    @event_priority(-100)
    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        # Every page is converted and every plugin has added its pages: the dates are
        # known from here on (git's: once the walk is done), before any template renders.
        if self._build is not None:
            self._build.pages_converted(files, self._git_read(config))
            # MkDocs' own sitemap would carry the build date on every page: never render it.
            theme.drop_theme_sitemap(config, files)
        return env

    def _git_read(self, config: MkDocsConfig) -> GitRead | None:
        """What the git walk found (it is waited for), None without git."""
        if not self._history.started:
            return None
        lines = (self._tracking.line_dates(config, self.config)
                 if self.config.dependencies == "lines" else None)
        return GitRead(self._history.dates(), self._history.options, lines,
                       self._history.last_deploy)

    @event_priority(LAST)
    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        # After every other plugin's change to the page.
        if self._build is None:
            return None
        return self._build.page_written(page, output)

    @event_priority(FIRST)
    def _pages_written(self, *, config: MkDocsConfig) -> None:
        # Before any other plugin's on_post_build can replace a page's HTML; whether one
        # could (only a search index is written after this: no page is read again).
        if self._build is not None:
            others = [m for m in event_handlers(config.plugins, "post_build")
                      if getattr(m, "__self__", None) is not self]
            self._build.collector.written(replaceable=not all(map(writes_no_page, others)))

    @event_priority(-200)
    def _write(self, *, config: MkDocsConfig) -> None:
        # Late, so that other plugins' output is on disk: the sitemap describes it. Below
        # static-i18n's -100, whose on_post_build builds the other languages: a nested
        # language build waits, and the outer one writes once for every language.
        if i18n.nested_build(config):
            return
        self._tracking.build_over()  # code loaded from now on is the next build's
        build = self._finished_build()
        if build is not None:
            earlier = self._languages.earlier(build.documentation_pages())
            # Writing allocates much and frees it all: no full collection of MkDocs' heap.
            with collector_paused():
                pipeline.write_sitemap(self.config, build, earlier)

    on_post_build = CombinedEvent(_pages_written, _write)

    def on_build_error(self, *, error: Exception) -> None:
        # A walk left running would hold git; pages rendered before the failure never
        # said what they showed: nothing kept about pages holds for the next build.
        self._tracking.build_over()
        self._history.stop()
        self._build = None
        self._memos.forget_pages()

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
        self._memos.clear()

    def _finished_build(self) -> Build | None:
        """The build that has just rendered its pages, finished; None if it rendered none."""
        build, self._build = self._build, None
        if build is None or not build.converted:
            return None
        build.finish()
        if not self._serving:
            # No build of this process reuses what the caches hold (their files are
            # written by now): let it go before the sitemap is written, at the peak.
            self._tracking.forget()
        return build


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic collector held off while the sitemap is written, and left as it
    was after. Writing makes many short-lived containers and no cycles; at the end of a
    large build they would bring on a full collection of MkDocs' whole heap, which the
    write, making no cycles, does not need."""
    if not gc.isenabled():  # someone turned it off: theirs to turn on
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
