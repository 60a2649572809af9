"""The ``sitemap-pro`` MkDocs plugin: hooks only, each a few lines into the MkDocs layer.

The work lives in modules that know nothing of hooks: ``pages`` (which pages),
``dating`` (their lastmod), ``pipeline`` (the steps after the build), and the core.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_build_datetime

from mkdocs_sitemap_pro.core.git import GitHistory, HistoryRead, read_ignore_revs_file
from mkdocs_sitemap_pro.plugin import pipeline, report, theme
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.dependency_dates import Dependencies
from mkdocs_sitemap_pro.plugin.integrations.redirects import redirected_pages
from mkdocs_sitemap_pro.plugin.page_dependencies import Tracker
from mkdocs_sitemap_pro.plugin.pages import PageCollector

# A page's conversion window opens before every other plugin and closes after all.
FIRST, LAST = 1e9, -1e9


class SitemapProPlugin(BasePlugin[SitemapProConfig]):
    """Writes the sitemap (split, indexed, gzipped) and the robots.txt line after a build."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self._collector: PageCollector | None = None
        self._files: Files | None = None
        self._build_time = get_build_datetime()
        self._serving = False
        self._history: Future[GitHistory] | None = None
        self._git_reader: ThreadPoolExecutor | None = None
        self._live: HistoryRead | None = None  # the read pages' dependencies join
        self._asked: set[str] = set()
        self._tracker: Tracker | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # Under `mkdocs serve` site_url is the local address: no robots.txt advice then.
        self._serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return None
        # Sitemaps need absolute URLs; a bad site_url cannot give any, so stop here.
        pipeline.site_url_of(config)
        # One build time for the whole build, so every check agrees (SOURCE_DATE_EPOCH).
        self._build_time = get_build_datetime()
        self._collector = PageCollector(
            self.config.exclude, self._build_time, redirected_pages(config)
        )
        self._files = None
        self._history = None
        self._close_live()
        self._tracker = None
        return None

    @event_priority(-100)
    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files | None:
        # Dating by dependencies: start reading git now, beside the pages' conversion;
        # the files each page shows join this same read as the page is converted.
        if self.config.enabled and self.config.lastmod == "git" and self.config.dependencies:
            self._history = self._start_live_history(config, files)
            assert self._live is not None
            self._tracker = Tracker(config, self._live.add)
        return None

    @event_priority(FIRST)
    def on_pre_page(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page | None:
        if self._tracker is not None:
            self._tracker.open()
        return None

    @event_priority(LAST)
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self._tracker is not None:
            self._tracker.close(page)
        return None

    @event_priority(LAST)
    def on_page_context(
        self, context: Any, /, *, page: Page, config: MkDocsConfig, nav: Any
    ) -> Any:
        # After Material's blog has chosen the posts a listing page shows.
        if self._tracker is not None:
            self._tracker.listing(page, context)
        return context

    @event_priority(-100)
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        # MkDocs drops front matter that YAML rejects without a word; notice it here.
        if self._collector is not None:
            self._collector.note_markdown(page, markdown)
        return None

    @event_priority(-100)
    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        if not self.config.enabled:
            return env
        # By now every plugin has added its pages (a blog's archive, say): keep the list.
        self._files = files
        # Read git history beside MkDocs' rendering: the build waits for git only if
        # git is slower than the rendering.
        if self._tracker is not None and self._live is not None:
            # Pages other plugins added after ours, and what unrendered pages showed.
            self._live.add(self._sources(files))
            self._tracker.recall(files)
        elif self.config.lastmod == "git":
            self._history = self._start_history(config, files)
        # MkDocs' own sitemap would carry the build date on every page: never render it.
        theme.drop_theme_sitemap(config)
        return env

    @event_priority(-100)
    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        # The rendered head is the last word on noindex and canonical links.
        if self._collector is not None:
            self._collector.record(page, output)
        return None

    @event_priority(-100)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        # Late, so that other plugins' output is on disk: the sitemap describes it.
        if not self.config.enabled or self._collector is None or self._files is None:
            return
        dependencies = None
        if self._tracker is not None:
            pages, trouble = self._tracker.finish(self._files)
            if trouble:
                report.log.debug(f"the dependency cache could not be written: {trouble}")
            dependencies = Dependencies(
                pages, self.config.dependencies_exclude, tuple(self._tracker.missing)
            )
        self._close_live()
        build = pipeline.Build(
            config=config,
            files=self._files,
            collector=self._collector,
            history=self._history.result() if self._history else None,
            build_time=self._build_time,
            serving=self._serving,
            dependencies=dependencies,
        )
        pipeline.write_sitemap(self.config, build)

    def on_build_error(self, *, error: Exception) -> None:
        # A read left open would wait for paths for ever.
        self._close_live()
        if self._tracker is not None:
            self._tracker.observer.stop()

    def on_shutdown(self) -> None:
        # The git worker belongs to this instance; it ends with MkDocs.
        self._close_live()
        if self._git_reader is not None:
            self._git_reader.shutdown(wait=True)
            self._git_reader = None

    def _close_live(self) -> None:
        if self._live is not None:
            self._live.close()
            self._live = None

    def _sources(self, files: Files) -> list[Path]:
        """The source files of the pages not asked of git yet."""
        sources = []
        for f in files.documentation_pages():
            if f.abs_src_path and not f.generated_by and f.abs_src_path not in self._asked:
                self._asked.add(f.abs_src_path)
                sources.append(Path(f.abs_src_path))
        return sources

    def _ignored(self) -> list[str]:
        option = self.config.ignore_commits
        return read_ignore_revs_file(Path(option)) if isinstance(option, str) else option

    def _start_live_history(self, config: MkDocsConfig, files: Files) -> Future[GitHistory]:
        """Start a git read that the files pages show can join while it runs."""
        if self._git_reader is None:
            self._git_reader = ThreadPoolExecutor(1, thread_name_prefix="sitemap-pro-git")
        self._asked = set()
        self._live = HistoryRead(
            Path(config.docs_dir),
            self._sources(files),
            history=self.config.git_history,
            date=self.config.git_date,
            ignore_commits=self._ignored(),
        )
        return self._git_reader.submit(self._live.run)

    def _start_history(self, config: MkDocsConfig, files: Files) -> Future[GitHistory]:
        """Start reading git history for every source page in the plugin's worker."""
        if self._git_reader is None:
            self._git_reader = ThreadPoolExecutor(1, thread_name_prefix="sitemap-pro-git")
        sources = [
            Path(f.abs_src_path)
            for f in files.documentation_pages()
            if f.abs_src_path and not f.generated_by
        ]
        ignored = self._ignored()
        return self._git_reader.submit(
            GitHistory.read,
            Path(config.docs_dir),
            sources,
            history=self.config.git_history,
            date=self.config.git_date,
            ignore_commits=ignored,
        )
