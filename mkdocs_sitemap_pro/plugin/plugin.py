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

from mkdocs_sitemap_pro.core.git import GitHistory, read_ignore_revs_file
from mkdocs_sitemap_pro.plugin import pipeline, theme
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.integrations import i18n
from mkdocs_sitemap_pro.plugin.integrations.redirects import redirected_pages
from mkdocs_sitemap_pro.plugin.pages import PageCollector


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
        self._languages: i18n.LanguageBuilds[pipeline.Build] = i18n.LanguageBuilds()

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # Under `mkdocs serve` site_url is the local address: no robots.txt advice then.
        self._serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return None
        # Sitemaps need absolute URLs; a bad site_url cannot give any, so stop here.
        pipeline.site_url_of(config)
        # static-i18n starts its next language: the one just built is complete, keep it
        # for the one sitemap written at the end.
        if i18n.nested_build(config):
            self._keep_language_build(config)
        else:
            self._languages.clear()
        # One build time for the whole build, so every check agrees (SOURCE_DATE_EPOCH).
        self._build_time = get_build_datetime()
        self._collector = PageCollector(
            self.config.exclude, self._build_time, redirected_pages(config)
        )
        self._files = None
        self._history = None
        return None

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
        if self.config.lastmod == "git":
            self._history = self._start_history(config, files)
        # MkDocs' own sitemap would carry the build date on every page: never render it.
        theme.drop_theme_sitemap(config, files)
        return env

    @event_priority(-100)
    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        # The rendered head is the last word on noindex and canonical links.
        if self._collector is not None:
            self._collector.record(page, output)
        return None

    @event_priority(-200)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        # Late, so that other plugins' output is on disk: the sitemap describes it. Below
        # static-i18n's -100, whose on_post_build builds the other languages: a nested
        # language build waits, and the outer one writes once for every language.
        build = self._finished_build(config)
        if build is None or i18n.nested_build(config):
            return
        pipeline.write_sitemap(self.config, build, self._languages.earlier(build.files))

    def on_shutdown(self) -> None:
        # The git worker belongs to this instance; it ends with MkDocs.
        if self._git_reader is not None:
            self._git_reader.shutdown(wait=True)
            self._git_reader = None

    def _finished_build(self, config: MkDocsConfig) -> pipeline.Build | None:
        """What the pipeline needs of the build that has just rendered its pages."""
        if not self.config.enabled or self._collector is None or self._files is None:
            return None
        return pipeline.Build(
            config=config,
            files=self._files,
            collector=self._collector,
            history=self._history.result() if self._history else None,
            build_time=self._build_time,
            serving=self._serving,
        )

    def _keep_language_build(self, config: MkDocsConfig) -> None:
        """Keep the language static-i18n has just built, before its next one starts."""
        build = self._finished_build(config)
        if build is not None:
            self._languages.keep(build, build.files)

    def _start_history(self, config: MkDocsConfig, files: Files) -> Future[GitHistory]:
        """Start reading git history for every source page in the plugin's worker."""
        if self._git_reader is None:
            self._git_reader = ThreadPoolExecutor(1, thread_name_prefix="sitemap-pro-git")
        sources = [
            Path(f.abs_src_path)
            for f in files.documentation_pages()
            if f.abs_src_path and not f.generated_by
        ]
        option = self.config.ignore_commits
        ignored = read_ignore_revs_file(Path(option)) if isinstance(option, str) else option
        return self._git_reader.submit(
            GitHistory.read,
            Path(config.docs_dir),
            sources,
            history=self.config.git_history,
            date=self.config.git_date,
            ignore_commits=ignored,
        )
