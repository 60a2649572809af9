"""The Atom feed of recently updated pages (option ``feed``): what the core writer needs of
MkDocs for it, the pages' titles (also shown on the pages for people, ``html_view``),
and what to say when none could be written.

The writer (``core.writer.feed``) picks the pages, by the very dates it writes into the
sitemap; this module names them as MkDocs does (``page.title``: the nav's title, front
matter ``title``, the first heading, or the file's name). A page a ``--dirty`` build did
not convert, or a site another builder wrote (``mkdocs-sitemap-pro build``), has no
title yet: it is read from the page's source the way MkDocs reads it (front matter
``title``; a first block that is a level-1 heading, converted with the site's Markdown
extensions; the file's name). Under ``build`` that heading is read from the HTML the
builder wrote (``heading_of``): the site's Markdown extensions are never loaded there,
as ``build`` needs nothing the builder does not. MkDocs keeps a title as HTML text (a heading's ``&`` is
``&amp;``; themes print it unescaped): the feed gets the text a browser shows. Under
``mkdocs serve`` no feed is written: nothing is published from there (as the manifest).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence

import markdown  # type: ignore[import-untyped]  # MkDocs' own dependency; no stubs
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.utils.meta import get_data

from mkdocs_sitemap_pro.core.writer import WriteReport
from mkdocs_sitemap_pro.core.writer.feed import FeedSettings
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.integrations.i18n import Listed
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["HeadingOf", "Titles", "feed_settings", "report", "view_titles"]


def feed_settings(options: SitemapProConfig, config: MkDocsConfig,
                  parts: Iterable[tuple[Files, Sequence[Listed]]],
                  serving: bool, heading_of: HeadingOf | None = None) -> FeedSettings | None:
    """The writer's feed settings, or None when no feed is to be written.
    ``heading_of``: see ``Titles``."""
    if not options.feed or serving:
        return None
    titles = Titles(config, heading_of)
    pages: dict[str, tuple[Files, str]] = {}
    for files, listed in parts:
        for item in listed:
            pages.setdefault(item.entry.loc, (files, item.src_uri))

    def title_of(loc: str) -> str | None:
        found = pages.get(loc)
        if found is None:
            return None
        file = found[0].get_file_from_path(found[1])
        return titles.of(file) if file is not None else None

    return FeedSettings(size=options.feed_size, title=config.site_name or "",
                        author=config.site_author or "", title_of=title_of)


def view_titles(config: MkDocsConfig, parts: Iterable[tuple[Files, Sequence[Listed]]],
                heading_of: HeadingOf | None = None) -> dict[str, str]:
    """Every listed page's title by its entry's loc, for the pages for people
    (``html_view``): the same titles the feed gives its entries."""
    titles = Titles(config, heading_of)
    found: dict[str, str] = {}
    for files, listed in parts:
        for item in listed:
            if item.entry.loc in found:
                continue
            file = files.get_file_from_path(item.src_uri)
            title = titles.of(file) if file is not None else None
            if title:
                found[item.entry.loc] = title
    return found


#: A page's first level-1 heading as HTML text, read from the page the builder wrote.
HeadingOf = Callable[[File], "str | None"]

_SETEXT_H1 = re.compile(r"=+[ \t]*")
_H1 = re.compile(r"\s*<h1\b[^>]*>(.*?)</h1>", re.DOTALL)
_TAG = re.compile(r"<[^>]*>")


class Titles:
    """Pages' titles, as plain text (one per build: the site's Markdown, made once).
    ``heading_of``: where a page's heading is read from its built HTML instead of
    converting its source with the site's Markdown extensions (``build``)."""

    def __init__(self, config: MkDocsConfig, heading_of: HeadingOf | None = None) -> None:
        self._config = config
        self._heading_of = heading_of
        self._markdown: markdown.Markdown | None = None

    def of(self, file: File) -> str | None:
        """The page's title as MkDocs has it, or as MkDocs would read it from its source."""
        title = self._mkdocs_title(file)
        return html.unescape(title) if title is not None else None

    def _mkdocs_title(self, file: File) -> str | None:
        page = file.page
        if page is None:
            return None
        title = page.title  # None for a page this build did not convert
        if title:
            return str(title)
        try:
            source = file.content_string
        except (OSError, UnicodeDecodeError):
            source = ""
        text, meta = get_data(source)
        if isinstance(meta.get("title"), str) and meta["title"].strip():
            return str(meta["title"])
        heading = self._heading(text, file)
        if heading:
            return heading
        if page.is_homepage:
            return "Home"
        name = file.name.replace("-", " ").replace("_", " ")
        return name.capitalize() if name.lower() == name else name

    def _heading(self, text: str, file: File) -> str | None:
        """The first block of ``text`` if it is a level-1 heading, as MkDocs renders it
        (HTML text: tags stripped, entities kept, white space collapsed)."""
        lines = [line for line in text.splitlines() if line.strip()][:2]
        if not lines:
            return None
        if lines[0].startswith("# "):
            block = lines[0]
        elif len(lines) == 2 and _SETEXT_H1.fullmatch(lines[1].strip()):
            block = "\n".join(lines)
        else:
            return None
        if self._heading_of is not None:
            built = self._heading_of(file)
            if built:
                return built
            return self._rendered(block, extensions=False)
        return self._rendered(block, extensions=True)

    def _rendered(self, block: str, *, extensions: bool) -> str | None:
        """A heading block's text, converted with the site's extensions or without."""
        rendered = None
        if extensions:
            try:
                if self._markdown is None:
                    self._markdown = markdown.Markdown(
                        extensions=self._config.markdown_extensions,
                        extension_configs=self._config.mdx_configs)
                rendered = self._markdown.reset().convert(block)
            except Exception:  # noqa: BLE001 - an extension's trouble: plain Markdown
                rendered = None
        if rendered is None:
            rendered = markdown.markdown(block)
        found = _H1.match(rendered)
        return " ".join(_TAG.sub("", found.group(1)).split()) or None if found else None


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

