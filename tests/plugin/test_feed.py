"""``feed``: the Atom feed of the most recently updated pages, from real builds.

Real MkDocs builds in real git repositories with fixed commit dates. The feed is read
back with feedparser (its ``bozo`` flag says whether it was well formed) and with the
checker's safe XML parser; every date is compared with the sitemap the same build wrote,
read back with the checker's reader.
"""

from __future__ import annotations

import datetime as dt
import re

import feedparser
import pytest
from lxml import etree

from mkdocs_sitemap_pro.cli.main import main
from mkdocs_sitemap_pro.core.protocol import check_lastmod, utc_key
from mkdocs_sitemap_pro.core.reader import _parser as safe_parser
from mkdocs_sitemap_pro.core.reader import read_sitemap
from mkdocs_sitemap_pro.core.writer.feed import ATOM_NS
from tests.support.dates import day, utc
from tests.support.sites import SITE_URL, Built, Site

README_OVERRIDE = """{% extends "base.html" %}
{% block content %}{{ super() }}{% if page.meta.sitemap_lastmod %}
<p class="last-updated">Last updated: {{ page.meta.sitemap_lastmod[:10] }}</p>{% endif %}{% endblock %}
"""


def dated_site(site: Site, **options: object) -> None:
    """Pages titled every way MkDocs titles one, committed on different days; two changed
    in one commit (a tie); one left out of the sitemap, one not committed (undated)."""
    site.config["nav"] = [{"Start here": "index.md"}, "guide.md", "front.md", "plain-name.md",
                          "b.md", "a.md", "hidden.md"]
    site.config["site_name"] = "Handbook & Notes"
    site.set_options(feed=True, **options)
    site.page("index.md", "# Welcome\n")
    site.page("guide.md", "# The *guide* & more\n")
    site.page("front.md", "---\ntitle: From front matter\n---\n# Heading\n")
    site.page("plain-name.md", "No heading at all.\n")
    site.page("a.md", "# A\n")
    site.page("b.md", "# B\n")
    site.page("hidden.md", "---\nsitemap: false\n---\n# Hidden\n")
    site.commit("pages", day(1))
    site.page("guide.md", "# The *guide* & more\n\nEdited.\n")
    site.commit("guide", day(5))
    site.page("a.md", "# A\n\nEdited.\n")
    site.page("b.md", "# B\n\nEdited.\n")
    site.commit("a and b", day(9))
    site.page("front.md", "---\ntitle: From front matter\n---\n# Heading\n\nEdited.\n")
    site.commit("front", day(12))
    site.page("hidden.md", "---\nsitemap: false\n---\n# Hidden\n\nEdited.\n")
    site.commit("hidden", day(20))
    site.page("new.md", "# Not committed\n")  # git cannot date it: listed, no lastmod


def built_ok(site: Site, **kwargs: object) -> Built:
    built = site.build(**kwargs)  # type: ignore[arg-type]
    assert built.error is None, (built.error, built.messages())
    return built


def feed_of(built: Built, name: str = "sitemap.atom") -> feedparser.FeedParserDict:
    feed = feedparser.parse((built.site_dir / name).read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    return feed


def sitemap_dates(built: Built, name: str = "sitemap.xml") -> dict[str, dt.datetime | None]:
    """Every URL of the written sitemap and the instant its lastmod names (None: none)."""
    return {e.loc: utc_key(check_lastmod(e.lastmod)) if e.lastmod else None
            for e in read_sitemap(built.site_dir / name).entries}


def instant(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


def test_the_newest_pages_titled_linked_and_dated_as_the_sitemap_says(site: Site) -> None:
    dated_site(site)
    built = built_ok(site, strict=False)  # new.md is not in the nav: INFO only
    feed = feed_of(built)
    links = [e.link for e in feed.entries]
    assert links == [SITE_URL + p for p in ("front/", "a/", "b/", "guide/", "", "plain-name/")]
    assert [e.id for e in feed.entries] == links
    assert [e.title for e in feed.entries] == [
        "From front matter", "A", "B", "The guide & more", "Start here", "Plain name"]
    sitemap = sitemap_dates(built)
    assert {e.link: instant(e.updated) for e in feed.entries} == {
        loc: when for loc, when in sitemap.items() if when is not None}
    assert sitemap[SITE_URL + "new/"] is None  # listed, undated: not in the feed
    assert SITE_URL + "hidden/" not in sitemap  # the newest change, but never listed
    assert instant(feed.feed.updated) == instant(utc(day(12)))
    assert feed.feed.id == SITE_URL + "sitemap.atom"
    assert feed.feed.title == "Handbook & Notes: recently updated pages"
    assert SITE_URL + "sitemap.atom" not in sitemap  # the feed itself is never listed


def test_the_xml_reads_with_the_checkers_safe_parser(site: Site) -> None:
    dated_site(site)
    built = built_ok(site)
    root = etree.fromstring((built.site_dir / "sitemap.atom").read_bytes(), safe_parser(False))
    atom = f"{{{ATOM_NS}}}"
    assert root.tag == f"{atom}feed"
    assert [e.findtext(f"{atom}title") for e in root.iter(f"{atom}entry")][3] == "The guide & more"
    assert root.findtext(f"{atom}author/{atom}name") == "Handbook & Notes"


def test_feed_size_keeps_the_newest_and_a_rebuild_the_same_bytes(site: Site) -> None:
    dated_site(site, feed_size=2)
    built = built_ok(site)
    assert [e.link for e in feed_of(built).entries] == [SITE_URL + "front/", SITE_URL + "a/"]
    first = (built.site_dir / "sitemap.atom").read_bytes()
    assert (built_ok(site).site_dir / "sitemap.atom").read_bytes() == first


def test_a_dirty_build_names_and_dates_the_pages_it_did_not_convert_the_same(site: Site) -> None:
    dated_site(site)
    full = (built_ok(site).site_dir / "sitemap.atom").read_bytes()
    site.page("new.md", "# Not committed, changed\n")  # --dirty converts this page only
    dirty = built_ok(site, dirty=True)
    assert (dirty.site_dir / "sitemap.atom").read_bytes() == full


@pytest.mark.parametrize("lastmod_format", ["datetime", "date"])
def test_with_show_date_each_page_shows_the_date_of_its_entry(site: Site, lastmod_format: str
                                                              ) -> None:
    dated_site(site, show_date=True, lastmod_format=lastmod_format)
    site.config["theme"] = {"name": "mkdocs", "custom_dir": "overrides"}
    site.write_config()
    site.repo.write("overrides/main.html", README_OVERRIDE)
    built = built_ok(site)
    feed = feed_of(built)
    for entry in feed.entries:
        rel = entry.link[len(SITE_URL):]
        text = (built.site_dir / rel / "index.html").read_text(encoding="utf-8")
        shown = re.findall(r'<p class="last-updated">Last updated: ([^<]*)</p>', text)
        assert shown == [entry.updated[:10]], entry.link
        if lastmod_format == "date":
            assert entry.updated.endswith("T00:00:00+00:00")


def test_the_page_for_people_links_to_the_feed_only_when_there_is_one(site: Site) -> None:
    dated_site(site)
    built = built_ok(site)
    view = (built.site_dir / "sitemap.html").read_text(encoding="utf-8")
    assert '<link rel="alternate" type="application/atom+xml"' in view
    assert '<a href="sitemap.atom">sitemap.atom</a>' in view
    site.set_options(feed=False)
    built = built_ok(site)
    assert not (built.site_dir / "sitemap.atom").exists()
    assert "sitemap.atom" not in (built.site_dir / "sitemap.html").read_text(encoding="utf-8")


def test_nothing_dated_no_feed_no_link_and_a_warning(site: Site) -> None:
    dated_site(site, lastmod="none")
    built = built_ok(site)
    assert not (built.site_dir / "sitemap.atom").exists()
    assert "sitemap.atom" not in (built.site_dir / "sitemap.html").read_text(encoding="utf-8")
    assert any("no feed of recently updated pages was written" in m for m in built.messages())


def test_a_feed_of_the_sites_own_is_left_alone_with_a_warning(site: Site) -> None:
    dated_site(site)
    site.page("sitemap.atom", "<feed>the site's own</feed>\n")
    built = built_ok(site)
    assert (built.site_dir / "sitemap.atom").read_text() == "<feed>the site's own</feed>\n"
    assert any("sitemap.atom is the site's own file" in m for m in built.messages())
    assert "sitemap.atom" not in (built.site_dir / "sitemap.html").read_text(encoding="utf-8")


def test_named_after_the_filename_option(site: Site) -> None:
    dated_site(site, filename="pages.xml")
    built = built_ok(site)
    assert feed_of(built, "pages.atom").feed.id == SITE_URL + "pages.atom"
    assert not (built.site_dir / "sitemap.atom").exists()


def test_under_serve_no_feed_is_written(site: Site) -> None:
    dated_site(site)
    built = built_ok(site, serve_url="http://127.0.0.1:8000/docs/")
    assert (built.site_dir / "sitemap.xml").exists()
    assert not (built.site_dir / "sitemap.atom").exists()
    assert "sitemap.atom" not in (built.site_dir / "sitemap.html").read_text(encoding="utf-8")
    assert not any("feed" in m for m in built.messages())


@pytest.mark.parametrize(("value", "error"), [
    (0, "0 is out of range"), (-3, "-3 is out of range"), (1_001, "1,001 is out of range"),
    ("20", "expected a whole number"), (2.5, "expected a whole number"),
    (True, "expected a whole number"),
])
def test_a_bad_feed_size_stops_the_build_naming_the_option(site: Site, value: object,
                                                           error: str) -> None:
    site.page("index.md")
    site.commit("first", day(1))
    site.set_options(feed=True, feed_size=value)
    built = site.build()
    assert built.error is not None
    said = str(built.error)
    said = " ".join([said, *built.messages()])
    assert "Plugin 'sitemap-pro' option 'feed_size'" in said and error in said, said
    assert not (built.site_dir / "sitemap.xml").exists()


def test_mkdocs_sitemap_pro_build_writes_the_same_feed(site: Site, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    dated_site(site)
    # That command reads of mkdocs.yml only what decides URLs and pages: not the nav's titles.
    del site.config["nav"]
    site.write_config()
    site.page("new.md", "# Now committed\n")
    site.commit("new", day(3))
    by_plugin = (built_ok(site, strict=True).site_dir / "sitemap.atom").read_bytes()
    plugins = site.config["plugins"]
    site.config["plugins"] = []
    site.write_config()
    built = built_ok(site)  # MkDocs alone: site_dir cleaned, no feed
    assert not (built.site_dir / "sitemap.atom").exists()
    site.config["plugins"] = plugins
    site.write_config()
    monkeypatch.chdir(site.root)
    assert main(["build", "--strict"]) == 0, capsys.readouterr().err
    assert (built.site_dir / "sitemap.atom").read_bytes() == by_plugin


def test_under_mike_the_feed_is_in_the_version_folder(site: Site) -> None:
    from tests.support.mike import ROOT, deploy, make_site, show, tree

    make_site(site)
    site.set_options(feed=True)
    site.commit("feed", "2024-01-11T09:00:00+00:00")
    deploy(site, "1.0")
    assert "sitemap.atom" not in tree(site) and "1.0/sitemap.atom" in tree(site)
    feed = feedparser.parse((show(site, "1.0/sitemap.atom") or "").encode())
    assert not feed.bozo and feed.feed.id == f"{ROOT}1.0/sitemap.atom"
    assert sorted(e.link for e in feed.entries) == [f"{ROOT}1.0/", f"{ROOT}1.0/guide/"]
    assert '<a href="sitemap.atom">' in (show(site, "1.0/sitemap.html") or "")
