"""The checker on real sites: MkDocs' own sitemap, and ours, from a folder and over HTTP."""

from __future__ import annotations

from mkdocs_sitemap_pro.core.check import CheckOptions, check
from tests.support.browser import serve
from tests.support.dates import day
from tests.support.sites import SITE_URL, Site

PAGES = ("index.md", "a.md", "b.md", "guide/c.md", "guide/d.md", "404.md")


def make_site(root, **config):
    site = Site(root, **config)
    site.repo.write(".gitignore", "site/\n")
    for n, name in enumerate(PAGES, start=1):
        site.page(name, f"# {name}\n")
        site.commit(f"add {name}", day(n))
    return site


def test_mkdocs_own_sitemap_is_flagged_for_build_date_lastmods(tmp_path):
    site = make_site(tmp_path / "p", plugins=[])  # MkDocs' built-in sitemap, no plugin
    for n in range(15):
        site.page(f"more/m{n}.md", f"# M{n}\n")
    site.commit("fifteen more", day(9))
    built = site.build()
    assert built.error is None, built.messages()
    assert "<lastmod>" in (built.site_dir / "sitemap.xml").read_text()
    report = check(str(built.site_dir), CheckOptions(site_url=SITE_URL))
    assert [(f.rule, f.severity) for f in report.findings] == [("lastmod-same-day", "error")]
    assert "all 21 lastmods fall on" in report.findings[0].message  # 404/ is listed too
    assert report.url_count == 21 and report.status() == 1


def test_mkdocs_own_sitemap_of_a_small_site_is_not_judged(tmp_path):
    site = make_site(tmp_path / "p", plugins=[])
    built = site.build()
    assert built.error is None, built.messages()
    report = check(str(built.site_dir), CheckOptions(site_url=SITE_URL))
    assert report.findings == [] and report.url_count == 6


def test_our_own_output_has_no_finding(tmp_path):
    site = make_site(tmp_path / "p", plugins=[{"sitemap-pro": {"max_urls": 2}}])
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    report = check(str(built.site_dir))  # the site URL comes from robots.txt
    assert report.findings == []
    assert report.files == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"]
    assert report.url_count == 5


def test_our_own_output_over_http(tmp_path):
    root = tmp_path / "p"
    with serve(root / "site") as base:
        site = make_site(root, site_url=base, plugins=[{"sitemap-pro": {"max_urls": 3}}])
        built = site.build(strict=True)
        assert built.error is None, built.messages()
        report = check(base, CheckOptions(timeout=5))
    assert report.findings == []
    assert report.files == [base + "sitemap.xml", base + "sitemap-1.xml", base + "sitemap-2.xml"]
    assert report.url_count == 5
