"""``loc-disallowed``: a listed URL that the host's robots.txt keeps every crawler from,
in a site folder at the host's root and over HTTP (the host's ``/robots.txt``)."""

from __future__ import annotations

import time

from mkdocs_sitemap_pro.core.check import CheckOptions, check
from tests.core.check.tree_files import NOW, SITE, pages, run, url, urlset
from tests.support.web_server import Reply, web


def tree(robots: str) -> dict[str, str | bytes]:
    return {
        "robots.txt": robots + f"Sitemap: {SITE}sitemap.xml\n",
        "sitemap.xml": urlset(url(SITE), url(SITE + "drafts/a/"), url(SITE + "drafts/b/"),
                              url(SITE + "drafts/kept/"), url(SITE + "other/")),
        **pages("", "drafts/a/", "drafts/b/", "drafts/kept/", "other/"),
    }


def disallowed(report) -> list[tuple[str, str, str | None]]:  # type: ignore[no-untyped-def]
    return [(f.severity, f.file, f.url) for f in report.findings if f.rule == "loc-disallowed"]


def test_each_disallowed_url_is_an_error_naming_the_rule(tmp_path):
    robots = "User-agent: *\nDisallow: /drafts/\nAllow: /drafts/kept/\n"
    report = run(tmp_path, tree(robots))
    assert disallowed(report) == [("error", "sitemap.xml", SITE + "drafts/a/"),
                                  ("error", "sitemap.xml", SITE + "drafts/b/")]
    assert report.findings[0].message == (
        f"{SITE}drafts/a/ is listed, but robots.txt keeps every crawler from it "
        "(line 2: Disallow: /drafts/), which search engines report as an error: leave it "
        "out of the sitemap, or allow it in robots.txt")
    assert report.status() == 1
    # Started from the sitemap file, the folder's robots.txt is still the host's.
    assert disallowed(run(tmp_path, {}, target="sitemap.xml")) == disallowed(report)

    # A folder below the host's root has no say: its robots.txt is not the one crawlers
    # read, and the host's is not in the folder.
    below = SITE + "docs/"
    files = {
        "robots.txt": f"User-agent: *\nDisallow: /\nSitemap: {below}sitemap.xml\n",
        "sitemap.xml": urlset(url(below), url(below + "a/")),
        **pages("", "a/"),
    }
    report = run(tmp_path / "docs", files, site_url=below)
    assert disallowed(report) == [] and report.status() == 0


def test_rules_for_named_crawlers_and_other_hosts_are_not_judged(tmp_path):
    robots = "User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /other/\n"
    files = tree(robots)
    files["sitemap.xml"] = urlset(url(SITE), url(SITE + "other/"), url("https://elsewhere.org/other/"))
    report = run(tmp_path, files)
    assert disallowed(report) == [("error", "sitemap.xml", SITE + "other/")]


def test_over_http_the_hosts_robots_txt_is_read_once():
    routes: dict[str, Reply] = {}
    with web(routes) as server:
        docs = server.url + "docs/"
        routes["/robots.txt"] = Reply(b"User-agent: *\nDisallow: /docs/private/\n"
                                      + f"Sitemap: {docs}sitemap.xml\n".encode())
        routes["/docs/sitemap.xml"] = Reply(urlset(url(docs), url(docs + "private/x/")).encode())
        options = CheckOptions(now=NOW, timeout=5)
        # A sitemap given directly, below the root: the host's /robots.txt is asked.
        report = check(docs + "sitemap.xml", options)
        assert disallowed(report) == [("error", docs + "sitemap.xml", docs + "private/x/")]
        asked = [seen.path for seen in server.requests]
        assert asked.count("/robots.txt") == 1
        # Started from the host, robots.txt is read once, for its Sitemap: lines and its rules.
        server.requests.clear()
        report = check(server.url, options)
        assert disallowed(report) == [("error", docs + "sitemap.xml", docs + "private/x/")]
        assert [seen.path for seen in server.requests].count("/robots.txt") == 1


def test_a_robots_txt_made_to_be_slow_is_judged_within_a_bound(tmp_path, monkeypatch):
    """Thousands of ``/*…`` rules match no literal start, so each is tried on every URL:
    past the step budget the rest is not judged, with a warning, and the check ends."""
    from mkdocs_sitemap_pro.core.check import tree_rules as crawlable

    monkeypatch.setattr(crawlable, "MAX_STEPS", 200_000)
    robots = "User-agent: *\n" + "".join(f"Disallow: /*{n}*x{n}\n" for n in range(5_000))
    locs = [SITE + "a" * 50 + f"{n}/" for n in range(100)] + [SITE + "9x9/"]
    files = {"robots.txt": robots + f"Sitemap: {SITE}sitemap.xml\n",
             "sitemap.xml": urlset(*(url(loc) for loc in locs))}
    started = time.monotonic()
    report = run(tmp_path, files)
    assert time.monotonic() - started < 10
    (stopped,) = [f for f in report.findings if f.rule == "not-checked"]
    assert stopped.severity == "warning" and stopped.file == "robots.txt"
    assert stopped.message.startswith("5,000 rules for every crawler: stopped comparing them "
                                      "with the sitemap after ")
    assert stopped.message.endswith(" of 101 URLs")
