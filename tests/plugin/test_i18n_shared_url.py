"""Two pages, one URL (mkdocs-static-i18n): the page whose HTML is on disk is listed.

OWASP's Top 10 site builds a non-localised ``README.md`` and the default language's
``en/index.md`` both to the site root; MkDocs writes ``en/index.md`` last. Real builds
with static-i18n's folder layout, the README committed after the English page.
"""

from __future__ import annotations

import logging

import pytest

from mkdocs_sitemap_pro.cli.main import main
from tests.support.hreflang import read_with_alternates
from tests.support.sites import SITE_URL, Site

OLD, NEW = "2024-01-10T09:00:00+00:00", "2024-05-20T12:00:00+00:00"
ROOT, FR_ROOT, GUIDE, FR_GUIDE = (
    SITE_URL, f"{SITE_URL}fr/", f"{SITE_URL}guide/", f"{SITE_URL}fr/guide/")


def make_site(site: Site) -> None:
    """en (default) and fr in folders, plus a README.md that is in no language folder."""
    site.config["theme"] = {"name": "material"}
    site.config["plugins"] = ["search", {"i18n": {
        "docs_structure": "folder",
        "languages": [
            {"locale": "en", "default": True, "name": "English"},
            {"locale": "fr", "name": "Français"},
        ],
    }}, "sitemap-pro"]
    site.write_config()
    site.page("README.md", "# Read me\n")
    for path in ("en/index.md", "en/guide.md", "fr/index.md", "fr/guide.md"):
        site.page(path, f"# {path}\n")
    site.commit("pages", OLD)
    site.page("README.md", "# Read me\n\nAn edit of the README only.\n")
    site.commit("readme", NEW)


def test_the_page_on_disk_is_listed_with_its_alternates(site: Site) -> None:
    make_site(site)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert "en/index.md" in (built.site_dir / "index.html").read_text(encoding="utf-8")
    urls, alternates = read_with_alternates(built.site_dir / "sitemap.xml")
    # The root is en/index.md's: its own date (not README's newer one), its alternates.
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == {
        ROOT: OLD, FR_ROOT: OLD, GUIDE: OLD, FR_GUIDE: OLD}
    index_set = [("en", ROOT), ("fr", FR_ROOT), ("x-default", ROOT)]
    assert alternates[ROOT] == alternates[FR_ROOT] == index_set
    # The plugin's own checker passes the tree (it found 2 hreflang errors before).
    assert main(["check", "--strict", str(built.site_dir)]) == 0
    # The summary counts URLs; README.md's line says which page overwrote it.
    assert any(m.endswith("4 URLs in 1 file (sitemap.xml, .gz, .html); lastmod: 4 git; "
                          "2 pages left out (2 overwritten)")
               for m in built.infos()), built.infos()
    debug = [r.getMessage() for r in built.records if r.levelno == logging.DEBUG]
    assert ("sitemap-pro: page 'README.md' left out: overwritten by 'en/index.md' (both "
            "build to index.html, and MkDocs writes that page last)") in debug
    assert not any("README.md' left out: a fallback copy" in m for m in debug)


@pytest.mark.parametrize("readme_newest", [True, False])
def test_whatever_the_dates(site: Site, readme_newest: bool) -> None:
    """The entry is en/index.md's whether README.md or it changed last."""
    make_site(site)
    if not readme_newest:
        site.page("en/index.md", "# en/index.md\n\nchanged\n")
        site.commit("en index", "2024-07-01T08:00:00+00:00")
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls, alternates = read_with_alternates(built.site_dir / "sitemap.xml")
    assert urls[ROOT]["lastmod"] == (OLD if readme_newest else "2024-07-01T08:00:00+00:00")
    assert [tag for tag, _ in alternates[ROOT]] == ["en", "fr", "x-default"]
