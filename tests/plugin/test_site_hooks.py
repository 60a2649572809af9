"""A site's ``hooks:`` module shapes the entries (``sitemap_entries``): real builds."""

from __future__ import annotations

import textwrap

from tests.support.dates import D1, utc
from tests.support.schemas import parse_sitemap
from tests.support.sites import SITE_URL, Site

_SHAPING = '''
import datetime as dt
from mkdocs_sitemap_pro import SitemapEntry

def sitemap_entries(entries, config):
    kept = [e for e in entries if "/blog/" not in e.loc]
    kept.append(SitemapEntry(config.site_url + "api/", lastmod=dt.date(2024, 5, 1),
                             changefreq="daily"))
    return kept
'''


def _site(site: Site, hook: str) -> Site:
    site.page("index.md")
    site.page("guide.md")
    site.page("blog/index.md")
    site.page("blog/post.md")
    site.repo.write("hooks/shape.py", textwrap.dedent(hook))
    site.commit("first", D1)
    site.config["hooks"] = ["hooks/shape.py"]
    site.write_config()
    return site


def test_a_hook_adds_a_url_the_site_does_not_build_and_drops_a_section(site: Site) -> None:
    built = _site(site, _SHAPING).build(strict=True)
    assert built.error is None, built.messages()
    urls = built.sitemap()
    assert sorted(urls) == [SITE_URL, SITE_URL + "api/", SITE_URL + "guide/"]
    assert urls[SITE_URL + "api/"] == {
        "loc": SITE_URL + "api/", "lastmod": "2024-05-01", "changefreq": "daily"}
    assert urls[SITE_URL]["lastmod"] == utc(D1)
    # The page for people and the .gz list the same URLs.
    html = (built.site_dir / "sitemap.html").read_text(encoding="utf-8")
    assert SITE_URL + "api/" in html and "blog/post/" not in html
    gz = parse_sitemap(built.site_dir / "sitemap.xml.gz")
    assert len(list(gz)) == 3
    assert any(m.startswith("sitemap-pro: 3 URLs") for m in built.infos()), built.infos()


def test_an_invalid_entry_is_left_out_with_a_warning_naming_the_hook(site: Site) -> None:
    hook = '''
    from mkdocs_sitemap_pro import SitemapEntry

    def sitemap_entries(entries, config):
        return entries + [
            SitemapEntry("https://elsewhere.example/x/"),
            SitemapEntry(config.site_url + "bad/", changefreq="sometimes"),
            "https://example.com/docs/text/",
            SitemapEntry(config.site_url + "good/", priority=0.3),
        ]
    '''
    built = _site(site, hook).build()
    assert built.error is None, built.messages()
    urls = built.sitemap()
    assert SITE_URL + "good/" in urls and len(urls) == 5  # 4 pages and the good one
    [warning] = built.messages()
    assert warning.startswith("sitemap-pro: hooks module hooks/shape.py: sitemap_entries "
                              "returned 3 invalid entries, left out of the sitemap"), warning
    assert "not under the base URL" in warning and "'sometimes'" in warning
    assert "not a SitemapEntry: str" in warning
    assert _site_strict_fails(site)


def _site_strict_fails(site: Site) -> bool:
    return site.build(strict=True).error is not None


def test_a_hook_that_raises_or_returns_no_list_leaves_the_entries_as_they_were(site: Site) -> None:
    hook = '''
    def sitemap_entries(entries, config):
        raise RuntimeError("no database here")
    '''
    built = _site(site, hook).build()
    assert built.error is None, built.messages()
    assert len(built.sitemap()) == 4
    assert built.messages() == [
        "sitemap-pro: hooks module hooks/shape.py: sitemap_entries raised RuntimeError: "
        "no database here; the sitemap's entries are written as they were before it"]

    # Another file: MkDocs keeps a hooks module it loaded for the rest of the process.
    site.repo.write("hooks/pop.py", "def sitemap_entries(entries, config):\n    entries.pop()\n")
    site.config["hooks"] = ["hooks/pop.py"]
    site.write_config()
    built = site.build()
    assert len(built.sitemap()) == 4  # what it did to its copy of the list does not count
    assert built.messages() == [
        "sitemap-pro: hooks module hooks/pop.py: sitemap_entries returned NoneType, not a "
        "list of SitemapEntry; the sitemap's entries are written as they were before it"]

