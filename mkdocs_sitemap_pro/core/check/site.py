"""The rules for a built site on disk: each listed URL is a page that wants to be indexed,
and the pages that are not listed are counted.

A listed URL must have its HTML in the folder, and that page's ``<head>`` must not say
``noindex``, must not be a redirect stub (``meta refresh``), and must not be canonical
to another URL (``core.page.html_head`` reads the head, as the plugin does while building).
A page whose own date (``dates_on_page``) is more than a day from its lastmod is a warning.
Built pages that want indexing but are missing from the sitemap are one warning.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import urljoin

from mkdocs_sitemap_pro.core.check.confined import Outside, inside, read_regular
from mkdocs_sitemap_pro.core.check.findings import Findings
from mkdocs_sitemap_pro.core.check.progress import Ticker
from mkdocs_sitemap_pro.core.check.dates_on_page import DateParser, dates_on_page, disagrees
from mkdocs_sitemap_pro.core.check.sources import LocalSource
from mkdocs_sitemap_pro.core.check.tree_rules import ListedUrls
from mkdocs_sitemap_pro.core.page.html_head import HeadDirectives, read_head
from mkdocs_sitemap_pro.core.deploy.manifest import path_key
from mkdocs_sitemap_pro.core.deploy.versions import VersionsError, parse_versions
from mkdocs_sitemap_pro.core.protocol import check_lastmod
from mkdocs_sitemap_pro.core.urls import normalise_loc

__all__ = ["check_pages", "count_unlisted"]

_EXAMPLES = 5
_TICK_EVERY = 1_000
_VERSIONS_MAX_BYTES = 10 * 1024 * 1024


def _read(path: Path, root: Path) -> str | None:
    """The text of the regular file at ``path`` if it is inside ``root`` (after symlinks)."""
    try:
        data = read_regular(inside(root, path.relative_to(root).as_posix()), None)
    except (OSError, ValueError):  # Outside is a ValueError
        return None
    return None if data is None else data.decode("utf-8", errors="replace")


def _kind(path: Path | None) -> str | None:
    """"file", "dir", or None (nothing there, or something else): one ``stat``."""
    if path is None:
        return None
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return "file" if stat.S_ISREG(mode) else "dir" if stat.S_ISDIR(mode) else None


def _rendered_page(text: str) -> bool:
    """Whether an HTML file is a page a builder rendered, not a copied template.

    A theme's ``custom_dir`` kept inside docs_dir (``overrides/main.html``) is copied into
    the site as a plain file: a Jinja template (it starts with a tag, a comment or an
    expression) or a fragment with neither ``<html>`` nor ``<head>``.
    """
    if text.lstrip()[:2] in ("{%", "{#", "{{"):
        return False
    start = text[:4096].lower()
    return "<html" in start or "<head" in start


def _canonical_elsewhere(head: HeadDirectives, url: str) -> str | None:
    if not head.canonical:
        return None
    try:
        target = normalise_loc(urljoin(url, head.canonical.strip()))
    except ValueError:
        return None
    return None if target == url else target


def check_pages(urls: ListedUrls, source: LocalSource,
                found: Findings, ticker: Ticker | None = None) -> None:
    """Each listed URL's page exists, asks to be indexed and dates itself as listed;
    ``ticker`` tells how far it has got."""
    parser = DateParser()
    for number, (loc, places) in enumerate(urls.items()):
        if ticker is not None and number % _TICK_EVERY == 0:
            ticker.tick(lambda: f"checking the pages: {number:,} of {len(urls):,} listed URLs")
        shown = places[0][0].shown
        try:
            path = source.path_of(loc)
            kind = _kind(path)
            if path is not None and kind == "dir":
                path = inside(source.root, path.relative_to(source.root).as_posix() + "/index.html",
                              source.folders)
                kind = _kind(path)
            exists = kind == "file"
        except Outside as error:
            found.error("loc-outside-site", shown, f"{loc}: {error}; not looked at", url=loc)
            continue
        except OSError:  # a name too long for this file system, say
            exists = False
        if path is None:
            continue  # not under the site URL: the loc rules said so
        if not exists:
            found.error("page-missing", shown, f"{loc}: no page {source.display(loc)} in the site", url=loc)
            continue
        if path.suffix.lower() not in (".html", ".htm"):
            continue
        text = _read(path, source.root)
        if text is None:
            continue
        head = read_head(text)
        if head.noindex:
            found.error("page-noindex", shown, f"{loc}: the page says noindex, yet it is listed", url=loc)
        if head.refresh:
            found.error("page-redirect", shown,
                        f"{loc}: the page is a redirect stub (meta refresh), not a page", url=loc)
        elsewhere = _canonical_elsewhere(head, loc)
        if elsewhere is not None:
            found.error("page-canonical", shown,
                        f"{loc}: the page names {elsewhere} as its canonical URL; list that one", url=loc)
        _check_dates(loc, places[0][1].lastmod, text, parser, shown, found)


def _check_dates(loc: str, lastmod: str | None, text: str, parser: DateParser,
                 shown: str, found: Findings) -> None:
    """Each date the page gives itself is within a day of its lastmod."""
    if lastmod is None:
        return
    try:
        listed = check_lastmod(lastmod)
    except ValueError:
        return  # reported by the file rules
    for date in dates_on_page(text, parser):
        if disagrees(date.value, listed):
            found.warning("date-mismatch", shown,
                          f"{loc}: {date.what} on the page is {date.written!r}, but the "
                          f"sitemap's lastmod is {lastmod.strip()}: more than a day apart", url=loc)


def _error_page(rel: str, folder: Path) -> bool:
    """A "not found" page: a theme's ``404.html`` anywhere, or a ``404.md`` page
    (``404/``) at the root, at a language or version root (one folder down), or at a
    version's language root (two down, the version holding its own sitemap.xml)."""
    if rel == "404.html" or rel.endswith("/404.html"):
        return True
    if rel != "404/" and not rel.endswith("/404/"):
        return False
    parents = rel[: -len("404/")].strip("/").split("/") if rel != "404/" else []
    return len(parents) <= 1 or (
        len(parents) == 2 and (folder / parents[0] / "sitemap.xml").is_file())


def _left_out(url: str, manifests: Sequence[tuple[str, frozenset[str]]]) -> bool:
    """Whether a manifest says the plugin left the page at ``url`` out on purpose."""
    for folder, keys in manifests:
        if keys and url.startswith(folder) and path_key(url[len(folder):].encode()) in keys:
            return True
    return False


def _aliases(folder: Path) -> set[str]:
    """mike's alias folders at the root of a versioned site (``versions.json``): copies
    of a version's pages (or redirects to them), listed by that version's sitemap."""
    try:
        data = read_regular(inside(Path(os.path.realpath(folder)), "versions.json"),
                            _VERSIONS_MAX_BYTES)
        versions = parse_versions(data) if data is not None else []
    except (OSError, Outside, VersionsError):
        return set()
    return {alias for version in versions for alias in version.aliases}


def count_unlisted(listed: set[str], source: LocalSource, found: Findings,
                   manifests: Sequence[tuple[str, frozenset[str]]] = ()) -> int:
    """Count the built pages that want indexing but are not listed; one warning if any.

    A page is ``<folder>/index.html`` (URL ``<folder>/``) or any other ``.html`` file;
    "not found" pages (``_error_page``), hidden folders, copied templates (``_rendered_page``), and pages that are noindex, redirect stubs or
    canonical elsewhere are not pages that belong in a sitemap; nor are those a manifest
    (``manifests``: its folder's URL, the keys of the pages it left out) names.
    """
    missing = [url for rel_dir, prefix, name in _html_files(source.folder)
               if (url := _unlisted(rel_dir, prefix, name, listed, source, manifests)) is not None]
    if missing:
        examples = ", ".join(missing[:_EXAMPLES]) + (", …" if len(missing) > _EXAMPLES else "")
        found.warning("page-unlisted", ".",
                      f"{len(missing):,} built page{'s are' if len(missing) != 1 else ' is'} "
                      f"not in the sitemap: {examples}")
    return len(missing)


def _html_files(folder: Path) -> Iterator[tuple[str, str, str]]:
    """The ``.html`` files of a built site, in order, as (folder relative to the site's,
    its URL prefix, file name): hidden folders and mike's alias folders left out."""
    aliases = _aliases(folder)
    for current, dirs, names in os.walk(folder):
        top = current == str(folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not (top and d in aliases))
        rel_dir = Path(current).relative_to(folder).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        for name in sorted(names):
            if name.endswith((".html", ".htm")):
                yield rel_dir, prefix, name


def _unlisted(rel_dir: str, prefix: str, name: str, listed: set[str], source: LocalSource,
              manifests: Sequence[tuple[str, frozenset[str]]]) -> str | None:
    """The URL of the built page ``rel_dir/name`` if it wants indexing but is not
    listed (None: listed, or not a page that belongs in a sitemap)."""
    site, folder = source.site, source.folder
    rel = prefix if name == "index.html" else prefix + name
    if _error_page(rel, folder):
        return None
    try:
        url = normalise_loc(site.url + rel)
    except ValueError:
        return None
    if url in listed or url + "index.html" in listed or (
        name == "index.html" and site.url + prefix + name in listed
    ):
        return None
    if _left_out(site.url + rel, manifests):
        return None
    return url if _wants_indexing(source.root / rel_dir / name, source.root, url) else None


def _wants_indexing(path: Path, root: Path, url: str) -> bool:
    """Whether the file at ``path`` is a rendered page that is not noindex, a redirect
    stub or canonical elsewhere."""
    text = _read(path, root)
    if text is None or not _rendered_page(text):
        return False
    head = read_head(text)
    return not (head.noindex or head.refresh or _canonical_elsewhere(head, url))
