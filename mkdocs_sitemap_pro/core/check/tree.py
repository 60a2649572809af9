"""Following a sitemap tree: robots.txt -> its ``Sitemap:`` lines -> files -> an index's files.

Every file is read through a ``Source`` (local folder or HTTP) with a size cap, a
``.gz`` is expanded up to the same cap, XML is parsed as a stream with the core
reader's safe options (``streamed``: no file's tree or bytes are kept), and at most
``max_files`` files are followed. Each ``.xml``/``.xml.gz`` twin of a file read is read
too, to compare them. Rules about one file run as it is read (``file_rules``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from mkdocs_sitemap_pro.core.check.file_rules import check_file
from mkdocs_sitemap_pro.core.check.findings import Findings
from mkdocs_sitemap_pro.core.check.sources import (
    FetchError,
    LocalSource,
    OutsideFolder,
    Source,
    TooLarge,
)
from mkdocs_sitemap_pro.core.check.findings import Ticker
from mkdocs_sitemap_pro.core.check.streamed import (
    Progress,
    Reading,
    StreamedDocument,
    read_streamed,
)
from mkdocs_sitemap_pro.core.reader import SitemapReadError, decompress, is_gzip
from mkdocs_sitemap_pro.core.robots import MAX_BYTES
from mkdocs_sitemap_pro.core.urls import SiteUrl

__all__ = ["Loaded", "Tree", "TreeLimits", "follow", "robots_sitemaps"]

#: robots.txt is read up to this size (Google reads the first 500 KiB).
ROBOTS_MAX_BYTES = MAX_BYTES


@dataclass(frozen=True)
class TreeLimits:
    """How far the walk goes: bytes per file (after expanding a ``.gz``), files followed."""

    max_bytes: int
    max_files: int


@dataclass
class Loaded:
    """A sitemap file that was read and parsed."""

    url: str
    shown: str
    doc: StreamedDocument
    parent: str | None  # the index that listed it, None for a starting file


@dataclass
class Tree:
    """Every file the walk read, in order, and the twins found beside them."""

    files: list[Loaded] = field(default_factory=list)
    # (file, its twin); a twin urlset is compared by its digest, its URLs are not kept
    twins: list[tuple[Loaded, Loaded]] = field(default_factory=list)


def robots_sitemaps(text: str, shown: str, found: Findings) -> list[str]:
    """The absolute ``Sitemap:`` URLs of a robots.txt, in order, each once.

    A relative value is an error (the protocol asks for a full URL; it is not
    followed), a repeated one a warning.
    """
    urls: list[str] = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        name, sep, value = line.split("#", 1)[0].partition(":")
        if not sep or name.strip().lower() != "sitemap":
            continue
        value = value.strip()
        parts = urlsplit(value)
        if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
            found.error("robots-relative", shown,
                        f"line {number}: Sitemap: {value!r} is not an absolute http(s) URL")
        elif value in urls:
            found.warning("robots-duplicate", shown,
                          f"line {number}: Sitemap: {value} is given more than once")
        else:
            urls.append(value)
    return urls


def _twin_of(url: str) -> str | None:
    if url.endswith(".xml.gz"):
        return url[:-3]
    if url.endswith(".xml"):
        return url + ".gz"
    return None


def follow(start: list[str], source: Source, site: SiteUrl, limits: TreeLimits,
           now: dt.datetime, found: Findings, ticker: Ticker | None = None) -> Tree:
    """Read every file reachable from ``start`` (breadth first, each URL once);
    ``ticker`` tells how far reading a large file has got."""
    tree = Tree()
    queue: list[tuple[str, str | None]] = [(url, None) for url in start]
    seen = set(start)
    position = 0
    while position < len(queue):
        url, parent = queue[position]
        position += 1
        if len(tree.files) >= limits.max_files:
            found.error("file-cap", source.display(url),
                        f"stopped after {limits.max_files:,} files; "
                        f"{len(queue) - position + 1:,} listed files not checked")
            break
        read = _load(url, parent, source, limits, found, ticker)
        if read is None:
            continue
        loaded, xml = read
        tree.files.append(loaded)
        check_file(loaded.doc, xml, url, loaded.shown, site, now, found, ticker)
        del xml, read  # the file's bytes are not kept: a tree may hold many large files
        _read_twin(loaded, source, limits, found, tree)
        if not loaded.doc.file.is_index:
            continue
        if parent is not None:
            found.error("nested-index", loaded.shown,
                        f"a sitemap index listed by the index {source.display(parent)}: "
                        "an index may list only urlset files; its files are not followed")
            continue
        for entry in loaded.doc.file.entries:
            if entry.loc == url:  # read already, so never seen as an index inside it
                found.error("index-self", loaded.shown,
                            f"lists itself ({entry.loc}): an index may list only urlset files")
            # A child that is not an http(s) URL is reported by the loc rules, not read.
            elif entry.loc.startswith(("http://", "https://")) and entry.loc not in seen:
                seen.add(entry.loc)
                queue.append((entry.loc, url))
    return tree


def _load(url: str, parent: str | None, source: Source, limits: TreeLimits,
          found: Findings, ticker: Ticker | None) -> tuple[Loaded, bytes] | None:
    """The file at ``url`` read and parsed, and its XML (a ``.gz`` expanded); None
    (with a finding) if it cannot be."""
    shown = source.display(url)
    where = f", listed by {source.display(parent)}" if parent else ""
    try:
        data = source.read(url, limits.max_bytes)
    except TooLarge as error:
        found.error("byte-limit", shown, str(error))
        return None
    except OutsideFolder as error:
        found.error("loc-outside-site", shown, f"{url}: {error}{where}", url=url)
        return None
    except FetchError as error:
        found.error("unreadable", shown, f"{url}: {error}{where}")
        return None
    if data is None:
        path = source.path_of(url) if isinstance(source, LocalSource) else None
        looked = f" (looked for {path})" if path is not None else ""
        found.error("missing", shown, f"{url} does not exist{where}{looked}")
        return None
    _named_as_it_is(url, data, shown, found)
    told: Progress | None = None
    if ticker is not None:
        def told(reading: Reading) -> None:
            ticker.tick(lambda: f"reading {shown}: {reading.children:,} elements, "
                                f"{reading.done * 100 // max(reading.size, 1)}% of "
                                f"{reading.size:,} bytes")
    try:
        data = decompress(data, limits.max_bytes) if is_gzip(data) else data
        doc = read_streamed(data, progress=told)
    except SitemapReadError as error:
        found.error("xml", shown, f"not a sitemap: {error}")
        return None
    return Loaded(url, shown, doc, parent), data


_GZIP_MAGIC = b"\x1f\x8b"


def _named_as_it_is(url: str, data: bytes, shown: str, found: Findings) -> None:
    """A ``.gz`` name on plain XML, or gzip data under an ``.xml`` name: this reader
    tells them apart by their first bytes, crawlers by the name, and then read nothing."""
    path = urlsplit(url).path.lower()
    gzipped = data.startswith(_GZIP_MAGIC)
    if path.endswith(".gz") and not gzipped:
        found.error("gz-not-gzip", shown, f"{url} is named .gz but is not gzip data: crawlers "
                    "expand it and find no URL; compress it, or drop .gz from its name")
    elif path.endswith(".xml") and gzipped:
        found.error("xml-gzipped", shown, f"{url} is named .xml but holds gzip data: crawlers "
                    "read it as XML and find no URL; name it .xml.gz, or write it uncompressed")


def _read_twin(loaded: Loaded, source: Source, limits: TreeLimits, found: Findings,
               tree: Tree) -> None:
    """Read the ``.gz`` of an ``.xml`` (or the reverse), if there is one, to compare."""
    twin_url = _twin_of(loaded.url)
    if twin_url is None:
        return
    try:
        data = source.read(twin_url, limits.max_bytes)
    except OutsideFolder as error:
        found.error("loc-outside-site", source.display(twin_url),
                    f"the twin of {loaded.shown}: {error}", url=twin_url)
        return
    except FetchError:
        return  # no twin to compare: not a rule of the protocol
    if data is None:
        return
    shown = source.display(twin_url)
    _named_as_it_is(twin_url, data, shown, found)
    try:
        doc = read_streamed(data, expand_limit=limits.max_bytes, schema=False, urls=False)
    except SitemapReadError as error:
        found.error("gz-twin", shown, f"the twin of {loaded.shown} is not a sitemap: {error}")
        return
    tree.twins.append((loaded, Loaded(twin_url, shown, doc, loaded.parent)))
