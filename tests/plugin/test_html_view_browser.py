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
        "URL", "Title", "Last modified"]  # sortable: the script turned each head into a button
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


# A page's own script runs first; this one, appended after it, acts as a person would:
# it focuses the date column's sort button (as the keyboard does), clicks it once, and
# types a filter; what it saw is left on <body> for the test to read.
_PERSON = """<script>
var head=Array.prototype.filter.call(document.querySelectorAll("thead th"),
  function(th){return th.textContent==="Last modified"})[0],button=head.querySelector("button");
var look=null;Array.prototype.forEach.call(document.styleSheets,function(sheet){
  Array.prototype.forEach.call(sheet.cssRules,function(rule){
    if(rule.selectorText&&rule.selectorText.indexOf("button:focus-visible")>=0&&
       button.matches(rule.selectorText.replace(":focus-visible",""))){look=rule.style;}});});
// The rule the browser applies when the keyboard reaches the button (read from the
// style sheet: whether a headless window counts as focused varies with the machine).
document.body.setAttribute("data-focus",look?look.getPropertyValue("outline"):"none");
document.body.setAttribute("data-background",getComputedStyle(document.body).backgroundColor);
button.click();
var box=document.querySelector(".tools input");box.value=FILTER;
box.dispatchEvent(new Event("input"));
</script>"""


@pytest.fixture
def titled(tmp_path):
    """A built site whose pages have titles, one a non-ASCII URL, dated Jan to May 2024."""
    root = tmp_path / "project"
    with serve(root / "site") as base:
        site = Site(root, site_url=base)
        site.repo.write(".gitignore", "site/\n")
        for name, heading, n in (("index.md", "Home", 9), ("déjà-vu.md", "Déjà vu", 10),
                                 ("c.md", "Charlie", 40), ("a.md", "Alpha & Omega", 125),
                                 ("b.md", "Bravo", 131)):
            site.page(name, f"# {heading}\n")
            site.commit(name, day(n))
        built = site.build(strict=True)
        assert built.error is None, built.messages()
        yield base, built.site_dir


def _as_a_person(site_dir, base: str, name: str, typed: str, flags: tuple[str, ...] = ()):
    page = (site_dir / "sitemap.html").read_text(encoding="utf-8")
    (site_dir / name).write_text(
        page.replace("</body>", _PERSON.replace("FILTER", repr(typed)) + "</body>"),
        encoding="utf-8")
    return shown_with(base + name, flags)


def shown_with(url: str, flags: tuple[str, ...]) -> html.HtmlElement:
    return html.fromstring(dump_dom(url, flags=flags))


def _table(doc: html.HtmlElement) -> list[tuple[str, str, str, str, bool]]:
    """Each row as shown, in the order shown: (link, URL text, title, date, hidden)."""
    return [(tr.xpath("./td[1]/a/@href")[0], tr.xpath("./td[1]")[0].text_content(),
             tr.xpath("./td[2]")[0].text_content(), tr.xpath("./td[3]//time/@datetime")[0],
             tr.get("hidden") is not None) for tr in doc.xpath("//tbody/tr")]


def test_titles_decoded_urls_and_dates_without_javascript(titled):
    base, site_dir = titled
    # The page with its script refused, as a browser without JavaScript shows it
    # (Chromium's own switch for that stops --dump-dom too): a policy that runs no script.
    page = (site_dir / "sitemap.html").read_text(encoding="utf-8")
    (site_dir / "no-js.html").write_text(page.replace(
        "<head>", "<head>\n<meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'none'\">"),
        encoding="utf-8")
    doc = shown(base + "no-js.html")
    assert doc.xpath("//div[@class='tools']/@hidden") == [""]  # no script: no filter box
    assert doc.xpath("//thead//th/button") == []
    assert [th.text_content() for th in doc.xpath("//thead//th")] == [
        "URL", "Title", "Last modified"]
    assert [row[:4] for row in _table(doc)] == [  # by URL, as the XML is
        (base, base, "Home", utc(day(9))),
        (base + "a/", base + "a/", "Alpha & Omega", utc(day(125))),
        (base + "b/", base + "b/", "Bravo", utc(day(131))),
        (base + "c/", base + "c/", "Charlie", utc(day(40))),
        (base + "d%C3%A9j%C3%A0-vu/", base + "déjà-vu/", "Déjà vu", utc(day(10))),
    ]
    xml = (titled[1] / "sitemap.xml").read_text(encoding="utf-8")
    assert "Bravo" not in xml and "Omega" not in xml  # the titles are the view's only


def test_newest_first_on_the_first_click_and_a_filter_of_iso_dates(titled):
    base, site_dir = titled
    by_iso = _as_a_person(site_dir, base, "iso.html", "2024-05")
    assert [(row[0], row[4]) for row in _table(by_iso)] == [
        (base + "b/", False), (base + "a/", False), (base + "c/", True),
        (base + "d%C3%A9j%C3%A0-vu/", True), (base, True)]  # newest first
    assert by_iso.xpath("//th[@aria-sort]/button/text()") == ["Last modified"]
    assert by_iso.xpath("//th[@aria-sort]/@aria-sort") == ["descending"]
    assert by_iso.xpath("//div[@class='tools']/output")[0].text_content() == "2 of 5 shown"
    by_words = _as_a_person(site_dir, base, "words.html", "May 2024")
    assert _table(by_words) == _table(by_iso)
    # A title and a decoded URL are found too.
    assert [row[0] for row in _table(_as_a_person(site_dir, base, "t.html", "omega"))
            if not row[4]] == [base + "a/"]
    assert [row[0] for row in _table(_as_a_person(site_dir, base, "u.html", "déjà"))
            if not row[4]] == [base + "d%C3%A9j%C3%A0-vu/"]


def test_the_sort_buttons_show_focus_in_light_and_dark(titled):
    base, site_dir = titled
    light = _as_a_person(site_dir, base, "light.html", "")
    dark = _as_a_person(site_dir, base, "dark.html", "", ("--force-dark-mode",))
    for doc in (light, dark):  # an outline of its own (the accent colour, set per mode)
        assert doc.xpath("//body/@data-focus") == ["2px solid var(--accent)"]
    assert light.xpath("//body/@data-background") == ["rgb(246, 247, 249)"]
    assert dark.xpath("//body/@data-background") == ["rgb(20, 23, 28)"]
