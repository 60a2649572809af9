"""The html_view pages show exactly what the XML beside them holds, field by field.

The view's rows are made from the text the writer put into each ``<url>`` element, not
from reading the file back; these tests read the file back (with the reader the checker
uses) and compare every row with it, on entries that exercise every field: escaped and
non-ASCII locs, all lastmod shapes, changefreq, priority and hreflang alternates, split
over several files.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import html

from mkdocs_sitemap_pro import Alternate, SitemapEntry, WriteOptions, read_sitemap, write_sitemaps
from mkdocs_sitemap_pro.core.writer.html_view import readable
from tests.support.dates import D1

BASE = "https://example.com/docs/"
PLUS2 = dt.timezone(dt.timedelta(hours=2))


def entries() -> list[SitemapEntry]:
    made = []
    for i in range(7):
        made.append(
            SitemapEntry(
                loc=[f"{BASE}p{i}/", f"{BASE}q&a-{i}/", f"{BASE}café-{i}/",
                     f"{BASE}it's-{i}/"][i % 4],
                lastmod=[D1, dt.date(2024, 2, 29), dt.datetime(2024, 3, 1, 13, 5, tzinfo=PLUS2),
                         None][i % 4],
                changefreq="weekly" if i % 3 == 0 else None,
                priority=0.5 if i % 2 == 0 else None,
                alternates=(
                    (Alternate("en", f"{BASE}p{i}/"), Alternate("de", f"{BASE}de/p&{i}/"))
                    if i % 3 == 1 else ()
                ),
            )
        )
    return made


def rows_of(page: Path) -> dict[str, tuple[str, str, str, str, list[tuple[str, str]]]]:
    """URL -> (lastmod as written, changefreq, priority, [(hreflang, href)]) as shown."""
    doc = html.fromstring(page.read_bytes())
    heads = [th.text_content().strip() for th in doc.xpath("//thead//th")]
    shown = {}
    for tr in doc.xpath("//tbody/tr"):
        cells = dict(zip(heads, tr.xpath("./td")))
        url = cells["URL"].xpath("./a/@href")[0]
        when = cells["Last modified"].xpath("./time/@datetime")
        langs = cells.get("Languages")
        shown[url] = (
            when[0] if when else "",
            cells["Change frequency"].text_content() if "Change frequency" in cells else "",
            cells["Priority"].text_content() if "Priority" in cells else "",
            [(a.get("hreflang"), a.get("href")) for a in langs.xpath("./a")] if langs is not None else [],
        )
    return shown


def test_every_row_is_what_the_xml_says(tmp_path: Path) -> None:
    report = write_sitemaps(entries(), tmp_path, BASE, WriteOptions(max_urls=3, html_view=True))
    assert report.is_index and len(report.files) == 4  # the index and three urlsets
    seen = 0
    for name in report.files[1:]:
        xml = read_sitemap(tmp_path / name)
        want = {
            e.loc: (e.lastmod or "", e.changefreq or "", e.priority or "",
                    [(a.hreflang, a.href) for a in e.alternates])
            for e in xml.entries
        }
        assert rows_of(tmp_path / name.replace(".xml", ".html")) == want
        seen += len(want)
    assert seen == 7
    # Every kind of value was there to compare.
    everything = [v for name in report.files[1:]
                  for v in rows_of(tmp_path / name.replace(".xml", ".html")).items()]
    assert any("&" in url for url, _ in everything)
    assert any("%C3%A9" in url for url, _ in everything)
    assert any(v[3] for _, v in everything) and any(v[1] for _, v in everything)
    assert {v[0] for _, v in everything} >= {"2024-02-29", "2024-03-01T11:05:00+00:00"}


@settings(max_examples=300)
@given(st.datetimes(timezones=st.just(dt.timezone.utc)))
def test_a_utc_date_is_shown_as_parsing_it_shows_it(when: dt.datetime) -> None:
    # The writer's own UTC text is read by slicing; it must say what parsing it says.
    text = when.replace(microsecond=0).isoformat()
    parsed = dt.datetime.fromisoformat(text)
    months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
    shown = (f"{parsed.day} {months[parsed.month - 1]} {parsed.year}, "
             f"{parsed.hour:02}:{parsed.minute:02} UTC")
    assert readable(text) == (shown, text)


def test_a_file_of_utc_lastmods_alone_shows_each_as_written(tmp_path: Path) -> None:
    # The usual file (every URL a UTC lastmod, nothing else) has its rows made straight
    # from the written text; each row must still say what the XML says, and show it as
    # the cell of any other lastmod does. The second file has a changefreq: made per field.
    locs = [BASE, f"{BASE}q&a/", f"{BASE}it's/", f"{BASE}café/", "https://example.com/docs",
            "https://EXAMPLE.com/docs/up/", f"{BASE}p/", f"{BASE}z/"]
    made = [SitemapEntry(loc=loc, lastmod=dt.datetime(2024, 2, 29, i, 5 * i, i, tzinfo=PLUS2),
                         changefreq="daily" if loc.endswith("z/") else None)
            for i, loc in enumerate(locs)]
    report = write_sitemaps(made, tmp_path, BASE, WriteOptions(max_urls=7, html_view=True))
    first = tmp_path / report.files[1].replace(".xml", ".html")
    written = {e.loc: e.lastmod for e in read_sitemap(tmp_path / report.files[1]).entries}
    assert len(written) == 7 and rows_of(first) == {
        url: (lastmod, "", "", []) for url, lastmod in written.items()}
    doc = html.fromstring(first.read_bytes())
    assert [th.text_content() for th in doc.xpath("//thead//th")] == ["URL", "Last modified"]
    for tr in doc.xpath("//tbody/tr"):
        link, time = tr.xpath(".//a")[0], tr.xpath(".//time")[0]
        url = link.get("href")
        assert link.text_content() == unquote(url)  # shown decoded: café/, linked escaped
        # The base is set apart in the links under it, and only there.
        assert bool(link.xpath("./span[@class='base']")) == (url != BASE and url.startswith(BASE))
        assert time.get("title") == time.get("datetime") == written[url]
        assert time.text_content() == readable(written[url])[0]
        assert tr.xpath("./td[2]/@data-value") == [written[url]]
    assert any(not url.startswith(BASE) for url in written) and BASE in written
    last = rows_of(tmp_path / report.files[2].replace(".xml", ".html"))
    assert list(last.values()) == [("2024-02-29T05:35:07+00:00", "daily", "", [])]


def test_a_big_file_s_table_is_paged_and_every_row_is_on_one_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A 50,000-URL table is no page for people: pages of VIEW_ROWS rows, linked.
    from mkdocs_sitemap_pro.core.writer import html_view

    monkeypatch.setattr(html_view, "VIEW_ROWS", 4)
    made = [SitemapEntry(loc=f"{BASE}p{n:02d}/", lastmod=dt.datetime(2024, 1, 1 + n,
                                                                     tzinfo=dt.timezone.utc))
            for n in range(10)]
    report = write_sitemaps(made, tmp_path, BASE, WriteOptions(html_view=True))
    assert sorted(report.html_files) == ["sitemap-page-2.html", "sitemap-page-3.html",
                                         "sitemap.html"]
    pages = [rows_of(tmp_path / name) for name in
             ("sitemap.html", "sitemap-page-2.html", "sitemap-page-3.html")]
    assert [len(p) for p in pages] == [4, 4, 2]
    assert [url for p in pages for url in p] == [e.loc for e in made]
    first = html.fromstring((tmp_path / "sitemap.html").read_bytes())
    assert first.xpath("//p[@class='summary']/a/@href") == ["sitemap.xml", "sitemap-page-2.html",
                                                             "sitemap-page-3.html"]
    # A smaller sitemap next time: the pages it no longer has are removed.
    report = write_sitemaps(made[:3], tmp_path, BASE, WriteOptions(html_view=True))
    assert report.html_files == ("sitemap.html",)
    assert not (tmp_path / "sitemap-page-2.html").exists()


def test_a_page_made_a_block_of_rows_at_a_time_is_the_page_made_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Rows are made and written _ROW_BLOCK at a time (bounded memory): the same bytes.
    from mkdocs_sitemap_pro.core.writer import html_view

    made = [*entries(), *(SitemapEntry(loc=f"{BASE}n{n}/") for n in range(10))]
    written = {}
    for block in (3, 10_000):
        monkeypatch.setattr(html_view, "_ROW_BLOCK", block)
        out = tmp_path / str(block)
        report = write_sitemaps(made, out, BASE, WriteOptions(html_view=True, max_urls=8))
        written[block] = {name: (out / name).read_bytes() for name in report.html_files}
    assert written[3] == written[10_000]
    assert len(written[3]) == 4  # the index's page and three files' pages
    assert all(rows_of(tmp_path / "3" / name) for name in written[3] if name != "sitemap.html")


@pytest.mark.parametrize(("written", "shown"), [
    ("d%C3%A9j%C3%A0-vu/", "déjà-vu/"),
    ("a%20b/", "a b/"),
    ("plain/", "plain/"),
    ("bad%FF/", "bad%FF/"),  # not UTF-8: as written
    ("line%0Abreak/", "line%0Abreak/"),  # a control character: as written
    ("evil%E2%80%AEgpj.exe/", "evil%E2%80%AEgpj.exe/"),  # a right-to-left override
])
def test_a_url_is_shown_decoded_unless_that_would_hide_what_it_is(written, shown):
    from mkdocs_sitemap_pro.core.writer.html_view import decoded

    assert decoded(written) == shown


def test_titles_are_shown_beside_the_urls_and_never_written_into_the_xml(tmp_path: Path) -> None:
    when = dt.datetime(2024, 5, 1, 8, 30, tzinfo=dt.timezone.utc)
    entries = [SitemapEntry(f"{BASE}a/", when), SitemapEntry(f"{BASE}b/", when)]
    plain, titled = tmp_path / "plain", tmp_path / "titled"
    write_sitemaps(entries, plain, BASE, WriteOptions(html_view=True))
    write_sitemaps(entries, titled, BASE, WriteOptions(html_view=True),
                   titles={f"{BASE}a/": "A <b> & 'c'"})
    for name in ("sitemap.xml", "sitemap.xml.gz"):
        assert (plain / name).read_bytes() == (titled / name).read_bytes()
    assert b"Title" not in (plain / "sitemap.html").read_bytes()  # no title: no column
    doc = html.fromstring((titled / "sitemap.html").read_bytes())
    assert [th.text_content() for th in doc.xpath("//thead//th")] == [
        "URL", "Title", "Last modified"]
    assert [td.text_content() for td in doc.xpath("//tbody//td[@data-label='Title']")] == [
        "A <b> & 'c'", ""]
