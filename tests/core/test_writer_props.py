"""Property tests: for random entries and limits, the written tree is always right."""

from __future__ import annotations

import datetime as dt
import tempfile
import urllib.parse
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.urls import normalise_loc
from mkdocs_sitemap_pro.core.writer import WriteOptions, write_sitemaps
from tests.support.schemas import parse_sitemap, urls_of

BASE = "https://example.com/docs/"
BUILD = dt.datetime(2030, 1, 1, tzinfo=dt.timezone.utc)

# Any text but surrogates (not encodable) and XML-illegal characters are fine: control
# characters are percent-escaped like every other character a URI may not hold.
path_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
zones = st.builds(
    lambda minutes: dt.timezone(dt.timedelta(minutes=minutes)), st.integers(-14 * 60, 14 * 60)
)
lastmods = st.one_of(
    st.none(),
    st.dates(dt.date(2000, 1, 1), dt.date(2029, 12, 31)),
    st.datetimes(dt.datetime(2000, 1, 2), dt.datetime(2029, 12, 30), timezones=zones),
)
entries_st = st.lists(
    st.builds(
        SitemapEntry,
        loc=st.builds(lambda p: BASE + p, path_text),
        lastmod=lastmods,
        changefreq=st.one_of(st.none(), st.sampled_from(["daily", "never"])),
        priority=st.one_of(st.none(), st.sampled_from([0.0, 0.5, 0.85, 1.0])),
        alternates=st.just(()),  # hreflang has its own tests (test_writer_alternates)
        images=st.just(()),  # images too (test_writer_images)
    ),
    max_size=80,
)


def _key(text: str) -> dt.datetime:
    """A written lastmod as a comparable UTC datetime (a date is its 00:00 UTC)."""
    if "T" in text:
        return dt.datetime.fromisoformat(text)
    return dt.datetime.fromisoformat(text + "T00:00:00+00:00")


@settings(max_examples=60)
@given(
    entries=entries_st,
    max_urls=st.integers(1, 50),
    max_bytes=st.integers(1024, 4096),
    index=st.sampled_from(["auto", "always"]),
    gzip=st.booleans(),
)
def test_any_entries_any_limits(
    entries: list[SitemapEntry], max_urls: int, max_bytes: int, index: str, gzip: bool
) -> None:
    expected = sorted({normalise_loc(e.loc) for e in entries})
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        report = write_sitemaps(
            entries, out, BASE, WriteOptions(
                max_urls=max_urls, max_bytes=max_bytes,
                index=index, gzip=gzip, build_time=BUILD,  # type: ignore[arg-type]
            ),
        )
        assert report.dropped == ()
        assert report.url_count == len(expected)
        if not expected:
            assert report.files == () and list(out.iterdir()) == []
            return
        written = {p.name for p in out.iterdir()}
        assert written == set(report.files) | set(report.gz_files)
        assert bool(report.gz_files) == gzip

        shards = list(report.files[1:] if report.is_index else report.files)
        assert report.is_index == (len(shards) > 1 or index == "always")
        locs: list[str] = []
        newest: list[str | None] = []
        for k, name in enumerate(shards):
            path = out / name
            urls = urls_of(parse_sitemap(path))
            size = path.stat().st_size
            assert 1 <= len(urls) <= max_urls and size <= max_bytes
            if k + 1 < len(shards):  # full: the next file's first entry did not fit
                first_next = next(
                    line for line in (out / shards[k + 1]).read_bytes().splitlines(True)
                    if line.startswith(b"<url>")
                )
                assert len(urls) == max_urls or size + len(first_next) > max_bytes
            if gzip:
                assert urls_of(parse_sitemap(out / (name + ".gz"))) == urls
            locs += [u["loc"] for u in urls]
            dates = [u["lastmod"] for u in urls if "lastmod" in u]
            newest.append(max(dates, key=_key) if dates else None)
        assert locs == expected  # every URL exactly once, in code point order

        if report.is_index:
            stem = "sitemap"
            assert shards == [f"{stem}-{n}.xml" for n in range(1, len(shards) + 1)]
            children = urls_of(parse_sitemap(out / "sitemap.xml"))
            assert [c["loc"] for c in children] == [BASE + name for name in shards]
            assert [c.get("lastmod") for c in children] == newest
            if gzip:
                gz_children = urls_of(parse_sitemap(out / "sitemap.xml.gz"))
                assert [c["loc"] for c in gz_children] == [BASE + name + ".gz" for name in shards]


@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="%"), min_size=1))
def test_any_path_round_trips(path: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        report = write_sitemaps([SitemapEntry(BASE + path)], out, BASE,
                                WriteOptions(build_time=BUILD))
        if report.dropped:  # only for length: up to 12 escaped characters per character
            assert len(normalise_loc(BASE + path)) > 2047
            return
        data = (out / "sitemap.xml").read_bytes()
        assert data.isascii()
        (url,) = urls_of(parse_sitemap(out / "sitemap.xml"))
        loc = url["loc"]
        assert loc.startswith(BASE)
        assert " " not in loc and loc.isascii()
        assert urllib.parse.unquote(loc[len(BASE) :], errors="strict") == path


@settings(max_examples=40)
@given(
    entries=entries_st,
    huge=st.lists(st.integers(900, 2000), max_size=4),
    max_urls=st.integers(1, 50),
    max_bytes=st.integers(1024, 4096),
)
def test_entries_too_big_for_a_file_are_dropped_alone(
    entries: list[SitemapEntry], huge: list[int], max_urls: int, max_bytes: int
) -> None:
    big = [SitemapEntry(f"{BASE}{n:04d}/" + "x" * (n - len(BASE) - 5)) for n in huge]
    empty_file = len('<?xml version="1.0" encoding="UTF-8"?>\n') + len(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n'
    )
    too_big = {e.loc for e in big if empty_file + len(f"<url><loc>{e.loc}</loc></url>\n") > max_bytes}
    expected = sorted({normalise_loc(e.loc) for e in entries + big} - too_big)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        report = write_sitemaps(
            entries + big, out, BASE, WriteOptions(
                max_urls=max_urls, max_bytes=max_bytes, gzip=False, build_time=BUILD),
        )
        assert {d.loc for d in report.dropped} == too_big
        shards = list(report.files[1:] if report.is_index else report.files)
        locs = []
        for k, name in enumerate(shards):
            path = out / name
            urls = urls_of(parse_sitemap(path))
            size = path.stat().st_size
            assert 1 <= len(urls) <= max_urls and size <= max_bytes
            if k + 1 < len(shards):
                first_next = next(
                    line for line in (out / shards[k + 1]).read_bytes().splitlines(True)
                    if line.startswith(b"<url>")
                )
                assert len(urls) == max_urls or size + len(first_next) > max_bytes
            locs += [u["loc"] for u in urls]
        assert locs == expected
