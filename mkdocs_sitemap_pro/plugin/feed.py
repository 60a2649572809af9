"""The Atom feed of recently updated pages (option ``feed``): what the core writer needs of
MkDocs for it, the pages' titles, and what to say when none could be written.

The writer (``core.writer.feed``) picks the pages, by the very dates it writes into the
sitemap; this module names them as MkDocs does (``page.title``: the nav's title, front
matter ``title``, the first heading, or the file's name). A page a ``--dirty`` build did
not convert, or a site another builder wrote (``mkdocs-sitemap-pro build``), has no
title yet: it is read from the page's source the way MkDocs reads it. MkDocs keeps a
title as HTML text (a heading's ``&`` is ``&amp;``; themes print it unescaped): the feed
gets the text a browser shows. Under
``mkdocs serve`` no feed is written: nothing is published from there (as the manifest).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_markdown_title
from mkdocs.utils.meta import get_data

from mkdocs_sitemap_pro.core.writer import WriteReport
from mkdocs_sitemap_pro.core.writer.feed import FeedSettings
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.integrations.i18n import Listed
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["feed_settings", "page_title", "report"]


def feed_settings(options: SitemapProConfig, config: MkDocsConfig,
                  parts: Iterable[tuple[Files, Sequence[Listed]]],
                  serving: bool) -> FeedSettings | None:
    """The writer's feed settings, or None when no feed is to be written."""
    if not options.feed or serving:
        return None
    pages: dict[str, tuple[Files, str]] = {}
    for files, listed in parts:
        for item in listed:
            pages.setdefault(item.entry.loc, (files, item.src_uri))

    def title_of(loc: str) -> str | None:
        found = pages.get(loc)
        if found is None:
            return None
        file = found[0].get_file_from_path(found[1])
        return page_title(file) if file is not None else None

    return FeedSettings(size=options.feed_size, title=config.site_name or "",
                        author=config.site_author or "", title_of=title_of)


def page_title(file: File) -> str | None:
    """The page's title as MkDocs has it, or as MkDocs would read it from its source, as
    plain text."""
    title = _mkdocs_title(file)
    return html.unescape(title) if title is not None else None


def _mkdocs_title(file: File) -> str | None:
    page = file.page
    if page is None:
        return None
    title = page.title
    if title:
        return str(title)
    try:
        source = file.content_string
    except (OSError, UnicodeDecodeError):
        source = ""
    markdown, meta = get_data(source)
    if isinstance(meta.get("title"), str) and meta["title"].strip():
        return str(meta["title"])
    heading = get_markdown_title(markdown)
    if heading:
        return heading
    if page.is_homepage:
        return "Home"
    name = file.name.replace("-", " ").replace("_", " ")
    return name.capitalize() if name.lower() == name else name


def report(options: SitemapProConfig, written: WriteReport, serving: bool) -> None:
    """Say why a feed that was asked for is not there."""
    if not options.feed or serving or written.feed_files or not written.url_count:
        return
    if written.feed_refused:
        log.warning(
            f"{written.feed_refused[0]} is the site's own file, so the feed of recently "
            "updated pages was not written there; rename that file or set feed: false"
        )
    else:
        log.warning(
            "feed: no page in the sitemap has a lastmod, so no feed of recently updated "
            "pages was written"
        )
