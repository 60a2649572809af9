"""The sitemap reader: both kinds, .gz, alternates, and safety against hostile XML."""

from __future__ import annotations

import datetime as dt
import gzip
import http.server
import threading
from pathlib import Path

import pytest

from mkdocs_sitemap_pro import WriteOptions, read_sitemap, write_sitemaps
from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry
from mkdocs_sitemap_pro.core.reader import SitemapReadError, decompress, parse_sitemap

BASE = "https://example.com/"
UTC = dt.timezone.utc


def test_reads_back_what_the_writer_wrote(tmp_path: Path) -> None:
    entries = [
        SitemapEntry(f"{BASE}a&b/", dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC), "weekly", 0.5),
        SitemapEntry(f"{BASE}é/", alternates=(Alternate("en", f"{BASE}é/"), Alternate("fr", f"{BASE}fr/é/"))),
        SitemapEntry(f"{BASE}c/"),
    ]
    write_sitemaps(entries, tmp_path, BASE,
                   WriteOptions(max_urls=2, build_time=dt.datetime(2024, 6, 1, tzinfo=UTC)))
    index = read_sitemap(tmp_path / "sitemap.xml")
    assert index.is_index and [e.loc for e in index.entries] == [f"{BASE}sitemap-1.xml", f"{BASE}sitemap-2.xml"]
    first = read_sitemap(tmp_path / "sitemap-1.xml.gz")  # gzip, found by its magic number
    assert first.kind == "urlset" and first.declares_xhtml
    assert [e.loc for e in first.entries] == [f"{BASE}%C3%A9/", f"{BASE}a&b/"]  # &amp; read back
    assert first.entries[0].alternates == (
        Alternate("en", f"{BASE}%C3%A9/"), Alternate("fr", f"{BASE}fr/%C3%A9/"),
    )
    dated = first.entries[1]
    assert (dated.lastmod, dated.changefreq, dated.priority) == ("2024-01-02T03:04:05+00:00", "weekly", "0.5")
    second = read_sitemap(tmp_path / "sitemap-2.xml")
    assert [e.loc for e in second.entries] == [f"{BASE}c/"] and second.entries[0].lastmod is None
    assert second.size == (tmp_path / "sitemap-2.xml").stat().st_size


def test_external_entities_are_not_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    data = (
        f'<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file://{secret}">]>'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://example.com/&xxe;</loc></url></urlset>"
    ).encode()
    assert [e.loc for e in parse_sitemap(data).entries] == ["https://example.com/"]


def test_entity_expansion_is_refused_or_left_unexpanded() -> None:
    laughs = "".join(f'<!ENTITY l{i} "{"&l%d;" % (i - 1) * 10}">' for i in range(1, 8))
    data = (
        f'<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY l0 "ha">{laughs}]>'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://example.com/&l7;</loc></url></urlset>"
    ).encode()
    try:
        parsed = parse_sitemap(data)
    except SitemapReadError as error:  # libxml2's own amplification guard
        assert "amplification" in str(error)
    else:
        assert all("haha" not in e.loc for e in parsed.entries)


def test_no_network_for_a_dtd(tmp_path: Path) -> None:
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'<!ENTITY x "FETCHED">')

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/evil.dtd"
        data = (
            f'<?xml version="1.0"?><!DOCTYPE urlset SYSTEM "{url}">'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            "<url><loc>https://example.com/</loc></url></urlset>"
        ).encode()
        assert [e.loc for e in parse_sitemap(data).entries] == ["https://example.com/"]
    finally:
        server.shutdown()
        server.server_close()
    assert hits == []


def test_gzip_expansion_is_capped() -> None:
    bomb = gzip.compress(b"<" * 5_000_000)
    assert len(bomb) < 10_000
    with pytest.raises(SitemapReadError, match="more than 1,000,000 bytes"):
        decompress(bomb, 1_000_000)
    assert len(decompress(bomb, 5_000_000)) == 5_000_000


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not xml at all", "not well-formed"),
        (b"<html><body>hi</body></html>", "<html>"),
        (b"\x1f\x8b\x08garbage", "not valid gzip"),
    ],
)
def test_what_is_not_a_sitemap_is_an_error_naming_why(data: bytes, message: str) -> None:
    with pytest.raises(SitemapReadError, match=message):
        parse_sitemap(data)


def test_recover_reads_a_truncated_index_as_far_as_it_goes() -> None:
    data = b"<sitemapindex><sitemap><loc>https://e.com/sitemap-1.xml</loc></sitemap><sitemap><loc>https://e.com/sitem"
    with pytest.raises(SitemapReadError):
        parse_sitemap(data)
    assert [e.loc for e in parse_sitemap(data, recover=True).entries] == [
        "https://e.com/sitemap-1.xml", "https://e.com/sitem",
    ]
