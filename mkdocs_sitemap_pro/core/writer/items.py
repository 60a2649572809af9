"""Entries -> items ready to write: normalised, checked, escaped, sorted and merged.

Step one of ``write_sitemaps``. Each loc is normalised (``urls.normalise_loc``); a loc
that is not http(s), not under the site URL or longer than ``MAX_LOC_LENGTH`` is dropped
and reported. Field values are checked (a bad one raises ``SitemapError`` naming the
loc: the caller validates beforehand, this is the last line of defence). A lastmod later
than ``protocol.latest_allowed`` is dropped (the entry is kept). Entries with the same
final loc merge into one: the one with the newest lastmod wins (ties are broken by the
other fields, so the input order never matters).
"""

import datetime as dt
from collections.abc import Iterable
from itertools import islice
from operator import eq, itemgetter
from typing import NamedTuple, Optional, Union, cast

from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.protocol import (
    CHANGEFREQS,
    HOUR_MINUTES,
    MAX_LOC_LENGTH,
    UTC,
    UTC_SECONDS,
    LastmodFormat,
    SitemapError,
    check_hreflang,
    check_lastmod,
    check_priority,
    format_lastmod,
    format_priority,
    latest_allowed,
    utc_key,
)
from mkdocs_sitemap_pro.core.urls import SiteUrl, normalise_loc, xml_escape

__all__ = ["Collected", "Dropped", "Item", "collect", "sort_and_merge"]

_CHANGEFREQ_PARTS = {word: f"<changefreq>{word}</changefreq>" for word in CHANGEFREQS}
# "Thh:mm:" for each minute of a day and "ss+00:00</lastmod>" for each second: the
# time part of a UTC lastmod element by table lookup.
_TIME_TAGS = (HOUR_MINUTES, tuple([s + "</lastmod>" for s in UTC_SECONDS]))


class Dropped(NamedTuple):
    """Something left out of the sitemap: the entry's loc (as given) and why."""

    loc: str
    reason: str


# One collected entry: (normalised loc, the same entity-escaped for XML, UTC key of its
# lastmod or None, the checked lastmod or None, the text after </loc> inside <url>,
# whether it has alternates, the loc as given). A plain tuple, not a NamedTuple: a
# million are built per run and sorted by itemgetter, and measured, a NamedTuple's
# constructor cost more than the rest of the loop's bookkeeping.
Item = tuple[
    str, str, Optional[dt.datetime], Optional[Union[dt.date, dt.datetime]], str, bool, str
]



class Collected(NamedTuple):
    """What ``collect`` gives: the items to write, and what was left out of them."""

    items: list[Item]
    dropped: list[Dropped]  # entries left out
    dropped_lastmods: list[Dropped]  # entries kept without their lastmod
    any_alternates: bool


def collect(
    entries: Iterable[SitemapEntry],
    site: SiteUrl,
    lastmod_format: LastmodFormat,
    build_time: dt.datetime,
) -> Collected:
    """Normalise and check the entries: the items to write, plus what was left out.

    This loop runs once per page (a million in the benchmark), so the common case (an
    already-escaped loc, a UTC datetime, no changefreq or priority) is kept free of
    function calls beyond the URL check.
    """
    future_limit = latest_allowed(build_time)
    items: list[Item] = []
    append = items.append
    dropped: list[Dropped] = []
    dropped_lastmods: list[Dropped] = []
    any_alternates = False
    priority_cache: dict[float, str] = {}  # floats only: True == 1 and "0.5" != 0.5
    # "<lastmod>YYYY-MM-DD" per day seen; with _TIME_TAGS, a UTC datetime's element is
    # three lookups instead of a call to isoformat(). No cache per datetime value: with
    # distinct values (the usual case) hashing and storing them cost more than they save.
    day_tags: dict[int, str] = {}
    hour_minutes, seconds = _TIME_TAGS
    timezone_type = dt.timezone
    base_url = site.url
    changefreq_parts = _CHANGEFREQ_PARTS
    datetime_type = dt.datetime
    utc = UTC
    as_datetime = lastmod_format == "datetime"

    for entry in entries:
        raw = entry.loc
        try:
            loc = normalise_loc(raw)
        except (ValueError, TypeError, AttributeError) as exc:
            dropped.append(Dropped(str(raw), f"not a valid URL: {exc}"))
            continue
        if not loc.startswith(base_url):
            reason = site.reject_reason(loc)
            if reason is not None:
                dropped.append(Dropped(raw, reason))
                continue
        if len(loc) > MAX_LOC_LENGTH:
            dropped.append(
                Dropped(
                    raw,
                    f"longer than {MAX_LOC_LENGTH:,} characters after escaping ({len(loc):,})",
                )
            )
            continue

        value = entry.lastmod
        if value is None:
            key = None
            tail = ""
        else:
            zone = value.tzinfo if type(value) is datetime_type else None
            if zone is utc or type(zone) is timezone_type:
                # The common case, built from tables: 4x faster than isoformat().
                moment = cast(dt.datetime, value)  # type(value) is datetime, as checked
                try:
                    key = moment if zone is utc else moment.astimezone(utc)
                except OverflowError:
                    key, value, tail = _lastmod_parts(raw, value, lastmod_format)
                else:
                    day = day_tags.get(key.toordinal())
                    if day is None:
                        day = day_tags[key.toordinal()] = f"<lastmod>{key.date().isoformat()}"
                    if as_datetime:
                        minute = hour_minutes[key.hour * 60 + key.minute]
                        tail = f"{day}{minute}{seconds[key.second]}"
                    else:
                        tail = day + "</lastmod>"
            else:
                key, value, tail = _lastmod_parts(raw, value, lastmod_format)
            if key > future_limit:
                dropped_lastmods.append(
                    Dropped(raw, f"lastmod {tail[9:-10]} is more than one day after the build time")
                )
                key = value = None
                tail = ""

        changefreq = entry.changefreq
        if changefreq is not None:
            part = changefreq_parts.get(changefreq) if isinstance(changefreq, str) else None
            if part is None:
                raise SitemapError(f"sitemap entry {raw}: invalid changefreq {changefreq!r}")
            tail += part

        priority = entry.priority
        if priority is not None:
            part = priority_cache.get(priority) if type(priority) is float else None
            if part is None:
                try:
                    part = f"<priority>{format_priority(check_priority(priority))}</priority>"
                except ValueError as exc:
                    raise SitemapError(f"sitemap entry {raw}: {exc}") from None
                if type(priority) is float:
                    priority_cache[priority] = part
            tail += part

        has_alternates = bool(entry.alternates)
        if has_alternates:
            any_alternates = True
            tail += _alternates_part(raw, entry)

        loc_xml = xml_escape(loc) if ("&" in loc or "'" in loc) else loc
        append((loc, loc_xml, key, value, tail, has_alternates, raw))
    return Collected(items, dropped, dropped_lastmods, any_alternates)


def sort_and_merge(items: list[Item]) -> tuple[list[Item], set[str]]:
    """Sort by loc (code point order) and merge equal locs: the newest lastmod wins.

    Among equal lastmods the entry whose other fields sort last as text wins, so the
    result never depends on the order entries were given in. Equal locs end up
    adjacent; whether there are any is checked at C speed before the merging loop runs.
    """
    items.sort(key=itemgetter(0))
    locs = list(map(itemgetter(0), items))
    if not any(map(eq, locs, islice(locs, 1, None))):
        return items, set()
    duplicates: set[str] = set()
    merged = [items[0]]
    for item in islice(items, 1, None):
        last = merged[-1]
        if item[0] != last[0]:
            merged.append(item)
            continue
        duplicates.add(item[0])
        new_key, old_key = item[2], last[2]
        if new_key == old_key:  # both None, or the same instant: the larger text wins
            if item[4] > last[4]:
                merged[-1] = item
        elif new_key is not None and (old_key is None or new_key > old_key):
            merged[-1] = item
    return merged, duplicates


def _lastmod_parts(
    raw: str,
    lastmod: object,
    lastmod_format: LastmodFormat,
) -> tuple[dt.datetime, dt.date | dt.datetime, str]:
    """(UTC key, checked value, ``<lastmod>…</lastmod>``) of any lastmod; SitemapError if bad."""
    try:
        value = check_lastmod(lastmod)
    except ValueError as exc:
        raise SitemapError(f"sitemap entry {raw}: {exc}") from None
    return utc_key(value), value, f"<lastmod>{format_lastmod(value, lastmod_format)}</lastmod>"


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


