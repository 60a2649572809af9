"""``mkdocs-sitemap-pro build`` after Zensical, two deploys: the second, given the first's
manifest (``previous``), keeps a page's date while the page Zensical wrote shows the same
content, and re-dates it when it changed. Real ``zensical build`` runs, a real repository.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.cli.test_build import needs_zensical, run_build, zensical_build
from tests.support.dates import day, utc
from tests.support.schemas import parse_sitemap
from tests.support.sites import SITE_URL, Site


def _dates(site: Site) -> dict[str, str | None]:
    root = parse_sitemap(site.root / "site" / "sitemap.xml")
    return {url.findtext("{*}loc"): url.findtext("{*}lastmod") for url in root}


def _pages(folder: Path) -> dict[str, str]:
    manifest = json.loads((folder / "sitemap.manifest.json").read_bytes())
    assert manifest["rendered"] == "built-1"
    return {key: value[:11] for key, value in manifest["pages"].items()}


@needs_zensical
def test_after_zensical_unchanged_pages_keep_the_last_deploys_date(site, monkeypatch, capsys,
                                                                  tmp_path):
    site.config.update(theme={"name": "material"}, plugins=[{"sitemap-pro": {}}])
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("spaces.md", "# Spaces\n\nA paragraph of words that\nwraps here.\n")
    site.page("word.md", "# Word\n\nOne word.\n")
    site.commit("first", day(1))
    zensical_build(site)
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    first = tmp_path / "first"
    shutil.copytree(site.root / "site", first)
    # One commit of one build: the same fingerprints from a second Zensical build.
    zensical_build(site)
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    assert _pages(site.root / "site") == _pages(first) and len(_pages(first)) == 3

    site.page("spaces.md", "# Spaces\n\n\nA paragraph of words\nthat wraps here.   \n")
    site.page("word.md", "# Word\n\nOne other word.\n")
    site.commit("edits", day(10))
    site.config["plugins"] = [{"sitemap-pro": {"previous": str(first)}}]
    site.write_config()
    zensical_build(site)
    capsys.readouterr()
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    err = capsys.readouterr().err
    assert _dates(site) == {SITE_URL: utc(day(1)), SITE_URL + "spaces/": utc(day(1)),
                            SITE_URL + "word/": utc(day(10))}
    assert "1 kept the last deploy's date" in err, err
