"""The checker on a local site folder: listed URLs must be pages that want indexing."""

from __future__ import annotations

from tests.core.check.tree_files import PAGE, SITE, pages, rules, run, url, urlset


def site_files(**overrides):
    files = {"sitemap.xml": urlset(url(SITE), url(SITE + "a/"), url(SITE + "b.html")),
             "robots.txt": f"Sitemap: {SITE}sitemap.xml\n",
             **pages("", "a/", "b.html")}
    files.update(overrides)
    return files


def test_listed_pages_that_exist_and_want_indexing(tmp_path):
    report = run(tmp_path, site_files(), count_unlisted=True)
    assert report.findings == []


def test_page_missing(tmp_path):
    files = site_files()
    del files["a/index.html"]
    report = run(tmp_path, files)
    assert rules(report) == {"page-missing"}
    assert "a/index.html" in report.findings[0].message


def test_page_noindex(tmp_path):
    files = site_files(**{"a/index.html": PAGE.format(
        head='<meta name="robots" content="NOINDEX, follow">')})
    assert rules(run(tmp_path, files)) == {"page-noindex"}


def test_page_is_a_redirect_stub(tmp_path):
    files = site_files(**{"a/index.html": PAGE.format(
        head='<meta http-equiv="refresh" content="0; url=../b.html">')})
    assert rules(run(tmp_path, files)) == {"page-redirect"}


def test_page_canonical_elsewhere(tmp_path):
    files = site_files(**{"a/index.html": PAGE.format(head='<link rel="canonical" href="../b.html">')})
    report = run(tmp_path, files)
    assert rules(report) == {"page-canonical"}
    assert f"names {SITE}b.html" in report.findings[0].message
    itself = site_files(**{"a/index.html": PAGE.format(head=f'<link rel="canonical" href="{SITE}a/">')})
    assert run(tmp_path, itself).findings == []


def test_built_pages_missing_from_the_sitemap_are_counted(tmp_path):
    files = site_files(**pages("c/", "d/e.html", "404.html"),
                       **{"old/index.html": PAGE.format(head='<meta name="robots" content="noindex">')})
    report = run(tmp_path, files, count_unlisted=True)
    assert [(f.rule, f.severity) for f in report.findings] == [("page-unlisted", "warning")]
    assert report.findings[0].message.startswith(
        f"2 built pages are not in the sitemap: {SITE}c/, {SITE}d/e.html")
    assert report.status() == 0


def test_site_url_from_robots_txt(tmp_path):
    from mkdocs_sitemap_pro.core.check import CheckOptions, check
    from tests.core.check.tree_files import write_tree

    write_tree(tmp_path, site_files())
    report = check(str(tmp_path), CheckOptions(count_unlisted=False))
    assert report.findings == [] and report.url_count == 3


def test_404_pages_at_language_and_version_roots_are_not_counted(tmp_path):
    # A theme's 404.html and a 404.md page (404/) at the root, under a language (fr/),
    # a version (1.0/) and a version's language (1.0/fr/): error pages, not unlisted ones.
    files = site_files(**pages("404/", "404.html", "fr/404/", "fr/404.html", "1.0/404.html",
                               "1.0/404/", "1.0/fr/404/", "guide/deep/404/"),
                       **{"1.0/sitemap.xml": urlset(url(SITE + "1.0/"))})
    report = run(tmp_path, files, count_unlisted=True)
    assert [(f.rule, f.severity) for f in report.findings] == [("page-unlisted", "warning")]
    # Two folders down, outside a version (no sitemap.xml of its own), 404/ is a page.
    assert report.findings[0].message.startswith(
        f"1 built page is not in the sitemap: {SITE}guide/deep/404/")
