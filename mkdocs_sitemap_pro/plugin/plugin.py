"""The ``sitemap-pro`` MkDocs plugin: hooks only, each a few lines into the MkDocs layer.

The work lives in modules that know nothing of hooks: ``pages`` (which pages),
``build_reader`` (git and what pages show), ``dating`` (their lastmod), ``pipeline``
(the steps after the build), and the core.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_build_datetime

from mkdocs_sitemap_pro.plugin import pipeline, theme
from mkdocs_sitemap_pro.plugin.build_reader import BuildReader
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.integrations import i18n
from mkdocs_sitemap_pro.plugin.integrations.redirects import redirected_pages
from mkdocs_sitemap_pro.plugin.kept_output import KeptOutput
from mkdocs_sitemap_pro.plugin.kept_parts import KeptParts
from mkdocs_sitemap_pro.plugin.pages import Identity, KeptPages, PageCollector, identities

# A page's conversion window opens before every other plugin and closes after all.
FIRST, LAST = 1e9, -1e9


class SitemapProPlugin(BasePlugin[SitemapProConfig]):
    """Writes the sitemap (split, indexed, gzipped) and the robots.txt line after a build."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self._collector: PageCollector | None = None
        self._files: Files | None = None
        self._ids: list[Identity] | None = None
        self._last_ids: list[Identity] | None = None  # the last build's, under serve
        self._build_time = get_build_datetime()
        self._serving = False
        self._reader: BuildReader | None = None
        self._kept = KeptPages()  # what pages said, across the builds of `mkdocs serve`
        self._output = KeptOutput()  # the sitemap files last written, ditto
        self._parts: KeptParts[pipeline.Part] = KeptParts()  # what was made of pages, ditto
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
        # What pages said is kept for the next build only where one follows (serve).
        kept = self._kept if self._serving else None
        self._collector = PageCollector(
            self.config.exclude, self._build_time, redirected_pages(config), kept
        )
        self._files, self._ids = None, None
        self.reader.reset(self.config, keep=self._serving)
        return None

    @event_priority(-100)
    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files | None:
        # Dating by dependencies: start reading git now, beside the pages' conversion;
        # the files each page shows join this same read as the page is converted.
        if self.config.enabled and self.config.lastmod == "git" and self.config.dependencies:
            self.reader.start_live(config, files)
        return None

    @event_priority(FIRST)
    def on_pre_page(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page | None:
        # Every file read from here to on_page_content went into this page.
        self.reader.page_opens()
        return None

    @event_priority(LAST)
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        # MkDocs drops front matter that YAML rejects without a word, leaving it in the
        # Markdown: notice it here (one hook per page fewer than a page_markdown one).
        if self._collector is not None:
            self._collector.note_markdown(page, page.markdown or "")
        self.reader.page_closes(page)
        return None

    @event_priority(LAST)
    def on_page_context(
        self, context: Any, /, *, page: Page, config: MkDocsConfig, nav: Any
    ) -> Any:
        # After Material's blog has chosen the posts a listing page shows.
        self.reader.page_lists(page, context)
        return context

    @event_priority(-100)
    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        if not self.config.enabled:
            return env
        # By now every plugin has added its pages (a blog's archive, say): keep the list,
        # and under serve what identifies each page, to tell whether the last build's
        # work holds for this one.
        self._files = files
        self._ids = self._identities(files) if self._serving else None
        # Read git history beside MkDocs' rendering: the build waits for git only if
        # git is slower than the rendering.
        if self.reader.tracking:
            self.reader.all_pages_known(files, self._ids)
        elif self.config.lastmod == "git":
            self.reader.start(config, files, self._ids)
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
        if i18n.nested_build(config):
            return
        build = self._finished_build(config)
        if build is not None:
            pipeline.write_sitemap(self.config, build, self._languages.earlier(build.files))

    def on_build_error(self, *, error: Exception) -> None:
        # A read left open would wait for paths for ever.
        self.reader.close()
        # Pages rendered before the failure were written, but never said what they
        # showed: nothing kept about pages holds for the next build.
        self.reader.drop_pages()
        self._kept.clear()
        self._parts.clear()

    def on_shutdown(self) -> None:
        # The git worker belongs to this instance; it ends with MkDocs.
        self.reader.shutdown()
        self.forget()

    def forget(self) -> None:
        """Drop what is kept across builds: the next one reads git and pages afresh."""
        self.reader.forget()
        self._kept.clear()
        self._output.clear()
        self._parts.clear()

    @property
    def reader(self) -> BuildReader:
        """The build's git read, made once the options are loaded."""
        if self._reader is None:
            self._reader = BuildReader(self.config)
        return self._reader

    def _finished_build(self, config: MkDocsConfig) -> pipeline.Build | None:
        """What the pipeline needs of the build that has just rendered its pages."""
        if not self.config.enabled or self._collector is None or self._files is None:
            return None
        history, dependencies = self.reader.finish(self._files)
        return pipeline.Build(
            config=config,
            files=self._files,
            collector=self._collector,
            history=history,
            build_time=self._build_time,
            serving=self._serving,
            dependencies=dependencies,
            kept_output=self._output,
            kept_parts=self._parts if self._serving else None,
            pages=self._ids,
        )

    def _identities(self, files: Files) -> list[Identity]:
        """The pages' identities; the last build's own list when they are the same, so
        that every later comparison with it is by identity (one comparison per build)."""
        ids = identities(files)
        if ids == self._last_ids:
            ids = self._last_ids
        self._last_ids = ids
        return ids

    def _keep_language_build(self, config: MkDocsConfig) -> None:
        """Keep the language static-i18n has just built, before its next one starts."""
        build = self._finished_build(config)
        if build is not None:
            self._languages.keep(build, build.files)
