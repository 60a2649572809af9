"""``check``: judge a whole sitemap tree, from a site folder, a sitemap file or a URL.

Where it starts: a folder or a site URL starts at its ``robots.txt`` (its ``Sitemap:``
lines), falling back to ``sitemap.xml`` when robots.txt names none; a sitemap file
(path or URL) starts at that file. A local folder needs the URL it is published at:
``site_url``, or else the folder of the robots.txt ``Sitemap:`` line.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs_sitemap_pro.core.check.tree_rules import check_crawlable
from mkdocs_sitemap_pro.core.check.sources import Outside, inside, read_regular
from mkdocs_sitemap_pro.core.check.findings import CheckError, Findings, Report
from mkdocs_sitemap_pro.core.check.tree_rules import check_alternates
from mkdocs_sitemap_pro.core.check.tree_rules import check_images
from mkdocs_sitemap_pro.core.check.site import check_manifests
from mkdocs_sitemap_pro.core.check.findings import Ticker
from mkdocs_sitemap_pro.core.check.site import check_pages, count_unlisted
from mkdocs_sitemap_pro.core.check.sources import (
    FetchError,
    HttpSource,
    LocalSource,
    OutsideFolder,
    Source,
    TooLarge,
)
from mkdocs_sitemap_pro.core.check.tree import (
    ROBOTS_MAX_BYTES,
    Tree,
    TreeLimits,
    follow,
    robots_sitemaps,
)
from mkdocs_sitemap_pro.core.check.tree_rules import check_tree, listed_urls
from mkdocs_sitemap_pro.core.protocol import UTC
from mkdocs_sitemap_pro.core.reader import DEFAULT_EXPAND_LIMIT
from mkdocs_sitemap_pro.core.robots import host_robots_url
from mkdocs_sitemap_pro.core.urls import SiteUrl
from mkdocs_sitemap_pro.core.words import named
from mkdocs_sitemap_pro.core.deploy.versions import VersionsError, parse_versions

__all__ = ["CheckOptions", "Start", "check", "host_robots", "read_robots", "sitemaps_from_robots",
           "sitemaps_in_robots", "start_of"]

#: versions.json (mike's list of versions) is read up to this size.
_VERSIONS_MAX_BYTES = 10 * 1024 * 1024

#: Seconds between two progress lines, and before the first.
PROGRESS_EVERY = 5.0

_SITE_URL_HINT = "pass --site-url, the URL the folder is published at"


@dataclass(frozen=True)
class CheckOptions:
    """How to check. ``max_bytes`` caps each file (and what a ``.gz`` expands to);
    ``max_files`` the files followed; ``timeout`` each file fetched whole, in seconds.
    ``count_unlisted`` counts built pages missing from the sitemap (local folders).
    ``progress`` is given a line now and then (at most every ``progress_every``
    seconds, and only once the check has run that long) while a large tree is read."""

    site_url: str | None = None
    timeout: float = 10.0
    max_bytes: int = DEFAULT_EXPAND_LIMIT
    max_files: int = 1_000
    now: dt.datetime | None = None
    count_unlisted: bool = True
    progress: Callable[[str], None] | None = None
    progress_every: float = PROGRESS_EVERY


@dataclass(frozen=True)
class Start:
    """Where reading a tree starts: its source, site URL, and sitemaps or robots.txt."""

    source: Source
    site: SiteUrl
    files: list[str]  # sitemap URLs given directly
    robots: str | None  # the robots.txt URL to start from, if no file was given


def _site(url: str) -> SiteUrl:
    try:
        return SiteUrl(url)
    except ValueError as error:
        raise CheckError(f"site URL {error}") from None


def _site_url_from_robots(folder: Path, entry: str | None) -> str | None:
    """The folder of the robots.txt ``Sitemap:`` line naming ``entry`` (any, if None)."""
    try:
        data = read_regular(inside(Path(os.path.realpath(folder)), "robots.txt"),
                            ROBOTS_MAX_BYTES)
    except (OSError, Outside):
        return None
    if data is None:
        return None
    text = data.decode("utf-8", "replace")
    lines = robots_sitemaps(text, "robots.txt", Findings())
    for url in lines:
        folder_url, _, name = url.rpartition("/")
        if entry is None or name == entry:
            return folder_url + "/"
    # Another file of the same folder (a .gz, a shard): robots.txt's folder is its too.
    return lines[0].rpartition("/")[0] + "/" if lines else None


def _sitemap_of_page(page: Path) -> tuple[Path, str | None]:
    """A page given for a sitemap: a sitemap's page for people (``sitemap.html``) means
    its ``.xml``; another page, the site it belongs to (the nearest folder up with a
    robots.txt or a sitemap.xml)."""
    twin = page.with_suffix(".xml")
    if twin.is_file():
        return page.parent, twin.name
    for folder in page.parents:
        if (folder / "robots.txt").is_file() or (folder / "sitemap.xml").is_file():
            return folder, None
    return page.parent, None


def _as_version(folder: Path, site_url: str) -> str:
    """A mike alias's folder (``latest/``, per ``versions.json`` beside it) holds the
    pages and sitemap of the version it names: checked as published there."""
    try:
        data = read_regular(folder.parent / "versions.json", _VERSIONS_MAX_BYTES)
        versions = parse_versions(data) if data is not None else []
    except (OSError, VersionsError):
        return site_url
    name = folder.name
    suffix = f"/{name}/"
    for version in versions:
        if name in version.aliases and site_url.endswith(suffix):
            return site_url[: -len(suffix)] + f"/{version.name}/"
    return site_url


def start_of(target: str, options: CheckOptions) -> Start:
    """Where a target (a site folder, a sitemap or page file, an http(s) URL) is read from."""
    if urlsplit(target).scheme.lower() in ("http", "https"):
        source = HttpSource(options.timeout)
        if urlsplit(target).path.endswith((".xml", ".gz")):
            site = _site(options.site_url or target.rsplit("/", 1)[0] + "/")
            return Start(source, site, [target], None)
        base = target if target.endswith("/") else target + "/"
        return Start(source, _site(options.site_url or base), [], base + "robots.txt")
    path = Path(target)
    try:
        path.stat()
    except (FileNotFoundError, NotADirectoryError):
        raise CheckError(f"{named(target)} does not exist: give a built site's folder, a "
                         "sitemap file or an http(s) URL") from None
    except (OSError, ValueError) as error:  # a name too long, a NUL byte, no permission
        reason = error.strerror if isinstance(error, OSError) else str(error)
        raise CheckError(f"{named(target)} cannot be read ({reason}): give a built site's "
                         "folder, a sitemap file or an http(s) URL") from None
    if not path.is_file() and not path.is_dir():
        raise CheckError(f"{named(target)} is not a regular file or a folder: give a built "
                         "site's folder, a sitemap file or an http(s) URL")
    folder, entry = (path.parent, path.name) if path.is_file() else (path, None)
    if entry is not None and path.suffix.lower() in (".html", ".htm"):
        folder, entry = _sitemap_of_page(path)
    site_url = options.site_url or _site_url_from_robots(folder, entry)
    if site_url is None:
        raise CheckError(f"cannot tell which URL {target} is published at: {_SITE_URL_HINT}")
    site = _site(_as_version(folder, site_url))
    local = LocalSource(folder, site)
    if entry is not None:
        return Start(local, site, [site.join(entry)], None)
    return Start(local, site, [], site.join("robots.txt"))


def sitemaps_from_robots(start: Start, found: Findings) -> list[str]:
    """The sitemaps robots.txt names, or ``sitemap.xml`` beside it when it names none."""
    return sitemaps_in_robots(start, read_robots(start, found), found)


def read_robots(start: Start, found: Findings) -> str | None:
    """The text of the robots.txt a tree starts from; None (with a finding, unless it
    is simply not there) if it cannot be read."""
    assert start.robots is not None
    shown = start.source.display(start.robots)
    try:
        data = start.source.read(start.robots, ROBOTS_MAX_BYTES)
    except TooLarge as error:
        found.warning("robots-size", shown, f"{error} (crawlers read only the first 500 KiB)")
        return None
    except OutsideFolder as error:
        found.error("loc-outside-site", shown, f"{start.robots}: {error}", url=start.robots)
        return None
    except FetchError as error:
        found.warning("unreadable", shown, str(error))
        return None
    return None if data is None else data.decode("utf-8", "replace")


def sitemaps_in_robots(start: Start, text: str | None, found: Findings) -> list[str]:
    """The sitemaps the robots.txt ``text`` names, or ``sitemap.xml`` beside it when it
    names none (or could not be read)."""
    assert start.robots is not None
    source, shown = start.source, start.source.display(start.robots)
    urls: list[str] = []
    if text is not None:
        urls = robots_sitemaps(text, shown, found)
        if not urls:
            found.warning("robots-no-sitemap", shown, "robots.txt names no sitemap "
                          "(a line 'Sitemap: <absolute URL>' tells every crawler where it is)")
    if isinstance(source, LocalSource):
        kept: list[str] = []
        for url in urls:
            try:
                under = source.path_of(url) is not None
            except Outside:
                found.error("loc-outside-site", shown, f"Sitemap: {url} leads outside the "
                            f"folder {source.folder}; not read", url=url)
                continue
            if under:
                kept.append(url)
            else:
                found.warning("not-checked", shown,
                              f"Sitemap: {url} is not under {start.site.url}; not checked")
        urls = kept
    if not urls:
        urls = [start.robots.rsplit("/", 1)[0] + "/sitemap.xml"]
    return urls


def host_robots(start: Start, read: str | None, found: Findings) -> tuple[str, str] | None:
    """The robots.txt crawlers read for the tree's URLs (the one at the root of the
    host) and its text, when the checker can see it: over HTTP(S), ``/robots.txt`` of
    the host asked; in a folder, its own robots.txt if the folder is the host's root.
    ``read``: the text of the robots.txt the tree started from, if it was read."""
    first = start.robots or start.files[0]
    url = host_robots_url(first)
    if isinstance(start.source, LocalSource):
        if not start.site.at_host_root:
            return None  # the host's robots.txt is not in the folder
        url = start.site.join("robots.txt")
    if start.robots is not None and urlsplit(start.robots).path == "/robots.txt":
        return (start.robots, read) if read is not None else None
    shown = start.source.display(url)
    try:
        data = start.source.read(url, ROBOTS_MAX_BYTES)
    except OutsideFolder as error:
        found.error("loc-outside-site", shown, f"{url}: {error}", url=url)
        return None
    except FetchError as error:
        found.warning("unreadable", shown, f"{error}; which listed URLs it disallows is "
                      "not known")
        return None
    return None if data is None else (url, data.decode("utf-8", "replace"))


def _built_on(tree: Tree, source: Source, now: dt.datetime) -> dt.date | None:
    """The day the tree was written: its newest file's time in a folder; over HTTP, the
    day of the check (a site stamped with its build date is usually checked after it)."""
    if not isinstance(source, LocalSource):
        return now.astimezone(UTC).date()
    times = []
    for loaded in tree.files:
        try:
            path = source.path_of(loaded.url)
            if path is not None:
                times.append(path.stat().st_mtime)
        except (OSError, Outside):
            continue
    return dt.datetime.fromtimestamp(max(times), UTC).date() if times else None


def check(target: str, options: CheckOptions | None = None) -> Report:
    """Check the sitemap tree at ``target``; ``CheckError`` if it cannot be checked at all."""
    options = options or CheckOptions()
    now = options.now or dt.datetime.now(UTC)
    start = start_of(target, options)
    found = Findings()
    robots = None if start.files else read_robots(start, found)
    start_urls = start.files or sitemaps_in_robots(start, robots, found)
    limits = TreeLimits(options.max_bytes, options.max_files)
    ticker = Ticker(options.progress, options.progress_every) if options.progress else None
    tree = follow(start_urls, start.source, start.site, limits, now, found, ticker)
    if not tree.files and not any(f.rule in ("xml", "byte-limit", "loc-outside-site") for f in found.items):
        reasons = "; ".join(f.message for f in found.items if f.severity == "error")
        raise CheckError(f"no sitemap could be read at {target}: {reasons or 'none found'}")
    urls = listed_urls(tree)
    check_tree(tree, urls, found, _built_on(tree, start.source, now))
    manifests = check_manifests(start_urls, start.source, found)
    check_alternates(urls, found)
    check_images(urls, found)
    host = host_robots(start, robots, found)
    if host is not None:
        check_crawlable(urls, host[0], start.source.display(host[0]), host[1], found)
    if isinstance(start.source, LocalSource):
        check_pages(urls, start.source, found, ticker)
        # A file that could not be read lists nothing: every page would look unlisted.
        if options.count_unlisted and not any(f.rule == "xml" for f in found.items):
            count_unlisted(set(urls), start.source, found, manifests)
    return Report(
        target=target,
        files=[loaded.shown for loaded in tree.files],
        url_count=len(urls),
        findings=found.finish(),
    )
