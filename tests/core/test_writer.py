"""The generator's output: fields, escaping, splitting, the index, dropping and merging.

Every file written is parsed back and validated against the official schemas.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest
from lxml import etree

from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry
from mkdocs_sitemap_pro.core.protocol import LastmodTexts, SitemapError
from mkdocs_sitemap_pro.core.writer import WriteOptions, WriteReport, write_sitemaps
from tests.support.schemas import SCHEMAS, SM, parse_sitemap, urls_of

BASE = "https://example.com/docs/"
UTC = dt.timezone.utc
PLUS2 = dt.timezone(dt.timedelta(hours=2))
BUILD = dt.datetime(2024, 6, 1, 12, 0, tzinfo=UTC)


def write(entries: list[SitemapEntry], out: Path, **options: object) -> WriteReport:
    options.setdefault("build_time", BUILD)
    base_url = options.pop("base_url", BASE)
    return write_sitemaps(entries, out, base_url, WriteOptions(**options))  # type: ignore[arg-type]


def all_urls(out: Path, report: WriteReport) -> list[dict[str, str]]:
    """Every <url> of the written tree, in file order, each file validated."""
    shards = report.files[1:] if report.is_index else report.files
    found = []
    for name in shards:
        found += urls_of(parse_sitemap(out / name))
    return found


def page(i: int, **fields: object) -> SitemapEntry:
    return SitemapEntry(loc=f"{BASE}page-{i:06d}/", **fields)  # type: ignore[arg-type]


def test_one_urlset_with_every_field(tmp_path: Path) -> None:
    entries = [
        SitemapEntry(BASE + "b/", dt.datetime(2024, 3, 1, 1, 30, tzinfo=PLUS2), "weekly", 0.85),
        SitemapEntry(BASE + "a/", dt.date(2024, 2, 29), None, 1),
        SitemapEntry(BASE, None, "never", None),
    ]
    report = write(entries, tmp_path)
    assert report.files == ("sitemap.xml",) and report.gz_files == ("sitemap.xml.gz",)
    assert not report.is_index and report.url_count == 3
    for name in ("sitemap.xml", "sitemap.xml.gz"):
        assert urls_of(parse_sitemap(tmp_path / name)) == [
            {"loc": BASE, "changefreq": "never"},
            {"loc": BASE + "a/", "lastmod": "2024-02-29", "priority": "1.0"},
            {"loc": BASE + "b/", "lastmod": "2024-02-29T23:30:00+00:00", "changefreq": "weekly", "priority": "0.85"},
        ]
    text = (tmp_path / "sitemap.xml").read_text("utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n')
    assert "xhtml" not in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sitemap.xml", "sitemap.xml.gz"]


def test_date_mode_writes_the_utc_calendar_date(tmp_path: Path) -> None:
    entries = [
        page(1, lastmod=dt.datetime(2024, 3, 1, 1, 30, tzinfo=PLUS2)),
        page(2, lastmod=dt.date(2024, 1, 5)),
        page(3, lastmod=dt.datetime(2024, 1, 5, 23, 59, 59, tzinfo=UTC)),
    ]
    report = write(entries, tmp_path, lastmod_format="date", max_urls=2)
    assert [u["lastmod"] for u in all_urls(tmp_path, report)] == ["2024-02-29", "2024-01-05", "2024-01-05"]
    index = urls_of(parse_sitemap(tmp_path / "sitemap.xml"))
    assert [c["lastmod"] for c in index] == ["2024-02-29", "2024-01-05"]


@pytest.mark.parametrize(("count", "files"), [(50_000, 1), (50_001, 3)])
def test_protocol_url_limit(tmp_path: Path, count: int, files: int) -> None:
    report = write([page(i) for i in range(count)], tmp_path, gzip=False)
    assert len(report.files) == files and report.url_count == count
    urls = all_urls(tmp_path, report)
    assert len(urls) == count
    if files == 1:
        assert not report.is_index and report.files == ("sitemap.xml",)
    else:
        assert report.is_index and report.files == ("sitemap.xml", "sitemap-1.xml", "sitemap-2.xml")
        index = urls_of(parse_sitemap(tmp_path / "sitemap.xml"))
        assert index == [{"loc": BASE + "sitemap-1.xml"}, {"loc": BASE + "sitemap-2.xml"}]
        assert len(urls_of(parse_sitemap(tmp_path / "sitemap-1.xml"))) == 50_000
        assert len(urls_of(parse_sitemap(tmp_path / "sitemap-2.xml"))) == 1


def test_count_split_and_index_lastmods(tmp_path: Path) -> None:
    dates: list[dt.date | dt.datetime | None] = [
        dt.date(2024, 1, 1), dt.datetime(2024, 1, 1, 0, 0, 1, tzinfo=UTC), None,   # file 1
        dt.date(2024, 5, 2), dt.datetime(2024, 5, 2, 1, 0, tzinfo=PLUS2), None,   # file 2: date wins
        None, None, None,                                                         # file 3
        dt.datetime(2023, 12, 31, 23, 0, tzinfo=dt.timezone(dt.timedelta(hours=-3))),  # file 4
    ]
    entries = [page(i, lastmod=d) for i, d in enumerate(dates)]
    report = write(entries, tmp_path, max_urls=3)
    assert report.files == ("sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap-4.xml")
    assert report.gz_files == tuple(name + ".gz" for name in report.files)
    assert [len(urls_of(parse_sitemap(tmp_path / n))) for n in report.files[1:]] == [3, 3, 3, 1]
    assert [u["loc"] for u in all_urls(tmp_path, report)] == [e.loc for e in entries]
    index = urls_of(parse_sitemap(tmp_path / "sitemap.xml"))
    assert index == [
        {"loc": BASE + "sitemap-1.xml", "lastmod": "2024-01-01T00:00:01+00:00"},
        {"loc": BASE + "sitemap-2.xml", "lastmod": "2024-05-02"},
        {"loc": BASE + "sitemap-3.xml"},
        {"loc": BASE + "sitemap-4.xml", "lastmod": "2024-01-01T02:00:00+00:00"},
    ]
    gz_index = urls_of(parse_sitemap(tmp_path / "sitemap.xml.gz"))
    assert [c["loc"] for c in gz_index] == [BASE + f"sitemap-{n}.xml.gz" for n in range(1, 5)]
    assert [c.get("lastmod") for c in gz_index] == [c.get("lastmod") for c in index]
    for name in report.gz_files[1:]:
        assert urls_of(parse_sitemap(tmp_path / name)) == urls_of(parse_sitemap(tmp_path / name[:-3]))


def test_byte_split_fills_each_file_exactly(tmp_path: Path) -> None:
    entries = [
        page(i, lastmod=dt.date(2024, 1, 1 + i % 28) if i % 3 else None, priority=0.5 if i % 2 else None)
        for i in range(60)
    ] + [SitemapEntry(BASE + "long/" + "x" * (i * 37)) for i in range(1, 12)]
    max_bytes = 2000
    report = write(entries, tmp_path, max_bytes=max_bytes, gzip=False)
    assert report.is_index and len(report.files) > 3
    shards = [tmp_path / n for n in report.files[1:]]
    lines = [p.read_bytes().splitlines(keepends=True) for p in shards]
    total = 0
    for k, path in enumerate(shards):
        size = path.stat().st_size
        assert size <= max_bytes
        parse_sitemap(path)
        url_lines = [line for line in lines[k] if line.startswith(b"<url>")]
        total += len(url_lines)
        if k + 1 < len(shards):
            next_line = next(line for line in lines[k + 1] if line.startswith(b"<url>"))
            assert size + len(next_line) > max_bytes, f"{path.name} had room for one more"
    assert total == report.url_count == len(entries)


def test_max_urls_and_max_bytes_together(tmp_path: Path) -> None:
    entries = [page(i) for i in range(40)]
    report = write(entries, tmp_path, max_urls=7, max_bytes=1024, gzip=False)
    for name in report.files[1:]:
        size = (tmp_path / name).stat().st_size
        count = len(urls_of(parse_sitemap(tmp_path / name)))
        assert size <= 1024 and count <= 7
    assert len(all_urls(tmp_path, report)) == 40


def test_entry_too_big_for_an_empty_file_is_dropped(tmp_path: Path) -> None:
    huge = BASE + "h/" + "y" * 1000
    report = write([page(1), SitemapEntry(huge), page(2)], tmp_path, max_bytes=1024)
    assert [d.loc for d in report.dropped] == [huge]
    assert "max_bytes" in report.dropped[0].reason
    assert [u["loc"] for u in all_urls(tmp_path, report)] == [page(1).loc, page(2).loc]
    assert report.url_count == 2 and not report.is_index


def test_index_always_with_one_file(tmp_path: Path) -> None:
    report = write([page(1, lastmod=dt.date(2024, 1, 1))], tmp_path, index="always")
    assert report.is_index and report.files == ("sitemap.xml", "sitemap-1.xml")
    assert urls_of(parse_sitemap(tmp_path / "sitemap.xml")) == [{"loc": BASE + "sitemap-1.xml", "lastmod": "2024-01-01"}]
    assert urls_of(parse_sitemap(tmp_path / "sitemap-1.xml.gz"))[0]["loc"] == page(1).loc


def test_custom_filename_names_the_shards(tmp_path: Path) -> None:
    report = write([page(i) for i in range(3)], tmp_path, filename="map.xml", max_urls=2)
    assert report.files == ("map.xml", "map-1.xml", "map-2.xml")
    assert [c["loc"] for c in urls_of(parse_sitemap(tmp_path / "map.xml"))] == [BASE + "map-1.xml", BASE + "map-2.xml"]


HOSTILE = [
    ("é/", "%C3%A9/"),
    ("q/?a=1&b=2", "q/?a=1&b=2"),
    ("it's/", "it's/"),
    ('say"hi"/', "say%22hi%22/"),
    ("<tag>/", "%3Ctag%3E/"),
    ("a b/", "a%20b/"),
    ("100%/", "100%25/"),
    ("%zz/", "%25zz/"),
    ("%C3%BC/", "%C3%BC/"),
    ("f/#x#y", "f/#x%23y"),
    ("ctl\x01/", "ctl%01/"),
]


def test_hostile_urls_are_escaped(tmp_path: Path) -> None:
    entries = [SitemapEntry(BASE + raw) for raw, _ in HOSTILE]
    report = write(entries, tmp_path)
    assert report.dropped == ()
    expected = sorted(BASE + escaped for _, escaped in HOSTILE)
    assert [u["loc"] for u in all_urls(tmp_path, report)] == expected
    data = (tmp_path / "sitemap.xml").read_bytes()
    assert data.isascii()
    assert b"q/?a=1&amp;b=2</loc>" in data
    assert b"it&apos;s/</loc>" in data
    assert b"say%22hi%22/" in data and b'"hi"' not in data
    assert b"&amp;amp;" not in data and b"%2525" not in data


def test_loc_length_limit_counts_after_escaping(tmp_path: Path) -> None:
    keep = BASE + "k" * (2047 - len(BASE))
    drop = BASE + "d" * (2048 - len(BASE))
    escaped_drop = BASE + "é" * 2 + "e" * (2047 - len(BASE) - 10)  # 2,045 raw, 2,051 escaped
    report = write([SitemapEntry(keep), SitemapEntry(drop), SitemapEntry(escaped_drop)], tmp_path)
    assert len(keep) == 2047 and len(drop) == 2048 and len(escaped_drop) < 2047
    assert [u["loc"] for u in all_urls(tmp_path, report)] == [keep]
    assert {d.loc for d in report.dropped} == {drop, escaped_drop}
    assert all("2,047" in d.reason for d in report.dropped)


def test_idn_host(tmp_path: Path) -> None:
    report = write(
        [SitemapEntry("https://bücher.example/bücher/"), SitemapEntry("https://xn--bcher-kva.example/x/")],
        tmp_path,
        base_url="https://bücher.example/",
        max_urls=1,
    )
    assert [u["loc"] for u in all_urls(tmp_path, report)] == [
        "https://xn--bcher-kva.example/b%C3%BCcher/",
        "https://xn--bcher-kva.example/x/",
    ]
    index = urls_of(parse_sitemap(tmp_path / "sitemap.xml"))
    assert index[0]["loc"] == "https://xn--bcher-kva.example/sitemap-1.xml"


@pytest.mark.parametrize(
    "loc",
    [
        "ftp://example.com/docs/a/",
        "mailto:someone@example.com",
        "/docs/relative/",
        "https://example.org/docs/a/",
        "http://example.com/docs/a/",
        "https://example.com/other/",
        "https://example.com/docsx/",
        "https://example.com:8443/docs/a/",
        "https://example.com.evil.org/docs/a/",
    ],
)
def test_not_under_base_is_dropped(tmp_path: Path, loc: str) -> None:
    report = write([SitemapEntry(loc), page(1)], tmp_path)
    assert [d.loc for d in report.dropped] == [loc]
    assert [u["loc"] for u in all_urls(tmp_path, report)] == [page(1).loc]


def test_equivalent_spellings_of_the_base_are_under_it(tmp_path: Path) -> None:
    locs = ["https://EXAMPLE.com/docs/a/", "https://example.com:443/docs/b/", "https://example.com/docs"]
    report = write([SitemapEntry(loc) for loc in locs], tmp_path)
    assert report.dropped == ()
    assert report.url_count == 3


def test_duplicates_merge_with_the_newest_lastmod(tmp_path: Path) -> None:
    entries = [
        SitemapEntry(BASE + "é/", dt.date(2024, 1, 1), "daily"),
        SitemapEntry(BASE + "%C3%A9/", dt.datetime(2024, 3, 1, 12, tzinfo=PLUS2), "weekly"),
        SitemapEntry(BASE + "é/", None, "yearly"),
        SitemapEntry(BASE + "x/", None),
        SitemapEntry(BASE + "x/", dt.date(2023, 1, 1)),
    ]
    report = write(entries, tmp_path)
    assert report.duplicates == (BASE + "%C3%A9/", BASE + "x/")
    assert all_urls(tmp_path, report) == [
        {"loc": BASE + "%C3%A9/", "lastmod": "2024-03-01T10:00:00+00:00", "changefreq": "weekly"},
        {"loc": BASE + "x/", "lastmod": "2023-01-01"},
    ]
    assert report.url_count == 2


def test_sorted_by_code_point(tmp_path: Path) -> None:
    names = ["b/", "B/", "a/", "_/", "~/", "%C3%A9/", "a-b/", "a/b/"]
    report = write([SitemapEntry(BASE + n) for n in names], tmp_path)
    locs = [u["loc"] for u in all_urls(tmp_path, report)]
    assert locs == sorted(BASE + n for n in names)


def test_future_lastmod_is_dropped_but_the_entry_kept(tmp_path: Path) -> None:
    entries = [
        page(1, lastmod=BUILD + dt.timedelta(days=1)),  # exactly one day: kept
        page(2, lastmod=BUILD + dt.timedelta(days=1, seconds=1)),
        page(3, lastmod=dt.date(2024, 6, 3)),
        page(4, lastmod=dt.date(2024, 6, 2)),
    ]
    report = write(entries, tmp_path)
    assert [d.loc for d in report.dropped_lastmods] == [page(2).loc, page(3).loc]
    assert report.dropped == ()
    assert [u.get("lastmod") for u in all_urls(tmp_path, report)] == [
        "2024-06-02T12:00:00+00:00", None, None, "2024-06-02"
    ]


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"changefreq": "sometimes"}, "changefreq"),
        ({"priority": 1.5}, "priority"),
        ({"priority": True}, "priority"),
        ({"priority": [0.5]}, "priority"),
        ({"priority": float("nan")}, "priority"),
        ({"lastmod": dt.datetime(2024, 1, 1)}, "time zone"),
        ({"lastmod": "yesterday"}, "lastmod"),
    ],
)
def test_invalid_entry_raises_naming_its_loc(tmp_path: Path, fields: dict, match: str) -> None:
    bad = SitemapEntry(BASE + "bad/", **fields)
    with pytest.raises(SitemapError, match=match) as info:
        write([page(1), bad], tmp_path)
    assert BASE + "bad/" in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_zero_entries_write_and_remove_nothing(tmp_path: Path) -> None:
    write([page(i) for i in range(5)], tmp_path, max_urls=2)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    report = write([SitemapEntry("ftp://example.com/docs/")], tmp_path, max_urls=2)
    assert report.files == () and report.url_count == 0 and report.removed == ()
    assert len(report.dropped) == 1
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    empty = tmp_path / "empty"
    assert write([], empty) == WriteReport()
    assert not empty.exists()


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"max_urls": 0}, "max_urls"),
        ({"max_urls": 50_001}, "max_urls"),
        ({"max_urls": True}, "max_urls"),
        ({"max_bytes": 1023}, "max_bytes"),
        ({"max_bytes": 52_428_801}, "max_bytes"),
        ({"index": "never"}, "index"),
        ({"lastmod_format": "unix"}, "lastmod_format"),
        ({"filename": "sub/sitemap.xml"}, "filename"),
        ({"filename": ".sitemap.xml"}, "filename"),
        ({"filename": "sitemap.txt"}, "filename"),
        ({"base_url": "ftp://example.com/"}, "base_url"),
        ({"base_url": "/docs/"}, "base_url"),
        ({"build_time": dt.datetime(2024, 1, 1)}, "build_time"),
        ({"lastmod_texts": LastmodTexts("date")}, "lastmod_format"),  # not the format's
    ],
)
def test_options_are_checked(tmp_path: Path, options: dict, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        write([page(1)], tmp_path, **options)
    assert list(tmp_path.iterdir()) == []


def test_options_are_one_frozen_value_checked_when_made(tmp_path: Path) -> None:
    """Issue 57: ``write_sitemaps(entries, out_dir, base_url, options)``; the value is
    checked as it is made, before any write, and one value serves any number of writes."""
    with pytest.raises(ValueError, match="build_time"):
        WriteOptions(build_time=dt.datetime(2024, 1, 1))
    options = WriteOptions(filename="pages.xml", gzip=False, max_urls=1, build_time=BUILD)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.gzip = True  # type: ignore[misc]
    for folder in ("one", "two"):
        report = write_sitemaps([page(1), page(2)], tmp_path / folder, BASE, options)
        assert report.files == ("pages.xml", "pages-1.xml", "pages-2.xml")
        assert sorted(p.name for p in (tmp_path / folder).iterdir()) == sorted(report.files)
        assert [url["loc"] for url in urls_of(parse_sitemap(tmp_path / folder / "pages.xml"))
                ] == [f"{BASE}pages-1.xml", f"{BASE}pages-2.xml"]
    report = write_sitemaps([page(1)], tmp_path / "defaults", BASE)
    assert (report.files, report.gz_files) == (("sitemap.xml",), ("sitemap.xml.gz",))
    assert urls_of(parse_sitemap(tmp_path / "defaults" / "sitemap.xml.gz")) == [
        {"loc": f"{BASE}page-000001/"}]


def test_limit_values_are_accepted(tmp_path: Path) -> None:
    report = write([page(1)], tmp_path, max_urls=1, max_bytes=1024)
    assert report.url_count == 1
    report = write([page(1)], tmp_path, max_urls=50_000, max_bytes=52_428_800)
    assert report.url_count == 1


def test_index_overflow_raises_before_writing(tmp_path: Path) -> None:
    with pytest.raises(SitemapError, match="50,000"):
        write([page(i) for i in range(50_001)], tmp_path, max_urls=1)
    assert list(tmp_path.iterdir()) == []


def _strip_xhtml(root: etree._Element) -> list[etree._Element]:
    links = root.findall(".//{http://www.w3.org/1999/xhtml}link")
    for link in links:
        link.getparent().remove(link)
    return links


def test_alternates_are_written_and_counted(tmp_path: Path) -> None:
    alternates = (Alternate("fr", BASE + "fr/é/"), Alternate("x-default", BASE + "a&b/"))
    entries = [page(i) for i in range(6)] + [SitemapEntry(BASE + "zz/", alternates=alternates)]
    report = write(entries, tmp_path, max_urls=4, max_bytes=1024, gzip=False)
    declared = []
    for name in report.files[1:]:
        path = tmp_path / name
        assert path.stat().st_size <= 1024
        text = path.read_text("utf-8")
        declared.append('xmlns:xhtml="http://www.w3.org/1999/xhtml"' in text)
        root = etree.fromstring(path.read_bytes())
        links = _strip_xhtml(root)
        if links:
            assert [(l.get("rel"), l.get("hreflang"), l.get("href")) for l in links] == [
                ("alternate", "fr", BASE + "fr/%C3%A9/"),
                ("alternate", "x-default", BASE + "a&b/"),
            ]
            assert "a&amp;b/" in text
        etree.XMLSchema(etree.parse(str(SCHEMAS / "sitemap.xsd"))).assertValid(root)
    assert declared[0] is False and declared[-1] is True
    locs = [u["loc"] for u in all_urls_without_links(tmp_path, report)]
    assert locs == sorted(e.loc for e in entries)


def all_urls_without_links(out: Path, report: WriteReport) -> list[dict[str, str]]:
    found = []
    for name in report.files[1:]:
        for url in etree.fromstring((out / name).read_bytes()).iter(f"{SM}url"):
            found.append({"loc": url.findtext(f"{SM}loc")})
    return found


def test_invalid_hreflang_raises(tmp_path: Path) -> None:
    with pytest.raises(SitemapError, match="hreflang"):
        write([SitemapEntry(BASE, alternates=(Alternate('"><x', BASE),))], tmp_path)


def test_blocks_placed_in_bulk_and_one_by_one_agree(tmp_path: Path) -> None:
    """More entries than one serialisation block, with one too big for a file in the
    middle: files on both sides of it are filled exactly like everywhere else."""
    count = 20_000
    entries = [page(i, lastmod=dt.date(2024, 1, 1) + dt.timedelta(days=i % 97)) for i in range(count)]
    huge = SitemapEntry(f"{BASE}page-010000x/" + "y" * 2000)
    max_bytes, max_urls = 2048, 21
    report = write(entries + [huge], tmp_path, max_urls=max_urls, max_bytes=max_bytes, gzip=False)
    assert [d.loc for d in report.dropped] == [huge.loc]
    assert report.url_count == count
    shards = [tmp_path / name for name in report.files[1:]]
    index = urls_of(parse_sitemap(tmp_path / "sitemap.xml"))
    locs: list[str] = []
    for k, path in enumerate(shards):
        data = path.read_bytes()
        lines = [line for line in data.splitlines(True) if line.startswith(b"<url>")]
        assert len(data) <= max_bytes and len(lines) <= max_urls
        if k + 1 < len(shards):
            first_next = next(l for l in shards[k + 1].read_bytes().splitlines(True) if l.startswith(b"<url>"))
            assert len(lines) == max_urls or len(data) + len(first_next) > max_bytes
        urls = urls_of(parse_sitemap(path))
        locs += [u["loc"] for u in urls]
        assert index[k]["lastmod"] == max(u["lastmod"] for u in urls)
    assert locs == [e.loc for e in entries]
