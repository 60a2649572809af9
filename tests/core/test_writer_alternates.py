"""hreflang alternates in the writer: counted in the byte budget, declared where used."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry
from mkdocs_sitemap_pro.core.writer import WriteOptions, write_sitemaps
from tests.support.hreflang import read_with_alternates
from tests.support.schemas import parse_sitemap, urls_of

BASE = "https://example.com/docs/"
BUILD = dt.datetime(2024, 6, 1, 12, 0, tzinfo=dt.timezone.utc)
LANGUAGES = ["en", "fr", "de", "es", "it", "pt-BR", "nl", "sv", "da", "nb", "fi", "pl",
             "cs", "sk", "hu", "ro", "bg", "el", "tr", "ru", "uk", "ja", "ko", "zh-Hans",
             "zh-Hant", "ar", "he", "hi", "th", "vi"]


def translated(group: str) -> list[SitemapEntry]:
    """One page in 30 languages, each listing all 30 (itself included) and x-default."""
    urls = {lang: f"{BASE}{lang.lower()}/{group}/" for lang in LANGUAGES}
    alternates = tuple(Alternate(lang, url) for lang, url in urls.items()) + (
        Alternate("x-default", urls["en"]),
    )
    return [SitemapEntry(url, dt.date(2024, 1, 2), alternates=alternates) for url in urls.values()]


def test_thirty_languages_stay_within_both_limits(tmp_path: Path) -> None:
    entries = [e for g in ("a", "b", "c") for e in translated(g)]
    # Pages without translations between them, so some files need no namespace.
    entries += [SitemapEntry(f"{BASE}zz-plain-{i:03d}/") for i in range(40)]
    max_bytes, max_urls = 8192, 7
    one_entry = 4000  # about 30 links of ~120 bytes
    report = write_sitemaps(entries, tmp_path, BASE, WriteOptions(
        max_urls=max_urls, max_bytes=max_bytes, gzip=True, build_time=BUILD))
    assert report.is_index and not report.dropped
    seen: dict[str, list[tuple[str, str]]] = {}
    locs: list[str] = []
    declared_files = plain_files = 0
    for name in report.files[1:]:
        path = tmp_path / name
        size = path.stat().st_size
        assert size <= max_bytes, (name, size)
        urls, alternates = read_with_alternates(path)
        gz_urls, gz_alternates = read_with_alternates(tmp_path / (name + ".gz"))
        assert (gz_urls, gz_alternates) == (urls, alternates)
        assert 1 <= len(urls) <= max_urls
        locs += list(urls)
        seen.update(alternates)
        if alternates:
            declared_files += 1
            assert size > one_entry  # the links were counted, not just the locs
        else:
            plain_files += 1
    assert declared_files and plain_files
    assert sorted(locs) == sorted(e.loc for e in entries)
    for entry in entries:
        expected = [(a.hreflang, a.href) for a in entry.alternates]
        assert seen.get(entry.loc, []) == expected
    # The index lists every file once.
    assert [u["loc"] for u in urls_of(parse_sitemap(tmp_path / "sitemap.xml"))] == [
        BASE + name for name in report.files[1:]
    ]


def test_namespace_declared_only_in_files_that_use_it(tmp_path: Path) -> None:
    """Plain entries fill the first files, and a provisional declaration is dropped when
    the file's start is written before its entry with alternates arrives."""
    plain = [SitemapEntry(f"{BASE}a-{i:05d}/" + "p" * 200) for i in range(6000)]
    entries = plain + translated("zz")[:2]
    report = write_sitemaps(entries, tmp_path, BASE, WriteOptions(
        max_urls=50_000, max_bytes=1_500_000, gzip=False, build_time=BUILD))
    declared = []
    for name in report.files[1:]:
        urls, alternates = read_with_alternates(tmp_path / name)  # asserts declared == used
        declared.append(bool(alternates))
        assert (tmp_path / name).stat().st_size <= 1_500_000
    assert declared[-1] is True and not all(declared)
    assert report.url_count == len(entries)
