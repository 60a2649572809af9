"""Images in the writer: ``image:image`` elements, counted in both budgets, declared
where used, read back, byte for byte reproducible."""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry
from mkdocs_sitemap_pro.core.protocol import IMAGE_NS, MAX_IMAGES, SitemapError
from mkdocs_sitemap_pro.core.reader import read_sitemap
from mkdocs_sitemap_pro.core.urls import normalise_loc
from mkdocs_sitemap_pro.core.writer import WriteOptions, write_sitemaps
from mkdocs_sitemap_pro.core.writer.urlset import URLSET_START, URLSET_STARTS
from tests.support.schemas import images_of, parse_sitemap

BASE = "https://example.com/docs/"
BUILD = dt.datetime(2024, 6, 1, 12, 0, tzinfo=dt.timezone.utc)
DECLARATION = f'xmlns:image="{IMAGE_NS}"'


def test_images_written_once_each_escaped_and_read_back(tmp_path: Path) -> None:
    entries = [
        SitemapEntry(BASE + "a/", dt.date(2024, 1, 2), images=(
            BASE + "img/b.png", BASE + "img/été 1.png", BASE + "img/b.png",
            BASE + "img/%C3%A9t%C3%A9%201.png",  # the same URL, escaped: written once
            BASE + "img/q.png?x=1&y='2'")),
        SitemapEntry(BASE + "b/"),
    ]
    report = write_sitemaps(entries, tmp_path, BASE, WriteOptions(build_time=BUILD))
    text = (tmp_path / "sitemap.xml").read_text(encoding="utf-8")
    assert text.splitlines()[1] == f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" {DECLARATION}>'
    assert (f"<url><loc>{BASE}a/</loc><lastmod>2024-01-02</lastmod>"
            f"<image:image><image:loc>{BASE}img/b.png</image:loc></image:image>"
            f"<image:image><image:loc>{BASE}img/%C3%A9t%C3%A9%201.png</image:loc></image:image>"
            f"<image:image><image:loc>{BASE}img/q.png?x=1&amp;y=&apos;2&apos;</image:loc>"
            "</image:image></url>\n") in text
    assert images_of(parse_sitemap(tmp_path / "sitemap.xml")) == {
        BASE + "a/": [BASE + "img/b.png", BASE + "img/%C3%A9t%C3%A9%201.png",
                      BASE + "img/q.png?x=1&y='2'"],
        BASE + "b/": [],
    }
    read = read_sitemap(tmp_path / "sitemap.xml.gz")
    assert [e.images for e in read.entries] == [
        (BASE + "img/b.png", BASE + "img/%C3%A9t%C3%A9%201.png", BASE + "img/q.png?x=1&y='2'"),
        ()]
    assert report.url_count == 2


def test_no_images_no_namespace(tmp_path: Path) -> None:
    write_sitemaps([SitemapEntry(BASE), SitemapEntry(BASE + "a/", images=())], tmp_path, BASE,
                   WriteOptions(build_time=BUILD))
    assert "image" not in (tmp_path / "sitemap.xml").read_text(encoding="utf-8")


@pytest.mark.parametrize("images, message", [
    (("img/relative.png",), "image 'img/relative.png' is not an absolute http(s) URL"),
    (tuple(f"{BASE}{n}.png" for n in range(MAX_IMAGES + 1)),
     f"{MAX_IMAGES + 1:,} images, more than the {MAX_IMAGES:,} one URL may list"),
])
def test_bad_images_are_refused_naming_the_entry(tmp_path: Path, images, message) -> None:
    with pytest.raises(SitemapError, match="sitemap entry https://example.com/docs/a/") as info:
        write_sitemaps([SitemapEntry(BASE + "a/", images=images)], tmp_path, BASE,
                       WriteOptions(build_time=BUILD))
    assert message in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_max_images_fit(tmp_path: Path) -> None:
    images = tuple(f"{BASE}img/{n}.png" for n in range(MAX_IMAGES))
    write_sitemaps([SitemapEntry(BASE, images=images)], tmp_path, BASE,
                   WriteOptions(build_time=BUILD))
    assert len(images_of(parse_sitemap(tmp_path / "sitemap.xml"))[BASE]) == MAX_IMAGES


def test_image_bytes_count_in_the_budget(tmp_path: Path) -> None:
    """Ten entries whose locs alone fit one file of 2,048 bytes; their images do not."""
    entries = [SitemapEntry(f"{BASE}{n}/", images=(f"{BASE}img/{n}-{'x' * 40}.png",
                                                   *(f"{BASE}img/{n}-{k}.png" for k in range(3))))
               for n in range(10)]
    plain = write_sitemaps([e._replace(images=()) for e in entries], tmp_path / "plain", BASE,
                           WriteOptions(max_bytes=2048, build_time=BUILD))
    assert not plain.is_index
    report = write_sitemaps(entries, tmp_path / "out", BASE,
                            WriteOptions(max_bytes=2048, build_time=BUILD))
    assert report.is_index and report.url_count == 10
    listed = {}
    for name in report.files[1:]:
        path = tmp_path / "out" / name
        assert path.stat().st_size <= 2048
        listed.update(images_of(parse_sitemap(path)))
    assert listed == {e.loc: list(e.images) for e in entries}


def test_mixed_alternates_and_images_declare_both_exactly_where_used(tmp_path: Path) -> None:
    entries = [SitemapEntry(f"{BASE}a{n}/") for n in range(3)]
    entries += [SitemapEntry(f"{BASE}b/", alternates=(Alternate("en", f"{BASE}b/"),),
                             images=(f"{BASE}b.png",))]
    entries += [SitemapEntry(f"{BASE}c{n}/") for n in range(3)]
    entries += [SitemapEntry(f"{BASE}d/", images=(f"{BASE}d.png",))]
    report = write_sitemaps(entries, tmp_path, BASE, WriteOptions(max_urls=2, build_time=BUILD))
    starts = {name: (tmp_path / name).read_text(encoding="utf-8").splitlines()[1]
              for name in report.files[1:]}
    # a0 a1 | a2 b | c0 c1 | c2 d
    assert starts == {
        "sitemap-1.xml": URLSET_START.splitlines()[1],
        "sitemap-2.xml": URLSET_STARTS[3].splitlines()[1],
        "sitemap-3.xml": URLSET_START.splitlines()[1],
        "sitemap-4.xml": URLSET_STARTS[2].splitlines()[1],
    }


def test_reproducible_byte_for_byte(tmp_path: Path) -> None:
    entries = [SitemapEntry(f"{BASE}{n}/", images=(f"{BASE}i/{n}.png", f"{BASE}i/shared.png"))
               for n in range(50)]
    options = WriteOptions(max_bytes=4096, build_time=BUILD)
    first = write_sitemaps(entries, tmp_path / "one", BASE, options)
    write_sitemaps(list(reversed(entries)), tmp_path / "two", BASE, options)
    for name in (*first.files, *first.gz_files):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


path_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
entries_st = st.lists(
    st.builds(
        SitemapEntry,
        loc=st.builds(lambda p: BASE + p, path_text),
        lastmod=st.one_of(st.none(), st.just(dt.date(2024, 1, 2))),
        changefreq=st.none(),
        priority=st.none(),
        alternates=st.just(()),
        images=st.lists(st.builds(lambda p: BASE + "img/" + p, path_text), max_size=6)
        .map(tuple),
    ),
    max_size=60,
    unique_by=lambda entry: normalise_loc(entry.loc),
)


@settings(max_examples=60, deadline=None)
@given(entries=entries_st, max_urls=st.integers(1, 20), max_bytes=st.integers(1024, 4096))
def test_any_images_any_limits(entries: list[SitemapEntry], max_urls: int, max_bytes: int) -> None:
    expected = {
        normalise_loc(entry.loc): list(dict.fromkeys(normalise_loc(i) for i in entry.images))
        for entry in entries}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        report = write_sitemaps(entries, out, BASE, WriteOptions(
            max_urls=max_urls, max_bytes=max_bytes, build_time=BUILD, gzip=False))
        written = {}
        shards = list(report.files[1:] if report.is_index else report.files)
        for k, name in enumerate(shards):
            path = out / name
            data = path.read_bytes()
            root = parse_sitemap(path)  # with the image schema
            found = images_of(root)
            assert 1 <= len(found) <= max_urls and len(data) <= max_bytes
            # The image namespace is declared exactly by the files that use it.
            assert (DECLARATION.encode() in data.splitlines()[1]) == any(found.values())
            if k + 1 < len(shards):  # full, by the sizes the writer decided by
                first_next = next(line for line in (out / shards[k + 1]).read_bytes()
                                  .splitlines(True) if line.startswith(b"<url>"))
                assert len(found) == max_urls or (
                    len(data) + len(first_next) + len(DECLARATION) + 1 > max_bytes)
            written.update(found)
        # An entry larger than a whole file (its images count) is dropped, and said so.
        too_big = {normalise_loc(d.loc) for d in report.dropped
                   if d.reason.startswith("too big for a sitemap file")}
        assert len(too_big) == len(report.dropped)
        assert written == {loc: found for loc, found in expected.items() if loc not in too_big}
        assert report.url_count == len(expected) - len(too_big)
