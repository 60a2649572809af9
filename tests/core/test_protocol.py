"""The single-value rules: changefreq, priority, lastmod."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mkdocs_sitemap_pro.core.protocol import (
    CHANGEFREQS,
    LastmodTexts,
    check_changefreq,
    check_lastmod,
    check_priority,
    format_priority,
    lastmod_text,
    text_instant,
    utc_key,
)

UTC = dt.timezone.utc
PLUS2 = dt.timezone(dt.timedelta(hours=2))
MINUS5 = dt.timezone(dt.timedelta(hours=-5, minutes=-30))


def test_changefreqs_are_the_seven_words() -> None:
    assert CHANGEFREQS == {"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}


@pytest.mark.parametrize("word", sorted(CHANGEFREQS))
def test_changefreq_accepts_each_word(word: str) -> None:
    assert check_changefreq(word) == word


@pytest.mark.parametrize("bad", ["Weekly", "sometimes", "", " daily", None, 7, ["daily"]])
def test_changefreq_rejects_with_the_value_named(bad: object) -> None:
    with pytest.raises(ValueError, match="changefreq") as info:
        check_changefreq(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0, 0.0), (1, 1.0), (0.5, 0.5), ("0.8", 0.8), (" .25 ", 0.25), ("1", 1.0), ("1.0", 1.0), (-0.0, 0.0)],
)
def test_priority_accepts_numbers_and_decimal_text(value: object, expected: float) -> None:
    result = check_priority(value)
    assert result == expected and isinstance(result, float)
    assert math.copysign(1.0, result) == 1.0


@pytest.mark.parametrize(
    "bad",
    [True, False, math.nan, math.inf, -math.inf, -0.1, 1.01, 2, "nan", "inf", "1e-1", "-0.5", "high", "", None, [0.5]],
)
def test_priority_rejects_with_the_value_named(bad: object) -> None:
    with pytest.raises(ValueError, match="priority") as info:
        check_priority(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.5, "0.5"), (0.85, "0.85"), (1.0, "1.0"), (1, "1.0"), (0.0, "0.0"), (0.1, "0.1"), (1e-5, "0.00001"), (0.3333, "0.3333")],
)
def test_priority_shortest_decimal_form(value: float, text: str) -> None:
    assert format_priority(value) == text


def test_lastmod_accepts_dates_aware_datetimes_and_iso_text() -> None:
    assert check_lastmod(dt.date(2024, 2, 29)) == dt.date(2024, 2, 29)
    aware = dt.datetime(2024, 2, 29, 13, 5, tzinfo=PLUS2)
    assert check_lastmod(aware) is aware
    assert check_lastmod("2024-02-29") == dt.date(2024, 2, 29)
    parsed = check_lastmod("2024-02-29T13:05:00+02:00")
    assert parsed == aware and parsed.utcoffset() == dt.timedelta(hours=2)
    assert check_lastmod("2024-02-29T11:05Z") == aware
    assert check_lastmod("2024-02-29T13:05:00.5-05:30").microsecond == 500000


@pytest.mark.parametrize(
    "bad",
    ["yesterday", "2024-02-30", "2023-02-29", "2024-13-01", "2024-02-29T13:05:00", "2024", "", 20240229, None],
)
def test_lastmod_rejects_with_the_value_named(bad: object) -> None:
    with pytest.raises(ValueError, match="lastmod") as info:
        check_lastmod(bad)
    assert repr(bad) in str(info.value)


def test_lastmod_rejects_naive_datetime() -> None:
    with pytest.raises(ValueError, match="time zone"):
        check_lastmod(dt.datetime(2024, 2, 29, 13, 5))


def test_lastmod_text_converts_to_utc() -> None:
    value = dt.datetime(2024, 3, 1, 1, 30, 15, 999_999, tzinfo=PLUS2)
    assert lastmod_text(value) == "2024-02-29T23:30:15+00:00"
    assert lastmod_text(value, "datetime") == "2024-02-29T23:30:15+00:00"
    assert lastmod_text(value, "date") == "2024-02-29"  # the UTC calendar date
    late = dt.datetime(2024, 2, 29, 20, 0, tzinfo=MINUS5)
    assert lastmod_text(late) == "2024-03-01T01:30:00+00:00"
    assert lastmod_text(late, "date") == "2024-03-01"


def test_lastmod_text_keeps_plain_dates_and_pads_years() -> None:
    assert lastmod_text(dt.date(2024, 2, 29), "datetime") == "2024-02-29"
    assert lastmod_text(dt.date(2024, 2, 29), "date") == "2024-02-29"
    assert lastmod_text(dt.datetime(999, 1, 2, 3, 4, 5, tzinfo=UTC)) == "0999-01-02T03:04:05+00:00"


def test_lastmod_text_rejects_naive_and_bad_format() -> None:
    with pytest.raises(ValueError):
        lastmod_text(dt.datetime(2024, 1, 1))
    with pytest.raises(ValueError):
        lastmod_text(dt.date(2024, 1, 1), "week")  # type: ignore[arg-type]


def test_utc_key_orders_dates_and_datetimes() -> None:
    assert utc_key(dt.date(2024, 2, 29)) == dt.datetime(2024, 2, 29, tzinfo=UTC)
    assert utc_key(dt.datetime(2024, 2, 29, 1, tzinfo=PLUS2)) < utc_key(dt.date(2024, 2, 29))


@pytest.mark.parametrize("lastmod_format", ["datetime", "date"])
def test_lastmod_text_is_what_the_writer_writes(tmp_path, lastmod_format):
    """The text a page shows (``lastmod_text``) and its sitemap entry's are one."""
    from mkdocs_sitemap_pro.core.entry import SitemapEntry
    from mkdocs_sitemap_pro.core.protocol import latest_allowed
    from mkdocs_sitemap_pro.core.reader import read_sitemap
    from mkdocs_sitemap_pro.core.writer import WriteOptions, write_sitemaps

    build_time = dt.datetime(2024, 6, 3, 23, 0, tzinfo=dt.timezone.utc)
    zone = dt.timezone(dt.timedelta(hours=-5, minutes=-30))
    values = [
        dt.datetime(2024, 6, 3, 22, 59, 59, 999_999, tzinfo=dt.timezone.utc),
        dt.datetime(2024, 6, 3, 21, 0, tzinfo=zone),  # the next UTC day
        dt.date(2024, 6, 4),  # within a day of the build: kept
        dt.datetime(2024, 6, 4, 23, 0, 1, tzinfo=dt.timezone.utc),  # too late: dropped
        dt.date(2024, 6, 5),
        dt.date(1999, 12, 31),
    ]
    entries = [SitemapEntry(loc=f"https://example.com/p{i}/", lastmod=value)
               for i, value in enumerate(values)]
    write_sitemaps(entries, tmp_path, "https://example.com/", WriteOptions(
        gzip=False, lastmod_format=lastmod_format, build_time=build_time))
    written = {e.loc: e.lastmod for e in read_sitemap(tmp_path / "sitemap.xml").entries}
    latest = latest_allowed(build_time)
    shown = {f"https://example.com/p{i}/":
             None if utc_key(value) > latest else lastmod_text(value, lastmod_format)
             for i, value in enumerate(values)}
    assert shown == written
    assert shown["https://example.com/p3/"] is None and shown["https://example.com/p4/"] is None


def test_a_makers_text_of_one_instant_is_made_once() -> None:
    """One maker (a build's) gives every page and entry of an instant the same text
    object; a date and that day's midnight are two lastmods, with two texts."""
    texts = LastmodTexts()
    when = dt.datetime(2024, 2, 29, 23, 30, 15, tzinfo=PLUS2)
    first = texts.text(when)
    assert first == "2024-02-29T21:30:15+00:00"
    assert texts.text(when.astimezone(MINUS5)) is first
    assert texts.utc_text(when.astimezone(UTC)) is first
    assert texts.text(dt.date(2024, 2, 29)) is texts.text(dt.date(2024, 2, 29)) == "2024-02-29"
    assert texts.text(dt.datetime(2024, 2, 29, tzinfo=UTC)) == "2024-02-29T00:00:00+00:00"
    assert LastmodTexts("date").text(when) == "2024-02-29"


def test_the_writer_writes_the_text_its_maker_gave_the_page() -> None:
    """``collect`` takes a build's maker: an entry's text is the object the page got."""
    from mkdocs_sitemap_pro.core.entry import SitemapEntry
    from mkdocs_sitemap_pro.core.urls import SiteUrl
    from mkdocs_sitemap_pro.core.writer.items import Item, collect

    texts = LastmodTexts()
    values = [dt.datetime(2024, 6, 3, 9, 0, tzinfo=PLUS2), dt.date(2024, 6, 1),
              dt.datetime(2024, 6, 3, 7, 0, 0, tzinfo=UTC)]
    shown = [texts.text(value) for value in values]  # as each page rendered
    entries = [SitemapEntry(f"https://example.com/p{i}/", value)
               for i, value in enumerate(values)]
    items = map(Item._make, collect(entries, SiteUrl("https://example.com/"), texts,
                                    dt.datetime(2024, 6, 3, 12, tzinfo=UTC)).rows)
    assert all(item.lastmod is text for item, text in zip(items, shown))
    assert shown[0] is shown[2]


@given(
    when=st.datetimes(dt.datetime(1970, 1, 2), dt.datetime(2100, 1, 1),
                      timezones=st.builds(lambda m: dt.timezone(dt.timedelta(minutes=m)),
                                          st.integers(-14 * 60, 14 * 60))),
    lastmod_format=st.sampled_from(["datetime", "date"]),
)
def test_lastmod_text_by_tables_is_isoformat(when, lastmod_format):
    iso = when.astimezone(UTC).replace(microsecond=0).isoformat()
    assert lastmod_text(when, lastmod_format) == (iso if lastmod_format == "datetime" else iso[:10])
    assert text_instant(lastmod_text(when, lastmod_format)) == (
        iso if lastmod_format == "datetime" else f"{iso[:10]}T00:00:00+00:00")
