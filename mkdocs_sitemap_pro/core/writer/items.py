"""Entries -> items ready to write: normalised, checked, escaped, sorted and merged.

Step one of ``write_sitemaps``. Each loc is normalised (``urls.normalise_loc``); a loc
that is not http(s), not under the site URL or longer than ``MAX_LOC_LENGTH`` is dropped
and reported. Field values are checked (a bad one raises ``SitemapError`` naming the
loc: the caller validates beforehand, this is the last line of defence). A lastmod later
than ``protocol.latest_allowed`` is dropped (the entry is kept). Entries with the same
final loc merge into one: the one with the newest lastmod wins (ties are broken by the
other fields, so the input order never matters). An entry's images are normalised as
locs are and written once each, in the order given (``image_part``).

The items travel as plain tuples (``Row``, in ``Item``'s field order): made without a
call into Python code, and left alone by the garbage collector once it has seen them,
where a NamedTuple is made by a Python ``__new__`` and stays tracked for good. ``Item``
names the fields where rows are read by name (the view pages, the feed).
"""

import datetime as dt
from collections.abc import Iterable
from itertools import islice
from operator import eq, itemgetter
from typing import NamedTuple

from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.protocol import (
    CHANGEFREQS,
    MAX_IMAGES,
    MAX_LOC_LENGTH,
    UTC,
    LastmodTexts,
    SitemapError,
    check_hreflang,
    check_lastmod,
    check_priority,
    format_priority,
    latest_allowed,
    utc_key,
)
from mkdocs_sitemap_pro.core.urls import SiteUrl, normalise_loc, xml_escape

__all__ = ["ALTERNATES", "IMAGES", "Collected", "Dropped", "Item", "Row", "collect",
           "entry_problem", "image_part", "sort_and_merge"]

#: The extension namespaces an item's elements use, as bits of ``Item.extensions``: the
#: ``<urlset>`` that holds it must declare them.
ALTERNATES = 1  # xhtml:link
IMAGES = 2  # image:image

_CHANGEFREQ_PARTS = {word: f"<changefreq>{word}</changefreq>" for word in CHANGEFREQS}


class Dropped(NamedTuple):
    """Something left out of the sitemap: the entry's loc (as given) and why."""

    loc: str
    reason: str


class Item(NamedTuple):
    """One collected entry, ready to write (a ``Row`` with its fields named)."""

    loc: str  # normalised
    loc_xml: str  # the same, entity-escaped for XML
    key: dt.datetime | None  # its lastmod as an aware UTC datetime, to compare
    lastmod: str | None  # its lastmod's text (``LastmodTexts``), as written
    rest: str  # the elements written after its lastmod (changefreq, priority, alternates, images)
    extensions: int  # the namespaces ``rest`` uses (``ALTERNATES | IMAGES``)
    given: str  # the loc as the entry gave it


#: An ``Item`` as a plain tuple: (loc, loc_xml, key, lastmod, rest, extensions, given).
Row = tuple[str, str, dt.datetime | None, str | None, str, int, str]


class Collected(NamedTuple):
    """What ``collect`` gives: the rows to write, and what was left out of them."""

    rows: list[Row]
    dropped: list[Dropped]  # entries left out
    dropped_lastmods: list[Dropped]  # entries kept without their lastmod
    extensions: int  # every namespace some item uses


def collect(
    entries: Iterable[SitemapEntry],
    site: SiteUrl,
    texts: LastmodTexts,
    build_time: dt.datetime,
) -> Collected:
    """Normalise and check the entries: the items to write, plus what was left out.
    Each lastmod's text is ``texts``'s (the build's, so a page's meta and its entry
    share one text).
    """
    future_limit = latest_allowed(build_time)
    rows: list[Row] = []
    dropped: list[Dropped] = []
    dropped_lastmods: list[Dropped] = []
    any_extensions = 0
    priorities: dict[float, str] = {}
    for entry in entries:
        raw = entry.loc
        try:
            loc = normalise_loc(raw)
        except (ValueError, TypeError, AttributeError) as exc:
            dropped.append(Dropped(str(raw), f"not a valid URL: {exc}"))
            continue
        if not (loc.startswith(site.url) and len(loc) <= MAX_LOC_LENGTH):
            reason = _refusal(loc, site)
            if reason is not None:
                dropped.append(Dropped(raw, reason))
                continue
        lastmod = entry.lastmod
        key: dt.datetime | None
        text: str | None
        if type(lastmod) is dt.datetime and lastmod.tzinfo is UTC:
            key, text = lastmod, texts.utc_text(lastmod)  # git's dates, in UTC
        else:
            key, text = _dated(raw, lastmod, texts)
        if key is not None and key > future_limit:
            dropped_lastmods.append(
                Dropped(raw, f"lastmod {text} is more than one day after the build time"))
            key = text = None
        rest, extensions = _rest(raw, entry, priorities) if entry[2:] != _BARE else ("", 0)
        any_extensions |= extensions
        # A normalised loc holds no '"', '<' or '>' (they are percent-escaped).
        loc_xml = xml_escape(loc) if "&" in loc or "'" in loc else loc
        rows.append((loc, loc_xml, key, text, rest, extensions, raw))
    return Collected(rows, dropped, dropped_lastmods, any_extensions)


# What an entry holds after its lastmod when it has no other element.
_BARE = SitemapEntry("")[2:]


def _refusal(loc: str, site: SiteUrl) -> str | None:
    """Why a normalised loc is left out (not under the site, too long), or None."""
    reason = None if loc.startswith(site.url) else site.reject_reason(loc)
    if reason is None and len(loc) > MAX_LOC_LENGTH:
        return f"longer than {MAX_LOC_LENGTH:,} characters after escaping ({len(loc):,})"
    return reason


def _dated(raw: str, lastmod: object, texts: LastmodTexts
           ) -> tuple[dt.datetime, str] | tuple[None, None]:
    """(UTC key, text) of an entry's lastmod; ``SitemapError`` naming the loc if bad."""
    if lastmod is None:
        return None, None
    if type(lastmod) is dt.datetime and type(lastmod.tzinfo) is dt.timezone:
        try:  # git's dates: a fixed offset (the common case) needs no other check
            key = lastmod if lastmod.tzinfo is UTC else lastmod.astimezone(UTC)
            return key, texts.utc_text(key)
        except OverflowError:  # out of range in UTC: the check below says so
            pass
    try:
        value = check_lastmod(lastmod)
    except ValueError as exc:
        raise SitemapError(f"sitemap entry {raw}: {exc}") from None
    return utc_key(value), texts.text(value)


def _rest(raw: str, entry: SitemapEntry, priorities: dict[float, str]) -> tuple[str, int]:
    """The elements of an entry after its lastmod, and the namespaces they use.

    ``priorities``: the texts of the float priorities seen so far (floats only, as
    ``True == 1`` and ``"0.5" != 0.5``).
    """
    rest = ""
    changefreq = entry.changefreq
    if changefreq is not None:
        part = _CHANGEFREQ_PARTS.get(changefreq) if isinstance(changefreq, str) else None
        if part is None:
            raise SitemapError(f"sitemap entry {raw}: invalid changefreq {changefreq!r}")
        rest += part
    priority = entry.priority
    if priority is not None:
        part = priorities.get(priority) if type(priority) is float else None
        if part is None:
            try:
                part = f"<priority>{format_priority(check_priority(priority))}</priority>"
            except ValueError as exc:
                raise SitemapError(f"sitemap entry {raw}: {exc}") from None
            if type(priority) is float:
                priorities[priority] = part
        rest += part
    extensions = 0
    if entry.alternates:
        extensions = ALTERNATES
        rest += _alternates_part(raw, entry)
    images = image_part(raw, entry.images) if entry.images else ""
    if images:
        extensions |= IMAGES
    return rest + images, extensions


def entry_problem(entry: object, site: SiteUrl, build_time: dt.datetime) -> str | None:
    """Why ``collect`` would leave ``entry`` out or refuse it, or None if it would write it.

    For entries made by someone else's code (a site's hook): the same rules as ``collect``,
    so that one bad entry is a message about that entry, not a failed write.
    """
    if not isinstance(entry, SitemapEntry):
        return f"not a SitemapEntry: {type(entry).__name__}"
    try:
        collected = collect([entry], site, LastmodTexts("datetime"), build_time)
    except SitemapError as exc:
        return str(exc)
    except (TypeError, AttributeError, ValueError) as exc:  # e.g. alternates not Alternates
        return f"sitemap entry {entry.loc!r}: {exc}"
    if collected.dropped:
        return f"sitemap entry {entry.loc}: {collected.dropped[0].reason}"
    return None


def sort_and_merge(rows: list[Row]) -> tuple[list[Row], set[str]]:
    """Sort by loc (code point order) and merge equal locs: the newest lastmod wins.

    Among equal lastmods the entry whose other fields sort last as text wins, so the
    result never depends on the order entries were given in. Equal locs end up
    adjacent; whether there are any is checked at C speed before the merging loop runs.
    """
    rows.sort(key=_LOC)
    locs = list(map(_LOC, rows))
    if not any(map(eq, locs, islice(locs, 1, None))):
        return rows, set()
    duplicates: set[str] = set()
    merged = [rows[0]]
    for row in islice(rows, 1, None):
        loc, _, new_key, new_text, new_rest, _, _ = row
        old_loc, _, old_key, old_text, old_rest, _, _ = merged[-1]
        if loc != old_loc:
            merged.append(row)
            continue
        duplicates.add(loc)
        if new_key == old_key:  # both None, or the same instant: the larger text wins
            if (new_text or "", new_rest) > (old_text or "", old_rest):
                merged[-1] = row
        elif new_key is not None and (old_key is None or new_key > old_key):
            merged[-1] = row
    return merged, duplicates


_LOC = itemgetter(0)


def _alternates_part(raw: str, entry: SitemapEntry) -> str:
    """The ``xhtml:link`` elements of an entry's alternates."""
    parts = []
    for alternate in entry.alternates:
        try:
            hreflang = check_hreflang(alternate.hreflang)
        except ValueError as exc:
            raise SitemapError(f"sitemap entry {raw}: {exc}") from None
        try:
            href = normalise_loc(alternate.href)
        except (ValueError, TypeError, AttributeError) as exc:
            raise SitemapError(f"sitemap entry {raw}: invalid alternate href: {exc}") from None
        parts.append(
            f'<xhtml:link rel="alternate" hreflang="{hreflang}" href="{xml_escape(href)}"/>'
        )
    return "".join(parts)




def image_part(raw: str, images: Iterable[str]) -> str:
    """The ``image:image`` elements of an entry's images: each an absolute http(s) URL,
    normalised as a loc is, written once (the first time it comes), at most
    ``MAX_IMAGES``; ``SitemapError`` naming the entry's loc (``raw``) otherwise."""
    seen: set[str] = set()
    parts = []
    for image in images:
        try:
            url = normalise_loc(image)
        except (ValueError, TypeError, AttributeError) as exc:
            raise SitemapError(f"sitemap entry {raw}: invalid image URL: {exc}") from None
        if url in seen:
            continue
        if not url.startswith(("http://", "https://")):
            raise SitemapError(
                f"sitemap entry {raw}: image {image!r} is not an absolute http(s) URL")
        seen.add(url)
        parts.append(f"<image:image><image:loc>{xml_escape(url)}</image:loc></image:image>")
    if len(parts) > MAX_IMAGES:
        raise SitemapError(f"sitemap entry {raw}: {len(parts):,} images, more than the "
                           f"{MAX_IMAGES:,} one URL may list")
    return "".join(parts)
