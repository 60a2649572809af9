"""The ``sitemap-pro`` MkDocs plugin: hooks only.

The work lives in modules that know nothing of hooks: ``site_pages`` (which pages),
``dating`` (their lastmod), ``generator`` (the files), ``robots`` (robots.txt).
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_build_datetime

from mkdocs_sitemap_pro import summary
from mkdocs_sitemap_pro.config import SitemapProConfig
from mkdocs_sitemap_pro.dating import date_pages
from mkdocs_sitemap_pro.entry import SitemapEntry
from mkdocs_sitemap_pro.generator import write_sitemaps
from mkdocs_sitemap_pro.git_history import GitHistory, read_ignore_revs_file
from mkdocs_sitemap_pro.protocol import SitemapError
from mkdocs_sitemap_pro.robots import RobotsError, add_sitemap_line
from mkdocs_sitemap_pro.site_pages import PageCollector
from mkdocs_sitemap_pro.urls import normalise_loc

log = get_plugin_logger("sitemap-pro")

# One worker: git history is read once per build, beside MkDocs' own rendering.
_GIT_READER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sitemap-pro-git")


class SitemapProPlugin(BasePlugin[SitemapProConfig]):
    """Writes the sitemap (split, indexed, gzipped) and the robots.txt line after a build."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self._collector: PageCollector | None = None
        self._files: Files | None = None
        self._build_time = get_build_datetime()
        self._serving = False
        self._history: Future[GitHistory] | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # Under `mkdocs serve` site_url is the local address: no robots.txt advice then.
        self._serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return None
        # Sitemaps need absolute URLs; a bad site_url cannot give any, so stop here.
        _check_site_url(config.site_url)
        # One build time for the whole build, so every check agrees (SOURCE_DATE_EPOCH).
        self._build_time = get_build_datetime()
        self._collector = PageCollector(self.config.exclude, self._build_time)
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
        # Read git history on the side while MkDocs renders the pages: a build then
        # waits for git only if git is slower than the rendering.
        if self.config.lastmod == "git":
            sources = [
                Path(f.abs_src_path)
                for f in files.documentation_pages()
                if f.abs_src_path and not f.generated_by
            ]
            self._history = _GIT_READER.submit(
                GitHistory.read,
                Path(config.docs_dir),
                sources,
                history=self.config.git_history,
                date=self.config.git_date,
                ignore_commits=_ignore_list(self.config.ignore_commits),
            )
        # MkDocs' own sitemap would carry the build date on every page: never render it.
        config.theme.static_templates.discard("sitemap.xml")
        return env

    @event_priority(-100)
    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        # The rendered head is the last word on noindex and canonical links.
        if self._collector is not None:
            self._collector.record(page, output)
        return None

    @event_priority(-100)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if not self.config.enabled or self._collector is None or self._files is None:
            return
        options = self.config
        site_url = config.site_url
        assert site_url, "checked in on_config"
        collection = self._collector.collect(self._files)
        for src_uri, message in collection.problems:
            log.warning(f"page '{src_uri}': {message}")
        for src_uri, reason in sorted(collection.left_out.items()):
            log.debug(f"page '{src_uri}' left out: {reason}")

        dating = date_pages(
            collection.pages,
            mode=options.lastmod,
            fallback=options.lastmod_fallback,
            history=self._history.result() if self._history else None,
            build_time=self._build_time,
        )
        # Git trouble means dates the sitemap should have and lacks: warn, so --strict fails.
        for message in dating.warnings:
            log.warning(message)
        for src_uri, reason in dating.undated:
            log.debug(f"page '{src_uri}' not dated by {options.lastmod}: {reason}")

        entries = [
            SitemapEntry(
                loc=page.url,
                lastmod=dating.lastmods.get(page.src_uri),
                changefreq=page.settings.changefreq or options.changefreq,
                priority=page.settings.priority if page.settings.priority is not None else options.priority,
            )
            for page in collection.pages
        ]
        try:
            report = write_sitemaps(
                entries,
                config.site_dir,
                site_url,
                filename=options.filename,
                max_urls=options.max_urls,
                max_bytes=options.max_bytes,
                index=options.index,
                gzip=options.gzip,
                lastmod_format=options.lastmod_format,
                build_time=self._build_time,
            )
        except (OSError, SitemapError) as error:
            # The previous sitemap is intact (all files are renamed into place at the end).
            raise PluginError(
                f"sitemap-pro: could not write the sitemap into {config.site_dir}: {error}; "
                "the previous sitemap files were left as they were"
            ) from error

        pages_by_url = {page.url: page.src_uri for page in collection.pages}
        for dropped in report.dropped:
            page = pages_by_url.get(dropped.loc, dropped.loc)
            log.warning(f"page '{page}' left out of the sitemap: {dropped.reason}")
        for dropped in report.dropped_lastmods:
            page = pages_by_url.get(dropped.loc, dropped.loc)
            log.warning(f"page '{page}': lastmod left out: {dropped.reason}")
        for loc in report.duplicates:
            log.info(f"two pages share the URL {loc}; it is listed once, with the newest lastmod")
        for name in report.removed:
            log.debug(f"removed stale sitemap file {name}")
        if report.url_count == 0:
            log.warning("no page belongs in the sitemap, so none was written and robots.txt was left alone")
            return

        sitemap_url = normalise_loc(site_url.rstrip("/") + "/" + options.filename)
        if options.robots_txt:
            self._update_robots(config, sitemap_url)
        _warn_about_material(config, options.filename, report.is_index)
        log.info(summary.summary_line(report, dating))

    def _update_robots(self, config: MkDocsConfig, sitemap_url: str) -> None:
        robots_path = Path(config.site_dir) / "robots.txt"
        try:
            add_sitemap_line(robots_path, sitemap_url)
        except RobotsError as error:
            log.warning(f"{error}; the sitemap was written, but robots.txt does not name it")
            return
        # Crawlers read robots.txt only at the host's root, never below a path.
        if not self._serving and urlsplit(config.site_url).path not in ("", "/"):
            log.info(
                f"robots.txt was written at {config.site_url}robots.txt, but crawlers read it "
                f"only at the root of the host; add this line to the root robots.txt: "
                f"Sitemap: {sitemap_url}"
            )


def _ignore_list(option: list[str] | str) -> list[str]:
    """The SHAs of ``ignore_commits``: the list itself, or read from the named file."""
    return read_ignore_revs_file(Path(option)) if isinstance(option, str) else option


def _check_site_url(site_url: str | None) -> None:
    """Stop the build when site_url cannot give the absolute URLs a sitemap needs."""
    hint = "set site_url in mkdocs.yml to the published address, e.g. https://example.com/docs/"
    if not site_url:
        raise PluginError(f"sitemap-pro: site_url is required, since sitemaps hold absolute URLs; {hint}")
    parts = urlsplit(site_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise PluginError(f"sitemap-pro: site_url {site_url!r} is not an absolute http(s) URL; {hint}")
    if any(ch.isspace() for ch in site_url):
        raise PluginError(f"sitemap-pro: site_url {site_url!r} holds whitespace; {hint}")


def _warn_about_material(config: MkDocsConfig, filename: str, is_index: bool) -> None:
    """Material's instant navigation reads sitemap.xml as a urlset: say what breaks."""
    theme = config.theme
    features = theme.get("features") or []
    if theme.name != "material" or "navigation.instant" not in features:
        return
    if filename != "sitemap.xml":
        log.warning(
            f"filename is {filename!r}, but Material for MkDocs' navigation.instant reads "
            "sitemap.xml: instant navigation will treat every link as external"
        )
    elif is_index:
        log.warning(
            "sitemap.xml is a sitemap index (the site needs more than one file, or "
            "index: always), but Material for MkDocs' navigation.instant reads it as a "
            "list of pages: instant navigation will treat every link as external"
        )
