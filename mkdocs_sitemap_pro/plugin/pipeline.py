"""After the build: collect -> date -> entries -> write -> robots.txt -> report.

``write_sitemap`` is the whole of ``on_post_build``: one call on a finished
``Build`` (the plugin's, or the standalone ``build``'s), without MkDocs' event machinery.
It turns the built pages into core inputs and calls the core; every message goes through ``report``. Under
``mkdocs serve`` a build whose part would be the last one's takes it (``serve``).
"""

import datetime as dt
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from mkdocs_sitemap_pro.core.deploy.manifest import RenderedPages, manifest_name
from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.protocol import MAX_IMAGES, SitemapError
from mkdocs_sitemap_pro.core.regular import read_regular
from mkdocs_sitemap_pro.core.robots import RobotsError, add_sitemap_line
from mkdocs_sitemap_pro.core.robots import MAX_BYTES, RobotsRules
from mkdocs_sitemap_pro.core.urls import SiteUrl
from mkdocs_sitemap_pro.core.writer import WriteOptions, WriteReport
from mkdocs_sitemap_pro.plugin.output import date_on_page, site_hooks, theme
from mkdocs_sitemap_pro.plugin import deploys, report
from mkdocs_sitemap_pro.plugin.build import Build
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.output.feed import feed_settings, report as report_feed, view_titles
from mkdocs_sitemap_pro.plugin.output.key_file import write_indexnow_key
from mkdocs_sitemap_pro.core.dating import Dating, Lastmod, date_pages, merge_datings
from mkdocs_sitemap_pro.plugin.integrations import i18n, mike
from mkdocs_sitemap_pro.plugin.serve import PageInputs, PartKey, page_inputs, write_once
from mkdocs_sitemap_pro.plugin.pages import leave_out_overwritten
from mkdocs_sitemap_pro.plugin.pages import Collection
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["SitemapPart", "site_url_of", "write_sitemap"]

_EXAMPLE = "https://example.com/docs/"


def site_url_of(config: MkDocsConfig) -> SiteUrl:
    """The checked site URL; a ``PluginError`` naming ``site_url`` if it cannot be one."""
    if not config.site_url:
        raise PluginError(
            f"sitemap-pro: site_url is required, since sitemaps hold absolute URLs; "
            f"{_hint(config)}"
        )
    try:
        return SiteUrl(config.site_url)
    except ValueError as error:
        raise PluginError(f"sitemap-pro: site_url {error}; {_hint(config)}") from None


def _hint(config: MkDocsConfig) -> str:
    """How to set site_url, in the configuration file this build reads (``-f``)."""
    name = os.path.basename(config.config_file_path or "") or "mkdocs.yml"
    if mike.under_mike(config):
        return (f"set site_url in {name} to the site's unversioned root, e.g. {_EXAMPLE} "
                "(mike adds each version's folder to it)")
    return f"set site_url in {name} to the published address, e.g. {_EXAMPLE}"


class SitemapPart(NamedTuple):
    """One build's part of the sitemap: its listed pages, dated (a site's only build, or
    one language's); what ``serve.PartsMemo`` keeps."""

    files: Files
    listed: list[i18n.Listed]
    dated: Dating
    found: Collection


#: Called with what would be written, before anything is; raises to write nothing.
BeforeWrite = Callable[[SiteUrl, Sequence[SitemapEntry], Sequence[SitemapPart]], None]


def write_sitemap(
    options: SitemapProConfig, build: Build, earlier: Sequence[Build] = (), *,
    languages: i18n.LanguageOrder | None = None, check_before_write: BeforeWrite | None = None,
) -> WriteReport | None:
    """Write the sitemap tree and the robots.txt line for a finished build.

    ``earlier``: the finished builds of the languages static-i18n built before ``build``
    (or ``build`` built one at a time, in the order ``languages`` gives; None:
    static-i18n's, if used); one sitemap lists the pages of all of them, with hreflang
    alternates. ``check_before_write`` is called with what would be written, before
    anything is: it raises to write nothing (``build`` after Zensical: the builder's
    sitemap's URLs are all kept).

    Returns what was written, or None when no page belongs in a sitemap (then nothing
    is written and robots.txt is left alone). A failed write of the sitemap raises
    ``PluginError`` and leaves the previous sitemap files as they were; a file beside it
    that cannot be written (robots.txt, the manifest, the IndexNow key) is a WARNING
    naming it, and the rest is still written.
    """
    config = build.config
    site_url_of(config)  # a PluginError naming site_url if it cannot be one
    # Under `mike deploy`, the sitemap lists this version's folder only.
    versioned = mike.version_build(config)
    site = mike.listed_under(config)
    parts = [_gather(options, each, versioned) for each in (*earlier, build)]
    dated = merge_datings([part.dated for part in parts])
    report.dating(dated, options.lastmod)
    date_on_page.report([each.page_dates for each in (*earlier, build)])
    entries = i18n.with_alternates(config, [(part.files, part.listed) for part in parts],
                                   languages)
    if check_before_write is not None:
        check_before_write(site, entries, parts)
    # The site's own code has the last word on what is listed (a `hooks:` function).
    entries = site_hooks.shape_entries(config, entries, site, build.build_time)
    written = _write_files(options, build, parts, entries, site)
    report.written(
        written, lambda: {item.entry.loc: item.src_uri for part in parts for item in part.listed}
    )
    report_feed(options, written, build.serving)
    write_indexnow_key(options, config, build.files, build.serving)  # not under serve
    if written.url_count == 0:
        _report_nothing_listed(versioned)
        return None
    if options.manifest and not build.serving:  # `mkdocs serve` deploys nothing
        _write_manifest(options, (*earlier, build), parts)
    if mike.writes_robots(options.robots_txt, versioned):
        _update_robots(Path(config.site_dir), site, site.join(options.filename), build.serving)
    # Listed but forbidden by robots.txt: search engines report it as an error.
    _warn_disallowed(Path(config.site_dir), site, entries)
    theme.warn_about_instant_navigation(config, options.filename, written.is_index)
    if options.validate_:
        from mkdocs_sitemap_pro.plugin.output import validate  # the checker: imported only when on

        validate.check_written(Path(config.site_dir), site.url, options.filename)
    log.info(report.summary_line(written, dated, report.left_out_counts(p.found for p in parts)))
    return written


def _write_files(options: SitemapProConfig, build: Build, parts: Sequence[SitemapPart],
                 entries: list[SitemapEntry], site: SiteUrl) -> WriteReport:
    """Write the sitemap files (and the feed and page for people beside them); a failed
    write is a ``PluginError`` saying the previous sitemap files were left as they were."""
    config = build.config
    try:
        written = write_once(
            build.memos.output if build.serving else None,
            entries,
            config.site_dir,
            site.url,
            WriteOptions(
                filename=options.filename,
                max_urls=options.max_urls,
                max_bytes=options.max_bytes,
                index=options.index,
                gzip=options.gzip,
                lastmod_format=options.lastmod_format,
                lastmod_texts=build.texts,  # the texts its pages were given as they rendered
                build_time=build.build_time,
                html_view=options.html_view,
                title=config.site_name or "",
                feed=feed_settings(options, config, [(p.files, p.listed) for p in parts],
                                   build.serving, build.heading_of),
            ),
            # Titles beside the URLs on the pages for people (never in the XML).
            view_titles(config, [(p.files, p.listed) for p in parts], build.heading_of)
            if options.html_view else None,
        )
    except (OSError, SitemapError) as error:
        raise PluginError(
            f"sitemap-pro: could not write the sitemap into {config.site_dir}: {error}; "
            "the previous sitemap files were left as they were"
        ) from error
    return written


def _report_nothing_listed(versioned: mike.VersionBuild | None) -> None:
    """Say why no sitemap was written: the version is canonical elsewhere (INFO), or no
    page belongs in it (a WARNING: robots.txt was left alone)."""
    if versioned is not None and versioned.canonical_elsewhere:
        log.info(
            f"canonical_version is {versioned.canonical!r}: the pages of version "
            f"{versioned.version} are canonical there, so no sitemap is written for it"
        )
    else:
        log.warning(
            "no page belongs in the sitemap, so none was written and robots.txt was "
            "left alone"
        )


def _write_manifest(options: SitemapProConfig, builds: Sequence[Build],
                    parts: Sequence[SitemapPart]) -> None:
    """Write the deploy manifest beside the sitemap; a failed write is a WARNING, as
    robots.txt's (the sitemap is written all the same)."""
    build = builds[-1]
    config = build.config
    try:
        deploys.write_manifest(Path(config.site_dir), options.filename, build.history, [
            (part.files, part.found, each.dependencies) for part, each in zip(parts, builds)],
            _rendered(parts, builds, Path(config.site_dir), options.filename))
    except OSError as error:  # a file beside the sitemap: a warning, as robots.txt's
        log.warning(
            f"cannot write {Path(config.site_dir, manifest_name(options.filename))}: "
            f"{error.strerror or error}; the sitemap was written, but no manifest of this "
            "build is (a later build's `previous` cannot carry its dates)"
        )


def _rendered(parts: Sequence[SitemapPart], builds: Sequence[Build], site_dir: Path,
              filename: str) -> RenderedPages | None:
    """What every listed page rendered and the lastmod it got, for the manifest; pages
    not rendered (``--dirty``) as the manifest already in ``site_dir`` recorded them."""
    if not builds or not builds[-1].recording:
        return None
    method = builds[-1].fingerprint_method

    def unrendered() -> Mapping[str, tuple[str, dt.datetime | None]]:
        return deploys.recorded_pages(site_dir, filename, method)

    pages: dict[str, tuple[str, dt.datetime | None]] = {}
    for part, each in zip(parts, builds):
        pages.update(each.rendered_pages(part.found.pages, part.dated.lastmods, unrendered))
    return RenderedPages(method, pages)


def _gather(
    options: SitemapProConfig, build: Build, versioned: mike.VersionBuild | None
) -> SitemapPart:
    """One build's pages: collected (fallback copies of translations and, under mike,
    pages canonical in another version left out), dated; or the last build's, if the
    same."""
    kept, key = (build.memos.parts if build.serving else None), None
    if kept is not None:
        key = _part_key(options, build, versioned)
        part = kept.recall(key, _rendered_inputs(build))
        if part is not None:
            report.collection(part.found)
            return part
    pages = build.documentation_pages()
    found = build.collector.collect(pages)
    # The page whose HTML is on disk is the one listed (before fallbacks: the reason said).
    leave_out_overwritten(found, pages)
    i18n.leave_out_fallbacks(found, pages)
    if versioned is not None:
        mike.leave_out_other_versions(found, versioned)
    report.collection(found)
    dated = date_pages(found.pages, build.dater)
    part = SitemapPart(build.files, _entries(found, dated.lastmods, options), dated, found)
    clock_free = options.lastmod != "mtime" and not found.clock_bound and (
        options.lastmod_fallback == "omit" or not dated.undated
    )
    if kept is not None and key is not None and clock_free:
        shows = build.dependencies.pages if build.dependencies is not None else {}
        kept.keep(key, {
            f.src_uri: page_inputs(found.page_says[f.src_uri], shows.get(f.src_uri), _source(f), build.history)
            for f in build.files.documentation_pages() if f.src_uri in found.page_says
        }, part)
    return part


def _part_key(
    options: SitemapProConfig, build: Build, versioned: mike.VersionBuild | None
) -> PartKey:
    """What the build's part depends on besides what each page says."""
    deps = build.dependencies
    return PartKey(
        options=dict(options),
        context=(build.collector.redirected, versioned),
        pages=build.memos.identities(build.files) if build.serving else [],
        history=build.history.key if build.history is not None else None,
        missing=tuple(deps.missing) if deps is not None else (),
    )


def _rendered_inputs(build: Build) -> dict[str, PageInputs]:
    """What each page rendered in this build says."""
    shows = build.dependencies.pages if build.dependencies is not None else {}
    files = build.collector.rendered_files
    return {
        src_uri: page_inputs(seen, shows.get(src_uri), _source(files[src_uri]), build.history)
        for src_uri, seen in build.collector.rendered().items()
    }


def _source(file: File) -> str | None:
    return None if file.generated_by else file.abs_src_path


def _entries(
    found: Collection, lastmods: dict[str, Lastmod], options: SitemapProConfig
) -> list[i18n.Listed]:
    """One entry per listed page: its URL, its date, and its or the default settings."""
    entries = []
    for page in found.pages:
        settings = page.settings
        if page.images.beyond:
            log.info(f"{page.src_uri} shows {len(page.images.urls) + page.images.beyond:,} "
                     f"images; its sitemap entry lists the first {MAX_IMAGES:,}, as many as "
                     "one URL may list")
        entries.append(i18n.Listed(page.src_uri, SitemapEntry(
            loc=page.url,
            lastmod=lastmods.get(page.src_uri),
            changefreq=settings.changefreq or options.changefreq,
            priority=settings.priority if settings.priority is not None else options.priority,
            images=page.images.urls,
        )))
    return entries


def _warn_disallowed(site_dir: Path, site: SiteUrl, entries: list[SitemapEntry]) -> None:
    """Warn once about the listed URLs the site's robots.txt (as published, the
    ``Sitemap:`` line added) keeps every crawler from. Only a site at the root of its
    host publishes the robots.txt crawlers read; one below a path has no say."""
    if not site.at_host_root:
        return
    robots_path = site_dir / "robots.txt"
    try:
        data = read_regular(robots_path, MAX_BYTES)
    except OSError as error:  # said already when the Sitemap: line could not be added
        log.debug(f"cannot read {robots_path} to compare it with the sitemap: {error}")
        return
    if data is None:
        return
    rules = RobotsRules.parse(data[:MAX_BYTES].decode("utf-8", errors="replace"))
    if not rules.rules:
        return
    locs = sorted({entry.loc for entry in entries})
    blocked = [(loc, rule) for loc in locs if (rule := rules.disallowing(loc)) is not None]
    report.disallowed(blocked, len(locs))


def _update_robots(site_dir: Path, site: SiteUrl, sitemap_url: str, serving: bool) -> None:
    """Add the Sitemap: line to the built robots.txt; advise when crawlers will not read it."""
    robots_path = site_dir / "robots.txt"
    try:
        add_sitemap_line(robots_path, sitemap_url)
    except RobotsError as error:
        log.warning(f"{error}; the sitemap was written, but robots.txt does not name it")
        return
    # Crawlers read robots.txt only at the host's root, never below a path.
    if not serving and not site.at_host_root:
        log.info(
            f"robots.txt was written at {site.join('robots.txt')}, but crawlers read it "
            f"only at the root of the host; add this line to the root robots.txt: "
            f"Sitemap: {sitemap_url}"
        )
