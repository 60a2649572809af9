"""The README's first command: `mkdocs build -f example_site/mkdocs.yml` gives a right sitemap."""

from __future__ import annotations

import subprocess
import sys

from tests.support import REPO
from tests.support.schemas import NS, parse_sitemap, urls_of

SITE_URL = "https://example.com/docs/"


def test_example_site_builds_with_a_correct_sitemap(tmp_path):
    site_dir = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-f", "example_site/mkdocs.yml", "-d", str(site_dir)],
        cwd=REPO, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "sitemap-pro: 10 URLs in 1 file (sitemap.xml, .gz, .html)" in result.stderr
    root = parse_sitemap(site_dir / "sitemap.xml")
    assert root.tag == f"{{{NS}}}urlset"
    urls = {u["loc"]: u for u in urls_of(root)}
    assert SITE_URL + "reference/d%C3%A9j%C3%A0-vu/" in urls
    assert urls[SITE_URL + "reference/front-matter/"]["lastmod"] == "2024-02-29"
    assert urls[SITE_URL + "reference/options/"]["priority"] == "0.8"
    for left_out in ("about/internal-notes/", "about/unlisted/", "404/"):
        assert SITE_URL + left_out not in urls
    # `robots: noindex` in front matter: left out, and (through the example's theme
    # override, since MkDocs' theme renders no such tag) really noindex in its HTML.
    unlisted = (site_dir / "about" / "unlisted" / "index.html").read_text()
    assert '<meta name="robots" content="noindex, follow">' in unlisted
    assert '<meta name="robots"' not in (site_dir / "index.html").read_text()
    # Git-dated pages carry their last commit's date (when this checkout has history).
    committed = subprocess.run(
        ["git", "log", "-1", "--first-parent", "--format=%cI", "--", "example_site/docs/index.md"],
        cwd=REPO, capture_output=True, text=True,
    ).stdout.strip()
    if committed and "shallow" not in result.stderr:
        import datetime as dt

        expected = dt.datetime.fromisoformat(committed).astimezone(dt.timezone.utc).isoformat()
        assert urls[SITE_URL]["lastmod"] == expected
    parse_sitemap(site_dir / "sitemap.xml.gz")
    robots = (site_dir / "robots.txt").read_text()
    assert robots.endswith(f"Sitemap: {SITE_URL}sitemap.xml\n") and robots.count("Sitemap:") == 1
