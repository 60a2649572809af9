"""The 404 page of every language is never listed, whatever the file is called.

Real builds with mkdocs-static-i18n in both its layouts: ``404.md`` at each language's
root (folder layout) or ``404.<locale>.md`` (suffix layout), built as ``/404/`` and
``/<locale>/404/``. A page that merely has 404 in its path elsewhere is an ordinary page.
"""

from __future__ import annotations

import pytest

from tests.support.hreflang import read_with_alternates
from tests.support.sites import SITE_URL, Site

DATE = "2024-01-10T09:00:00+00:00"


def _i18n(layout: str) -> dict[str, object]:
    return {"i18n": {"docs_structure": layout, "languages": [
        {"locale": "en", "default": True, "name": "English"},
        {"locale": "fr", "name": "Français"},
    ]}}


@pytest.mark.parametrize("layout", ["folder", "suffix"])
@pytest.mark.parametrize("order", ["before", "after"])
def test_translated_404_pages_are_not_listed(site: Site, layout: str, order: str) -> None:
    ours = {"sitemap-pro": {}}
    site.config["plugins"] = ["search", ours, _i18n(layout)] if order == "before" else [
        "search", _i18n(layout), ours]
    site.config["theme"] = {"name": "material"}
    site.write_config()
    for language in ("en", "fr"):
        for page in ("index", "404", "guide/404"):
            rel = f"{language}/{page}.md" if layout == "folder" else (
                f"{page}.md" if language == "en" else f"{page}.{language}.md")
            site.page(rel, f"# {page} {language}\n")
    site.commit("pages", DATE)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert (built.site_dir / "404" / "index.html").is_file()
    assert (built.site_dir / "fr" / "404" / "index.html").is_file()
    urls, _ = read_with_alternates(built.site_dir / "sitemap.xml")  # validated
    assert set(urls) == {
        SITE_URL, f"{SITE_URL}guide/404/", f"{SITE_URL}fr/", f"{SITE_URL}fr/guide/404/"}


def test_root_404_page_without_translations_is_not_listed(site: Site) -> None:
    site.page("index.md")
    site.page("404.md", "# Not found\n")
    site.page("errors/404.md", "# About 404 errors\n")
    site.commit("pages", DATE)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert set(built.sitemap()) == {SITE_URL, f"{SITE_URL}errors/404/"}
