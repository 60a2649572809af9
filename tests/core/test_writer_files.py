"""The generator's files on disk: reproducible bytes, all-or-nothing writes, stale files."""

from __future__ import annotations

import datetime as dt
import errno
import gzip
import struct
import zlib
from pathlib import Path
from typing import BinaryIO

import pytest

from mkdocs_sitemap_pro.core import atomic
from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.writer import WriteOptions, WriteReport, write_sitemaps
from tests.support.faults import fail_writes
from tests.support.files import snapshot
from tests.support.schemas import parse_sitemap, urls_of

BASE = "https://example.com/"
UTC = dt.timezone.utc
BUILD = dt.datetime(2024, 6, 1, tzinfo=UTC)


def entries(count: int) -> list[SitemapEntry]:
    return [
        SitemapEntry(
            f"{BASE}p/{i}/é",
            dt.datetime(2024, 1, 1, tzinfo=UTC) + dt.timedelta(hours=i),
            "weekly" if i % 2 else None,
            (i % 10) / 10 if i % 3 else None,
        )
        for i in range(count)
    ]


def write(items: list[SitemapEntry], out: Path, **options: object) -> WriteReport:
    options.setdefault("build_time", BUILD)
    return write_sitemaps(items, out, BASE, WriteOptions(**options))  # type: ignore[arg-type]


def test_two_runs_give_identical_bytes(tmp_path: Path) -> None:
    items = entries(25)
    items += [  # duplicates that tie on lastmod: the winner must not depend on order
        SitemapEntry(f"{BASE}p/3/é", items[3].lastmod, "never", 0.1),
        SitemapEntry(f"{BASE}p/4/%C3%A9", items[4].lastmod, "always", None),
    ]
    first = write(items, tmp_path / "a", max_urls=10)
    second = write(list(reversed(items)), tmp_path / "b", max_urls=10)
    assert first == second
    a, b = snapshot(tmp_path / "a"), snapshot(tmp_path / "b")
    assert a == b
    assert sorted(a) == sorted(first.files + first.gz_files)
    for name, data in a.items():
        if name.endswith(".gz"):
            magic, method, flags, mtime = struct.unpack("<HBBI", data[:8])
            assert (magic, method) == (0x8B1F, 8)
            assert flags == 0, "no file name or other optional header field"
            assert mtime == 0
            plain = a[name[:-3]]
            if name == "sitemap.xml.gz":  # the .gz index lists the .gz shards
                plain = plain.replace(b".xml</loc>", b".xml.gz</loc>")
            assert gzip.decompress(data) == plain


def test_gzip_level_is_the_documented_one(tmp_path: Path) -> None:
    write(entries(3), tmp_path)
    raw = (tmp_path / "sitemap.xml").read_bytes()
    packed = (tmp_path / "sitemap.xml.gz").read_bytes()
    assert packed == atomic.gzip_bytes(raw)
    # A 10-byte header with no optional fields, raw deflate at GZIP_LEVEL, 8-byte trailer.
    deflate = zlib.compressobj(atomic.GZIP_LEVEL, zlib.DEFLATED, -15)
    assert packed[10:-8] == deflate.compress(raw) + deflate.flush()
    assert struct.unpack("<II", packed[-8:]) == (zlib.crc32(raw), len(raw))


@pytest.mark.parametrize("marker", ["sitemap-3.xml.tmp", "sitemap-3.xml.gz.tmp", ".sitemap.xml.tmp", ".sitemap.xml.gz.tmp"])
def test_failure_half_way_leaves_the_previous_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, marker: str) -> None:
    write(entries(12), tmp_path, max_urls=5)
    (tmp_path / "index.html").write_text("<p>site</p>")
    before = snapshot(tmp_path)
    fail_writes(monkeypatch, lambda name: marker in name)
    with pytest.raises(OSError) as info:
        write(entries(40), tmp_path, max_urls=4)
    assert info.value.errno == errno.ENOSPC
    assert snapshot(tmp_path) == before  # byte-identical, and no temporary file left


def test_failure_when_opening_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real_open = atomic.open_new

    def open_new(path: Path) -> BinaryIO:
        calls.append(path.name)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_open(path)

    monkeypatch.setattr(atomic, "open_new", open_new)
    with pytest.raises(OSError):
        write(entries(9), tmp_path, max_urls=3)
    assert len(calls) == 3
    assert list(tmp_path.iterdir()) == []


def test_fewer_shards_remove_the_stale_ones_only(tmp_path: Path) -> None:
    write(entries(9), tmp_path, max_urls=3)
    assert (tmp_path / "sitemap-3.xml").exists() and (tmp_path / "sitemap-3.xml.gz").exists()
    user = {"sitemap-2023.xml": b"mine", "sitemap-notes.xml": b"notes", "sitemap-9.xml": b"not listed"}
    for name, data in user.items():
        (tmp_path / name).write_bytes(data)
    report = write(entries(6), tmp_path, max_urls=3)
    assert report.removed == ("sitemap-3.xml", "sitemap-3.xml.gz")
    names = {p.name for p in tmp_path.iterdir()}
    assert names == set(report.files) | set(report.gz_files) | set(user)
    for name, data in user.items():
        assert (tmp_path / name).read_bytes() == data
    index = urls_of(parse_sitemap(tmp_path / "sitemap.xml"))
    assert [c["loc"] for c in index] == [BASE + "sitemap-1.xml", BASE + "sitemap-2.xml"]


def test_from_index_to_single_urlset(tmp_path: Path) -> None:
    write(entries(9), tmp_path, max_urls=3)
    report = write(entries(2), tmp_path, max_urls=3)
    assert not report.is_index
    assert report.removed == tuple(sorted(f"sitemap-{n}.xml{gz}" for n in (1, 2, 3) for gz in ("", ".gz")))
    assert {p.name for p in tmp_path.iterdir()} == {"sitemap.xml", "sitemap.xml.gz"}
    assert parse_sitemap(tmp_path / "sitemap.xml").tag.endswith("urlset")


def test_gzip_off_removes_our_gz_files(tmp_path: Path) -> None:
    write(entries(6), tmp_path, max_urls=3)
    (tmp_path / "other.xml.gz").write_bytes(b"keep")
    report = write(entries(6), tmp_path, max_urls=3, gzip=False)
    assert report.gz_files == ()
    assert report.removed == ("sitemap-1.xml.gz", "sitemap-2.xml.gz", "sitemap.xml.gz")
    assert {p.name for p in tmp_path.iterdir()} == {"sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "other.xml.gz"}


def test_mkdocs_own_sitemap_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_text('<?xml version="1.0"?><urlset><url><loc>x</loc></url></urlset>')
    (tmp_path / "sitemap.xml.gz").write_bytes(gzip.compress(b"old"))
    report = write(entries(2), tmp_path)
    assert report.removed == ()
    assert len(urls_of(parse_sitemap(tmp_path / "sitemap.xml.gz"))) == 2


OURS = ("sitemap-1.xml", "sitemap-1.xml.gz", "sitemap-2.xml")


@pytest.mark.parametrize(
    ("previous", "removed"),
    [
        (b"\x00\xffgarbage sitemap-1.xml", ()),
        (b"<urlset><url><loc>https://example.com/sitemap-1.xml</loc></url></urlset>", ()),
        (  # truncated, still ours
            b"<sitemapindex><sitemap><loc>https://example.com/sitemap-1.xml</loc></sitemap>"
            b"<sitemap><loc>https://example.com/sitemap-2.xml",
            OURS,
        ),
        (  # another host and odd spacing: files are matched by base name
            b"<sitemapindex><sitemap><loc> https://old.example.org/a/sitemap-1.xml </loc></sitemap>"
            b"<sitemap><loc>https://old.example.org/a/sitemap-2.xml</loc></sitemap></sitemapindex>",
            OURS,
        ),
        (  # not an index this generator writes (not exactly sitemap-1 .. sitemap-k): hands off
            b"<sitemapindex><sitemap><loc>https://example.com/sitemap-1.xml</loc></sitemap>"
            b"<sitemap><loc>https://example.com/sitemap-2023.xml</loc></sitemap></sitemapindex>",
            (),
        ),
        (
            b"<sitemapindex><sitemap><loc>https://example.com/sitemap-1.xml</loc></sitemap>"
            b"<sitemap><loc>https://example.com/sitemap-notes.xml</loc></sitemap></sitemapindex>",
            (),
        ),
    ],
)
def test_previous_index_is_read_tolerantly(tmp_path: Path, previous: bytes, removed: tuple[str, ...]) -> None:
    (tmp_path / "sitemap.xml").write_bytes(previous)
    names = (*OURS, "sitemap-notes.xml", "sitemap-2023.xml")
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    report = write(entries(2), tmp_path)
    assert report.removed == removed
    remaining = {p.name for p in tmp_path.iterdir()}
    assert remaining == {"sitemap.xml", "sitemap.xml.gz", *names} - set(removed)


def test_shards_are_renamed_before_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    order: list[str] = []
    real_replace = os.replace

    def replace(src: object, dst: object) -> None:
        order.append(Path(str(dst)).name)
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replace)
    write(entries(5), tmp_path, max_urls=2)
    assert order[-1] == "sitemap.xml"
    assert order.index("sitemap.xml.gz") > max(order.index(f"sitemap-{n}.xml{gz}") for n in (1, 2, 3) for gz in ("", ".gz"))


@pytest.mark.parametrize("fail_at", [1, 4, 7])
def test_failure_while_renaming_puts_the_previous_tree_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_at: int
) -> None:
    write(entries(12), tmp_path, max_urls=5)  # index + 3 shards, each with a .gz
    (tmp_path / "sitemap-2023.xml").write_text("mine")
    before = snapshot(tmp_path)
    real_replace = atomic.os.replace
    renames_into_place = []

    def replace(src: object, dst: object) -> None:
        if not Path(str(dst)).name.startswith("."):
            renames_into_place.append(Path(str(dst)).name)
            if len(renames_into_place) == fail_at:
                raise OSError(errno.EIO, "Input/output error")
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(atomic.os, "replace", replace)
    with pytest.raises(OSError):
        write(entries(40), tmp_path, max_urls=4)  # index + 10 shards: new names too
    assert len(renames_into_place) >= fail_at
    assert snapshot(tmp_path) == before  # byte-identical, nothing new, no temporary file


def test_backups_of_a_killed_rename_are_removed(tmp_path: Path) -> None:
    leftover = tmp_path / ".sitemap-2.xml.bak.tmp-0123456789ab"
    leftover.write_text("old shard")
    unrelated = tmp_path / ".notes.bak.tmp-0123456789ab"
    unrelated.write_text("not ours")
    report = write(entries(3), tmp_path)
    assert leftover.name in report.removed
    assert not leftover.exists() and unrelated.exists()
