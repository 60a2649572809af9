"""The html_view pages in a real browser: headless Chromium, pages served from 127.0.0.1.

Asserts on what the browser shows after the pages' scripts ran: rows, counts, links
that lead to the right pages, and a language column where alternates exist. Outside CI
a missing Chromium skips these tests; under CI (``CI`` set) it fails them.
"""

from __future__ import annotations

import datetime as dt
import os
import urllib.request

import pytest
from lxml import html

from mkdocs_sitemap_pro import Alternate, SitemapEntry, WriteOptions, write_sitemaps
from tests.support.browser import chromium, dump_dom, screenshot, serve
from tests.support.dates import day, utc
from tests.support.sites import Site

if chromium() is None:
    if os.environ.get("CI"):
        pytest.fail("CI must run the browser tests: install chromium (.ci/run does)",
                    pytrace=False)
    pytest.skip("chromium is not installed (apt-get install chromium); browser tests skipped",
                allow_module_level=True)


def shown(url: str) -> html.HtmlElement:
    return html.fromstring(dump_dom(url))


def rows(doc: html.HtmlElement) -> list[html.HtmlElement]:
    return doc.xpath("//tbody/tr[not(@hidden)]")


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        return bytes(response.read())


@pytest.fixture
def served(tmp_path):
    """A built site (5 pages, 2 URLs per file) served on 127.0.0.1, published at that address."""
    root = tmp_path / "project"
    with serve(root / "site") as base:
        site = Site(root, site_url=base, plugins=[{"sitemap-pro": {"max_urls": 2}}])
        site.repo.write(".gitignore", "site/\n")
        for n, name in enumerate(("index.md", "a.md", "b.md", "guide/c.md", "guide/d.md"), 1):
            site.page(name, f"# Page {name}\n")
            site.commit(name, day(n))
        built = site.build(strict=True)
        assert built.error is None, built.messages()
        yield base, built.site_dir


def test_index_page_in_the_browser(served):
    base, _ = served
    doc = shown(base + "sitemap.html")
    assert doc.xpath("//div[@class='tools']/@hidden") == []  # the script ran and showed the filter
    assert doc.xpath("//*[@class='count']")[0].text_content() == "5"
    files = [(tr.xpath("./td[1]/a/@href")[0], tr.xpath("./td[2]")[0].text_content())
             for tr in rows(doc)]
    assert files == [("sitemap-1.html", "2"), ("sitemap-2.html", "2"), ("sitemap-3.html", "1")]
    # Each link leads to that file's page, which lists that file's URLs.
    second = shown(base + files[1][0])
    assert second.xpath("//*[@class='count']")[0].text_content() == "2"
    assert [tr.xpath("./td[1]/a/@href")[0] for tr in rows(second)] == [base + "b/", base + "guide/c/"]


def test_urlset_page_in_the_browser(served, tmp_path):
    base, site_dir = served
    doc = shown(base + "sitemap-1.html")
    assert [th.xpath("./button")[0].text_content() for th in doc.xpath("//thead//th")] == [
        "URL", "Last modified"]  # sortable: the script turned each head into a button
    links = [tr.xpath("./td[1]/a/@href")[0] for tr in rows(doc)]
    assert links == [base, base + "a/"]
    for link, title in zip(links, ("Page index.md", "Page a.md")):
        assert title.encode() in fetch(link)  # the link leads to that very page
    assert doc.xpath("//a[@class='crumb']/@href") == ["sitemap.html"]
    dates = [tr.xpath(".//time/@title")[0] for tr in rows(doc)]
    assert dates == [utc(day(1)), utc(day(2))]
    for width, height in ((1280, 800), (390, 844)):  # looked at by hand; here only taken
        png = screenshot(base + "sitemap-1.html", tmp_path / f"view-{width}.png", width, height)
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_language_column_where_alternates_exist(tmp_path):
    folder = tmp_path / "out"
    with serve(folder) as base:
        when = dt.datetime(2024, 5, 1, 8, 30, tzinfo=dt.timezone.utc)
        en, de = base + "en/", base + "de/"
        langs = (Alternate("en", en), Alternate("de", de), Alternate("x-default", en))
        entries = [SitemapEntry(en, when, alternates=langs), SitemapEntry(de, when, alternates=langs),
                   SitemapEntry(base + "about/", when)]
        write_sitemaps(entries, folder, base, WriteOptions(html_view=True, title="Multilingual"))
        doc = shown(base + "sitemap.html")
    assert [th.text_content() for th in doc.xpath("//thead//th")] == [
        "URL", "Last modified", "Languages"]
    by_url = {tr.xpath("./td[1]/a/@href")[0]: tr for tr in rows(doc)}
    chips = by_url[en].xpath(".//a[@class='lang']")
    assert [(a.text_content(), a.get("href")) for a in chips] == [
        ("en", en), ("de", de), ("x-default", en)]
    assert by_url[base + "about/"].xpath(".//a[@class='lang']") == []
