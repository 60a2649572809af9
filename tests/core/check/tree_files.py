"""Hand-written sitemap trees for the checker's tests: a valid one, and ways to break it."""

from __future__ import annotations

import datetime as dt
import gzip
from pathlib import Path

from mkdocs_sitemap_pro.core.check import CheckOptions, Report, check

SITE = "https://example.com/"
NOW = dt.datetime(2024, 6, 1, 12, 0, tzinfo=dt.timezone.utc)
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
URLSET = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
URLSET_XHTML = (
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
    'xmlns:xhtml="http://www.w3.org/1999/xhtml">'
)
INDEX = '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
PAGE = '<!DOCTYPE html><html><head><title>p</title>{head}</head><body>p</body></html>'


def url(loc: str, lastmod: str | None = None, extra: str = "") -> str:
    mod = f"<lastmod>{lastmod}</lastmod>" if lastmod else ""
    return f"<url><loc>{loc}</loc>{mod}{extra}</url>\n"


def urlset(*urls: str, xhtml: bool = False) -> str:
    return HEAD + (URLSET_XHTML if xhtml else URLSET) + "\n" + "".join(urls) + "</urlset>\n"


def index(*children: tuple[str, str | None]) -> str:
    body = "".join(
        f"<sitemap><loc>{loc}</loc>{f'<lastmod>{mod}</lastmod>' if mod else ''}</sitemap>\n"
        for loc, mod in children
    )
    return HEAD + INDEX + "\n" + body + "</sitemapindex>\n"


def write_tree(folder: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``files`` (name -> text or bytes; ``.gz`` names are gzipped) into ``folder``."""
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8") if isinstance(content, str) else content
        if name.endswith(".gz") and data[:2] != b"\x1f\x8b":
            data = gzip.compress(data, mtime=0)
        path.write_bytes(data)
    return folder


def pages(*paths: str, head: str = "") -> dict[str, str]:
    """Built pages: ``a/`` -> ``a/index.html``."""
    return {(p + "index.html" if p.endswith("/") or p == "" else p): PAGE.format(head=head)
            for p in paths}


def valid_files() -> dict[str, str | bytes]:
    """A correct tree: robots.txt -> index -> two urlsets (each with a .gz twin), pages."""
    one = urlset(url(SITE, "2024-01-02"), url(SITE + "a/", "2024-02-03T10:00:00+00:00"))
    two = urlset(url(SITE + "b/", "2024-03-04"), url(SITE + "c/"))
    return {
        "robots.txt": f"User-agent: *\nAllow: /\nSitemap: {SITE}sitemap.xml\n",
        "sitemap.xml": index((SITE + "sitemap-1.xml", "2024-02-03T10:00:00+00:00"),
                             (SITE + "sitemap-2.xml", "2024-03-04")),
        "sitemap-1.xml": one, "sitemap-1.xml.gz": one,
        "sitemap-2.xml": two, "sitemap-2.xml.gz": two,
        **pages("", "a/", "b/", "c/"),
    }


def run(folder: Path, files: dict[str, str | bytes], target: str | None = None,
        **options: object) -> Report:
    """Write the tree and check it (at ``NOW``, as ``SITE``; unlisted pages not counted
    unless asked)."""
    write_tree(folder, files)
    settings = {"site_url": SITE, "now": NOW, "count_unlisted": False, **options}
    return check(str(folder / target) if target else str(folder), CheckOptions(**settings))  # type: ignore[arg-type]


def rules(report: Report) -> set[str]:
    return {finding.rule for finding in report.findings}
