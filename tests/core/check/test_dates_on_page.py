"""Reading a page's own dates: localized dates as Babel writes them, ISO ones, and the
three places a page states its date (Material's "last update", meta, JSON-LD)."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys

import pytest
from babel.dates import format_date, format_datetime

from mkdocs_sitemap_pro.core.check.site import (
    JSON_LD,
    META,
    VISIBLE,
    DateParser,
    DateOnPage,
    disagrees,
    dates_on_page,
    parse_local_date,
)

UTC = dt.timezone.utc
# One day in each month, so every month name is read; days past 12 and up to 12, so a
# day read as a month (or the reverse) shows.
DAYS = [dt.date(2024, month, day) for month, day in zip(range(1, 13), (31, 29, 3, 30, 1, 9,
                                                                        14, 5, 27, 12, 2, 25))]


@pytest.mark.parametrize("locale", ["en", "fr", "de", "es"])
@pytest.mark.parametrize("width", ["full", "long", "medium", "short"])
def test_babel_dates_are_read_back(locale, width):
    parser = DateParser()
    for day in DAYS:
        written = format_date(day, format=width, locale=locale)
        assert parser.parse(written, locale) == day, written


@pytest.mark.parametrize(
    ("written", "locale", "day"),
    [
        ("2024-06-03", "fr", dt.date(2024, 6, 3)),  # ISO whatever the language
        ("2024-06-03 10:00:00", "de", dt.date(2024, 6, 3)),  # git-revision's iso_datetime
        ("3 juin 2024 10:00:00", "fr", dt.date(2024, 6, 3)),  # its datetime type
        ("June 3, 2024 23:59:59 UTC", "en", dt.date(2024, 6, 3)),
        ("03. Juni 2024", "de", dt.date(2024, 6, 3)),  # its custom type's default, %d. %B %Y
        ("03. JUNI 2024", "de-AT", dt.date(2024, 6, 3)),  # any case; a region falls back
        ("3 juil. 2024", "fr", dt.date(2024, 7, 3)),
        ("03/06/2024", "fr", dt.date(2024, 6, 3)),  # day first in French
        ("6/3/2024", "en", dt.date(2024, 6, 3)),  # month first in English
        ("2024/06/03", "fr", dt.date(2024, 6, 3)),  # year first: month, then day
        ("mar, 3 jun 2024", "es", dt.date(2024, 6, 3)),  # mar: Tuesday here, not March
        ("June 3, 2024", "fr", dt.date(2024, 6, 3)),  # English names in any language
        ("June 3, 2024", None, dt.date(2024, 6, 3)),
    ],
)
def test_more_ways_of_writing_a_date(written, locale, day):
    assert parse_local_date(written, locale) == day


@pytest.mark.parametrize(
    ("locale", "width", "day"),
    [
        # Rombo: "Mweri wa ikumi" is October, "Mweri wa ikumi na moja" November.
        ("rof", "long", dt.date(2024, 11, 21)),
        # Meta' (mgo): a numbered weekday ("Aneg 5") before the year; the day is by the month.
        ("mgo", "full", dt.date(2024, 1, 11)),
    ],
)
def test_the_longest_month_name_and_the_day_beside_it(locale, width, day):
    assert parse_local_date(format_date(day, format=width, locale=locale), locale) == day


def test_babel_datetimes_lose_their_time():
    moment = dt.datetime(2024, 6, 3, 23, 30, tzinfo=UTC)
    for locale in ("en", "fr", "de"):
        assert parse_local_date(format_datetime(moment, "long", tzinfo=UTC, locale=locale),
                                locale) == moment.date()


@pytest.mark.parametrize("written", ["soon", "", "2024", "June 2024", "31 juin 2024",
                                     "3 4 5 6", "le 3 du mois"])
def test_what_is_not_a_date(written):
    assert parse_local_date(written, "fr") is None


def test_without_babel_iso_and_english_only():
    code = ("import sys; sys.modules['babel'] = None\n"
            "from mkdocs_sitemap_pro.core.check.site import parse_local_date as p\n"
            "print(p('2024-06-03', 'fr'), p('June 3, 2024', 'fr'), p('3 juin 2024', 'fr'),"
            " p('03/06/2024', 'fr'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["2024-06-03", "2024-06-03", "None", "None"]


def test_disagrees_past_a_day():
    at = dt.datetime(2024, 6, 3, 10, 0, tzinfo=UTC)
    assert not disagrees(at + dt.timedelta(hours=24), at)
    assert disagrees(at + dt.timedelta(hours=24, seconds=1), at)
    assert disagrees(at - dt.timedelta(hours=25), at)
    # Calendar dates: one day apart is fine, two are not; a datetime counts by its date
    # in its own zone (23:00 at -05:00 is June 3, though June 4 in UTC).
    evening = dt.datetime(2024, 6, 3, 23, 0, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    assert not disagrees(dt.date(2024, 6, 2), evening)
    assert disagrees(dt.date(2024, 6, 1), evening)
    assert not disagrees(dt.date(2024, 6, 4), dt.date(2024, 6, 3))
    assert disagrees(dt.date(2024, 6, 5), dt.date(2024, 6, 3))


def material_page(fact: str, lang: str = "fr", head: str = "") -> str:
    """A page as Material writes one: its "last update" fact first, "created" second."""
    return (f'<!doctype html><html lang="{lang}" class="no-js"><head>{head}</head><body>'
            '<article><aside class="md-source-file">'
            '<span class="md-source-file__fact"><span class="md-icon" title="Dernière mise à '
            f'jour"><svg viewBox="0 0 24 24"><path d="M21 13"/></svg></span>\n    {fact}\n  </span>'
            '<span class="md-source-file__fact"><span class="md-icon" title="Création">'
            '<svg viewBox="0 0 24 24"><path d="M14"/></svg></span> 1 janvier 2020</span>'
            '</aside></article></body></html>')


def test_the_last_update_fact_and_not_the_created_one():
    page = material_page('<span class="git-revision-date-localized-plugin '
                         'git-revision-date-localized-plugin-date" title="3 juin 2024 10:00:00 '
                         'UTC">3 juin 2024</span>')
    assert dates_on_page(page) == [DateOnPage(VISIBLE, "3 juin 2024", dt.date(2024, 6, 3))]
    assert dates_on_page(material_page("3 juin 2024")) == [  # plain text, as Material shows it
        DateOnPage(VISIBLE, "3 juin 2024", dt.date(2024, 6, 3))]
    assert dates_on_page(material_page("soon")) == []


def test_timeago_by_its_datetime():
    page = material_page(
        '<span class="git-revision-date-localized-plugin git-revision-date-localized-plugin-'
        'timeago" title="t"><span class="timeago" datetime="2024-06-03T10:00:00+02:00" '
        'locale="fr"></span></span><span class="git-revision-date-localized-plugin '
        'git-revision-date-localized-plugin-iso_date" title="t">2024-06-03</span>')
    when = dt.datetime(2024, 6, 3, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert dates_on_page(page) == [DateOnPage(VISIBLE, "2024-06-03T10:00:00+02:00", when)]


def test_meta_and_json_ld_anywhere_in_the_graph():
    head = ('<meta content="2024-06-03T10:00:00Z" property="article:modified_time">'
            '<script type="application/ld+json">{"broken": </script>'
            '<script type="application/ld+json">{"@graph": [{"@type": "WebSite"}, '
            '{"@type": "Article", "author": {"name": "A"}, "dateModified": "2024-05-01"}]}'
            '</script>')
    page = f'<!doctype html><html lang="en"><head>{head}</head><body>p</body></html>'
    assert dates_on_page(page) == [
        DateOnPage(META, "2024-06-03T10:00:00Z", dt.datetime(2024, 6, 3, 10, 0, tzinfo=UTC)),
        DateOnPage(JSON_LD, "2024-05-01", dt.date(2024, 5, 1)),
    ]
    assert dates_on_page('<html><head><meta property="article:modified_time" content="later">'
                      '<script type="application/ld+json">[{"dateModified": 3}]</script>'
                      '</head></html>') == []
