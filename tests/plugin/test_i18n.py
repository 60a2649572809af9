"""Translated sites (mkdocs-static-i18n): one sitemap for every language, hreflang alternates.

Real builds of three-language sites (en default, fr, de; ``about`` has no German
translation) in both of static-i18n's layouts, with sitemap-pro listed before and after
it, in git repositories where each language's files change at their own dates.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from tests.support.hreflang import read_with_alternates
from tests.support.schemas import parse_sitemap, urls_of
from tests.support.sites import SITE_URL, Site

EN, FR, DE, EN2 = (
    "2024-01-10T09:00:00+00:00",
    "2024-02-11T10:00:00+00:00",
    "2024-03-12T11:00:00+00:00",
    "2024-04-13T12:00:00+00:00",
)
PAGES = ("index", "guide", "topics/deep", "about")
LANGUAGES = ("en", "fr", "de")

# Records, in each language build's on_post_build after sitemap-pro's, whether static-i18n
# was building a nested language and what sitemap.xml held then.
PROBE = '''
import json, os
from mkdocs.plugins import event_priority

@event_priority(-300)
def on_post_build(config):
    i18n = config.plugins["i18n"]
    path = os.path.join(config.site_dir, "sitemap.xml")
    held = open(path, encoding="utf-8").read() if os.path.exists(path) else None
    with open(os.path.join(config.site_dir, "..", "probe.jsonl"), "a") as out:
        out.write(json.dumps({"nested": i18n.building, "sitemap": held}) + "\\n")
'''


def utc(date: str) -> str:
    return dt.datetime.fromisoformat(date).astimezone(dt.timezone.utc).isoformat()


def source(layout: str, language: str, page: str) -> str:
    if layout == "folder":
        return f"{language}/{page}.md"
    if language == "en":
        return f"{page}.en.md" if page == "guide" else f"{page}.md"  # both suffix spellings
    return f"{page}.{language}.md"


def url(language: str, page: str) -> str:
    prefix = "" if language == "en" else f"{language}/"
    path = "" if page == "index" else f"{page}/"
    return f"{SITE_URL}{prefix}{path}"


def make_site(site: Site, layout: str, order: str, **options: object) -> dict[str, str]:
    """Write and commit the site; return each listed URL's expected lastmod."""
    i18n = {
        "i18n": {
            "docs_structure": layout,
            "languages": [
                {"locale": "en", "default": True, "name": "English"},
                {"locale": "fr", "name": "Français"},
                {"locale": "de", "name": "Deutsch"},
            ],
        }
    }
    ours = {"sitemap-pro": dict(options)}
    site.config["plugins"] = ["search", ours, i18n] if order == "before" else ["search", i18n, ours]
    site.config["theme"] = {"name": "material"}
    site.config["hooks"] = ["probe.py"]
    site.write_config()
    site.repo.write("probe.py", PROBE)
    expected = {}
    for language, date in zip(LANGUAGES, (EN, FR, DE)):
        for page in PAGES:
            if (language, page) == ("de", "about"):
                continue  # untranslated: static-i18n builds a fallback copy
            site.page(source(layout, language, page), f"# {page} {language}\n")
            expected[url(language, page)] = utc(date)
        site.commit(f"{language} pages", date)
    site.page(source(layout, "en", "guide"), "# guide en\n\nchanged\n")
    site.commit("en guide", EN2)
    expected[url("en", "guide")] = utc(EN2)
    return expected


def expected_alternates(loc: str) -> list[tuple[str, str]]:
    page = next(p for p in PAGES for lang in LANGUAGES if url(lang, p) == loc)
    languages = [lang for lang in LANGUAGES if (lang, page) != ("de", "about")]
    return [(lang, url(lang, page)) for lang in languages] + [("x-default", url("en", page))]


@pytest.mark.parametrize("layout", ["folder", "suffix"])
@pytest.mark.parametrize("order", ["before", "after"])
def test_every_language_listed_once_with_symmetric_alternates(site, layout, order):
    expected = make_site(site, layout, order)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls, alternates = read_with_alternates(built.site_dir / "sitemap.xml")
    gz = read_with_alternates(built.site_dir / "sitemap.xml.gz")
    assert gz == (urls, alternates)
    # Every page of every language exactly once, dated by its own source; no fallback copy.
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == expected
    assert url("de", "about") not in urls
    assert (built.site_dir / "de/about/index.html").is_file()  # built, but not a translation
    # Each URL lists every language version (itself included) and x-default.
    for loc in urls:
        assert alternates[loc] == expected_alternates(loc), loc
        assert sum(href == loc for tag, href in alternates[loc] if tag != "x-default") == 1
    # Symmetric: if A lists B, B lists A with the same set.
    for loc, links in alternates.items():
        for tag, href in links:
            assert (tag, href) in alternates[href] and alternates[href] == links
    summary = [m for m in built.infos() if m.startswith("sitemap-pro:") and " URLs in " in m]
    assert summary == ["sitemap-pro: 11 URLs in 1 file (sitemap.xml, .gz, .html); lastmod: 11 git; "
                       "1 page left out (1 untranslated copy)"]
    # Nested language builds wrote nothing; the outer build wrote once, at the end.
    probes = [json.loads(line) for line in (site.root / "probe.jsonl").read_text().splitlines()]
    assert [p["nested"] for p in probes] == [True, True, False]
    assert [p["sitemap"] for p in probes[:2]] == [None, None]
    assert probes[2]["sitemap"] == (built.site_dir / "sitemap.xml").read_text("utf-8")
    robots = (built.site_dir / "robots.txt").read_text("utf-8")
    assert robots.count("Sitemap: ") == 1


def test_page_in_one_language_has_no_alternates_and_split_files_stay_valid(site):
    make_site(site, "folder", "after", max_urls=3, max_bytes=2048)
    site.page("en/only-english.md", "# Only in English\n")
    site.commit("one more", EN2)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    shards = [u["loc"].rsplit("/", 1)[1] for u in urls_of(parse_sitemap(built.site_dir / "sitemap.xml"))]
    assert len(shards) >= 4
    listed: dict[str, list[tuple[str, str]]] = {}
    count = 0
    for name in shards:
        path = built.site_dir / name
        assert path.stat().st_size <= 2048
        urls, alternates = read_with_alternates(path)
        assert len(urls) <= 3
        count += len(urls)
        listed.update({loc: alternates.get(loc, []) for loc in urls})
    assert count == 12 == len(listed)
    assert listed[SITE_URL + "only-english/"] == []
    assert listed[url("fr", "about")] == expected_alternates(url("fr", "about"))


def test_default_language_listed_after_another_is_built_twice_and_listed_once(site):
    """static-i18n builds the default language again when it is not first in
    ``languages``; the sitemap still lists every page once, and says so once."""
    expected = make_site(site, "suffix", "before")
    plugins = site.config["plugins"]
    languages = plugins[2]["i18n"]["languages"]
    plugins[2]["i18n"]["languages"] = [languages[2], languages[0], languages[1]]
    site.write_config()
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls, alternates = read_with_alternates(built.site_dir / "sitemap.xml")
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == expected
    # Configured order: de, en, fr; x-default is still the default language's page.
    assert [tag for tag, _ in alternates[url("fr", "guide")]] == ["de", "en", "fr", "x-default"]
    assert sum(" URLs in " in m for m in built.infos()) == 1
