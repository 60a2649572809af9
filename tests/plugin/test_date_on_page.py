"""One date everywhere: each listed page shows the date its sitemap entry gives.

Real builds (Material from PyPI, MkDocs' own theme with the README's override,
mkdocs-static-i18n, mkdocs-git-revision-date-localized-plugin) in real git repositories
with fixed commit dates; every date is read back from the built HTML and compared
with the sitemap the same build wrote.
"""

from __future__ import annotations

import datetime as dt
import html
import logging
import re
import sys
from pathlib import Path

import pytest
from babel.dates import format_date

from mkdocs_sitemap_pro.core.check import check
from tests.support.dates import D2, day, utc
from tests.support.hreflang import read_with_alternates
from tests.support.serving import Serving, snippet_site
from tests.support.sites import SITE_URL, Built, Site

# The README's override for MkDocs' own theme, as it is printed there.
README_OVERRIDE = """{% extends "base.html" %}
{% block content %}{{ super() }}{% if page.meta.sitemap_lastmod %}
<p class="last-updated">Last updated: {{ page.meta.sitemap_lastmod[:10] }}</p>{% endif %}{% endblock %}
"""
_UPDATED = re.compile(
    r'<span class="md-source-file__fact">\s*<span class="md-icon" title="[^"]*">.*?</svg>\s*'
    r"</span>\s*(.*?)\s*</span>\s*(?:<span class=\"md-source-file__fact\">|</aside>)",
    re.DOTALL,
)
_MODIFIED = re.compile(r'<meta property="article:modified_time" content="([^"]*)">')


def page_html(built: Built, loc: str) -> str:
    rel = loc[len(SITE_URL):]
    path = built.site_dir / rel / "index.html" if rel.endswith("/") or not rel else built.site_dir / rel
    return path.read_text(encoding="utf-8")


def shown_update(text: str) -> str | None:
    """Material's "last update" fact, as text (tags stripped), or None if it has none."""
    found = _UPDATED.search(text)
    if found is None:
        return None
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def long_date(lastmod: str, locale: str) -> str:
    return format_date(dt.date.fromisoformat(lastmod[:10]), format="long", locale=locale)


def material_site(site: Site, language: str, **options: object) -> None:
    """Pages dated by their source, by an include committed later, by front matter; one
    with its own revision_date, one left out; a blog with two posts."""
    site.config["theme"] = {"name": "material", "language": language}
    site.config["markdown_extensions"] = ["pymdownx.snippets"]
    site.config["plugins"] = [{"blog": {"post_date_format": "short"}},
                              {"sitemap-pro": {"show_date": True, "meta_modified_time": True,
                                               **options}}]
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("included.md", '# Included\n\n--8<-- "parts/a.md"\n')
    site.repo.write("parts/a.md", "Part A.\n")
    site.page("fixed.md", "---\nsitemap:\n  lastmod: 2023-05-06\n---\n# Fixed\n")
    site.page("own.md", "---\nrevision_date: the day it was proofread\n---\n# Own\n")
    site.page("hidden.md", "---\nsitemap: false\n---\n# Hidden\n")
    site.page("blog/index.md", "# Blog\n")
    for n in (1, 2):
        site.page(f"blog/posts/p{n}.md", f"---\ndate: 2024-01-0{n}\n---\n# Post {n}\n\nText.\n")
    site.commit("pages", day(1))
    site.repo.write("parts/a.md", "Part A, changed.\n")
    site.commit("part a", day(40))
    site.page("blog/posts/p2.md", "---\ndate: 2024-01-02\n---\n# Post 2\n\nText, edited.\n")
    site.commit("post 2", day(70))


@pytest.mark.parametrize("language", ["en", "fr"])
def test_material_shows_on_every_listed_page_the_date_of_its_sitemap_entry(
    site: Site, language: str
) -> None:
    material_site(site, language)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls = built.sitemap()
    assert urls[SITE_URL + "included/"]["lastmod"] == utc(day(40))  # by its include
    assert urls[SITE_URL + "fixed/"]["lastmod"] == "2023-05-06"
    assert urls[SITE_URL + "blog/"]["lastmod"] == utc(day(70))  # by its newest post
    shown_pages = 0
    for loc, entry in urls.items():
        text = page_html(built, loc)
        lastmod = entry["lastmod"]
        # article:modified_time: once, the sitemap's value (a date is its midnight UTC).
        stamps = _MODIFIED.findall(text)
        expected = lastmod if "T" in lastmod else f"{lastmod}T00:00:00+00:00"
        assert stamps == [expected], loc
        update = shown_update(text)
        if loc == SITE_URL + "own/":
            assert update == "the day it was proofread"  # its own front matter is kept
        elif update is not None:
            assert update == long_date(lastmod, language), loc
            shown_pages += 1
    # Every page of the docs shows it (blog listings have no "last update" line).
    assert shown_pages >= 5, shown_pages
    hidden = (built.site_dir / "hidden" / "index.html").read_text(encoding="utf-8")
    assert shown_update(hidden) is None and not _MODIFIED.search(hidden)
    if language == "fr":
        assert "février 2024" in shown_update(page_html(built, SITE_URL + "included/")) or ""


def test_sitemap_lastmod_is_the_sitemap_text_exactly_under_any_theme(site: Site) -> None:
    snippet_site(site, pages=3)
    site.config["theme"] = {"name": "mkdocs", "custom_dir": "overrides"}
    site.write_config()
    site.repo.write("overrides/main.html", README_OVERRIDE)
    site.repo.write("overrides/probe.html", "")
    site.commit("override", day(2))
    site.page("new.md", "# Not committed yet\n")  # git cannot date it: no lastmod
    for lastmod_format in ("datetime", "date"):
        site.set_options(lastmod_format=lastmod_format)
        site.config["markdown_extensions"] = ["pymdownx.snippets"]
        site.write_config()
        built = site.build(strict=False)
        assert built.error is None, built.messages()
        urls = built.sitemap()
        assert urls[SITE_URL + "p1/"]["lastmod"][:10] == utc(day(3))[:10]
        for loc, entry in urls.items():
            found = re.findall(r'<p class="last-updated">Last updated: ([^<]*)</p>',
                               page_html(built, loc))
            if "lastmod" in entry:
                assert found == [entry["lastmod"][:10]], loc
            else:
                assert found == [], loc
        assert "lastmod" not in urls[SITE_URL + "new/"]


def test_a_head_that_has_article_modified_time_keeps_it_and_a_different_one_is_named(
    site: Site,
) -> None:
    site.config["theme"] = {"name": "mkdocs", "custom_dir": "overrides"}
    site.set_options(meta_modified_time=True)
    site.repo.write(
        "overrides/main.html",
        '{% extends "base.html" %}{% block extrahead %}{% if page.meta.stamp %}'
        '<meta property="article:modified_time" content="{{ page.meta.stamp }}">'
        "{% endif %}{% endblock %}\n",
    )
    site.page("index.md", "# Home\n")
    site.page("same.md", f"---\nstamp: '{utc(day(1))}'\n---\n# Same\n")
    site.page("other.md", "---\nstamp: '2001-01-01T00:00:00+00:00'\n---\n# Other\n")
    site.commit("pages", day(1))
    built = site.build()
    assert built.error is None, built.messages()
    for name, expected in (("index", utc(day(1))), ("same", utc(day(1))),
                           ("other", "2001-01-01T00:00:00+00:00")):
        loc = SITE_URL + ("" if name == "index" else f"{name}/")
        assert _MODIFIED.findall(page_html(built, loc)) == [expected], name
    warnings = built.messages()
    assert len(warnings) == 1, warnings
    assert "'other.md'" in warnings[0] and "2001-01-01T00:00:00+00:00" in warnings[0]
    assert utc(day(1)) in warnings[0]
    assert site.build(strict=True).error is not None  # --strict fails on it


@pytest.mark.parametrize("theirs_enabled", [True, False])
def test_beside_git_revision_date_localized_its_date_is_shown_and_the_difference_counted(
    site: Site, theirs_enabled: bool
) -> None:
    site.config["theme"] = {"name": "material"}
    site.config["markdown_extensions"] = ["pymdownx.snippets"]
    site.config["plugins"] = [
        {"git-revision-date-localized": {"type": "iso_date", "enabled": theirs_enabled}},
        {"sitemap-pro": {"show_date": True}},
    ]
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("a.md", "# A\n")
    site.page("included.md", '# Included\n\n--8<-- "parts/a.md"\n')
    site.repo.write("parts/a.md", "Part A.\n")
    # Author and committer dates agree: the plugins differ only by what they look at.
    site.commit("pages", day(1), author_date=day(1))
    site.repo.write("parts/a.md", "Part A, changed.\n")
    site.commit("part a", day(40), author_date=day(40))
    built = site.build()
    assert built.error is None, built.messages()
    urls = built.sitemap()
    said = [m for m in built.infos() if "git-revision-date-localized" in m]
    shown = {loc: shown_update(page_html(built, loc)) for loc in urls}
    if theirs_enabled:
        assert len(said) == 1, said
        assert "on 1 of the 3 pages that show it;" in said[0] and "enabled: false" in said[0]
        # Their values are shown as they made them: the page's own file's date.
        assert shown[SITE_URL + "included/"] == day(1)[:10]
        assert shown[SITE_URL] == day(1)[:10]
    else:
        assert said == []
        assert shown[SITE_URL + "included/"] == long_date(utc(day(40)), "en")


@pytest.mark.parametrize("theirs", [False, True])
def test_a_translated_page_shows_the_date_in_its_language(site: Site, theirs: bool) -> None:
    site.config["theme"] = {"name": "material"}
    site.config["plugins"] = [
        {"sitemap-pro": {"show_date": True}},
        {"i18n": {"docs_structure": "suffix", "languages": [
            {"locale": "en", "default": True, "name": "English"},
            {"locale": "de", "name": "Deutsch"}]}},
    ]
    if theirs:
        site.config["plugins"].append("git-revision-date-localized")
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("index.de.md", "# Start\n")
    site.commit("pages", day(62))  # 2024-03-03: März in German
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls, _ = read_with_alternates(built.site_dir / "sitemap.xml")
    said = [m for m in built.infos() if "git-revision-date-localized" in m]
    english = shown_update(page_html(built, SITE_URL))
    german = shown_update(page_html(built, SITE_URL + "de/"))
    if theirs:
        # Theirs is shown (by author date, a day earlier); said once for both languages.
        assert english == long_date(day(61), "en") and german == "2. März 2024"
        assert len(said) == 1 and "on 2 of the 2 pages that show it;" in said[0], said
        return
    assert said == []
    assert english == long_date(urls[SITE_URL]["lastmod"], "en")
    assert german == long_date(urls[SITE_URL + "de/"]["lastmod"], "de") == "3. März 2024"


def test_under_serve_a_page_shows_its_new_date_after_its_include_is_committed(
    site: Site,
) -> None:
    snippet_site(site, pages=3)
    site.config["theme"] = {"name": "mkdocs", "custom_dir": "overrides"}
    site.set_options(meta_modified_time=True)
    site.config["markdown_extensions"] = ["pymdownx.snippets"]
    site.write_config()
    site.repo.write("overrides/main.html", README_OVERRIDE)
    site.commit("override", day(2))

    def shown(served: Path, page: str) -> list[str]:
        return _MODIFIED.findall((served / page / "index.html").read_text(encoding="utf-8"))

    with Serving(site) as serving:
        first = serving.rebuild()
        assert first.error is None, first.messages()
        assert shown(serving.site_dir, "p2") == [utc(day(1))]
        site.repo.write("parts/p2.md", "part 2, committed while serving\n")
        site.commit("part 2", day(9))
        second = serving.rebuild()
        assert second.error is None, second.messages()
        assert shown(serving.site_dir, "p2") == [utc(day(9))]
        lastmods = {loc: u["lastmod"] for loc, u in second.sitemap().items()}
        assert [v for k, v in lastmods.items() if k.endswith("/p2/")] == [utc(day(9))]


def test_nothing_is_shown_or_logged_when_both_options_are_off(site: Site) -> None:
    material_site(site, "en", show_date=False, meta_modified_time=False)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    for loc in built.sitemap():
        text = page_html(built, loc)
        assert not _MODIFIED.search(text)
        update = shown_update(text)
        assert update in (None, "the day it was proofread"), loc
    assert not [r for r in built.records if r.levelno >= logging.INFO
                and "git-revision-date-localized" in r.getMessage()]


def test_the_show_date_count_is_of_pages_that_show_a_date(site: Site) -> None:
    """A page whose template shows no date is not counted as differing (issue 41): the
    INFO line counts what differs where it is seen, and says how many show none."""
    site.config["theme"] = {"name": "material", "custom_dir": "overrides"}
    site.config["markdown_extensions"] = ["pymdownx.snippets"]
    site.config["plugins"] = [
        {"git-revision-date-localized": {"type": "iso_date"}},
        {"sitemap-pro": {"show_date": True}},
    ]
    site.write_config()
    site.repo.write("overrides/bare.html",
                    "{% extends 'main.html' %}{% block content %}{{ page.content }}{% endblock %}")
    site.page("index.md", "# Home\n")
    site.page("included.md", '# Included\n\n--8<-- "parts/a.md"\n')
    site.page("bare.md", '---\ntemplate: bare.html\n---\n# Bare\n\n--8<-- "parts/a.md"\n')
    site.repo.write("parts/a.md", "Part A.\n")
    site.commit("pages", day(1), author_date=day(1))
    site.repo.write("parts/a.md", "Part A, changed.\n")
    site.commit("part a", day(40), author_date=day(40))
    built = site.build()
    assert built.error is None, built.messages()
    shown = {loc: shown_update(page_html(built, loc)) for loc in built.sitemap()}
    assert shown[SITE_URL + "bare/"] is None and shown[SITE_URL + "included/"] == day(1)[:10]
    said = [m for m in built.infos() if "git-revision-date-localized" in m]
    assert len(said) == 1, said
    assert "differs from the sitemap's on 1 of the 2 pages that show it; 1 page shows no " \
        "date" in said[0], said[0]


def test_a_date_one_day_off_counts_in_the_info_line_not_in_check(site: Site) -> None:
    """The INFO line compares calendar days; ``check`` warns beyond a day (issue 41, the
    three counts of one mismatch): a commit at 23:30 in New York is the next day in the
    sitemap (UTC) and the same day on the page, in git-revision-date-localized's zone."""
    site.config["theme"] = {"name": "material"}
    site.config["plugins"] = [
        {"git-revision-date-localized": {"type": "iso_date", "timezone": "America/New_York"}},
        {"sitemap-pro": {"show_date": True}},
    ]
    site.write_config()
    site.page("index.md", "# Home\n")
    site.commit("home", D2, author_date=D2)  # 2024-02-20T23:30:00-05:00
    built = site.build()
    assert built.error is None, built.messages()
    assert built.sitemap()[SITE_URL]["lastmod"] == "2024-02-21T04:30:00+00:00"
    assert shown_update(page_html(built, SITE_URL)) == "2024-02-20"
    said = [m for m in built.infos() if "git-revision-date-localized" in m]
    assert len(said) == 1 and "differs from the sitemap's on 1 of the 1 page that" in said[0], said
    assert [f.rule for f in check(str(built.site_dir)).findings] == []


# Every page's meta text as rendered, and the build's maker of texts (reached through
# the plugin while a page renders: the build is used up at the end).
_TEXTS_PROBE = """from mkdocs.plugins import event_priority

SHOWN = {}
MAKERS = []

@event_priority(-2e9)  # after sitemap-pro's, which is the last but this
def on_page_context(context, page, config, nav):
    SHOWN[page.file.src_uri] = page.meta.get("sitemap_lastmod")
    maker = config.plugins["sitemap-pro"]._build.texts
    if not any(maker is known for known in MAKERS):
        MAKERS.append(maker)
    return context
"""


def test_a_date_has_one_text_made_once_for_the_page_and_the_sitemap(site: Site) -> None:
    """Issue 44, item 2: the build's one maker gives a page's meta its text as the page
    renders, and the writer takes the same maker: each distinct date's text is made once,
    the meta holds that very text object, and a page not rendered (``--dirty``) is
    written with a text of the same maker."""
    snippet_site(site, pages=4)
    site.repo.write("hooks/texts_probe.py", _TEXTS_PROBE)
    site.config["hooks"] = ["hooks/texts_probe.py"]
    site.page("fixed.md", "---\nsitemap:\n  lastmod: 2023-05-06\n---\n# Fixed\n")
    site.set_options(html_view=True, feed=True)
    site.config["markdown_extensions"] = ["pymdownx.snippets"]
    site.write_config()
    site.commit("fixed page", day(5))
    for dirty in (False, True):
        if dirty:  # only p2 renders again; every page is listed
            site.page("p2.md", '# P2, saved\n\n--8<-- "parts/p2.md"\n')
        built = site.build(dirty=dirty)
        assert built.error is None, built.messages()
        probe = sys.modules["hooks/texts_probe.py"]  # where MkDocs loaded the hook
        written = {loc: entry["lastmod"] for loc, entry in built.sitemap().items()}
        assert len(written) == 5 and len(set(written.values())) == 3
        assert len(probe.MAKERS) == 1
        maker = probe.MAKERS[0]
        # One text per distinct date, the sitemap's ones: the writer asked the same maker
        # (with --dirty, for the pages that did not render too).
        assert sorted(maker._texts.values()) == sorted(set(written.values()))
        assert sorted(probe.SHOWN) == (
            ["p2.md"] if dirty else ["fixed.md", *(f"p{i}.md" for i in range(4))])
        for src_uri, text in probe.SHOWN.items():
            loc = SITE_URL + src_uri[:-3] + "/"
            assert text == written[loc], src_uri
            made = next(each for each in maker._texts.values() if each == text)
            assert text is made, src_uri  # the very text object, not an equal one
        probe.SHOWN.clear()
        probe.MAKERS.clear()
