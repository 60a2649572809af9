"""Versioned sites (mike's layout): which versions there are, and the index over them.

mike publishes each version in a folder of its own on one branch and lists them in
``versions.json`` (newest first: ``[{"version": "2.0", "aliases": ["latest"]}, …]``).
An alias (a symlink, a copy, or redirect pages) shows another version's pages under
another folder; a sitemap there would list URLs outside its folder, so only real
versions are listed. This module knows the layout, not git and not MkDocs.
"""

import datetime as dt
import json
from typing import TYPE_CHECKING, NamedTuple

from mkdocs_sitemap_pro.core.protocol import (
    MAX_BYTES,
    MAX_LOC_LENGTH,
    MAX_URLS,
    SITEMAP_NS,
    check_lastmod,
    utc_key,
)
from mkdocs_sitemap_pro.core.urls import SiteUrl, xml_escape

if TYPE_CHECKING:  # lxml, which the reader loads, is not needed to build a site
    from mkdocs_sitemap_pro.core.reader import SitemapFile

__all__ = ["Listed", "Version", "VersionsError", "listed_urlset", "parse_versions", "root_url", "version_index"]


class VersionsError(ValueError):
    """versions.json cannot be read as mike writes it; the message says why."""


class Version(NamedTuple):
    """One deployed version: its folder name and its aliases."""

    name: str
    aliases: tuple[str, ...] = ()


def parse_versions(data: bytes) -> list[Version]:
    """The versions of a ``versions.json``, in its order."""
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise VersionsError(f"versions.json is not JSON: {error}") from None
    if not isinstance(raw, list):
        raise VersionsError("versions.json is not a list of versions")
    versions = []
    for item in raw:
        name = item.get("version") if isinstance(item, dict) else None
        aliases = item.get("aliases", []) if isinstance(item, dict) else None
        if not isinstance(name, str) or not name or not isinstance(aliases, list):
            raise VersionsError(f"versions.json holds an entry mike did not write: {item!r}")
        versions.append(Version(name, tuple(str(a) for a in aliases)))
    return versions


def root_url(site_url: str, version_part: str | None) -> SiteUrl:
    """The site's root: ``site_url`` with mike's version part (``/2.0``) removed.

    mike sets ``site_url`` to ``urljoin(site_url, version)``; without it (outside
    ``mike deploy``) site_url is the root already.
    """
    url = site_url.rstrip("/")
    if version_part and url.endswith("/" + version_part):
        url = url[: -len(version_part)]
    return SiteUrl(url if url.endswith("/") else url + "/")


class Listed(NamedTuple):
    """A sitemap the root index lists: its path below the root, its newest lastmod (the
    ``<lastmod>`` text, None when it dates nothing) and how many URLs it holds."""

    path: str
    newest: str | None
    url_count: int


def listed_urlset(path: str, sitemap: "SitemapFile", folder: str) -> list[Listed] | str:
    """One urlset inside ``folder``, with its newest lastmod; or what is wrong with it."""
    if sitemap.is_index:
        return f"{path} is an index inside an index"
    newest: tuple[dt.datetime, str] | None = None
    for entry in sitemap.entries:
        if not entry.loc.startswith(folder):
            return (f"{path} lists {entry.loc}, outside {folder} where the version is "
                    "served (built without site_url?)")
        if entry.lastmod is None:
            continue
        try:
            key = utc_key(check_lastmod(entry.lastmod))
        except ValueError:
            continue
        if newest is None or key > newest[0]:
            newest = (key, entry.lastmod.strip())
    return [Listed(path, newest[1] if newest else None, len(sitemap.entries))]


def version_index(root: SiteUrl, sitemaps: list[Listed]) -> bytes:
    """A ``<sitemapindex>`` listing ``sitemaps`` (in order), each with its newest lastmod."""
    if len(sitemaps) > MAX_URLS:
        raise VersionsError(f"{len(sitemaps):,} versions are more than one index may list")
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        f'<sitemapindex xmlns="{SITEMAP_NS}">\n',
    ]
    for listed in sitemaps:
        loc = root.join(listed.path)
        if len(loc) > MAX_LOC_LENGTH:
            raise VersionsError(f"sitemap URL {loc} is longer than {MAX_LOC_LENGTH:,} characters")
        lastmod = f"<lastmod>{xml_escape(listed.newest)}</lastmod>" if listed.newest else ""
        lines.append(f"<sitemap><loc>{xml_escape(loc)}</loc>{lastmod}</sitemap>\n")
    lines.append("</sitemapindex>\n")
    data = "".join(lines).encode("utf-8")
    if len(data) > MAX_BYTES:
        raise VersionsError(f"the index would be {len(data):,} bytes, more than {MAX_BYTES:,}")
    return data
