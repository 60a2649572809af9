"""Sorted items -> ``<urlset>`` files: streamed into temporary files, split at the limits.

Step two of ``write_sitemaps``. A file takes entries while both its URL count and its
exact UTF-8 size (declaration, root tags and every ``<url>`` line included) stay within
``max_urls`` and ``max_bytes``; the next entry that would cross either starts a new file.
An entry too big even for an empty file is dropped.

Extension namespaces (``xhtml:link`` alternates, ``image:image``): a ``<urlset>``
declares ``xmlns:xhtml`` (``xmlns:image``) exactly when it holds an entry that uses it.
A file that such an entry could still fall into (the next one is fewer than ``max_urls``
entries ahead) is started with the declaration, provisionally and counted in its bytes;
if no entry using it has arrived by the time its start must be written out, the start
declaring only what its entries use (shorter, so every size decision stays true) is
written instead, and an entry using a namespace its file's start does not declare
starts a new file.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections.abc import Sequence
from operator import itemgetter
from pathlib import Path

from mkdocs_sitemap_pro.core.atomic import CHUNK_BYTES, StagedFiles, TwinWriter
from mkdocs_sitemap_pro.core.protocol import (
    IMAGE_NS,
    MAX_URLS,
    SITEMAP_NS,
    XHTML_NS,
    SitemapError,
)
from mkdocs_sitemap_pro.core.writer.items import ALTERNATES, IMAGES, Dropped, Row
from mkdocs_sitemap_pro.core.writer.options import WriteOptions

__all__ = ["XML_DECLARATION", "Shard", "too_many_files", "write_shards"]

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
URLSET_START = f'{XML_DECLARATION}<urlset xmlns="{SITEMAP_NS}">\n'
URLSET_START_XHTML = f'{XML_DECLARATION}<urlset xmlns="{SITEMAP_NS}" xmlns:xhtml="{XHTML_NS}">\n'
#: The start of a file whose entries use the namespaces of a set of ``Item.extensions`` bits.
URLSET_STARTS = {
    0: URLSET_START,
    ALTERNATES: URLSET_START_XHTML,
    IMAGES: f'{XML_DECLARATION}<urlset xmlns="{SITEMAP_NS}" xmlns:image="{IMAGE_NS}">\n',
    ALTERNATES | IMAGES: (f'{XML_DECLARATION}<urlset xmlns="{SITEMAP_NS}" '
                          f'xmlns:xhtml="{XHTML_NS}" xmlns:image="{IMAGE_NS}">\n'),
}
_EXTENSION_BITS = (ALTERNATES, IMAGES)
URLSET_END = "</urlset>\n"


class Shard:
    """A written temporary urlset and what the index needs to know about it (its count
    and newest lastmod are set when it is closed)."""

    __slots__ = ("temp", "gz_temp", "count", "newest", "items")

    def __init__(self, temp: Path, gz_temp: Path | None) -> None:
        self.temp, self.gz_temp = temp, gz_temp
        self.count = 0
        self.newest: str | None = None  # the text of its newest lastmod
        self.items: list[Row] = []  # what it holds, kept for html_view



def too_many_files(url_count: int, max_urls: int) -> str:
    """The error text for a site that needs more files than one index may list."""
    return (
        f"{url_count:,} URLs need more than {MAX_URLS:,} sitemap files at "
        f"max_urls={max_urls:,}, more than one sitemap index may list; raise max_urls"
    )



class _ShardStream:
    """The urlset files being written, one after the other, into temporary files.

    Holds the open file, its URL count and byte size so far (end tag excluded), the
    text not yet written, and the newest entry in it.
    """

    def __init__(self, staged: StagedFiles, options: WriteOptions, url_total: int) -> None:
        self.staged, self.stem, self.gzip = staged, options.stem, options.gzip
        self.url_total, self.max_urls = url_total, options.max_urls
        # The most bytes a file may hold before its end tag.
        self.room = options.max_bytes - len(URLSET_END)
        self.shards: list[Shard] = []
        self.writer: TwinWriter | None = None
        self.pending: list[str] = []
        self.pending_bytes = 0
        self.count = self.max_urls  # "the current file is full": the first entry opens one
        self.size = 0
        self.newest: tuple[dt.datetime, str | None] | None = None  # its newest lastmod: key, text
        self.declared = 0  # the namespaces (``Item.extensions`` bits) its start declares
        self.used = 0  # those its entries use so far
        self.started = False  # its start is written out: ``declared`` is final
        self.keep_items = options.html_view  # the view's rows come from the items written

    def start(self, declared: int = 0) -> None:
        """Finish the current file, if any, and open the next, its start declaring the
        namespaces ``declared`` (bits of ``Item.extensions``), some perhaps for entries
        that may come: ``flush`` declares only those used if none has come by then.
        """
        self.finish()
        if len(self.shards) >= MAX_URLS:
            raise SitemapError(too_many_files(self.url_total, self.max_urls))
        label = f"{self.stem}-{len(self.shards) + 1}.xml"
        temp, handle = self.staged.new(label)
        gz_temp, gz_handle = self.staged.new(label + ".gz") if self.gzip else (None, None)
        self.writer = TwinWriter(handle, gz_handle)
        self.shards.append(Shard(temp, gz_temp))
        header = URLSET_STARTS[declared]
        self.pending = [header]
        self.pending_bytes = self.size = len(header)
        self.count = 0
        self.newest = None
        self.declared, self.used, self.started = declared, 0, False

    def add(self, rows: Sequence[Row], text: str, nbytes: int, extensions: int = 0) -> None:
        """Append ``rows``, serialised as ``text`` (``nbytes`` long; ``extensions``: the
        namespaces they use, which the start declares)."""
        if self.keep_items:
            self.shards[-1].items.extend(rows)
        self.used |= extensions
        self.pending.append(text)
        self.pending_bytes += nbytes
        self.size += nbytes
        self.count += len(rows)
        newest = max(filter(_KEY, rows), key=_KEY, default=None)  # the first of the newest
        if newest is not None:
            _, _, key, lastmod, _, _, _ = newest
            if key is not None and (self.newest is None or key > self.newest[0]):
                self.newest = key, lastmod
        if self.pending_bytes >= CHUNK_BYTES:
            self.flush()

    def fits(self, count: int, nbytes: int) -> bool:
        """Whether ``count`` rows of ``nbytes`` (no extension elements) fit the current
        file whole, or else a new plain one that takes them is started."""
        if self.count >= self.max_urls and len(URLSET_START) + nbytes <= self.room:
            self.start()
        return self.count + count <= self.max_urls and self.size + nbytes <= self.room

    def flush(self) -> None:
        if not self.started and self.writer is not None:
            if self.used != self.declared:
                # Declared for entries that have not come: the shorter start of those that did.
                self.pending[0] = URLSET_STARTS[self.used]
                self.size -= len(URLSET_STARTS[self.declared]) - len(URLSET_STARTS[self.used])
                self.declared = self.used
            self.started = True
        if self.writer is not None and self.pending:
            self.writer.write("".join(self.pending))
            self.pending = []
            self.pending_bytes = 0

    def finish(self) -> None:
        """Write the end tag and close the current file, if one is open."""
        if self.writer is None:
            return
        self.pending.append(URLSET_END)
        self.flush()
        writer, self.writer = self.writer, None
        writer.close()
        shard = self.shards[-1]
        shard.count = self.count
        shard.newest = None if self.newest is None else self.newest[1]

    def abandon(self) -> None:
        if self.writer is not None:
            self.writer.abandon()
            self.writer = None


_BLOCK = 2048  # rows serialised at a time: bounded memory, few calls
_KEY = itemgetter(2)  # a row's lastmod as a UTC datetime (None without one)


def write_shards(
    ordered: list[Row],
    staged: StagedFiles,
    options: WriteOptions,
    extensions: int,
    dropped: list[Dropped],
) -> list[Shard]:
    """Stream the sorted rows into temporary urlset files; return them in order.

    Rows are serialised a block at a time, a block never running past the current
    file's ``max_urls``. A block that fits the file whole, in a site without extension
    elements, is added in one piece; any other block is placed row by row.
    """
    max_urls = options.max_urls
    stream = _ShardStream(staged, options, len(ordered))
    # For each namespace some row uses, the positions of the rows that use it.
    users = {bit: [i for i, (*_, used, _) in enumerate(ordered) if used & bit]
             for bit in _EXTENSION_BITS if extensions & bit}
    try:
        first = 0
        while first < len(ordered):
            block = ordered[first : first + min(_BLOCK, max_urls - stream.count or max_urls)]
            records = [  # each row's <url> element, on a line of its own
                f"<url><loc>{loc_xml}</loc><lastmod>{lastmod}</lastmod>{rest}</url>\n"
                if lastmod is not None else f"<url><loc>{loc_xml}</loc>{rest}</url>\n"
                for _, loc_xml, _, lastmod, rest, _, _ in block
            ]
            text = "".join(records)
            nbytes = len(text) if text.isascii() else len(text.encode("utf-8"))
            if not extensions and stream.fits(len(block), nbytes):
                stream.add(block, text, nbytes)
            else:
                _place_one_by_one(stream, first, block, records, users, dropped)
            first += len(block)
        stream.finish()
    except BaseException:
        stream.abandon()
        raise
    return stream.shards


def _place_one_by_one(
    stream: _ShardStream,
    first: int,
    block: list[Row],
    records: list[str],
    users: dict[int, list[int]],
    dropped: list[Dropped],
) -> None:
    """Place a block row by row: it holds extension elements, or does not fit whole.

    ``users`` are, for each namespace, the positions (in the sorted rows) of the rows
    that use it. A file is started declaring a namespace when a row using it could fall
    into it (the next such row is fewer than ``max_urls`` rows ahead of the file's
    first), for good if its first row uses it, else provisionally (see the module
    docstring).
    """
    room, max_urls = stream.room, stream.max_urls
    for offset, row in enumerate(block):
        record = records[offset]
        nbytes = len(record) if record.isascii() else len(record.encode("utf-8"))
        *_, extensions, given = row
        if (
            stream.count >= max_urls
            or stream.size + nbytes > room
            or extensions & ~stream.declared
        ):
            declared = extensions
            position = first + offset
            for bit, positions in users.items():
                ahead = bisect_left(positions, position)
                if ahead < len(positions) and positions[ahead] - position < max_urls:
                    declared |= bit
            if len(URLSET_STARTS[declared]) + nbytes > room:
                dropped.append(
                    Dropped(
                        given,
                        f"too big for a sitemap file of max_bytes={room + len(URLSET_END):,} "
                        f"({nbytes:,} bytes)",
                    )
                )
                continue
            stream.start(declared)
        stream.add((row,), record, nbytes, extensions)
