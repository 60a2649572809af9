"""Issue 54, experiment 9: a file written beside the sitemap that cannot be written.

robots.txt that could not be written was a warning (exit 0), a manifest or IndexNow key
file an error (exit 1, and robots.txt then left without its line). One rule now, the one
SPEC.md gives robots.txt: a WARNING naming the file, the sitemap and the other files
still written; ``--strict`` (``mkdocs build --strict``, ``build --strict``) exits 1.
Each file is made a folder in site_dir (a page ``<name>/readme.md`` builds one there).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_build import needs_zensical, run_build, zensical_build
from tests.support.dates import D1, utc
from tests.support.sites import SITE_URL, Site

KEY = "0123456789abcdef"
BESIDE = ["robots.txt", "sitemap.manifest.json", f"{KEY}.txt"]


def _site(site: Site, blocked: str) -> None:
    """Two pages, and a page that makes ``site/<blocked>`` a folder."""
    site.set_options(indexnow_key=KEY)
    site.page("index.md", "# Home\n")
    site.page("robots.txt", "User-agent: *\n") if blocked != "robots.txt" else None
    site.page(f"{blocked}/readme.md", "# In the way\n")
    site.commit("first", D1)


def _the_rest_written(site_dir: Path, blocked: str) -> None:
    """The sitemap lists the home page, and each other file beside it is written."""
    assert f"<loc>{SITE_URL}</loc><lastmod>{utc(D1)}</lastmod>" in (
        site_dir / "sitemap.xml").read_text(encoding="utf-8")
    assert (site_dir / blocked).is_dir()
    if blocked != "robots.txt":
        assert f"Sitemap: {SITE_URL}sitemap.xml" in (site_dir / "robots.txt").read_text()
    if blocked != "sitemap.manifest.json":
        assert json.loads((site_dir / "sitemap.manifest.json").read_text())
    if blocked != f"{KEY}.txt":
        assert (site_dir / f"{KEY}.txt").read_text().strip() == KEY


@pytest.mark.parametrize("blocked", BESIDE)
def test_the_plugin_warns_and_writes_the_rest(site, blocked):
    _site(site, blocked)
    built = site.build()
    assert built.error is None, built.error
    warnings = [m for m in built.messages() if blocked in m]
    assert len(warnings) == 1 and "cannot" in warnings[0], built.messages()
    _the_rest_written(built.site_dir, blocked)
    strict = site.build(strict=True)
    assert strict.error is not None  # the warning fails --strict


@needs_zensical
@pytest.mark.parametrize("blocked", BESIDE)
def test_build_warns_writes_the_rest_and_fails_only_strict(site, monkeypatch, capsys, blocked):
    _site(site, blocked)
    zensical_build(site)
    assert run_build(site, monkeypatch) == 0
    err = capsys.readouterr().err
    assert "Error" not in err, err
    assert [line for line in err.splitlines() if line.startswith("WARNING")
            and blocked in line and "cannot" in line], err
    _the_rest_written(site.root / "site", blocked)
    assert run_build(site, monkeypatch, "--strict") == 1
    assert "mkdocs-sitemap-pro build: 1 warning in strict mode\n" in capsys.readouterr().err
