"""html_view: a page for people beside every sitemap file, from real builds."""

from __future__ import annotations

from lxml import html

from tests.support.dates import D1, D2, utc
from tests.support.sites import SITE_URL


def page(path):
    return html.fromstring(path.read_bytes())


def rows(doc):
    return doc.xpath("//tbody/tr")


def headers(doc):
    return [th.text_content().strip() for th in doc.xpath("//thead//th")]


def three_pages(site, **options):
    site.page("index.md")
    site.page("a.md", "---\nsitemap:\n  changefreq: weekly\n---\n# A\n")
    site.page("b/c.md")
    site.commit("first", D1)
    site.page("a.md", "---\nsitemap:\n  changefreq: weekly\n---\n# A\nmore\n")
    site.commit("second", D2)
    site.config["site_name"] = "Handbook & Notes"
    site.config["plugins"] = [{"sitemap-pro": options}]
    site.write_config()
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    return built


def test_on_by_default_a_self_contained_noindex_page(site):
    built = three_pages(site)
    doc = page(built.site_dir / "sitemap.html")
    assert doc.xpath("//meta[@name='robots']/@content") == ["noindex"]
    assert doc.xpath("//meta[@name='viewport']/@content") == ["width=device-width, initial-scale=1"]
    assert doc.xpath("//h1")[0].text_content() == "Handbook & Notes"
    assert doc.xpath("//*[@class='count']")[0].text_content() == "3"
    # Self-contained: no stylesheet, script, image or frame from anywhere.
    assert not doc.xpath("//link | //script[@src] | //img | //iframe | //*[@style]")
    assert len(doc.xpath("//style")) == 1 and len(doc.xpath("//script")) == 1
    links = [tr.xpath("./td[1]/a/@href")[0] for tr in rows(doc)]
    assert links == sorted(built.sitemap())  # every URL, in the sitemap's order
    assert "sitemap.html" not in (built.site_dir / "sitemap.xml").read_text()


def test_lastmod_readable_with_the_exact_value_in_the_title(site):
    built = three_pages(site)
    doc = page(built.site_dir / "sitemap.html")
    by_url = {tr.xpath("./td[1]/a/@href")[0]: tr for tr in rows(doc)}
    time = by_url[SITE_URL + "a/"].xpath(".//time")[0]
    assert time.get("title") == time.get("datetime") == utc(D2)
    assert time.text_content() == "21 Feb 2024, 04:30 UTC"


def test_columns_only_for_values_present(site):
    built = three_pages(site)
    doc = page(built.site_dir / "sitemap.html")
    assert headers(doc) == ["URL", "Title", "Last modified", "Change frequency"]
    freq = {tr.xpath("./td[1]/a/@href")[0]: tr.xpath("./td[4]")[0].text_content() for tr in rows(doc)}
    assert freq == {SITE_URL: "", SITE_URL + "a/": "weekly", SITE_URL + "b/c/": ""}
    site.config["plugins"] = [{"sitemap-pro": {"priority": 0.5}}]
    site.page("a.md", "# A\n")
    site.commit("plain", "2024-03-01T00:00:00+00:00")
    site.write_config()
    again = site.build()
    assert headers(page(again.site_dir / "sitemap.html")) == [
        "URL", "Title", "Last modified", "Priority"]


def test_xml_byte_identical_with_and_without_the_view(site):
    built = three_pages(site, max_urls=2)
    names = ["sitemap.xml", "sitemap.xml.gz", "sitemap-1.xml", "sitemap-1.xml.gz",
             "sitemap-2.xml", "sitemap-2.xml.gz"]
    with_view = {name: (built.site_dir / name).read_bytes() for name in names}
    assert {p.name for p in built.site_dir.glob("sitemap*.html")} == {
        "sitemap.html", "sitemap-1.html", "sitemap-2.html"}
    site.config["plugins"] = [{"sitemap-pro": {"max_urls": 2, "html_view": False}}]
    site.write_config()
    without = site.build(strict=True)
    assert {name: (without.site_dir / name).read_bytes() for name in names} == with_view
    assert list(without.site_dir.glob("sitemap*.html")) == []  # ours, so removed


def test_index_page_lists_its_files_and_each_file_has_its_page(site):
    built = three_pages(site, max_urls=2)
    index = page(built.site_dir / "sitemap.html")
    assert headers(index) == ["File", "URLs", "Last modified", "XML"]
    listed = [(tr.xpath("./td[1]/a/@href")[0], tr.xpath("./td[2]")[0].text_content(),
               tr.xpath("./td[4]/a/@href")[0]) for tr in rows(index)]
    assert listed == [("sitemap-1.html", "2", "sitemap-1.xml"), ("sitemap-2.html", "1", "sitemap-2.xml")]
    first = page(built.site_dir / "sitemap-1.html")
    assert [tr.xpath("./td[1]/a/@href")[0] for tr in rows(first)] == [SITE_URL, SITE_URL + "a/"]
    assert first.xpath("//a[@class='crumb']/@href") == ["sitemap.html"]
    # The site shrinks to one file: the shard pages go, sitemap.html becomes the urlset's page.
    site.config["plugins"] = [{"sitemap-pro": {}}]
    site.write_config()
    single = site.build(strict=True)
    assert sorted(p.name for p in single.site_dir.glob("sitemap*.html")) == ["sitemap.html"]
    assert len(rows(page(single.site_dir / "sitemap.html"))) == 3


def test_a_sites_own_sitemap_html_is_never_replaced(site):
    site.page("index.md")
    site.page("sitemap.md", "# Our site map\nhand-made\n")
    site.commit("first", D1)
    site.config["use_directory_urls"] = False
    site.write_config()
    built = site.build()
    assert built.error is None
    assert "hand-made" in (built.site_dir / "sitemap.html").read_text()
    assert any("sitemap.html is the site's own file" in m for m in built.messages())
    assert SITE_URL + "sitemap.html" in built.sitemap()
    again = site.build()  # and the next build removes nothing of it either
    assert "hand-made" in (again.site_dir / "sitemap.html").read_text()
