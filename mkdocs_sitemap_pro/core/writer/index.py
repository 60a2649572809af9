"""Shards -> the ``<sitemapindex>``, and which shards the previous index listed.

Step three of ``write_sitemaps``. The index lists ``<stem>-1.xml`` … ``<stem>-<k>.xml``,
each with the newest lastmod inside it; its ``.gz`` twin lists the ``.gz`` shards. The
index is bound by the protocol (``MAX_URLS`` children, ``MAX_BYTES`` bytes), not by the
caller's limits; past that, ``SitemapError`` and nothing is written.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs_sitemap_pro.core.atomic import StagedFiles, gzip_bytes
from mkdocs_sitemap_pro.core.protocol import (
    MAX_BYTES,
    MAX_LOC_LENGTH,
    SITEMAP_NS,
    SitemapError,
)
from mkdocs_sitemap_pro.core.urls import SiteUrl, xml_escape
from mkdocs_sitemap_pro.core.writer.options import WriteOptions
from mkdocs_sitemap_pro.core.writer.urlset import XML_DECLARATION, Shard

__all__ = ["previously_listed", "write_index"]

INDEX_START = f'{XML_DECLARATION}<sitemapindex xmlns="{SITEMAP_NS}">\n'
INDEX_END = "</sitemapindex>\n"
_SNIFF = 4096  # bytes read to tell an index (ours starts it right after the declaration)


def write_index(
    shards: list[Shard],
    names: list[str],
    staged: StagedFiles,
    site: SiteUrl,
    options: WriteOptions,
) -> list[tuple[Path, str]]:
    """Write the index (and its ``.gz``) to temporary files; return their renames.

    The ``.gz`` index goes into place before the ``.xml`` index, which is read as "the
    index", so the renames come in that order.
    """
    filename = options.filename
    variants = [("", filename)] + ([(".gz", filename + ".gz")] if options.gzip else [])
    renames = []
    for suffix, final in variants:
        lines = [INDEX_START]
        for shard, name in zip(shards, names):
            loc = site.join(name + suffix)
            if len(loc) > MAX_LOC_LENGTH:
                raise SitemapError(
                    f"sitemap file URL {loc} is longer than {MAX_LOC_LENGTH:,} characters"
                )
            lastmod = "" if shard.newest is None else f"<lastmod>{shard.newest}</lastmod>"
            lines.append(f"<sitemap><loc>{xml_escape(loc)}</loc>{lastmod}</sitemap>\n")
        lines.append(INDEX_END)
        data = "".join(lines).encode("utf-8")
        if len(data) > MAX_BYTES:
            raise SitemapError(
                f"the sitemap index would be {len(data):,} bytes, more than the protocol's "
                f"{MAX_BYTES:,}; raise max_urls or max_bytes"
            )
        if suffix:
            data = gzip_bytes(data)
        temp, handle = staged.new(final)
        with handle:
            handle.write(data)
        renames.append((temp, final))
    return renames[::-1]


def previously_listed(index_path: Path, stem: str) -> set[int]:
    """Shard numbers of the previous index at ``index_path``, if this writer wrote it.

    Tolerant: a missing, unreadable or non-index file lists nothing, and a truncated or
    malformed index is read as far as it goes (the reader's recover mode), so a build
    killed while writing still has its shards cleaned up. Cautious: the index counts as
    ours only if every file it lists is named ``<stem>-1.xml`` … ``<stem>-<k>.xml`` (or
    ``.xml.gz``), numbered 1..k without gaps, as this writer names them. A hand-made
    index listing ``sitemap-2023.xml`` is not ours, so nothing it lists is removed.
    """
    try:
        with open(index_path, "rb") as handle:
            start = handle.read(_SNIFF)
    except OSError:
        return set()
    if b"sitemapindex" not in start:  # no index there (the usual case): lxml not needed
        return set()
    from mkdocs_sitemap_pro.core.reader import SitemapReadError, read_sitemap

    try:
        previous = read_sitemap(index_path, recover=True)
    except (OSError, SitemapReadError):
        return set()
    if not previous.is_index:
        return set()
    pattern = re.compile(re.escape(stem) + r"-([1-9][0-9]{0,8})\.xml(?:\.gz)?")
    numbers = set()
    for entry in previous.entries:
        found = pattern.fullmatch(entry.loc.rsplit("/", 1)[-1])
        if found is None:
            return set()
        numbers.add(int(found.group(1)))
    if numbers != set(range(1, len(numbers) + 1)):
        return set()
    return numbers
