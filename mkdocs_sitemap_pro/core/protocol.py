"""Every limit and rule of the sitemaps.org protocol, stated once.

The limits (URLs and bytes per file, loc length, images per URL), the namespaces, the entry file's name,
the "no more than a day in the future" rule, and the rules for single values
(changefreq, priority, lastmod, hreflang). Every ``check_*`` function takes any object (a
front-matter value, a config option, an entry field), returns the value in its one
canonical type, or raises ``ValueError`` with a message that names the bad value.
``format_priority`` and ``lastmod_text`` turn a checked value into the exact text
written between the tags.
The plugin's option checks and the writer both call these, so the two never disagree.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import Decimal
from typing import Literal

__all__ = [
    "CHANGEFREQS",
    "FUTURE_TOLERANCE",
    "IMAGE_NS",
    "MAX_BYTES",
    "MAX_IMAGES",
    "MAX_LOC_LENGTH",
    "MAX_URLS",
    "MIN_BYTES",
    "SITEMAP_NS",
    "UTC",
    "XHTML_NS",
    "LastmodFormat",
    "LastmodTexts",
    "SitemapError",
    "check_changefreq",
    "check_filename",
    "check_hreflang",
    "check_lastmod",
    "check_limit",
    "check_priority",
    "format_priority",
    "lastmod_text",
    "latest_allowed",
    "text_instant",
    "utc_key",
]

UTC = dt.timezone.utc

#: URLs in one sitemap file, and children of one index.
MAX_URLS = 50_000
#: Uncompressed bytes of one sitemap file (or index).
MAX_BYTES = 52_428_800
#: The smallest ``max_bytes`` accepted: room for the XML declaration, the root tags
#: and at least one ordinary ``<url>``.
MIN_BYTES = 1_024
#: The longest loc, counted after percent-escaping (Google: under 2,048 characters).
MAX_LOC_LENGTH = 2_047
#: ``<image:image>`` elements in one ``<url>`` (Google: "up to 1,000 images").
MAX_IMAGES = 1_000
#: A lastmod later than the build time by more than this is refused: it would announce
#: a change that has not happened.
FUTURE_TOLERANCE = dt.timedelta(days=1)

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"
IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"

LastmodFormat = Literal["datetime", "date"]

CHANGEFREQS: frozenset[str] = frozenset(
    {"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}
)

# A priority written as text (YAML users quote numbers): plain decimals only, no sign,
# exponent, "nan" or "inf", which float() would otherwise accept.
_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")

# W3C Datetime as ISO 8601 text: a calendar date, or a date and time with a zone.
# Parsed by hand so every supported Python accepts exactly the same forms.
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_ISO_DATETIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})"
    r"(?::([0-9]{2})(?:\.([0-9]+))?)?"
    r"(?:([Zz])|([+-])([0-9]{2}):?([0-9]{2}))?"
)


# BCP 47 language tags as hreflang takes them (``en``, ``pt-BR``, ``zh-Hant``), or x-default.
_HREFLANG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")


class SitemapError(Exception):
    """A sitemap cannot be written as asked: a bad entry (the message names its loc),
    or more files than one index may list."""


def check_limit(value: object, low: int, high: int) -> int:
    """Return ``value`` if it is a whole number in ``low..high`` (booleans are not)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{value:,} is out of range: it must be from {low:,} to {high:,}")
    return value


def check_filename(value: object) -> str:
    """Return ``value`` if it can name the entry file: a bare ``*.xml`` name in the site's root.

    No ``/``, ``\\`` or NUL (it must not leave the root), no leading ``.`` (hidden files
    are not published by every host), and more than the bare extension.
    """
    if not isinstance(value, str):
        raise ValueError(f"expected a file name such as 'sitemap.xml', got {value!r}")
    if any(ch in value for ch in ("/", "\\", "\0")) or value.startswith(".") or value == "":
        raise ValueError(
            f"{value!r} is not a bare file name: it must not hold '/', '\\' or NUL, "
            "nor start with '.' (e.g. 'sitemap.xml')"
        )
    if not value.endswith(".xml") or value == ".xml":
        raise ValueError(f"{value!r} must end with '.xml' (e.g. 'sitemap.xml')")
    return value


def latest_allowed(build_time: dt.datetime) -> dt.datetime:
    """The latest lastmod a build at ``build_time`` (aware) may write, in UTC."""
    return build_time.astimezone(UTC) + FUTURE_TOLERANCE


def check_hreflang(value: object) -> str:
    """Return ``value`` if it is a language tag (``en``, ``pt-BR``) or ``x-default``."""
    if isinstance(value, str) and (value == "x-default" or _HREFLANG.fullmatch(value)):
        return value
    raise ValueError(f"invalid hreflang {value!r}: expected a language tag such as 'en' or 'pt-BR'")


def check_changefreq(value: object) -> str:
    """Return ``value`` if it is one of the seven changefreq words (exact, lower case)."""
    if isinstance(value, str) and value in CHANGEFREQS:
        return value
    allowed = ", ".join(sorted(CHANGEFREQS))
    raise ValueError(f"invalid changefreq {value!r}: expected one of {allowed}")


def check_priority(value: object) -> float:
    """Return ``value`` as a float in 0.0..1.0.

    Accepts an int, a float, or a string holding a plain decimal (``"0.8"``). Rejects
    booleans (``True`` is not a priority), NaN, infinities and values outside 0..1.
    """
    if isinstance(value, bool):
        raise ValueError(f"invalid priority {value!r}: a boolean is not a number")
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str) and _DECIMAL.fullmatch(value.strip()):
        number = float(value.strip())
    else:
        raise ValueError(f"invalid priority {value!r}: expected a number from 0.0 to 1.0")
    if not math.isfinite(number) or not 0.0 <= number <= 1.0:
        raise ValueError(f"invalid priority {value!r}: expected a number from 0.0 to 1.0")
    return number + 0.0  # turns -0.0 into 0.0


def format_priority(p: float) -> str:
    """The shortest decimal text of a checked priority: ``0.5``, ``0.85``, ``1.0``.

    ``repr`` gives the shortest round-tripping digits; an exponent form (``1e-05``),
    which ``xsd:decimal`` forbids, is spelled out in plain digits instead.
    """
    text = repr(float(p) + 0.0)
    if "e" in text or "E" in text:
        text = format(Decimal(text), "f")
        if "." not in text:
            text += ".0"
    return text


def check_lastmod(value: object) -> dt.date | dt.datetime:
    """Return ``value`` as a date or an aware datetime.

    Accepts a ``date``, an aware ``datetime``, or ISO 8601 text: ``2024-02-29``,
    ``2024-02-29T13:05:00+02:00`` (``Z`` allowed, seconds and fraction optional). A
    naive datetime is rejected: only the caller knows its zone.
    """
    if isinstance(value, dt.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"invalid lastmod {value!r}: a datetime needs a time zone")
        try:
            value.astimezone(UTC)
        except OverflowError:
            raise ValueError(f"invalid lastmod {value!r}: out of range in UTC") from None
        return value
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        return _parse_iso(value)
    raise ValueError(f"invalid lastmod {value!r}: expected a date or a datetime")


def _parse_iso(text: str) -> dt.date | dt.datetime:
    """Parse ISO 8601 date or zoned datetime text; ``ValueError`` names the text."""
    stripped = text.strip()
    try:
        m = _ISO_DATE.fullmatch(stripped)
        if m:
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        m = _ISO_DATETIME.fullmatch(stripped)
        if m:
            if not (m[8] or m[9]):
                raise ValueError("a datetime needs a time zone")
            micro = int((m[7] or "0")[:6].ljust(6, "0"))
            if m[8]:
                tz: dt.tzinfo = UTC
            else:
                offset = dt.timedelta(hours=int(m[10]), minutes=int(m[11]))
                tz = dt.timezone(-offset if m[9] == "-" else offset)
            value = dt.datetime(
                int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[5]), int(m[6] or 0), micro, tz
            )
            value.astimezone(UTC)
            return value
    except (ValueError, OverflowError) as exc:
        raise ValueError(f"invalid lastmod {text!r}: {exc}") from None
    raise ValueError(
        f"invalid lastmod {text!r}: expected YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm"
    )


def utc_key(value: dt.date | dt.datetime) -> dt.datetime:
    """A checked lastmod as an aware UTC datetime, so dates and datetimes compare.

    A date ``d`` counts as ``d`` 00:00 UTC.
    """
    if isinstance(value, dt.datetime):
        return value.astimezone(UTC)
    return dt.datetime(value.year, value.month, value.day, tzinfo=UTC)


# "Thh:mm:" for each minute of a day and "ss+00:00" for each second: a datetime's text
# by table lookup rather than isoformat(), for the writer given many distinct instants
# (a generated sitemap of a million URLs), where the texts made cannot be reused.
_TWO_DIGITS = [f"{n:02d}" for n in range(60)]
_HOUR_MINUTES = tuple(f"T{h}:{m}:" for h in _TWO_DIGITS[:24] for m in _TWO_DIGITS)
_UTC_SECONDS = tuple(f"{s}+00:00" for s in _TWO_DIGITS)


class LastmodTexts:
    """Makes ``<lastmod>`` texts, W3C Datetime, in one ``lastmod_format``: the one place
    such a text is made. A build has one, so the page's meta, its sitemap entry, the
    index, the feed and the HTML view all carry the same text object.

    A datetime becomes UTC, ``YYYY-MM-DDThh:mm:ss+00:00`` (fraction dropped), or in
    ``"date"`` mode its UTC calendar date. A plain date stays ``YYYY-MM-DD`` in both.
    The text of each instant is made once and kept: a site's pages share the dates of
    its commits, so what is kept is bounded by the number of distinct dates.
    """

    __slots__ = ("format", "_with_time", "_texts", "_days")

    def __init__(self, fmt: LastmodFormat = "datetime") -> None:
        if fmt != "datetime" and fmt != "date":
            raise ValueError(f"invalid lastmod format {fmt!r}: expected 'datetime' or 'date'")
        self.format: LastmodFormat = fmt
        self._with_time = fmt == "datetime"
        # A UTC datetime or a plain date -> its text (a date never equals a datetime).
        self._texts: dict[dt.date, str] = {}
        self._days: dict[int, str] = {}  # date ordinal -> YYYY-MM-DD

    def text(self, value: dt.date | dt.datetime) -> str:
        """The text of a checked lastmod."""
        if isinstance(value, dt.datetime):
            if value.tzinfo is None or value.utcoffset() is None:
                raise ValueError(f"invalid lastmod {value!r}: a datetime needs a time zone")
            return self.utc_text(value.astimezone(UTC))
        if isinstance(value, dt.date):
            text = self._texts.get(value)
            if text is None:
                text = self._texts[value] = value.isoformat()
            return text
        raise ValueError(f"invalid lastmod {value!r}: expected a date or a datetime")

    def utc_text(self, utc: dt.datetime) -> str:
        """The text of a datetime in UTC (``utc_key``'s of a datetime)."""
        text = self._texts.get(utc)
        if text is not None:
            return text
        ordinal = utc.toordinal()
        day = self._days.get(ordinal)
        if day is None:
            day = self._days[ordinal] = utc.date().isoformat()
        if self._with_time:
            day = f"{day}{_HOUR_MINUTES[utc.hour * 60 + utc.minute]}{_UTC_SECONDS[utc.second]}"
        self._texts[utc] = day
        return day


def lastmod_text(value: dt.date | dt.datetime, fmt: LastmodFormat = "datetime") -> str:
    """The ``<lastmod>`` text of one checked lastmod (see ``LastmodTexts``)."""
    return LastmodTexts(fmt).text(value)


def text_instant(text: str) -> str:
    """The instant a ``lastmod_text`` names, as datetime text of the same form: a date
    is its midnight UTC. Texts of this form sort as their instants do."""
    return text if len(text) > 10 else f"{text}T00:00:00+00:00"
