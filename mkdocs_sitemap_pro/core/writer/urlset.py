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

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import accumulate
from operator import attrgetter
from pathlib import Path

from mkdocs_sitemap_pro.core.atomic import CHUNK_BYTES, StagedFiles, TwinWriter
from mkdocs_sitemap_pro.core.protocol import (
    IMAGE_NS,
    MAX_URLS,
    SITEMAP_NS,
    XHTML_NS,
    SitemapError,
)
from mkdocs_sitemap_pro.core.writer.items import ALTERNATES, IMAGES, Dropped, Item
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
        self.items: list[Item] = []  # what it holds, kept for html_view



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
        self.newest: Item | None = None
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

    def add(
        self, items: Sequence[Item], text: str, nbytes: int, newest: Item | None,
        extensions: int = 0,
    ) -> None:
        """Append ``items``, serialised as ``text`` (``nbytes`` long), whose newest is
        ``newest`` (``extensions``: the namespaces they use, which the start declares)."""
        count = len(items)
        if self.keep_items:
            self.shards[-1].items.extend(items)
        self.used |= extensions
        self.pending.append(text)
        self.pending_bytes += nbytes
        self.size += nbytes
        self.count += count
        if newest is not None and (self.newest is None or _later(newest, self.newest)):
            self.newest = newest
        if self.pending_bytes >= CHUNK_BYTES:
            self.flush()

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
        shard.newest = None if self.newest is None else self.newest.lastmod

    def abandon(self) -> None:
        if self.writer is not None:
            self.writer.abandon()
            self.writer = None


def _later(item: Item, than: Item) -> bool:
    """Whether ``item``'s lastmod is strictly newer than ``than``'s (both dated)."""
    return item.key is not None and than.key is not None and item.key > than.key


_BLOCK = 2048  # entries serialised at a time: bounded memory, C-speed list operations
_newest_of = attrgetter("key")


def write_shards(
    ordered: list[Item],
    staged: StagedFiles,
    options: WriteOptions,
    extensions: int,
    dropped: list[Dropped],
) -> list[Shard]:
    """Stream the sorted entries into temporary urlset files; return them in order.

    Entries are serialised a block at a time. In the usual block (no alternates, no
    entry too big for an empty file) the cut points come from running byte totals by
    bisection, and the text goes out in joined slices, so the per-entry work is a list
    comprehension. Any other block is placed entry by entry.
    """
    max_urls = options.max_urls
    stream = _ShardStream(staged, options, len(ordered))
    # For each namespace some entry uses, the positions of the entries that use it.
    users = {bit: [i for i, item in enumerate(ordered) if item.extensions & bit]
             for bit in _EXTENSION_BITS if extensions & bit}
    room = stream.room
    plain_room = room - len(URLSET_START)  # the most one entry may take in a plain file
    try:
        for first in range(0, len(ordered), _BLOCK):
            block = ordered[first : first + _BLOCK]
            # Each item's <url> element, on a line of its own.
            records = [
                (f"<url><loc>{item.loc_xml}</loc><lastmod>{item.lastmod}</lastmod>"
                 f"{item.rest}</url>\n") if item.lastmod is not None
                else f"<url><loc>{item.loc_xml}</loc>{item.rest}</url>\n"
                for item in block
            ]
            if "".join(records).isascii():
                sizes = list(map(len, records))
            else:
                sizes = [len(record.encode("utf-8")) for record in records]
            if extensions or max(sizes) > plain_room:
                _place_one_by_one(stream, first, block, records, sizes, users, dropped)
                continue
            totals = list(accumulate(sizes, initial=0))
            i, end = 0, len(block)
            while i < end:
                if stream.count >= max_urls or stream.size + sizes[i] > room:
                    stream.start()
                last = min(end, i + max_urls - stream.count)
                j = bisect_right(totals, totals[i] + room - stream.size, i, last + 1) - 1
                assert j > i  # entry i fits: checked just above
                dated = list(filter(_newest_of, block[i:j]))
                stream.add(
                    block[i:j],
                    "".join(records[i:j]),
                    totals[j] - totals[i],
                    max(dated, key=_newest_of) if dated else None,
                )
                i = j
        stream.finish()
    except BaseException:
        stream.abandon()
        raise
    return stream.shards


def _place_one_by_one(
    stream: _ShardStream,
    first: int,
    block: list[Item],
    records: list[str],
    sizes: list[int],
    users: dict[int, list[int]],
    dropped: list[Dropped],
) -> None:
    """Place a block entry by entry: it holds extension elements or an entry too big to fit.

    ``users`` are, for each namespace, the positions (in the sorted entries) of the
    entries that use it. A file is started declaring a namespace when an entry using it
    could fall into it (the next such entry is fewer than ``max_urls`` entries ahead of
    the file's first), for good if its first entry uses it, else provisionally (see the
    module docstring).
    """
    room, max_urls = stream.room, stream.max_urls
    for offset, item in enumerate(block):
        nbytes = sizes[offset]
        extensions = item.extensions
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
                        item.given,
                        f"too big for a sitemap file of max_bytes={room + len(URLSET_END):,} "
                        f"({nbytes:,} bytes)",
                    )
                )
                continue
            stream.start(declared)
        stream.add(
            (item,), records[offset], nbytes, item if item.key is not None else None,
            extensions,
        )


