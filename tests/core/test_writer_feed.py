"""The Atom feed beside a sitemap (``feed``), from the core writer alone (no MkDocs).

Every feed is read back with a real feed parser (feedparser, whose ``bozo`` flag is set
by anything not well formed) and with the reader's own safe XML parser, and its dates
are compared with the sitemap the same write produced, read back with the checker's
reader.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import feedparser
import pytest
from lxml import etree

from mkdocs_sitemap_pro import SitemapEntry, WriteOptions, read_sitemap, write_sitemaps
from mkdocs_sitemap_pro.core.protocol import UTC, utc_key, check_lastmod
from mkdocs_sitemap_pro.core.reader import _parser as safe_parser
from mkdocs_sitemap_pro.core.writer.feed import (
    ATOM_NS,
    FEED_MAX_SIZE,
    FeedEntry,
    FeedSettings,
    atom_feed,
)
from tests.support.faults import fail_writes

BASE = "https://example.com/docs/"
A = f"{{{ATOM_NS}}}"
PLUS2 = dt.timezone(dt.timedelta(hours=2))


def when(day: int, hour: int = 9, micro: int = 0) -> dt.datetime:
    return dt.datetime(2024, 3, day, hour, 5, 7, micro, tzinfo=PLUS2)


def sample() -> list[SitemapEntry]:
    """Six pages: two tied at one instant (given out of loc order), one a plain date,
    one with a fraction of a second, one undated, one with a character to escape."""
    return [
        SitemapEntry(f"{BASE}z/", when(3)),
        SitemapEntry(f"{BASE}a/", when(3)),
        SitemapEntry(f"{BASE}date/", dt.date(2024, 3, 5)),
        SitemapEntry(f"{BASE}frac/", when(4, micro=999_999)),
        SitemapEntry(f"{BASE}undated/"),
        SitemapEntry(f"{BASE}q&a/", when(1)),
    ]


TITLES = {f"{BASE}z/": "Zed", f"{BASE}a/": "Ay & <Bee>", f"{BASE}date/": "Dated",
          f"{BASE}frac/": "Frac\x00tion", f"{BASE}q&a/": "Q and A"}


def write(folder: Path, entries: list[SitemapEntry] | None = None, size: int = 20,
          **options: object):
    settings = FeedSettings(size=size, title="Docs", title_of=TITLES.get)
    return write_sitemaps(sample() if entries is None else entries, folder, BASE,
                          WriteOptions(feed=settings, **options))  # type: ignore[arg-type]


def parsed(path: Path) -> feedparser.FeedParserDict:
    feed = feedparser.parse(path.read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    return feed


def sitemap_instants(folder: Path, name: str = "sitemap.xml") -> dict[str, dt.datetime]:
    """Each URL's lastmod as the written sitemap says it, as an instant."""
    return {e.loc: utc_key(check_lastmod(e.lastmod)) for e in read_sitemap(folder / name).entries
            if e.lastmod is not None}


def updated(entry: feedparser.FeedParserDict) -> dt.datetime:
    return dt.datetime.fromisoformat(entry.updated)


@pytest.mark.parametrize("lastmod_format", ["datetime", "date"])
def test_newest_first_ties_by_url_dates_are_the_sitemaps(tmp_path: Path, lastmod_format: str
                                                         ) -> None:
    report = write(tmp_path, lastmod_format=lastmod_format)
    assert report.feed_files == ("sitemap.atom",)
    feed = parsed(tmp_path / "sitemap.atom")
    links = [e.link for e in feed.entries]
    assert links == [f"{BASE}date/", f"{BASE}frac/", f"{BASE}a/", f"{BASE}z/", f"{BASE}q&a/"]
    assert [e.id for e in feed.entries] == links  # the page's URL is the entry's id
    sitemap = sitemap_instants(tmp_path)
    assert {e.link: updated(e) for e in feed.entries} == sitemap  # every dated page, no other
    assert updated(feed.feed) == max(sitemap.values())
    if lastmod_format == "date":  # the text holds a day: the entry says its midnight UTC
        assert feed.entries[1].updated == "2024-03-04T00:00:00+00:00"
    else:  # whole seconds, as written; never the fraction the entry was given
        assert feed.entries[1].updated == "2024-03-04T07:05:07+00:00"
    assert [e.title for e in feed.entries] == ["Dated", "Fraction", "Ay & <Bee>", "Zed",
                                               "Q and A"]


@pytest.mark.parametrize(("lastmod_format", "order"), [("datetime", ["n/", "m/"]),
                                                       ("date", ["m/", "n/"])])
def test_one_day_is_a_tie_when_the_sitemap_says_only_the_day(
        tmp_path: Path, lastmod_format: str, order: list[str]) -> None:
    entries = [SitemapEntry(f"{BASE}m/", when(6, hour=9)), SitemapEntry(f"{BASE}n/", when(6, 10))]
    write(tmp_path, entries, lastmod_format=lastmod_format)
    assert [e.link for e in parsed(tmp_path / "sitemap.atom").entries] == [BASE + u for u in order]


def test_ids_links_and_self_are_absolute_and_stable(tmp_path: Path) -> None:
    write(tmp_path)
    first = (tmp_path / "sitemap.atom").read_bytes()
    feed = parsed(tmp_path / "sitemap.atom")
    assert feed.feed.id == f"{BASE}sitemap.atom"
    assert {link.rel: link.href for link in feed.feed.links} == {
        "self": f"{BASE}sitemap.atom", "alternate": BASE}
    assert feed.feed.title == "Docs: recently updated pages"
    assert feed.feed.author == "Docs"
    again = tmp_path / "again"
    write(again, list(reversed(sample())))  # input order never matters
    assert (again / "sitemap.atom").read_bytes() == first


def test_the_xml_is_well_formed_atom_for_the_safe_parser(tmp_path: Path) -> None:
    write(tmp_path)
    root = etree.fromstring((tmp_path / "sitemap.atom").read_bytes(), safe_parser(False))
    assert root.tag == f"{A}feed"
    # RFC 4287: id, title, updated once each, an author; an alternate link in each entry.
    for tag in ("id", "title", "updated"):
        assert len(root.findall(f"{A}{tag}")) == 1
    assert root.find(f"{A}author/{A}name").text == "Docs"
    for entry in root.findall(f"{A}entry"):
        assert [len(entry.findall(f"{A}{tag}")) for tag in ("id", "title", "updated")] == [1, 1, 1]
        assert entry.find(f"{A}link").get("rel") == "alternate"
    assert root.findall(f"{A}entry")[-1].find(f"{A}id").text == f"{BASE}q&a/"


def test_feed_size_keeps_the_newest(tmp_path: Path) -> None:
    write(tmp_path, size=2)
    assert [e.link for e in parsed(tmp_path / "sitemap.atom").entries] == [
        f"{BASE}date/", f"{BASE}frac/"]


@pytest.mark.parametrize("size", [0, -1, FEED_MAX_SIZE + 1, True, 2.0, "20"])
def test_a_size_out_of_range_is_refused(size: object) -> None:
    with pytest.raises(ValueError, match="feed size"):
        FeedSettings(size=size)  # type: ignore[arg-type]


def test_no_dated_page_no_feed_and_an_old_one_of_ours_goes(tmp_path: Path) -> None:
    write(tmp_path)
    report = write(tmp_path, [SitemapEntry(f"{BASE}undated/")])
    assert report.feed_files == () and report.feed_refused == ()
    assert "sitemap.atom" in report.removed and not (tmp_path / "sitemap.atom").exists()


def test_feed_off_removes_ours_but_never_the_sites_own(tmp_path: Path) -> None:
    write(tmp_path)
    report = write_sitemaps(sample(), tmp_path, BASE)
    assert report.removed == ("sitemap.atom",) and not (tmp_path / "sitemap.atom").exists()
    own = b'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"/>'
    (tmp_path / "sitemap.atom").write_bytes(own)
    assert write(tmp_path).feed_refused == ("sitemap.atom",)
    write_sitemaps(sample(), tmp_path, BASE)
    assert (tmp_path / "sitemap.atom").read_bytes() == own


def test_named_after_the_entry_file_and_views_link_only_when_it_exists(tmp_path: Path) -> None:
    report = write(tmp_path, filename="pages.xml", html_view=True, max_urls=2)
    assert report.feed_files == ("pages.atom",) and report.is_index
    for name in report.html_files:  # the index's page and every file's
        text = (tmp_path / name).read_text()
        assert '<link rel="alternate" type="application/atom+xml" ' in text, name
        assert '<a href="pages.atom">pages.atom</a>' in text, name
    bare = tmp_path / "bare"
    write_sitemaps(sample(), bare, BASE,
                   WriteOptions(filename="pages.xml", html_view=True, max_urls=2))
    for name in report.html_files:
        assert "pages.atom" not in (bare / name).read_text()


def test_the_sitemap_is_byte_identical_with_and_without_the_feed(tmp_path: Path) -> None:
    write(tmp_path / "with", max_urls=2)
    write_sitemaps(sample(), tmp_path / "without", BASE, WriteOptions(max_urls=2))
    names = sorted(p.name for p in (tmp_path / "without").iterdir())
    assert sorted(p.name for p in (tmp_path / "with").iterdir()) == sorted([*names, "sitemap.atom"])
    for name in names:
        assert (tmp_path / "with" / name).read_bytes() == (tmp_path / "without" / name).read_bytes()


def test_a_failed_feed_write_leaves_the_previous_tree(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, [SitemapEntry(f"{BASE}old/", when(1))])
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    fail_writes(monkeypatch, lambda name: "sitemap.atom" in name, limit=100)
    with pytest.raises(OSError):
        write(tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # no temp file


def test_entries_that_did_not_fit_are_not_in_the_feed(tmp_path: Path) -> None:
    huge = SitemapEntry(BASE + "x" * 2000 + "/", when(9))
    report = write(tmp_path, [*sample(), huge], max_bytes=1_024)
    assert [d.loc for d in report.dropped] == [huge.loc]
    assert huge.loc not in {e.link for e in parsed(tmp_path / "sitemap.atom").entries}


def test_atom_feed_alone_takes_records() -> None:
    record = FeedEntry(f"{BASE}a/", "A", "2024-01-02T03:04:05+00:00")
    data = atom_feed([record], title="T", feed_id="tag:example.com,2024:docs",
                     self_link=f"{BASE}feed.atom", site_link=BASE, author="Me")
    feed = feedparser.parse(data)
    assert not feed.bozo and feed.feed.id == "tag:example.com,2024:docs"
    assert feed.entries[0].updated == "2024-01-02T03:04:05+00:00"
    with pytest.raises(ValueError):
        atom_feed([], title="T", feed_id="x", self_link="x", site_link="x", author="x")


def test_a_title_keeps_every_character_xml_allows_and_no_other() -> None:
    allowed = "a\tb\nc\rd \ud7ff\ue000\ufffd\U00010000\U0010ffff"
    forbidden = "\x00\x01\x08\x0b\x0c\x0e\x1f\ud800\udfff\ufffe\uffff"
    mixed = "".join(a + f for a, f in zip(allowed, forbidden)) + allowed[len(forbidden):]
    feed = atom_feed([FeedEntry(f"{BASE}x/", mixed, "2024-03-01T07:05:07+00:00")], title="T",
                     feed_id=f"{BASE}sitemap.atom", self_link=f"{BASE}sitemap.atom",
                     site_link=BASE, author="T")
    text = feed.decode("utf-8")
    assert f"<title>{allowed}</title>" in text
    assert not any(f in text for f in forbidden)
