"""The dates a built page gives itself, and whether they agree with its sitemap lastmod.

Three are read: Material for MkDocs' "last update" fact (the first fact of
``<aside class="md-source-file">``: mkdocs-git-revision-date-localized-plugin's span, or
plain text, in the page's language), ``<meta property="article:modified_time">`` and
JSON-LD ``dateModified``. A localized date is read by ``DateParser`` with the
month names of Babel (imported only when needed: it comes with Material, not with us);
without Babel, ISO dates and English month names only. A date that cannot be read is
left out.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
from collections.abc import Iterator
from typing import Any, NamedTuple

from lxml import etree, html

from mkdocs_sitemap_pro.core.protocol import check_lastmod

__all__ = ["DateParser", "DateOnPage", "disagrees", "dates_on_page", "parse_local_date"]

VISIBLE = "the visible last-update date"
META = "article:modified_time"
JSON_LD = "JSON-LD dateModified"

_ASIDE = re.compile(r"<aside\b[^>]*\bmd-source-file\b[^>]*>.*?</aside\s*>", re.I | re.S)
_META = re.compile(r"<meta\b[^>]*article:modified_time[^>]*>", re.I)
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.I | re.S)
_LANG = re.compile(r"<html\b[^>]*?\blang\s*=\s*[\"']?([A-Za-z0-9_-]+)", re.I)
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
# A time, with its fraction, am/pm and offset: never part of the date.
_TIME = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:\s*[ap]\.?\s?m\b\.?)?"
                   r"(?:\s*(?:utc|gmt)?\s*[+-]\d{1,2}(?::?\d{2})?)?")
# A run of digits, or a word: anything but digits, spaces and date punctuation, with
# inner dots (Thai ``มิ.ย.``), which ``_tokens`` then drops.
_WORD = r"[^\d\s.,/\\\-–—:;'’\"()\[\]+]+"
_TOKEN = re.compile(rf"\d+|{_WORD}(?:\.{_WORD})*")
_ENGLISH = ("january", "february", "march", "april", "may", "june", "july", "august",
            "september", "october", "november", "december")


class DateOnPage(NamedTuple):
    """One date a page states: which (``VISIBLE``, ``META``, ``JSON_LD``), as written,
    and its value (a datetime only where the page gives a zoned time)."""

    what: str
    written: str
    value: dt.date | dt.datetime


def dates_on_page(page_html: str, parser: DateParser | None = None) -> list[DateOnPage]:
    """Every date of ``page_html`` that could be read, at most one of each kind."""
    found = [_visible(page_html, parser or DateParser()), _meta(page_html), _json_ld(page_html)]
    return [date for date in found if date is not None]


def disagrees(page: dt.date | dt.datetime, lastmod: dt.date | dt.datetime) -> bool:
    """More than a day apart: two zoned datetimes by over 24 hours, else their calendar
    dates (each as written, in its own zone) by over one day."""
    if isinstance(page, dt.datetime) and isinstance(lastmod, dt.datetime):
        return abs(page - lastmod) > dt.timedelta(hours=24)
    return abs((_day(page) - _day(lastmod)).days) > 1


def _day(value: dt.date | dt.datetime) -> dt.date:
    return value.date() if isinstance(value, dt.datetime) else value


def _iso(text: str) -> dt.date | dt.datetime | None:
    """ISO 8601 text as a date or a zoned datetime (a datetime without zone: its date)."""
    try:
        return check_lastmod(text)
    except ValueError:
        pass
    match = _ISO_DATE.match(text.strip())
    try:
        return dt.date(*map(int, match.groups())) if match else None
    except ValueError:
        return None


def _visible(page_html: str, parser: DateParser) -> DateOnPage | None:
    """Material's "last update" fact: the first fact of its source-file aside."""
    if "md-source-file" not in page_html:
        return None
    match = _ASIDE.search(page_html)
    if match is None:
        return None
    try:
        aside = html.fragment_fromstring(match.group(0))
    except (etree.ParserError, ValueError):
        return None
    facts = aside.find_class("md-source-file__fact")
    if not facts:
        return None
    stamped = facts[0].xpath(".//*[@datetime]")  # the plugin's timeago span
    if stamped:
        written = stamped[0].get("datetime", "").strip()
        value = _iso(written)
    else:
        written = " ".join(facts[0].text_content().split())
        lang = _LANG.search(page_html)
        value = parser.parse(written, lang.group(1) if lang else None)
    return DateOnPage(VISIBLE, written, value) if value is not None else None


def _meta(page_html: str) -> DateOnPage | None:
    if META not in page_html:
        return None
    for match in _META.finditer(page_html):
        try:
            tag = html.fragment_fromstring(match.group(0))
        except (etree.ParserError, ValueError):
            continue
        if META in (tag.get("property"), tag.get("name")):
            written = (tag.get("content") or "").strip()
            value = _iso(written)
            return DateOnPage(META, written, value) if value is not None else None
    return None


def _json_ld(page_html: str) -> DateOnPage | None:
    if "ld+json" not in page_html:
        return None
    for match in _SCRIPT.finditer(page_html):
        if "ld+json" not in match.group(1).lower():
            continue
        try:
            data = json.loads(match.group(2))
        except ValueError:
            continue  # not JSON: nothing can be read from it
        for written in _date_modified(data):
            value = _iso(written)
            if value is not None:
                return DateOnPage(JSON_LD, written.strip(), value)
    return None


def _date_modified(data: Any) -> Iterator[str]:
    """Every ``dateModified`` text in a JSON-LD value, at any depth, in order."""
    if isinstance(data, dict):
        value = data.get("dateModified")
        if isinstance(value, str):
            yield value
        for key, child in data.items():
            if key != "dateModified":
                yield from _date_modified(child)
    elif isinstance(data, list):
        for child in data:
            yield from _date_modified(child)


#: Month names (as ``_tokens`` splits them) and their months, in the order to look for them.
_Names = tuple[tuple[tuple[str, ...], int], ...]


class _Locale(NamedTuple):
    """What reading one locale's dates takes: month names, short-pattern order."""

    months: _Names
    order: str | None  # "dMy": the order of the short date pattern; None without Babel


class DateParser:
    """Reads localized dates, each locale's month names looked up once (by Babel)."""

    def __init__(self) -> None:
        self._locales: dict[str | None, _Locale] = {}

    def _locale(self, code: str | None) -> _Locale:
        known = self._locales.get(code)
        if known is None:
            babel_locale = _babel_locale(code)
            known = _Locale(_month_names(babel_locale), _numeric_order(babel_locale))
            self._locales[code] = known
        return known

    def parse(self, text: str, locale: str | None = None) -> dt.date | None:
        """A calendar date written for people in ``locale`` (BCP 47 or Babel code), or None.

        ISO ``2024-06-03`` first. Otherwise times and zones are dropped, and the date is
        the 4-digit year, a month named in words (Babel's wide and abbreviated names, in
        their format and stand-alone forms, any case, dots ignored; English too) and the
        number of one or two digits nearest it; or, with no month name, three numbers:
        year first, or in the order of the locale's short date pattern (``dd.MM.yy``).
        """
        text = _fold(text)
        iso = _ISO_DATE.search(text)
        if iso:
            return _date(*map(int, iso.groups()))
        known = self._locale(locale)
        tokens = _tokens(_TIME.sub(" ", text))
        month, span = _find_month(tokens, known.months)
        numbers = {i: t for i, t in enumerate(tokens) if t.isdecimal() and i not in span}
        year_at = next((i for i, n in numbers.items() if len(n) == 4), None)
        if month is not None:
            return _named_month_date(numbers, year_at, month, span)
        return _numeric_date(numbers, year_at, known.order)


def _named_month_date(numbers: dict[int, str], year_at: int | None, month: int,
                      span: range) -> dt.date | None:
    """The date of a month named in words at token ``span``: the 4-digit year (at token
    ``year_at``) and the number of one or two digits nearest the name."""
    days = [i for i, n in numbers.items() if i != year_at and len(n) <= 2]
    if year_at is None or not days:
        return None
    day_at = min(days, key=lambda i: min(abs(i - span.start), abs(i - span.stop + 1)))
    return _date(int(numbers[year_at]), month, int(numbers[day_at]))


def _numeric_date(numbers: dict[int, str], year_at: int | None,
                  order: str | None) -> dt.date | None:
    """The date of three numbers (by token): year first, or in ``order``, the order of
    the locale's short date pattern (a 4-digit year where it is, a 2-digit one 20yy)."""
    if len(numbers) != 3:
        return None
    first, second, third = (int(n) for n in numbers.values())
    if year_at == min(numbers):
        return _date(first, second, third)
    if order is None:
        return None
    if year_at is not None:  # the year where it is; the others in the pattern's order
        year = int(numbers[year_at])
        one, two = (int(n) for i, n in numbers.items() if i != year_at)
        month_first = order.index("M") < order.index("d")
        return _date(year, *((one, two) if month_first else (two, one)))
    by = dict(zip(order, (first, second, third)))
    return _date(by["y"] + 2000 if by["y"] < 100 else by["y"], by["M"], by["d"])


def parse_local_date(text: str, locale: str | None = None) -> dt.date | None:
    """``DateParser().parse``: one date, with no month names kept for the next."""
    return DateParser().parse(text, locale)


def _tokens(text: str) -> tuple[str, ...]:
    """The numbers and words of casefolded NFKC ``text``, inner dots dropped."""
    return tuple(token.replace(".", "") for token in _TOKEN.findall(text))


def _find_month(tokens: tuple[str, ...], names: _Names) -> tuple[int | None, range]:
    """The month of the first of ``names`` found in ``tokens``, and where it is."""
    present = set(tokens)
    for name, month in names:
        if name[0] in present:
            for at in range(len(tokens) - len(name) + 1):
                if tokens[at:at + len(name)] == name:
                    return month, range(at, at + len(name))
    return None, range(0)


def _date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except (ValueError, OverflowError):
        return None


def _babel_locale(code: str | None) -> Any:
    """Babel's ``Locale`` for ``code`` (or its language alone), English if none; None
    without Babel."""
    try:
        from babel import Locale, UnknownLocaleError
    except ImportError:
        return None
    candidates = [code.replace("-", "_"), code.replace("-", "_").split("_")[0]] if code else []
    for candidate in [*candidates, "en"]:
        try:
            return Locale.parse(candidate)
        except (UnknownLocaleError, ValueError, TypeError):
            continue
    return None


def _month_names(locale: Any) -> _Names:
    """Month names as tokens (``("de", "juny")``) and their months, English then
    ``locale``'s, in the order to look for them: longest first, and a name that is a
    weekday's too (Spanish ``mar``: March and Tuesday) after the others."""
    names: dict[tuple[str, ...], int] = {(name,): n for n, name in enumerate(_ENGLISH, start=1)}
    names.update({(name[:3],): n for n, name in enumerate(_ENGLISH, start=1)})
    names[("sept",)] = 9
    weekdays: set[tuple[str, ...]] = set()
    if locale is not None:
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for month, name in locale.months.get(context, {}).get(width, {}).items():
                    tokens = _tokens(_fold(name))
                    if tokens:
                        names[tokens] = int(month)
        weekdays = {_tokens(_fold(name)) for context in locale.days.values()
                    for width in context.values() for name in width.values()}
    return tuple(sorted(names.items(), key=lambda item: (item[0] in weekdays, -len(item[0]))))


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _numeric_order(locale: Any) -> str | None:
    """The order of year, month and day in ``locale``'s short date pattern (``"dMy"``)."""
    if locale is None:
        return None
    pattern = re.sub(r"'[^']*'", "", locale.date_formats["short"].pattern).replace("L", "M")
    at = {field: pattern.find(field) for field in "yMd"}
    if min(at.values()) < 0:
        return None
    return "".join(sorted(at, key=at.__getitem__))
