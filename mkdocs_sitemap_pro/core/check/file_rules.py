"""The rules one sitemap file must keep on its own: schema, limits, each loc, each lastmod.

Every limit and value rule comes from ``core.protocol`` and every URL rule from
``core.urls``, so the checker judges by exactly the rules the writer writes by.
"""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urlsplit

from mkdocs_sitemap_pro.core.check.findings import Findings
from mkdocs_sitemap_pro.core.check.findings import Ticker
from mkdocs_sitemap_pro.core.check.streamed import StreamedDocument
from mkdocs_sitemap_pro.core.protocol import (
    MAX_BYTES,
    MAX_LOC_LENGTH,
    MAX_URLS,
    check_lastmod,
    latest_allowed,
    utc_key,
)
from mkdocs_sitemap_pro.core.urls import SiteUrl, normalise_loc

__all__ = ["check_file", "loc_problem"]

# A <loc> as written in the file (any prefix), to see characters the parser resolved.
_RAW_LOC = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?loc\s*>([^<]*)<")
_RAW_UNESCAPED = re.compile(rb"['\">]")
_TICK_EVERY = 1_000


def check_file(doc: StreamedDocument, xml: bytes, url: str, shown: str, site: SiteUrl,
               now: dt.datetime, found: Findings, ticker: Ticker | None = None) -> None:
    """Judge one parsed sitemap file, published at ``url`` (shown as ``shown``), whose
    XML (a ``.gz`` expanded) is ``xml``; ``ticker`` tells how far it has got."""
    sitemap = doc.file
    for message in doc.schema_errors:  # validated as it was read (``streamed``)
        found.error("schema", shown, message)
    noun = "sitemap files" if sitemap.is_index else "URLs"
    if len(sitemap.entries) > MAX_URLS:
        found.error("url-limit", shown,
                    f"{len(sitemap.entries):,} {noun}, more than the protocol's {MAX_URLS:,}")
    if sitemap.size > MAX_BYTES:
        found.error("byte-limit", shown,
                    f"{sitemap.size:,} bytes uncompressed, more than the protocol's {MAX_BYTES:,}")
    folder = url.rsplit("/", 1)[0] + "/"
    for number, entry in enumerate(sitemap.entries):
        if ticker is not None and number % _TICK_EVERY == 0:
            ticker.tick(lambda: f"checking {shown}: {number:,} of "
                                f"{len(sitemap.entries):,} {noun}")
        problem = loc_problem(entry.loc, site, None if sitemap.is_index else folder)
        if problem is not None:
            found.error(problem[0], shown, problem[1], url=entry.loc)
        if entry.lastmod is not None:
            _check_lastmod(entry.lastmod, entry.loc, shown, now, found)
    for match in _RAW_LOC.finditer(xml):
        raw = match.group(1)
        if _RAW_UNESCAPED.search(raw):
            text = raw.decode("utf-8", "replace").strip()
            found.error("loc-entities", shown,
                        f"{text} holds a raw ' \" or >: write &apos; &quot; &gt; in a sitemap")


def loc_problem(loc: str, site: SiteUrl, folder: str | None) -> tuple[str, str] | None:
    """The first rule ``loc`` breaks, as (rule id, message), or None.

    ``folder`` is the URL folder of the sitemap that lists it: the protocol lets a
    sitemap list only URLs under its own folder (None for an index's children).
    """
    parts = urlsplit(loc)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return "loc-absolute", f"{loc!r} is not an absolute http(s) URL"
    if len(loc) > MAX_LOC_LENGTH:
        return "loc-length", (f"{loc[:80]}… is {len(loc):,} characters long, more than "
                              f"{MAX_LOC_LENGTH:,}")
    try:
        normal = normalise_loc(loc)
    except ValueError as error:
        return "loc-escaping", f"{loc!r}: {error}"
    if normal != loc:
        return "loc-escaping", (f"{loc!r} is not URL-escaped (raw non-ASCII, spaces or "
                                f"other unsafe characters): write {normal}")
    reason = site.reject_reason(loc)
    if reason is not None:
        return "loc-site", f"{loc} is {reason}"
    if folder is not None and not loc.startswith(folder):
        return "loc-folder", (f"{loc} is not under {folder}, the folder of the sitemap that "
                              "lists it (crawlers ignore it)")
    return None


def _check_lastmod(text: str, loc: str, shown: str, now: dt.datetime, found: Findings) -> None:
    try:
        value = check_lastmod(text)
    except ValueError as error:
        found.error("lastmod-format", shown, f"{loc}: {error}", url=loc)
        return
    if utc_key(value) > latest_allowed(now):
        found.error("lastmod-future", shown,
                    f"{loc}: lastmod {text} is in the future (checked at {now:%Y-%m-%d %H:%M} UTC)", url=loc)
