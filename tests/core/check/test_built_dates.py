"""``check`` on real Material sites: the dates pages show against the sitemap's lastmod.

mkdocs-git-revision-date-localized-plugin dates a page by its own file; the sitemap
dates it by the newest of its file and what it includes. A page whose snippet changed
later shows an older date than it is listed with, and ``check`` says so; the dates our
own plugin puts on pages (``show_date``, ``meta_modified_time``) agree.
"""

from __future__ import annotations

import datetime as dt

import pytest

from mkdocs_sitemap_pro.cli.main import main
from mkdocs_sitemap_pro.core.check import check
from mkdocs_sitemap_pro.core.check.site import META, VISIBLE, DateOnPage, dates_on_page
from tests.support.dates import day
from tests.support.sites import SITE_URL, Site


def commit(site: Site, message: str, date: str) -> None:
    site.commit(message, date, author_date=date)  # git-revision-date reads the author date


def snippet_site(root, kind: str, language: str) -> Site:
    """index (day 1), later (changed day 5), inc (day 1, its snippet changed day 10)."""
    site = Site(root, theme={"name": "material", "language": language},
                markdown_extensions=["pymdownx.snippets"],
                plugins=[{"git-revision-date-localized": {"type": kind}}, "sitemap-pro"])
    site.repo.write(".gitignore", "site/\n")
    site.page("index.md", "# Home\n")
    site.page("later.md", "# Later\n")
    site.page("inc.md", '# Inc\n\n--8<-- "snippets/part.md"\n')
    site.repo.write("snippets/part.md", "part\n")
    commit(site, "pages", day(1))
    site.page("later.md", "# Later\n\nchanged\n")
    commit(site, "later", day(5))
    site.repo.write("snippets/part.md", "part, changed\n")
    commit(site, "snippet", day(10))
    return site


@pytest.mark.parametrize(
    ("kind", "language", "shown"),
    [
        ("iso_date", "en", "2024-01-02"),
        ("date", "en", "January 2, 2024"),
        ("date", "fr", "2 janvier 2024"),
        ("timeago", "en", "2024-01-02T10:00:00+00:00"),  # its datetime attribute
    ],
)
def test_the_page_whose_shown_date_is_older_than_its_lastmod(tmp_path, capsys, kind, language,
                                                             shown):
    site = snippet_site(tmp_path / "p", kind, language)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    lastmods = {loc: fields["lastmod"] for loc, fields in built.sitemap().items()}
    assert lastmods[SITE_URL + "inc/"] == "2024-01-11T10:00:00+00:00"
    report = check(str(built.site_dir))
    assert [(f.severity, f.rule, f.file, f.message) for f in report.findings] == [(
        "warning", "date-mismatch", "sitemap.xml",
        f"{SITE_URL}inc/: the visible last-update date on the page is {shown!r}, but the "
        "sitemap's lastmod is 2024-01-11T10:00:00+00:00: more than a day apart")]
    assert main(["check", str(built.site_dir)]) == 0
    assert main(["check", str(built.site_dir), "--strict"]) == 1
    out = capsys.readouterr().out
    assert out.count("date-mismatch") == 2 and out.count(f"{SITE_URL}inc/") == 2


EXTRAHEAD = """{% extends "base.html" %}
{% block extrahead %}
  {% if page and page.meta.modified %}
  <meta property="article:modified_time" content="{{ page.meta.modified }}">
  <script type="application/ld+json">{ "not": json }</script>
  <script type="application/ld+json">
    {"@context": "https://schema.org", "@graph": [{"@type": "WebSite", "name": "Test"},
     {"@type": "TechArticle", "headline": "{{ page.title }}",
      "dateModified": "{{ page.meta.ld_modified }}"}]}
  </script>
  {% endif %}
{% endblock %}
"""


def test_meta_and_json_ld_dates(tmp_path):
    # Every page is committed at day(1), listed at 2024-01-02T10:00:00+00:00.
    site = Site(tmp_path / "p", theme={"name": "material", "custom_dir": "overrides"})
    site.repo.write(".gitignore", "site/\n")
    site.repo.write("overrides/main.html", EXTRAHEAD)
    site.page("index.md", "# Home\n")
    site.page("wrong.md", '---\nmodified: "2024-01-03T10:00:01+00:00"\nld_modified: "2024-01-04"'
                          "\n---\n\n# Wrong\n")
    # 20 hours after its lastmod, and the next calendar day: within a day, both.
    site.page("close.md", '---\nmodified: "2024-01-03T08:00:00+02:00"\nld_modified: "2024-01-03"'
                          "\n---\n\n# Close\n")
    commit(site, "pages", day(1))
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert {fields["lastmod"] for fields in built.sitemap().values()} == {
        "2024-01-02T10:00:00+00:00"}
    report = check(str(built.site_dir))
    assert [(f.rule, f.message) for f in report.findings] == [
        ("date-mismatch", f"{SITE_URL}wrong/: article:modified_time on the page is "
         "'2024-01-03T10:00:01+00:00', but the sitemap's lastmod is 2024-01-02T10:00:00+00:00: "
         "more than a day apart"),
        ("date-mismatch", f"{SITE_URL}wrong/: JSON-LD dateModified on the page is '2024-01-04', "
         "but the sitemap's lastmod is 2024-01-02T10:00:00+00:00: more than a day apart"),
    ]
    assert report.status() == 0 and report.status(strict=True) == 1


def test_our_own_dates_agree_with_our_sitemap(tmp_path):
    # show_date and meta_modified_time put the sitemap's date on the page: nothing to report.
    site = Site(tmp_path / "p", theme={"name": "material", "language": "de"},
                markdown_extensions=["pymdownx.snippets"],
                options={"show_date": True, "meta_modified_time": True})
    site.repo.write(".gitignore", "site/\n")
    site.page("index.md", "# Home\n")
    site.page("inc.md", '# Inc\n\n--8<-- "snippets/part.md"\n')
    site.repo.write("snippets/part.md", "part\n")
    commit(site, "pages", day(1))
    site.repo.write("snippets/part.md", "part, changed\n")
    commit(site, "snippet", day(10))
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    page = (built.site_dir / "inc" / "index.html").read_text(encoding="utf-8")
    assert dates_on_page(page) == [
        DateOnPage(VISIBLE, "11. Januar 2024", dt.date(2024, 1, 11)),
        DateOnPage(META, "2024-01-11T10:00:00+00:00",
                 dt.datetime(2024, 1, 11, 10, 0, tzinfo=dt.timezone.utc)),
    ]
    assert check(str(built.site_dir)).findings == []
