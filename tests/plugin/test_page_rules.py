"""What a page says of itself: front matter settings and its rendered head."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from mkdocs_sitemap_pro.core.page.page_settings import (
    read_page_settings,
    robots_forbids_indexing,
)
from mkdocs_sitemap_pro.core.page.html import read_head

NOW = dt.datetime(2026, 1, 15, 12, 0, tzinfo=dt.timezone.utc)


def settings(meta):
    return read_page_settings(meta, NOW)


def test_valid_values_are_kept():
    s = settings({"sitemap": {"lastmod": dt.date(2024, 2, 29), "changefreq": "weekly", "priority": 0.8}})
    assert (s.excluded, s.lastmod, s.changefreq, s.priority, s.problems) == (
        False, dt.date(2024, 2, 29), "weekly", 0.8, ()
    )


def test_naive_datetime_is_utc():
    assert settings({"sitemap": {"lastmod": dt.datetime(2024, 2, 29, 13, 5)}}).lastmod == dt.datetime(
        2024, 2, 29, 13, 5, tzinfo=dt.timezone.utc
    )
    assert settings({"sitemap": {"lastmod": "2024-02-29T13:05:00"}}).lastmod == dt.datetime(
        2024, 2, 29, 13, 5, tzinfo=dt.timezone.utc
    )


@pytest.mark.parametrize(
    ("sitemap", "needle"),
    [
        ({"priority": "high"}, "'sitemap.priority: high' is invalid (expected a number"),
        ({"priority": math.nan}, "'sitemap.priority: nan'"),
        ({"priority": 2}, "'sitemap.priority: 2'"),
        ({"priority": True}, "'sitemap.priority: true' is invalid (a boolean is not a number)"),
        ({"changefreq": "sometimes"}, "'sitemap.changefreq: sometimes'"),
        ({"lastmod": "yesterday"}, "'sitemap.lastmod: yesterday'"),
        ({"lastmod": "2024-02-30"}, "'sitemap.lastmod: 2024-02-30'"),
        ({"lastmod": NOW + dt.timedelta(days=2)}, "after the build time"),
        # A date as the user wrote it, never as Python's repr.
        ({"lastmod": dt.date(2030, 1, 1)}, "'sitemap.lastmod: 2030-01-01' is invalid (it is more"),
        ({"exclude": "yes"}, "'sitemap.exclude: yes'"),
        ({"priorty": 0.5}, "'sitemap.priorty' is not a known key"),
    ],
)
def test_bad_values_are_dropped_with_a_problem_naming_them(sitemap, needle):
    s = settings({"sitemap": sitemap})
    assert not s.excluded
    assert (s.lastmod, s.changefreq, s.priority) == (None, None, None)
    assert len(s.problems) == 1 and needle in s.problems[0], s.problems
    # Each message says what happens: the value is ignored, the page stays listed.
    assert "; ignored" in s.problems[0] and "datetime." not in s.problems[0], s.problems


@pytest.mark.parametrize(("meta", "said"), [
    ({"sitemap": {"lastmode": "2024-01-01"}},
     "front matter 'sitemap.lastmode' is not a known key (known: changefreq, exclude, lastmod, "
     "priority); ignored; did you mean 'sitemap.lastmod'?"),
    ({"sitemap": {"Priority": 0.5}}, "; ignored; did you mean 'sitemap.priority'?"),
    ({"sitemap": {"weight": 3}}, "is not a known key (known: changefreq, exclude, lastmod, "
                                 "priority); ignored"),
    ({"sitemaps": False}, "front matter 'sitemaps' is not a key sitemap-pro reads; ignored, the "
                          "page is listed as if it had no sitemap key; did you mean 'sitemap'?"),
    ({"title": "T", "site_map": {"exclude": True}}, "'site_map' is not a key sitemap-pro reads"),
])
def test_a_misspelt_key_of_ours_names_the_one_meant(meta, said):
    s = settings(meta)
    assert not s.excluded and len(s.problems) == 1 and said in s.problems[0], s.problems
    if "weight" in meta.get("sitemap", {}):
        assert "did you mean" not in s.problems[0]


@pytest.mark.parametrize("meta", [
    {"search": {"exclude": True}}, {"status": "new"}, {"summary": "x"}, {"sitemap_note": "x"},
    {"slug": "a"}, {"site": "x"},
])
def test_other_keys_are_not_taken_for_a_misspelt_sitemap(meta):
    assert settings(meta).problems == ()


@pytest.mark.parametrize(("raw", "written"), [("no", "no"), ([1], "[1]"), (3, "3")])
def test_sitemap_key_of_the_wrong_type_is_a_problem(raw, written):
    s = settings({"sitemap": raw})
    assert not s.excluded and len(s.problems) == 1 and f"'sitemap: {written}'" in s.problems[0]


def test_a_date_within_a_day_is_allowed():
    assert settings({"sitemap": {"lastmod": NOW + dt.timedelta(hours=20)}}).problems == ()


@pytest.mark.parametrize(
    "meta",
    [
        {"sitemap": False},
        {"sitemap": {"exclude": True}},
        {"robots": "noindex"},
        {"robots": "index, NOINDEX"},
        {"robots": ["follow", "noindex"]},
        {"robots": "none"},
    ],
)
def test_excluded(meta):
    assert settings(meta).excluded


@pytest.mark.parametrize("meta", [{}, {"sitemap": True}, {"robots": "index, follow"}, {"robots": "noindexing"}])
def test_not_excluded(meta):
    assert not settings(meta).excluded


def test_robots_tokens():
    assert robots_forbids_indexing("noarchive,noindex")
    assert not robots_forbids_indexing("index")


@pytest.mark.parametrize(
    ("html", "noindex", "canonical"),
    [
        ('<html><head><meta name="robots" content="noindex"></head>', True, None),
        ("<head><META NAME='GoogleBot' CONTENT='NoIndex, follow'/></head>", True, None),
        ('<head><meta name="description" content="noindex"></head>', False, None),
        ('<head><meta name="robots" content="index"></head>', False, None),
        ('<head><link href="https://e.com/a/" rel="canonical"></head>', False, "https://e.com/a/"),
        ('<head><link rel="Canonical alternate" href=/x/></head>', False, "/x/"),
        ('<head></head><body><meta name="robots" content="noindex"></body>', False, None),
        ('<head><link rel="canonical" href="https://e.com/?a=1&amp;b=2"></head>', False, "https://e.com/?a=1&b=2"),
        # Where the head ends: the first </head> or <body>, in any case, with or without
        # a plain "</head" further on (found first with str.find, then checked).
        ('<HEAD></HEAD ><body><meta name="robots" content="noindex"></body></head>', False, None),
        ('<head><BODY><meta name="robots" content="noindex"></body></head>', False, None),
        ('<head><body><header>x</header><meta name="robots" content="noindex">', False, None),
        ('<head><meta name="robots" content="noindex"><body><header></header>', True, None),
        ('<head><meta name=robots content=noindex></header></head >', True, None),
        ('<head><link rel=canonical href=/a/></Head><link rel=canonical href=/b/></head>', False, "/a/"),
        ('<head><meta name="robots" content="noindex">', True, None),
    ],
)
def test_read_head(html, noindex, canonical):
    head = read_head(html)
    assert (head.noindex, head.canonical) == (noindex, canonical)


def test_a_refused_lastmod_says_the_page_is_still_dated(site):
    from tests.support.dates import D1, utc

    assert settings({"sitemap": {"lastmod": dt.date(2030, 1, 1)}}).problems[0].endswith(
        "; ignored, the page is dated as if it set none")
    site.page("index.md", "---\nsitemap:\n  lastmod: 2999-01-01\n---\n# Home\n")
    site.commit("first", D1)
    built = site.build()
    assert built.error is None, built.messages()
    said = [m for m in built.messages() if "sitemap.lastmod" in m]
    assert len(said) == 1 and "dated as if it set none" in said[0], said
    assert built.sitemap()[next(iter(built.sitemap()))]["lastmod"] == utc(D1)  # by git
