"""The rules for a built site on disk: each listed URL is a page that wants to be indexed,
and the pages that are not listed are counted.

A listed URL must have its HTML in the folder, and that page's ``<head>`` must not say
``noindex``, must not be a redirect stub (``meta refresh``), and must not be canonical
to another URL (``core.page.html`` reads the head, as the plugin does while building).
A page whose own date (``dates_on_page``) is more than a day from its lastmod is a warning.
Built pages that want indexing but are missing from the sitemap are one warning.

Also the manifest beside an entry sitemap, and the dates a built page gives itself (whether
they agree with its sitemap lastmod).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import stat
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urljoin

from lxml import etree, html

from mkdocs_sitemap_pro.core.check.findings import Findings, Ticker
from mkdocs_sitemap_pro.core.check.sources import (
    FetchError,
    LocalSource,
    Outside,
    Source,
    inside,
    read_regular,
)
from mkdocs_sitemap_pro.core.check.tree_rules import ListedUrls
from mkdocs_sitemap_pro.core.deploy.manifest import (
    MAX_BYTES,
    ManifestError,
    manifest_name,
    parse_manifest,
    path_key,
)
from mkdocs_sitemap_pro.core.deploy.versions import VersionsError, parse_versions
from mkdocs_sitemap_pro.core.page.html import HeadDirectives, read_head
from mkdocs_sitemap_pro.core.protocol import check_lastmod
from mkdocs_sitemap_pro.core.urls import normalise_loc

__all__ = [
    "check_pages", "count_unlisted", "check_manifests", "DateParser", "DateOnPage", "disagrees",
    "dates_on_page", "parse_local_date",
]


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

_EXAMPLES = 5
_TICK_EVERY = 1_000
_VERSIONS_MAX_BYTES = 10 * 1024 * 1024


def _read(path: Path, root: Path) -> str | None:
    """The text of the regular file at ``path`` if it is inside ``root`` (after symlinks)."""
    try:
        data = read_regular(inside(root, path.relative_to(root).as_posix()), None)
    except (OSError, ValueError):  # Outside is a ValueError
        return None
    return None if data is None else data.decode("utf-8", errors="replace")


def _kind(path: Path | None) -> str | None:
    """"file", "dir", or None (nothing there, or something else): one ``stat``."""
    if path is None:
        return None
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return "file" if stat.S_ISREG(mode) else "dir" if stat.S_ISDIR(mode) else None


def _rendered_page(text: str) -> bool:
    """Whether an HTML file is a page a builder rendered, not a copied template.

    A theme's ``custom_dir`` kept inside docs_dir (``overrides/main.html``) is copied into
    the site as a plain file: a Jinja template (it starts with a tag, a comment or an
    expression) or a fragment with neither ``<html>`` nor ``<head>``.
    """
    if text.lstrip()[:2] in ("{%", "{#", "{{"):
        return False
    start = text[:4096].lower()
    return "<html" in start or "<head" in start


def _canonical_elsewhere(head: HeadDirectives, url: str) -> str | None:
    if not head.canonical:
        return None
    try:
        target = normalise_loc(urljoin(url, head.canonical.strip()))
    except ValueError:
        return None
    return None if target == url else target


def check_pages(urls: ListedUrls, source: LocalSource,
                found: Findings, ticker: Ticker | None = None) -> None:
    """Each listed URL's page exists, asks to be indexed and dates itself as listed;
    ``ticker`` tells how far it has got."""
    parser = DateParser()
    for number, (loc, places) in enumerate(urls.items()):
        if ticker is not None and number % _TICK_EVERY == 0:
            ticker.tick(lambda: f"checking the pages: {number:,} of {len(urls):,} listed URLs")
        shown = places[0][0].shown
        try:
            path = source.path_of(loc)
            kind = _kind(path)
            if path is not None and kind == "dir":
                path = inside(source.root, path.relative_to(source.root).as_posix() + "/index.html",
                              source.folders)
                kind = _kind(path)
            exists = kind == "file"
        except Outside as error:
            found.error("loc-outside-site", shown, f"{loc}: {error}; not looked at", url=loc)
            continue
        except OSError:  # a name too long for this file system, say
            exists = False
        if path is None:
            continue  # not under the site URL: the loc rules said so
        if not exists:
            found.error("page-missing", shown, f"{loc}: no page {source.display(loc)} in the site", url=loc)
            continue
        if path.suffix.lower() not in (".html", ".htm"):
            continue
        text = _read(path, source.root)
        if text is None:
            continue
        head = read_head(text)
        if head.noindex:
            found.error("page-noindex", shown, f"{loc}: the page says noindex, yet it is listed", url=loc)
        if head.refresh:
            found.error("page-redirect", shown,
                        f"{loc}: the page is a redirect stub (meta refresh), not a page", url=loc)
        elsewhere = _canonical_elsewhere(head, loc)
        if elsewhere is not None:
            found.error("page-canonical", shown,
                        f"{loc}: the page names {elsewhere} as its canonical URL; list that one", url=loc)
        _check_dates(loc, places[0][1].lastmod, text, parser, shown, found)


def _check_dates(loc: str, lastmod: str | None, text: str, parser: DateParser,
                 shown: str, found: Findings) -> None:
    """Each date the page gives itself is within a day of its lastmod."""
    if lastmod is None:
        return
    try:
        listed = check_lastmod(lastmod)
    except ValueError:
        return  # reported by the file rules
    for date in dates_on_page(text, parser):
        if disagrees(date.value, listed):
            found.warning("date-mismatch", shown,
                          f"{loc}: {date.what} on the page is {date.written!r}, but the "
                          f"sitemap's lastmod is {lastmod.strip()}: more than a day apart", url=loc)


def _error_page(rel: str, folder: Path) -> bool:
    """A "not found" page: a theme's ``404.html`` anywhere, or a ``404.md`` page
    (``404/``) at the root, at a language or version root (one folder down), or at a
    version's language root (two down, the version holding its own sitemap.xml)."""
    if rel == "404.html" or rel.endswith("/404.html"):
        return True
    if rel != "404/" and not rel.endswith("/404/"):
        return False
    parents = rel[: -len("404/")].strip("/").split("/") if rel != "404/" else []
    return len(parents) <= 1 or (
        len(parents) == 2 and (folder / parents[0] / "sitemap.xml").is_file())


def _left_out(url: str, manifests: Sequence[tuple[str, frozenset[str]]]) -> bool:
    """Whether a manifest says the plugin left the page at ``url`` out on purpose."""
    for folder, keys in manifests:
        if keys and url.startswith(folder) and path_key(url[len(folder):].encode()) in keys:
            return True
    return False


def _aliases(folder: Path) -> set[str]:
    """mike's alias folders at the root of a versioned site (``versions.json``): copies
    of a version's pages (or redirects to them), listed by that version's sitemap."""
    try:
        data = read_regular(inside(Path(os.path.realpath(folder)), "versions.json"),
                            _VERSIONS_MAX_BYTES)
        versions = parse_versions(data) if data is not None else []
    except (OSError, Outside, VersionsError):
        return set()
    return {alias for version in versions for alias in version.aliases}


def count_unlisted(listed: set[str], source: LocalSource, found: Findings,
                   manifests: Sequence[tuple[str, frozenset[str]]] = ()) -> int:
    """Count the built pages that want indexing but are not listed; one warning if any.

    A page is ``<folder>/index.html`` (URL ``<folder>/``) or any other ``.html`` file;
    "not found" pages (``_error_page``), hidden folders, copied templates (``_rendered_page``), and pages that are noindex, redirect stubs or
    canonical elsewhere are not pages that belong in a sitemap; nor are those a manifest
    (``manifests``: its folder's URL, the keys of the pages it left out) names.
    """
    missing = [url for rel_dir, prefix, name in _html_files(source.folder)
               if (url := _unlisted(rel_dir, prefix, name, listed, source, manifests)) is not None]
    if missing:
        examples = ", ".join(missing[:_EXAMPLES]) + (", …" if len(missing) > _EXAMPLES else "")
        found.warning("page-unlisted", ".",
                      f"{len(missing):,} built page{'s are' if len(missing) != 1 else ' is'} "
                      f"not in the sitemap: {examples}")
    return len(missing)


def _html_files(folder: Path) -> Iterator[tuple[str, str, str]]:
    """The ``.html`` files of a built site, in order, as (folder relative to the site's,
    its URL prefix, file name): hidden folders and mike's alias folders left out."""
    aliases = _aliases(folder)
    for current, dirs, names in os.walk(folder):
        top = current == str(folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not (top and d in aliases))
        rel_dir = Path(current).relative_to(folder).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        for name in sorted(names):
            if name.endswith((".html", ".htm")):
                yield rel_dir, prefix, name


def _unlisted(rel_dir: str, prefix: str, name: str, listed: set[str], source: LocalSource,
              manifests: Sequence[tuple[str, frozenset[str]]]) -> str | None:
    """The URL of the built page ``rel_dir/name`` if it wants indexing but is not
    listed (None: listed, or not a page that belongs in a sitemap)."""
    site, folder = source.site, source.folder
    rel = prefix if name == "index.html" else prefix + name
    if _error_page(rel, folder):
        return None
    try:
        url = normalise_loc(site.url + rel)
    except ValueError:
        return None
    if url in listed or url + "index.html" in listed or (
        name == "index.html" and site.url + prefix + name in listed
    ):
        return None
    if _left_out(site.url + rel, manifests):
        return None
    return url if _wants_indexing(source.root / rel_dir / name, source.root, url) else None


def _wants_indexing(path: Path, root: Path, url: str) -> bool:
    """Whether the file at ``path`` is a rendered page that is not noindex, a redirect
    stub or canonical elsewhere."""
    text = _read(path, root)
    if text is None or not _rendered_page(text):
        return False
    head = read_head(text)
    return not (head.noindex or head.refresh or _canonical_elsewhere(head, url))


def check_manifests(entries: Iterable[str], source: Source,
                    found: Findings) -> list[tuple[str, frozenset[str]]]:
    """Read the manifest beside each entry sitemap URL, where there is one: for each
    read, its folder's URL and the keys of the pages it says were left out on purpose.
    One that does not parse is a ``manifest-invalid`` error."""
    read: list[tuple[str, frozenset[str]]] = []
    for url in entries:
        folder, _, name = url.rpartition("/")
        if not name.endswith(".xml"):
            continue
        manifest = f"{folder}/{manifest_name(name)}"
        try:
            data = source.read(manifest, MAX_BYTES)
        except FetchError:
            continue  # unreadable: nothing to say about what it holds
        if data is None:
            continue
        try:
            read.append((folder + "/", parse_manifest(data).left_out))
        except ManifestError as error:
            found.error("manifest-invalid", source.display(manifest),
                        f"the manifest cannot be read back by a later build: {error}")
    return read
