"""The plain value one sitemap URL is made of, shared by the plugin and the generator."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple


class Alternate(NamedTuple):
    """A language alternate of a page (``xhtml:link rel="alternate" hreflang=…``)."""

    hreflang: str
    href: str


class SitemapEntry(NamedTuple):
    """One URL of the sitemap, before any escaping.

    ``loc`` is the page's absolute URL as MkDocs gives it: it may hold raw non-ASCII,
    spaces, ``&`` or quotes, or parts already percent-escaped; the generator normalises
    it. ``lastmod`` is a date or an aware datetime (a naive one is rejected, because only
    the caller knows its zone). ``alternates`` is reserved for hreflang links; the
    generator's byte budget already counts it. ``images`` are the absolute URLs of the
    images the page shows (``<image:image><image:loc>``), at most ``MAX_IMAGES``; the
    generator normalises them as it does ``loc`` and writes each once, in order.
    """

    loc: str
    lastmod: dt.date | dt.datetime | None = None
    changefreq: str | None = None
    priority: float | None = None
    alternates: tuple[Alternate, ...] = ()
    images: tuple[str, ...] = ()
