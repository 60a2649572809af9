"""``core.deploy.changes``: comparing two trees' URLs, and reading a tree whole or not at all."""

from __future__ import annotations

import datetime as dt

import pytest

from mkdocs_sitemap_pro.core.deploy.changes import (
    Change,
    NoSitemap,
    SitemapUrls,
    compare,
    read_urls,
    recrawl,
)
from mkdocs_sitemap_pro.core.check import CheckError, CheckOptions
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.deploy.manifest import Manifest, manifest_bytes
from tests.core.check.tree_files import SITE, index, url, urlset, write_tree

UTC = dt.timezone.utc
T = dt.datetime(2024, 3, 5, 12, 0, 0, tzinfo=UTC)


def tree(urls, files=None):
    return SitemapUrls(SITE, urls, files)


def test_added_removed_updated_backwards_in_that_order():
    old = tree({"u/1": "2024-01-01", "u/2": "2024-01-01", "u/3": "2024-02-01", "u/4": None,
                "u/9": "2024-01-01"})
    new = tree({"u/5": None, "u/3": "2024-01-15", "u/2": "2024-01-02", "u/4": "2024-05-05",
                "u/1": "2024-01-01", "u/0": "2024-06-01"})
    assert compare(old, new) == [
        Change("u/5", "added", None, None),
        Change("u/0", "added", None, "2024-06-01"),
        Change("u/9", "removed", "2024-01-01", None),
        Change("u/2", "updated", "2024-01-01", "2024-01-02", "lastmod"),
        Change("u/3", "backwards", "2024-02-01", "2024-01-15"),
    ]


def test_lastmods_compare_as_values_at_the_coarser_precision():
    old = tree({"a": "2024-03-05T14:00:00+02:00", "b": "2024-03-05", "c": "2024-03-05",
                "d": "2024-03-05T23:00:00-02:00", "e": "not a date", "f": "2024-03-05"})
    new = tree({"a": "2024-03-05T12:00:00+00:00",  # the same moment in another zone
                "b": "2024-03-05T23:59:59+00:00",  # date -> datetime of the same UTC day
                "c": "2024-03-06T00:00:00+00:00",  # the next UTC day
                "d": "2024-03-06",  # 23:00-02:00 is the 6th in UTC
                "e": "2024-03-05", "f": None})  # unreadable or gone: says nothing
    assert compare(old, new) == [
        Change("c", "updated", "2024-03-05", "2024-03-06T00:00:00+00:00", "lastmod")]


def test_content_identity_ties_a_url_to_the_files_dated_as_it_is():
    morning, evening = T.replace(hour=7), T.replace(hour=19)
    old_files = {"k1": ("oid-1", morning), "k2": ("oid-2", T), "k3": ("oid-3", T)}
    new_files = {"k1": ("oid-1b", evening), "k2": ("oid-2", T), "k3": ("oid-3b", T),
                 "k4": ("oid-4", T.replace(day=6))}
    old = tree({"day": "2024-03-05", "second": "2024-03-05T12:00:00+00:00",
                "other-second": "2024-03-05T12:00:01+00:00", "next-day": "2024-03-06"},
               old_files)
    new = tree(dict(old.urls), new_files)
    # day: k1 (evening of that day) has other content; second: k3 (the same second) does;
    # no file of 12:00:01, and k4 of the 6th is new (no identity to compare).
    assert compare(old, new) == [
        Change("day", "updated", "2024-03-05", "2024-03-05", "content"),
        Change("second", "updated", "2024-03-05T12:00:00+00:00",
               "2024-03-05T12:00:00+00:00", "content"),
    ]
    # Only when both trees have a manifest.
    assert compare(old._replace(files=None), new) == []
    assert compare(old, new._replace(files=None)) == []
    # The same identities: nothing.
    assert compare(old, new._replace(files=old_files)) == []


def test_read_urls_from_a_folder_with_its_manifest(tmp_path):
    write_tree(tmp_path, {
        "robots.txt": f"Sitemap: {SITE}sitemap.xml\n",
        "sitemap.xml": index((SITE + "s1.xml", None), (SITE + "s2.xml.gz", None)),
        "s1.xml": urlset(url(SITE, "2024-01-01"), url(SITE + "a/", "2024-01-05")),
        # listed twice: the newer lastmod is kept
        "s2.xml.gz": urlset(url(SITE + "b/"), url(SITE + "a/", "2024-01-09"),
                            url(SITE + "a/", "2024-01-02")),
    })
    manifest = Manifest("c0ffee", HistoryOptions("first-parent", "committer", ()),
                        {"k1": ("oid-1", T)})
    (tmp_path / "sitemap.manifest.json").write_bytes(manifest_bytes(manifest))
    read = read_urls(str(tmp_path), CheckOptions())
    assert read.site_url == SITE
    assert list(read.urls.items()) == [(SITE, "2024-01-01"), (SITE + "a/", "2024-01-09"),
                                       (SITE + "b/", None)]
    assert read.files == {"k1": ("oid-1", T)}
    (tmp_path / "sitemap.manifest.json").write_text("{}")  # not ours: no manifest
    assert read_urls(str(tmp_path), CheckOptions()).files is None


def test_a_tree_read_in_part_is_refused_and_none_is_no_sitemap(tmp_path):
    write_tree(tmp_path, {
        "robots.txt": f"Sitemap: {SITE}sitemap.xml\n",
        "sitemap.xml": index((SITE + "s1.xml", None), (SITE + "s2.xml", None)),
        "s1.xml": urlset(url(SITE)),
    })
    # The file named once: its URL, not "s2.xml: " before it as well.
    with pytest.raises(CheckError, match=f"could not be read whole: {SITE}s2.xml does not "
                                         "exist, listed by sitemap.xml"):
        read_urls(str(tmp_path), CheckOptions())
    (tmp_path / "s2.xml").write_text(urlset(url(SITE + "x/")))
    with pytest.raises(CheckError, match="could not be read whole: s2.xml: stopped after 2 files"):
        read_urls(str(tmp_path), CheckOptions(max_files=2))
    assert len(read_urls(str(tmp_path), CheckOptions(max_files=3)).urls) == 2
    for name in ("sitemap.xml", "s1.xml", "s2.xml"):
        (tmp_path / name).unlink()
    with pytest.raises(NoSitemap, match="there is no sitemap at"):
        read_urls(str(tmp_path), CheckOptions())
    # No robots.txt and no site URL: the fallback is used, not an argument given.
    (tmp_path / "robots.txt").unlink()
    with pytest.raises(CheckError, match="pass --site-url"):
        read_urls(str(tmp_path), CheckOptions())
    with pytest.raises(NoSitemap):
        read_urls(str(tmp_path), CheckOptions(), fallback_site_url=SITE)


def test_by_fingerprint_where_both_trees_recorded_it_the_same_way():
    old = tree({"same": "2024-01-01", "other": "2024-01-01", "moved": "2024-01-01",
                "back": "2024-02-01", "back-same": "2024-02-01", "undated": None,
                "unknown": "2024-01-01", "method": "2024-01-01"}, {})
    new = tree({"same": "2024-01-01", "other": "2024-01-01", "moved": "2024-03-01",
                "back": "2024-01-15", "back-same": "2024-01-15", "undated": None,
                "unknown": "2024-03-01", "method": "2024-03-01"}, {})
    m = "converted-1"
    old = old._replace(rendered={"same": (m, "A"), "other": (m, "A"), "moved": (m, "A"),
                                 "back": (m, "A"), "back-same": (m, "A"), "undated": (m, "A"),
                                 "method": ("built-1", "A")})
    new = new._replace(rendered={"same": (m, "A"), "other": (m, "B"), "moved": (m, "A"),
                                 "back": (m, "B"), "back-same": (m, "A"), "undated": (m, "B"),
                                 "unknown": (m, "A"), "method": (m, "A")})
    assert compare(old, new) == [
        # Other rendering: updated, whatever the lastmods say (or without any).
        Change("other", "updated", "2024-01-01", "2024-01-01", "rendered"),
        Change("undated", "updated", None, None, "rendered"),
        # Not fingerprinted in both, or made another way: by the lastmods, as before.
        Change("unknown", "updated", "2024-01-01", "2024-03-01", "lastmod"),
        Change("method", "updated", "2024-01-01", "2024-03-01", "lastmod"),
        # A lastmod gone back is backwards whatever the fingerprints; said when they differ.
        Change("back", "backwards", "2024-02-01", "2024-01-15", "rendered"),
        Change("back-same", "backwards", "2024-02-01", "2024-01-15", ""),
    ]  # "moved": its lastmod moved, its rendering did not: no change
    assert [recrawl(c) for c in compare(old, new)] == [True, True, True, True, True, False]
    assert all(recrawl(Change("u", kind, None, None)) for kind in ("added", "removed"))
