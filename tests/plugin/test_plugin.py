"""The plugin end to end: real `mkdocs build` runs on real sites in real git repositories."""

from __future__ import annotations

import gzip

import pytest

from tests.support.dates import D1, D2, D3, utc
from tests.support.schemas import NS, parse_sitemap, urls_of
from tests.support.sites import SITE_URL, Site


def test_pages_are_dated_by_their_last_commit(site):
    site.page("index.md")
    site.page("guide/install.md")
    site.page("guide/deep/more.md")
    site.commit("first", D1)
    site.page("guide/install.md", "# Install\nchanged\n")
    site.commit("second", D2)
    site.page("guide/deep/more.md", "# More\nchanged\n")
    site.commit("third", D3)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls = built.sitemap()
    assert {loc: u.get("lastmod") for loc, u in urls.items()} == {
        SITE_URL: utc(D1),
        SITE_URL + "guide/install/": utc(D2),
        SITE_URL + "guide/deep/more/": utc(D3),
    }
    # MkDocs' own sitemap is gone: the .gz is ours (same URLs, reproducible header).
    gz = built.site_dir / "sitemap.xml.gz"
    assert gzip.decompress(gz.read_bytes()) == (built.site_dir / "sitemap.xml").read_bytes()
    assert gz.read_bytes()[4:8] == b"\0\0\0\0"
    summary = [m for m in built.infos() if m.startswith("sitemap-pro: 3 URLs")]
    assert summary == ["sitemap-pro: 3 URLs in 1 file (sitemap.xml, .gz, .html); lastmod: 3 git"], built.infos()


def test_the_summary_counts_the_pages_left_out_by_why(site):
    site.page("index.md")
    site.page("404.md", "# Not found\n")
    site.page("a.md", "---\nsitemap: false\n---\n# A\n")
    site.page("b.md", "---\nsitemap:\n  exclude: true\n---\n# B\n")
    site.page("c.md", "---\nrobots: noindex\n---\n# C\n")
    site.page("drafts/d.md")
    site.page("drafts/e.md")
    site.commit("first", D1)
    site.set_options(exclude=["drafts/*"])
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert sorted(built.sitemap()) == [SITE_URL]
    summary = [m for m in built.infos() if m.startswith("sitemap-pro: 1 URL in")]
    assert summary == [
        "sitemap-pro: 1 URL in 1 file (sitemap.xml, .gz, .html); lastmod: 1 git; 6 pages left "
        "out (2 by front matter, 2 by the exclude option, 1 404 page, 1 noindex)"], built.infos()


def test_merged_branch_counts_from_its_merge_unless_history_is_all(site):
    site.page("index.md")
    site.page("a.md")
    site.commit("base", D1)
    site.repo.git("checkout", "-q", "-b", "feature")
    site.page("a.md", "# A\nfeature work\n")
    branch_date = "2024-02-01T10:00:00+00:00"
    site.commit("feature", branch_date)
    site.repo.git("checkout", "-q", "main")
    site.page("index.md", "# Home\nmain work\n")
    site.commit("main", "2024-02-03T10:00:00+00:00")
    merge_date = "2024-02-04T10:00:00+00:00"
    site.repo.merge("feature", merge_date)
    urls = site.build().sitemap()
    assert urls[SITE_URL + "a/"]["lastmod"] == utc(merge_date)

    site.set_options(git_history="all")
    urls = site.build().sitemap()
    assert urls[SITE_URL + "a/"]["lastmod"] == utc(branch_date)


def test_author_date_and_date_format(site):
    site.page("index.md")
    site.commit("first", D2, author_date="2023-12-31T23:00:00-03:00")
    site.set_options(git_date="author", lastmod_format="date")
    urls = site.build().sitemap()
    # 23:00 at -03:00 is the next day in UTC.
    assert urls[SITE_URL]["lastmod"] == "2024-01-01"


def test_a_misspelt_front_matter_key_of_ours_is_a_warning_naming_the_one_meant(site):
    site.page("index.md")
    site.page("old.md", "---\nsitemaps: false\n---\n# Old\n")
    site.page("dated.md", "---\nsitemap:\n  lastmode: 2024-02-29\n---\n# D\n")
    site.commit("first", D1)
    built = site.build()
    assert built.error is None
    assert sorted(built.messages()) == [
        "sitemap-pro: page 'dated.md': front matter 'sitemap.lastmode' is not a known key "
        "(known: changefreq, exclude, lastmod, priority); ignored; did you mean "
        "'sitemap.lastmod'?",
        "sitemap-pro: page 'old.md': front matter 'sitemaps' is not a key sitemap-pro reads; "
        "ignored, the page is listed as if it had no sitemap key; did you mean 'sitemap'?",
    ]
    assert SITE_URL + "old/" in built.sitemap()
    assert site.build(strict=True).error is not None


def test_front_matter_overrides_git_and_sets_values(site):
    site.page("index.md")
    site.page("dated.md", "---\nsitemap:\n  lastmod: 2024-02-29\n  priority: 0.85\n  changefreq: weekly\n---\n# D\n")
    site.page("naive.md", "---\nsitemap:\n  lastmod: 2024-02-29 13:05:00\n---\n# N\n")
    site.commit("first", D3)
    site.set_options(changefreq="monthly", priority=0.5)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls = built.sitemap()
    assert urls[SITE_URL + "dated/"] == {
        "loc": SITE_URL + "dated/", "lastmod": "2024-02-29", "changefreq": "weekly", "priority": "0.85",
    }
    assert urls[SITE_URL + "naive/"]["lastmod"] == "2024-02-29T13:05:00+00:00"
    assert urls[SITE_URL] == {"loc": SITE_URL, "lastmod": utc(D3), "changefreq": "monthly", "priority": "0.5"}
    summary = [m for m in built.infos() if "URLs in" in m][0]
    assert "2 front matter" in summary and "1 git" in summary


THEME_MAIN = """{% extends "base.html" %}
{% block extrahead %}
{% if page and page.meta.meta_robots %}<meta name="ROBOTS" content="{{ page.meta.meta_robots }}">{% endif %}
{% endblock %}
"""

# A hook that points a page's canonical link elsewhere, as an SEO plugin would.
CANONICAL_HOOK = """import re

def on_post_page(output, page, config):
    canon = page.meta.get("canon")
    if canon:
        output = re.sub(r'<link rel="canonical" href="[^"]*">', f'<link rel="canonical" href="{canon}">', output)
    return output
"""


def test_pages_never_listed(site):
    site.page("index.md")
    site.page("404.md", "# Not found\n")
    site.page("off.md", "---\nsitemap: false\n---\n# Off\n")
    site.page("off2.md", "---\nsitemap:\n  exclude: true\n---\n# Off\n")
    site.page("noindex.md", "---\nrobots: noindex, follow\n---\n# N\n")
    site.page("noindex-list.md", "---\nrobots: [follow, NoIndex]\n---\n# N\n")
    site.page("meta-noindex.md", "---\nmeta_robots: index, NOINDEX\n---\n# M\n")
    site.page("meta-index.md", "---\nmeta_robots: index, follow\n---\n# M\n")
    site.page("canon-away.md", "---\ncanon: https://other.example.com/x/\n---\n# C\n")
    site.page("canon-self.md", f"---\ncanon: {SITE_URL}canon-self/\n---\n# C\n")
    site.page("drafts/wip.md")
    site.page("hidden/secret.md")
    site.page("private/notes.md")
    site.page("orphan.md", "# Not in nav\n")
    site.repo.write("overrides/main.html", THEME_MAIN)
    site.repo.write("hooks/canonical.py", CANONICAL_HOOK)
    site.commit("all", D1)
    site.config.update(
        nav=["index.md"],
        not_in_nav="/orphan.md\n/meta-*.md\n/canon-*.md\n/off*.md\n/noindex*.md\n/private/\n/404.md\n",
        draft_docs="drafts/\n",
        exclude_docs="hidden/\n",
        theme={"name": "mkdocs", "custom_dir": "overrides"},
        hooks=["hooks/canonical.py"],
    )
    site.set_options(exclude=["private/"])
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert sorted(built.sitemap()) == sorted(
        SITE_URL + p for p in ["", "orphan/", "meta-index/", "canon-self/"]
    )
    assert (built.site_dir / "off" / "index.html").exists()  # built, just not listed


def test_dirty_build_lists_every_page_and_still_excludes(site):
    site.page("index.md")
    site.page("a.md")
    site.page("off.md", "---\nsitemap: false\n---\n# Off\n")
    site.page("meta-noindex.md", "---\nmeta_robots: noindex\n---\n# M\n")
    site.repo.write("overrides/main.html", THEME_MAIN)
    site.commit("first", D1)
    site.config["theme"] = {"name": "mkdocs", "custom_dir": "overrides"}
    site.write_config()
    first = site.build()
    assert first.error is None
    expected = {SITE_URL, SITE_URL + "a/"}
    assert set(first.sitemap()) == expected
    import os
    import time

    later = time.time() + 5
    os.utime(site.root / "docs" / "a.md", (later, later))
    site.page("b.md")  # a new page: rebuilt by --dirty
    site.commit("second", D2)
    later = time.time() + 10
    os.utime(site.root / "docs" / "b.md", (later, later))
    dirty = site.build(dirty=True)
    assert dirty.error is None, dirty.messages()
    urls = dirty.sitemap()
    assert set(urls) == expected | {SITE_URL + "b/"}
    assert urls[SITE_URL + "b/"]["lastmod"] == utc(D2)


def test_material_blog_generated_pages_are_listed(site):
    site.page("index.md")
    site.page("blog/index.md", "# Blog\n")
    site.page("blog/posts/hello.md", "---\ndate: 2024-01-05\ncategories: [News]\n---\n# Hello\n\nFirst post.\n")
    site.page("blog/posts/second.md", "---\ndate: 2024-02-07\ncategories: [News]\n---\n# Second\n\nMore.\n")
    site.commit("blog", D1)
    site.config["theme"] = {"name": "material"}
    site.config["plugins"] = [{"blog": {"pagination_per_page": 1}}, "sitemap-pro"]
    site.write_config()
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls = built.sitemap()
    assert SITE_URL + "blog/2024/01/05/hello/" in urls
    assert SITE_URL + "blog/archive/2024/" in urls
    assert SITE_URL + "blog/category/news/" in urls
    assert SITE_URL + "blog/page/2/" in urls
    # Generated pages have no source: they are dated by the posts they list (issue 10).
    assert urls[SITE_URL + "blog/archive/2024/"]["lastmod"] == utc(D1)
    assert urls[SITE_URL + "blog/2024/01/05/hello/"]["lastmod"] == utc(D1)
    summary = [m for m in built.infos() if "URLs in" in m][0]
    assert "by listed posts" in summary
    # Without dependencies they have no lastmod, and the summary says why.
    site.config["plugins"] = [{"blog": {"pagination_per_page": 1}},
                              {"sitemap-pro": {"dependencies": False}}]
    site.write_config()
    built = site.build(strict=True)
    assert "lastmod" not in built.sitemap()[SITE_URL + "blog/archive/2024/"]
    assert "omitted (generated)" in [m for m in built.infos() if "URLs in" in m][0]


def test_strict_fails_on_bad_front_matter_value_and_passes_without(site):
    site.page("index.md")
    site.page("bad.md", "---\nsitemap:\n  priority: high\n---\n# Bad\n")
    site.commit("first", D1)
    built = site.build(strict=True)
    assert built.error is not None
    assert any("page 'bad.md'" in m and "'sitemap.priority: high'" in m for m in built.messages())
    # Not strict: the page is listed, the bad value dropped.
    built = site.build()
    assert built.error is None
    assert "priority" not in built.sitemap()[SITE_URL + "bad/"]
    site.page("bad.md", "---\nsitemap:\n  priority: 0.3\n---\n# Good\n")
    site.commit("fix", D2)
    assert site.build(strict=True).error is None


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"site_url": None}, "site_url"),
        ({"site_url": "/docs/"}, "site_url"),
        ({"site_url": "https://example.com/my docs/"}, "site_url"),
        ({"options": {"filename": "a/x.xml"}}, "filename"),
        ({"options": {"filename": "sitemap.txt"}}, "filename"),
        ({"options": {"max_urls": 0}}, "max_urls"),
        ({"options": {"max_urls": 50_001}}, "max_urls"),
        ({"options": {"max_bytes": 1_023}}, "max_bytes"),
        ({"options": {"changefreq": "sometimes"}}, "changefreq"),
        ({"options": {"priority": 2}}, "priority"),
        ({"options": {"ignore_commits": "no-such-file"}}, "ignore_commits"),
        ({"options": {"lastmod": "yesterday"}}, "lastmod"),
    ],
)
def test_configuration_errors_stop_the_build_naming_the_option(site, change, needle):
    site.page("index.md")
    site.commit("first", D1)
    if "options" in change:
        site.config["plugins"] = [{"sitemap-pro": change["options"]}]
    else:
        if change["site_url"] is None:
            del site.config["site_url"]
        else:
            site.config["site_url"] = change["site_url"]
    site.write_config()
    result = site.cli("build")
    assert result.returncode != 0
    assert needle in result.stderr, result.stderr
    assert not (site.root / "site" / "index.html").exists()  # stopped before building


def test_robots_txt_is_appended_once_and_docs_copy_untouched(site):
    site.page("index.md")
    source = "User-agent: *\r\nDisallow: /private/\r\nSitemap: https://other.example.com/sitemap.xml"
    site.repo.path.joinpath("docs").mkdir(exist_ok=True)
    (site.root / "docs" / "robots.txt").write_bytes(b"\xef\xbb\xbf" + source.encode())
    site.commit("first", D1)
    for _ in range(2):
        built = site.build()
        assert built.error is None
        robots = (built.site_dir / "robots.txt").read_bytes()
        assert robots == b"\xef\xbb\xbf" + (source + "\r\nSitemap: " + SITE_URL + "sitemap.xml\r\n").encode()
    assert (site.root / "docs" / "robots.txt").read_bytes() == b"\xef\xbb\xbf" + source.encode()
    # site_url has a path: crawlers read robots.txt only at the root; an INFO says so.
    assert any("only at the root" in m and f"Sitemap: {SITE_URL}sitemap.xml" in m for m in built.infos())


def test_robots_txt_created_when_absent_and_left_alone_when_disabled(site):
    site.page("index.md")
    site.commit("first", D1)
    built = site.build()
    assert (built.site_dir / "robots.txt").read_text() == f"Sitemap: {SITE_URL}sitemap.xml\n"
    site.set_options(robots_txt=False)
    built = site.build()
    assert not (built.site_dir / "robots.txt").exists()


def test_second_build_gives_identical_files(site):
    for i in range(5):
        site.page(f"p{i}.md", f"# P{i}\n")
    site.commit("first", D1)
    site.set_options(max_urls=2)
    first = site.build()
    names = sorted(p.name for p in first.site_dir.glob("sitemap*"))
    snapshot = {n: (first.site_dir / n).read_bytes() for n in names}
    second = site.build()
    assert sorted(p.name for p in second.site_dir.glob("sitemap*")) == names
    assert {n: (second.site_dir / n).read_bytes() for n in names} == snapshot
    assert names == [  # html_view (on by default): a page beside each file, reproducible too
        "sitemap-1.html", "sitemap-1.xml", "sitemap-1.xml.gz", "sitemap-2.html",
        "sitemap-2.xml", "sitemap-2.xml.gz", "sitemap-3.html", "sitemap-3.xml",
        "sitemap-3.xml.gz", "sitemap.html", "sitemap.manifest.json", "sitemap.xml",
        "sitemap.xml.gz",
    ]
    index = parse_sitemap(second.site_dir / "sitemap.xml")
    assert index.tag == f"{{{NS}}}sitemapindex"
    assert [u["loc"] for u in urls_of(index)] == [f"{SITE_URL}sitemap-{i}.xml" for i in (1, 2, 3)]
    gz_index = parse_sitemap(second.site_dir / "sitemap.xml.gz")
    assert [u["loc"] for u in urls_of(gz_index)] == [f"{SITE_URL}sitemap-{i}.xml.gz" for i in (1, 2, 3)]
    for name in names:
        if name.endswith((".xml", ".xml.gz")):
            parse_sitemap(second.site_dir / name)


def test_material_instant_navigation_warns_when_sitemap_is_an_index(site):
    site.page("index.md")
    site.page("a.md")
    site.commit("first", D1)
    site.config["theme"] = {"name": "material", "features": ["navigation.instant"]}
    site.set_options(index="always")
    built = site.build()
    assert any("navigation.instant" in m for m in built.messages())
    # One shard under an index: "1 file", never "1 files".
    summary = [m for m in built.infos() if m.startswith("sitemap-pro: 2 URLs")]
    assert summary == [
        "sitemap-pro: 2 URLs in 1 file (sitemap.xml, an index of 1 file, .gz, .html); lastmod: 2 git"
    ], built.infos()
    site.config["plugins"] = ["sitemap-pro"]
    site.write_config()
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert len(built.sitemap()) == 2


def test_fallbacks_for_untracked_pages(site):
    site.page("index.md")
    site.commit("first", D1)
    site.page("untracked.md", "# Not committed yet\n")  # no tracked file's bytes
    built = site.build(strict=True)  # untracked pages are no reason to fail
    assert built.error is None, built.messages()
    urls = built.sitemap()
    assert "lastmod" not in urls[SITE_URL + "untracked/"]
    assert any("1 omitted (untracked)" in m for m in built.infos())
    site.set_options(lastmod_fallback="build_time")
    urls = site.build(env={"SOURCE_DATE_EPOCH": "1750000000"}).sitemap()
    assert urls[SITE_URL + "untracked/"]["lastmod"] == "2025-06-15T15:06:40+00:00"
    assert urls[SITE_URL]["lastmod"] == utc(D1)
    # A build time before the commit (a skewed clock): the commit's date is a warning and dropped.
    built = site.build(env={"SOURCE_DATE_EPOCH": "1700000000"})
    assert "lastmod" not in built.sitemap()[SITE_URL]
    assert any("page 'index.md'" in m and "lastmod" in m for m in built.messages())


def test_lastmod_none_and_mtime(site):
    import os

    site.page("index.md")
    site.commit("first", D1)
    os.utime(site.root / "docs" / "index.md", (1_600_000_000, 1_600_000_000))
    site.set_options(lastmod="mtime")
    assert site.build().sitemap()[SITE_URL]["lastmod"] == "2020-09-13T12:26:40+00:00"
    site.set_options(lastmod="none")
    assert "lastmod" not in site.build().sitemap()[SITE_URL]


def test_docs_outside_git_warn_so_strict_fails(tmp_path):
    import shutil

    site = Site(tmp_path / "project")
    site.page("index.md")
    shutil.rmtree(site.root / ".git")
    built = site.build(strict=True)
    assert built.error is not None
    assert any("git" in m.lower() and "repositor" in m.lower() for m in built.messages())
    built = site.build()
    assert built.error is None
    assert "lastmod" not in built.sitemap()[SITE_URL]


def test_disabled_plugin_leaves_mkdocs_sitemap(site):
    site.page("index.md")
    site.commit("first", D1)
    site.set_options(enabled=False)
    built = site.build()
    text = (built.site_dir / "sitemap.xml").read_text()
    assert "<lastmod>" in text and utc(D1)[:10] not in text  # MkDocs' build-date sitemap
    assert not (built.site_dir / "robots.txt").exists()


def test_serve_writes_the_sitemap_with_the_local_address_and_leaves_drafts_out(site):
    site.page("index.md")
    site.page("drafts/wip.md")
    site.commit("first", D1)
    site.config["draft_docs"] = "drafts/\n"
    site.write_config()
    built = site.build(serve_url="http://127.0.0.1:8000/docs/")
    assert built.error is None, built.messages()
    assert (built.site_dir / "drafts" / "wip" / "index.html").exists()  # serve builds drafts
    assert sorted(built.sitemap()) == ["http://127.0.0.1:8000/docs/"]
    assert (built.site_dir / "robots.txt").read_text() == "Sitemap: http://127.0.0.1:8000/docs/sitemap.xml\n"
    assert not any("only at the root" in m for m in built.infos())  # no advice for a local address


def test_no_page_to_list_writes_no_sitemap_and_leaves_robots_alone(site):
    site.page("index.md", "---\nsitemap: false\n---\n# Home\n")
    (site.root / "docs" / "robots.txt").write_text("User-agent: *\n")
    site.commit("first", D1)
    built = site.build()
    assert built.error is None
    assert not list(built.site_dir.glob("sitemap*"))  # neither ours nor MkDocs' own
    assert (built.site_dir / "robots.txt").read_text() == "User-agent: *\n"
    warnings = [m for m in built.messages() if "sitemap-pro" in m]
    assert len(warnings) == 1 and "no page belongs in the sitemap" in warnings[0]
    assert site.build(strict=True).error is not None


def test_exclude_matches_generated_pages_by_url_path(site):
    site.page("index.md")
    site.page("blog/index.md", "# Blog\n")
    site.page("blog/posts/hello.md", "---\ndate: 2024-01-05\ncategories: [News]\n---\n# Hello\n\nFirst.\n")
    site.commit("blog", D1)
    site.config["theme"] = {"name": "material"}
    site.config["plugins"] = ["blog", {"sitemap-pro": {"exclude": ["blog/archive/", "blog/posts/"]}}]
    site.write_config()
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls = built.sitemap()
    assert SITE_URL + "blog/category/news/" in urls  # generated, not excluded
    assert not [u for u in urls if "/archive/" in u]  # generated, matched by URL path
    assert SITE_URL + "blog/2024/01/05/hello/" not in urls  # a source file, matched by path


def test_theme_sitemap_template_is_not_rendered_with_another_filename(site):
    site.page("index.md")
    site.repo.write("overrides/sitemap.xml", "<urlset>a theme's own sitemap</urlset>\n")
    site.commit("first", D1)
    site.config["theme"] = {"name": "mkdocs", "custom_dir": "overrides"}
    site.set_options(filename="pages.xml")
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert not (built.site_dir / "sitemap.xml").exists()
    assert not (built.site_dir / "sitemap.xml.gz").exists()
    assert list(built.sitemap("pages.xml")) == [SITE_URL]
    assert (built.site_dir / "robots.txt").read_text() == f"Sitemap: {SITE_URL}pages.xml\n"
    # Dropped, but not without a word: one INFO line names the template.
    template = site.root / "overrides" / "sitemap.xml"
    named = [m for m in built.infos() if str(template) in m and "not rendered" in m]
    assert len(named) == 1, built.infos()


def test_mkdocs_own_sitemap_template_is_dropped_silently(site):
    site.page("index.md")
    site.commit("first", D1)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert not [m for m in built.infos() if "not rendered" in m], built.infos()


def test_ignore_commits_file_skips_a_reformatting_commit(site):
    site.page("index.md")
    site.page("a.md", "# A\n")
    site.commit("first", D1)
    site.page("a.md", "# A\n\nreal change\n")
    site.commit("real", D2)
    site.page("a.md", "A\n=\n\nreal change\n")
    reformat = site.commit("reformat", D3)
    site.repo.write(".git-blame-ignore-revs", f"# formatting\n{reformat}\n")
    site.commit("ignore file", "2024-03-06T00:00:00+00:00")
    site.set_options(ignore_commits=".git-blame-ignore-revs")
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert built.sitemap()[SITE_URL + "a/"]["lastmod"] == utc(D2)
    site.set_options(ignore_commits=[reformat[:7]])
    assert site.build().sitemap()[SITE_URL + "a/"]["lastmod"] == utc(D2)
    site.config["plugins"] = ["sitemap-pro"]
    site.write_config()
    assert site.build().sitemap()[SITE_URL + "a/"]["lastmod"] == utc(D3)


def test_mtime_fallback_dates_untracked_pages_by_their_file(site):
    import os

    site.page("index.md")
    site.commit("first", D1)
    site.page("untracked.md", "# Not committed yet\n")  # no tracked file's bytes
    os.utime(site.root / "docs" / "untracked.md", (1_600_000_000, 1_600_000_000))
    site.set_options(lastmod_fallback="mtime")
    built = site.build()
    urls = built.sitemap()
    assert urls[SITE_URL + "untracked/"]["lastmod"] == "2020-09-13T12:26:40+00:00"
    assert urls[SITE_URL]["lastmod"] == utc(D1)
    assert any("1 git" in m and "1 mtime" in m for m in built.infos()), built.infos()
