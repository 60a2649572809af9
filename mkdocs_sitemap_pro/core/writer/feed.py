"""The Atom feed (RFC 4287) of the most recently updated pages of a sitemap (``feed``).

``sitemap.xml`` gets ``sitemap.atom``: one entry per listed page that has a lastmod, the
``size`` newest by that lastmod, newest first, ties in loc order. Its dates are the
sitemap's own: an entry's ``updated`` is the instant its item's ``<lastmod>`` text
names (``text_instant``: a date is its midnight UTC), so a reader of the feed and a
crawler of the sitemap are told the same. Each entry's id is its page's URL (the same
page stays the same entry as it changes), the feed's id is the feed's own URL; the same
input gives the same bytes.

Knows nothing of MkDocs: ``atom_feed`` takes ``(url, title, updated)`` records, and the
writer (``write_sitemaps``) hands ``stage_feed`` the items it wrote with a function that
names each page. The feed carries a generator mark: a site's own ``sitemap.atom`` (one
without it) is never replaced or removed.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.atomic import StagedFiles
from mkdocs_sitemap_pro.core.protocol import text_instant
from mkdocs_sitemap_pro.core.urls import SiteUrl, xml_escape
from mkdocs_sitemap_pro.core.writer.items import Item

__all__ = ["ATOM_NS", "FEED_MAX_SIZE", "FeedEntry", "FeedSettings", "atom_feed", "feed_name",
           "is_ours", "newest_entries", "remove_stale_feed", "stage_feed"]

ATOM_NS = "http://www.w3.org/2005/Atom"
#: The most entries a feed may hold (option ``feed_size``): a feed says what changed
#: lately, and every reader fetches all of it each time it looks.
FEED_MAX_SIZE = 1_000
_GENERATOR = "<generator>mkdocs-sitemap-pro</generator>"
_MARK = _GENERATOR.encode("ascii")
# Characters XML 1.0 does not allow anywhere (a title is text the site wrote): the
# complement of its Char production.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


class FeedEntry(NamedTuple):
    """One page in the feed: its URL (normalised), its title, when it was last updated."""

    url: str
    title: str
    updated: str  # RFC 3339 text, UTC, whole seconds: ``2024-02-29T13:05:00+00:00``


@dataclass(frozen=True)
class FeedSettings:
    """What ``write_sitemaps`` needs to write the feed beside the entry sitemap.

    ``title_of`` names a page by its loc as given in its ``SitemapEntry`` (None: the URL
    stands in); it is asked only of the pages that make it into the feed.
    """

    size: int = 20
    title: str = ""  # the site's name
    author: str = ""  # RFC 4287 wants one; the site's name (or its URL) stands in
    title_of: Callable[[str], str | None] | None = None

    def __post_init__(self) -> None:
        size = self.size
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= FEED_MAX_SIZE:
            raise ValueError(f"feed size {size!r}: expected a whole number from 1 to "
                             f"{FEED_MAX_SIZE:,}")


def feed_name(stem: str) -> str:
    """``sitemap`` -> ``sitemap.atom``."""
    return f"{stem}.atom"


def newest_entries(items: Iterable[Item], size: int,
                   title_of: Callable[[str], str | None] | None) -> list[FeedEntry]:
    """The ``size`` newest dated items as entries: newest first, equal dates in the items'
    order (the writer's: by loc). Items without a lastmod are left out."""
    # The instants' texts are all UTC, of one form: they sort as the instants do.
    dated = ((text_instant(item.lastmod), item) for item in items if item.lastmod is not None)
    # nlargest is sorted(..., reverse=True)[:size], which keeps equal keys in their order.
    chosen = heapq.nlargest(size, dated, key=lambda pair: pair[0])
    entries = []
    for updated, item in chosen:
        title = title_of(item.given) if title_of is not None else None
        entries.append(FeedEntry(item.loc, title or item.loc, updated))
    return entries


def _text(value: str) -> str:
    return xml_escape(_NOT_XML.sub("", value).strip())


def atom_feed(entries: Sequence[FeedEntry], *, title: str, feed_id: str, self_link: str,
              site_link: str, author: str) -> bytes:
    """An Atom 1.0 document of ``entries`` (in the order given; at least one): ``updated``
    is the newest entry's. URLs are given normalised (the writer's locs)."""
    if not entries:
        raise ValueError("an Atom feed needs at least one entry (its updated date)")
    updated = max(entry.updated for entry in entries)
    parts = [
        f'<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="{ATOM_NS}">\n',
        _GENERATOR, "\n",
        f"<id>{xml_escape(feed_id)}</id>\n",
        f"<title>{_text(title)}</title>\n",
        f"<updated>{updated}</updated>\n",
        f'<link rel="self" type="application/atom+xml" href="{xml_escape(self_link)}"/>\n',
        f'<link rel="alternate" type="text/html" href="{xml_escape(site_link)}"/>\n',
        f"<author><name>{_text(author)}</name></author>\n",
    ]
    for entry in entries:
        url = xml_escape(entry.url)
        parts.append(
            f"<entry>\n<id>{url}</id>\n<title>{_text(entry.title)}</title>\n"
            f'<link rel="alternate" type="text/html" href="{url}"/>\n'
            f"<updated>{entry.updated}</updated>\n</entry>\n"
        )
    parts.append("</feed>\n")
    return "".join(parts).encode("utf-8")


def is_ours(path: Path) -> bool:
    """Whether the file at ``path`` is a feed this writer wrote (its generator mark)."""
    try:
        with open(path, "rb") as handle:
            return _MARK in handle.read(4096)
    except OSError:
        return False


def stage_feed(folder: Path, staged: StagedFiles, items: Iterable[Item], stem: str,
               site: SiteUrl, settings: FeedSettings
               ) -> tuple[list[tuple[Path, str]], str | None, bool]:
    """Stage ``<stem>.atom``: (renames, its name or None, refused).

    None when no item has a lastmod (an Atom feed must say when it was updated), or
    when the name is taken by a file that is not a feed of ours (refused: the site's own).
    """
    name = feed_name(stem)
    target = folder / name
    if target.exists() and not is_ours(target):
        return [], None, True
    entries = newest_entries(items, settings.size, settings.title_of)
    if not entries:
        return [], None, False
    self_link = site.join(name)
    text = atom_feed(
        entries,
        title=f"{settings.title}: recently updated pages" if settings.title.strip()
        else "Recently updated pages",
        feed_id=self_link, self_link=self_link, site_link=site.url,
        author=settings.author.strip() or settings.title.strip() or site.url,
    )
    temp, handle = staged.new(name)
    with handle:
        handle.write(text)
    return [(temp, name)], name, False


def remove_stale_feed(folder: Path, stem: str, keep: set[str]) -> list[str]:
    """Remove our ``<stem>.atom`` when the new tree has none (``feed`` off, nothing dated)."""
    name = feed_name(stem)
    if name in keep or not is_ours(folder / name):
        return []
    try:
        (folder / name).unlink()
    except OSError:
        return []
    return [name]
