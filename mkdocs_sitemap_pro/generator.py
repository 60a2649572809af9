"""Entries -> sitemap files: normalised, merged, sorted, split at the limits, indexed.

This is the pure core of the product; it knows nothing about MkDocs. ``write_sitemaps``
takes ``SitemapEntry`` values and writes the files into a folder:

1. *Collect*: each loc is normalised (``urls.normalise_loc``); a loc that is not http(s),
   not under the base URL or longer than 2,047 characters is dropped and reported. Field
   values are checked (a bad one raises ``SitemapError`` naming the loc: the caller
   validates beforehand, this is the last line of defence). A lastmod more than one day
   after the build time is dropped (the entry is kept). Entries with the same final loc
   merge into one: the one with the newest lastmod wins (ties are broken by the other
   fields, so the input order never matters).
2. *Write*: entries are sorted by loc (code point order) and streamed into hidden
   temporary files, one ``<urlset>`` after the other. A file takes entries while both
   its URL count and its exact UTF-8 size (declaration, root tags and every ``<url>``
   line included) stay within ``max_urls`` and ``max_bytes``; the next entry that would
   cross either starts a new file. An entry too big even for an empty file is dropped.
3. *Index*: one file and ``index="auto"``: that file is ``filename``. Otherwise
   ``filename`` is a ``<sitemapindex>`` listing ``<stem>-1.xml``, ``<stem>-2.xml``, …,
   each with the newest lastmod inside it. The index is bound by the protocol (50,000
   children, 52,428,800 bytes); past that, ``SitemapError`` and nothing is written.
4. *Commit*: only when every file is complete are they renamed into place, shards first,
   then the index. Any failure before removes every temporary file, so the previous
   files stay byte-identical.
5. *Clean up*: files listed by the previous index at ``filename`` (read before it is
   replaced), if that index is one this generator writes (it lists exactly
   ``<stem>-1.xml`` … ``<stem>-<k>.xml``), are removed with their ``.gz`` when the new
   tree does not hold them. With ``gzip=False``, a leftover ``<filename>.gz`` is
   removed too: it is the compressed twin of the entry file this function owns, and
   would otherwise advertise an outdated sitemap. Temporary files that a run killed
   while writing left behind (``.<name>.tmp-<hex>`` for the names above) are removed
   before writing. Nothing else is ever removed.

Output is byte-for-byte reproducible: the same entries give the same ``.xml`` and
``.xml.gz`` bytes (gzip header time 0, no file name, fixed level ``GZIP_LEVEL``).

``xhtml:link`` alternates: a ``<urlset>`` declares ``xmlns:xhtml`` when an entry with
alternates could fall into it, judged when the file is started (the next such entry is
fewer than ``max_urls`` entries ahead). So a file with alternates always declares the
namespace, a site without alternates never does, and rarely a file declares it without
using it (harmless). The declaration is counted in the file's bytes.
"""

from __future__ import annotations

import datetime as dt
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate, islice
from operator import eq, itemgetter
from pathlib import Path
from typing import cast, Literal, Optional, Union
from urllib.parse import SplitResult, urlsplit

from mkdocs_sitemap_pro.atomic import (
    CHUNK_BYTES,
    StagedFiles,
    TwinWriter,
    gzip_bytes,
    remove_leftovers,
)
from mkdocs_sitemap_pro.entry import SitemapEntry
from mkdocs_sitemap_pro.protocol import (
    CHANGEFREQS,
    LastmodFormat,
    SitemapError,
    check_lastmod,
    check_priority,
    format_lastmod,
    format_priority,
    utc_key,
)
from mkdocs_sitemap_pro.urls import normalise_loc, xml_escape

__all__ = ["Dropped", "WriteReport", "write_sitemaps", "SitemapError"]

UTC = dt.timezone.utc

MAX_LOC_LENGTH = 2047
PROTOCOL_MAX_URLS = 50_000
PROTOCOL_MAX_BYTES = 52_428_800
MIN_MAX_BYTES = 1024

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"
XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
URLSET_START = f'{XML_DECLARATION}<urlset xmlns="{SITEMAP_NS}">\n'
URLSET_START_XHTML = f'{XML_DECLARATION}<urlset xmlns="{SITEMAP_NS}" xmlns:xhtml="{XHTML_NS}">\n'
URLSET_END = "</urlset>\n"
INDEX_START = f'{XML_DECLARATION}<sitemapindex xmlns="{SITEMAP_NS}">\n'
INDEX_END = "</sitemapindex>\n"

_CHANGEFREQ_PARTS = {word: f"<changefreq>{word}</changefreq>" for word in CHANGEFREQS}
_HREFLANG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")
# "Thh:mm:" for each minute of a day and "ss+00:00</lastmod>" for each second: the
# time part of a UTC lastmod element by table lookup.
_TIME_TAGS = (
    tuple(f"T{h:02d}:{m:02d}:" for h in range(24) for m in range(60)),
    tuple(f"{s:02d}+00:00</lastmod>" for s in range(60)),
)
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True, slots=True)
class Dropped:
    """Something left out of the sitemap: the entry's loc (as given) and why."""

    loc: str
    reason: str


@dataclass(frozen=True, slots=True)
class WriteReport:
    """What ``write_sitemaps`` did.

    ``files`` are the ``.xml`` names written (relative to the output folder, the index
    first when there is one) and ``gz_files`` their ``.gz`` twins in the same order.
    ``dropped`` lists entries left out; ``dropped_lastmods`` entries kept without their
    lastmod (more than a day after the build time). ``duplicates`` are final locs given
    more than once and written once. ``removed`` are stale files deleted.
    """

    files: tuple[str, ...] = ()
    gz_files: tuple[str, ...] = ()
    url_count: int = 0
    is_index: bool = False
    dropped: tuple[Dropped, ...] = ()
    dropped_lastmods: tuple[Dropped, ...] = ()
    duplicates: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


# One collected entry: (normalised loc, the same entity-escaped for XML, UTC key of its
# lastmod or None, the checked lastmod or None, the text after </loc> inside <url>,
# whether it has alternates, the loc as given).
_Item = tuple[
    str, str, Optional[dt.datetime], Optional[Union[dt.date, dt.datetime]], str, bool, str
]


@dataclass(slots=True)
class _Shard:
    """A written temporary urlset and what the index needs to know about it."""

    temp: Path
    gz_temp: Path | None
    count: int
    newest: dt.date | dt.datetime | None


class _Base:
    """The base URL, normalised, and the rule for "a loc under it"."""

    def __init__(self, base_url: str) -> None:
        try:
            norm = normalise_loc(base_url)
            parts = urlsplit(norm)
            origin = _origin(parts)
        except ValueError as exc:
            raise ValueError(f"invalid base_url {base_url!r}: {exc}") from None
        if origin is None or not parts.hostname:
            raise ValueError(f"invalid base_url {base_url!r}: not an absolute http(s) URL")
        if parts.query or parts.fragment or "#" in norm:
            raise ValueError(f"invalid base_url {base_url!r}: has a query or fragment")
        self.url = norm if norm.endswith("/") else norm + "/"
        self.origin = origin
        self.path = parts.path if parts.path.endswith("/") else parts.path + "/"

    def reject_reason(self, loc: str) -> str | None:
        """Why a normalised loc is not under the base URL, or None if it is."""
        if loc.startswith(self.url):
            return None
        try:
            parts = urlsplit(loc)
            origin = _origin(parts)
        except ValueError:
            return "not a valid URL"
        if origin is None:
            return "not an absolute http(s) URL"
        path = parts.path
        if origin != self.origin or not (path.startswith(self.path) or path + "/" == self.path):
            return f"not under the base URL {self.url}"
        return None


def _origin(parts: SplitResult) -> tuple[str, str | None, str, int] | None:
    """(scheme, userinfo, host, port) with defaults filled in; None if not http(s)."""
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        return None
    userinfo = parts.netloc.rpartition("@")[0] if "@" in parts.netloc else None
    return scheme, userinfo, parts.hostname or "", parts.port or _DEFAULT_PORTS[scheme]


def _check_options(
    filename: str, max_urls: int, max_bytes: int, index: str, lastmod_format: str
) -> None:
    """ValueError naming the parameter for any option outside its range."""
    if (
        not isinstance(filename, str)
        or not filename.endswith(".xml")
        or len(filename) <= 4
        or filename.startswith(".")
        or any(c in filename for c in "/\\\0")
    ):
        raise ValueError(f"filename {filename!r}: expected a bare file name ending in .xml")
    if isinstance(max_urls, bool) or not isinstance(max_urls, int):
        raise ValueError(f"max_urls {max_urls!r}: expected an integer")
    if not 1 <= max_urls <= PROTOCOL_MAX_URLS:
        raise ValueError(f"max_urls {max_urls}: expected 1..{PROTOCOL_MAX_URLS:,}")
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int):
        raise ValueError(f"max_bytes {max_bytes!r}: expected an integer")
    if not MIN_MAX_BYTES <= max_bytes <= PROTOCOL_MAX_BYTES:
        raise ValueError(
            f"max_bytes {max_bytes}: expected {MIN_MAX_BYTES:,}..{PROTOCOL_MAX_BYTES:,}"
        )
    if index not in ("auto", "always"):
        raise ValueError(f"index {index!r}: expected 'auto' or 'always'")
    if lastmod_format not in ("datetime", "date"):
        raise ValueError(f"lastmod_format {lastmod_format!r}: expected 'datetime' or 'date'")


def write_sitemaps(
    entries: Iterable[SitemapEntry],
    out_dir: Path | str,
    base_url: str,
    *,
    filename: str = "sitemap.xml",
    max_urls: int = PROTOCOL_MAX_URLS,
    max_bytes: int = PROTOCOL_MAX_BYTES,
    index: Literal["auto", "always"] = "auto",
    gzip: bool = True,
    lastmod_format: LastmodFormat = "datetime",
    build_time: dt.datetime | None = None,
) -> WriteReport:
    """Write the sitemap files for ``entries`` into ``out_dir`` (see the module docstring).

    Raises ``ValueError`` for an option out of range, ``SitemapError`` for an invalid
    entry or more files than an index may list, and re-raises any ``OSError`` from
    writing after removing the temporary files.
    """
    _check_options(filename, max_urls, max_bytes, index, lastmod_format)
    if build_time is None:
        build_time = dt.datetime.now(UTC)
    elif build_time.tzinfo is None or build_time.utcoffset() is None:
        raise ValueError(f"build_time {build_time!r}: expected an aware datetime")
    base = _Base(base_url)
    folder = Path(out_dir)

    items, dropped, dropped_lastmods, any_alternates = _collect(
        entries, base, lastmod_format, build_time.astimezone(UTC) + dt.timedelta(days=1)
    )
    if not items:
        return WriteReport(
            dropped=tuple(dropped),
            dropped_lastmods=tuple(dropped_lastmods),
        )
    ordered, duplicates = _sort_and_merge(items)
    del items
    if -(-len(ordered) // max_urls) > PROTOCOL_MAX_URLS:
        raise SitemapError(_too_many_files(len(ordered), max_urls))

    folder.mkdir(parents=True, exist_ok=True)
    stem = filename[:-4]
    # Temporary files of a run that was killed while writing: ours, and never removed else.
    leftovers = remove_leftovers(
        folder, re.compile(re.escape(stem) + r"(?:-[1-9][0-9]*)?\.xml(?:\.gz)?(?:\.bak)?")
    )
    staged = StagedFiles(folder)
    try:
        shards = _write_shards(
            ordered, staged, stem, max_urls, max_bytes, gzip, any_alternates, dropped
        )
        if not shards:
            return WriteReport(
                dropped=tuple(dropped),
                dropped_lastmods=tuple(dropped_lastmods),
                duplicates=tuple(sorted(duplicates)),
            )
        is_index = len(shards) > 1 or index == "always"
        renames: list[tuple[Path, str]] = []
        if is_index:
            names = [f"{stem}-{n}.xml" for n in range(1, len(shards) + 1)]
            for shard, name in zip(shards, names):
                renames.append((shard.temp, name))
                if shard.gz_temp is not None:
                    renames.append((shard.gz_temp, name + ".gz"))
            renames += _write_index(shards, names, staged, filename, base, gzip, lastmod_format)
            files = [filename, *names]
        else:
            renames.append((shards[0].temp, filename))
            if shards[0].gz_temp is not None:
                renames.append((shards[0].gz_temp, filename + ".gz"))
            files = [filename]
        gz_files = [name + ".gz" for name in files] if gzip else []
        previous = _previously_listed(folder / filename, stem)
        staged.commit(renames)
    except BaseException:
        staged.discard()
        raise

    keep = set(files) | set(gz_files)
    stale = {name for n in previous for name in (f"{stem}-{n}.xml", f"{stem}-{n}.xml.gz")}
    if not gzip:
        stale.add(filename + ".gz")
    removed = leftovers
    for name in sorted(stale - keep):
        try:
            (folder / name).unlink()
        except FileNotFoundError:
            continue
        removed.append(name)

    return WriteReport(
        files=tuple(files),
        gz_files=tuple(gz_files),
        url_count=sum(shard.count for shard in shards),
        is_index=is_index,
        dropped=tuple(dropped),
        dropped_lastmods=tuple(dropped_lastmods),
        duplicates=tuple(sorted(duplicates)),
        removed=tuple(removed),
    )


def _too_many_files(url_count: int, max_urls: int) -> str:
    return (
        f"{url_count:,} URLs need more than {PROTOCOL_MAX_URLS:,} sitemap files at "
        f"max_urls={max_urls:,}, more than one sitemap index may list; raise max_urls"
    )


def _collect(
    entries: Iterable[SitemapEntry],
    base: _Base,
    lastmod_format: LastmodFormat,
    future_limit: dt.datetime,
) -> tuple[list[_Item], list[Dropped], list[Dropped], bool]:
    """Normalise and check the entries: the items to write, plus what was left out.

    This loop runs once per page (a million in the benchmark), so the common case (an
    already-escaped loc, a UTC datetime, no changefreq or priority) is kept free of
    function calls beyond the URL check.
    """
    items: list[_Item] = []
    append = items.append
    dropped: list[Dropped] = []
    dropped_lastmods: list[Dropped] = []
    any_alternates = False
    priority_cache: dict[float, str] = {}  # floats only: True == 1 and "0.5" != 0.5
    # "<lastmod>YYYY-MM-DD" per day seen; with _TIME_TAGS, a UTC datetime's element is
    # three lookups instead of a call to isoformat(). No cache per datetime value: with
    # distinct values (the usual case) hashing and storing them cost more than they save.
    day_tags: dict[int, str] = {}
    hour_minutes, seconds = _TIME_TAGS
    timezone_type = dt.timezone
    base_url = base.url
    changefreq_parts = _CHANGEFREQ_PARTS
    datetime_type = dt.datetime
    utc = UTC
    as_datetime = lastmod_format == "datetime"

    for entry in entries:
        raw = entry.loc
        try:
            loc = normalise_loc(raw)
        except (ValueError, TypeError, AttributeError) as exc:
            dropped.append(Dropped(str(raw), f"not a valid URL: {exc}"))
            continue
        if not loc.startswith(base_url):
            reason = base.reject_reason(loc)
            if reason is not None:
                dropped.append(Dropped(raw, reason))
                continue
        if len(loc) > MAX_LOC_LENGTH:
            dropped.append(
                Dropped(
                    raw,
                    f"longer than {MAX_LOC_LENGTH:,} characters after escaping ({len(loc):,})",
                )
            )
            continue

        value = entry.lastmod
        if value is None:
            key = None
            tail = ""
        else:
            zone = value.tzinfo if type(value) is datetime_type else None
            if zone is utc or type(zone) is timezone_type:
                # The common case, built from tables: 4x faster than isoformat().
                moment = cast(dt.datetime, value)  # type(value) is datetime, as checked
                try:
                    key = moment if zone is utc else moment.astimezone(utc)
                except OverflowError:
                    key, value, tail = _lastmod_parts(raw, value, lastmod_format)
                else:
                    day = day_tags.get(key.toordinal())
                    if day is None:
                        day = day_tags[key.toordinal()] = f"<lastmod>{key.date().isoformat()}"
                    if as_datetime:
                        minute = hour_minutes[key.hour * 60 + key.minute]
                        tail = f"{day}{minute}{seconds[key.second]}"
                    else:
                        tail = day + "</lastmod>"
            else:
                key, value, tail = _lastmod_parts(raw, value, lastmod_format)
            if key > future_limit:
                dropped_lastmods.append(
                    Dropped(raw, f"lastmod {tail[9:-10]} is more than one day after the build time")
                )
                key = value = None
                tail = ""

        changefreq = entry.changefreq
        if changefreq is not None:
            part = changefreq_parts.get(changefreq) if isinstance(changefreq, str) else None
            if part is None:
                raise SitemapError(f"sitemap entry {raw}: invalid changefreq {changefreq!r}")
            tail += part

        priority = entry.priority
        if priority is not None:
            part = priority_cache.get(priority) if type(priority) is float else None
            if part is None:
                try:
                    part = f"<priority>{format_priority(check_priority(priority))}</priority>"
                except ValueError as exc:
                    raise SitemapError(f"sitemap entry {raw}: {exc}") from None
                if type(priority) is float:
                    priority_cache[priority] = part
            tail += part

        has_alternates = bool(entry.alternates)
        if has_alternates:
            any_alternates = True
            tail += _alternates_part(raw, entry)

        loc_xml = xml_escape(loc) if ("&" in loc or "'" in loc) else loc
        append((loc, loc_xml, key, value, tail, has_alternates, raw))
    return items, dropped, dropped_lastmods, any_alternates


def _sort_and_merge(items: list[_Item]) -> tuple[list[_Item], set[str]]:
    """Sort by loc (code point order) and merge equal locs: the newest lastmod wins.

    Among equal lastmods the entry whose other fields sort last as text wins, so the
    result never depends on the order entries were given in. Equal locs end up
    adjacent; whether there are any is checked at C speed before the merging loop runs.
    """
    items.sort(key=itemgetter(0))
    locs = list(map(itemgetter(0), items))
    if not any(map(eq, locs, islice(locs, 1, None))):
        return items, set()
    duplicates: set[str] = set()
    merged = [items[0]]
    for item in islice(items, 1, None):
        last = merged[-1]
        if item[0] != last[0]:
            merged.append(item)
            continue
        duplicates.add(item[0])
        new_key, old_key = item[2], last[2]
        if new_key == old_key:  # both None, or the same instant: the larger text wins
            if item[4] > last[4]:
                merged[-1] = item
        elif new_key is not None and (old_key is None or new_key > old_key):
            merged[-1] = item
    return merged, duplicates


def _lastmod_parts(
    raw: str,
    lastmod: object,
    lastmod_format: LastmodFormat,
) -> tuple[dt.datetime, dt.date | dt.datetime, str]:
    """(UTC key, checked value, ``<lastmod>…</lastmod>``) of any lastmod; SitemapError if bad."""
    try:
        value = check_lastmod(lastmod)
    except ValueError as exc:
        raise SitemapError(f"sitemap entry {raw}: {exc}") from None
    return utc_key(value), value, f"<lastmod>{format_lastmod(value, lastmod_format)}</lastmod>"


def _alternates_part(raw: str, entry: SitemapEntry) -> str:
    """The ``xhtml:link`` elements of an entry's alternates."""
    parts = []
    for alternate in entry.alternates:
        hreflang = alternate.hreflang
        if not isinstance(hreflang, str) or not (
            _HREFLANG.fullmatch(hreflang) or hreflang == "x-default"
        ):
            raise SitemapError(f"sitemap entry {raw}: invalid hreflang {hreflang!r}")
        try:
            href = normalise_loc(alternate.href)
        except (ValueError, TypeError, AttributeError) as exc:
            raise SitemapError(f"sitemap entry {raw}: invalid alternate href: {exc}") from None
        parts.append(
            f'<xhtml:link rel="alternate" hreflang="{hreflang}" href="{xml_escape(href)}"/>'
        )
    return "".join(parts)


class _ShardStream:
    """The urlset files being written, one after the other, into temporary files.

    Holds the open file, its URL count and byte size so far (end tag excluded), the
    text not yet written, and the newest entry in it.
    """

    def __init__(self, staged: StagedFiles, stem: str, gzip: bool, url_total: int, max_urls: int):
        self.staged, self.stem, self.gzip = staged, stem, gzip
        self.url_total, self.max_urls = url_total, max_urls
        self.shards: list[_Shard] = []
        self.writer: TwinWriter | None = None
        self.pending: list[str] = []
        self.pending_bytes = 0
        self.count = max_urls  # "the current file is full": the first entry opens one
        self.size = 0
        self.newest: _Item | None = None

    def start(self, header: str) -> None:
        """Finish the current file, if any, and open the next with ``header``."""
        self.finish()
        if len(self.shards) >= PROTOCOL_MAX_URLS:
            raise SitemapError(_too_many_files(self.url_total, self.max_urls))
        label = f"{self.stem}-{len(self.shards) + 1}.xml"
        temp, handle = self.staged.new(label)
        gz_temp, gz_handle = self.staged.new(label + ".gz") if self.gzip else (None, None)
        self.writer = TwinWriter(handle, gz_handle)
        self.shards.append(_Shard(temp, gz_temp, 0, None))
        self.pending = [header]
        self.pending_bytes = self.size = len(header)
        self.count = 0
        self.newest = None

    def add(self, text: str, nbytes: int, count: int, newest: _Item | None) -> None:
        """Append ``count`` serialised entries, ``nbytes`` long, whose newest is ``newest``."""
        self.pending.append(text)
        self.pending_bytes += nbytes
        self.size += nbytes
        self.count += count
        if newest is not None and (self.newest is None or _later(newest, self.newest)):
            self.newest = newest
        if self.pending_bytes >= CHUNK_BYTES:
            self.flush()

    def flush(self) -> None:
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
        shard.newest = None if self.newest is None else self.newest[3]

    def abandon(self) -> None:
        if self.writer is not None:
            self.writer.abandon()
            self.writer = None


def _later(item: _Item, than: _Item) -> bool:
    """Whether ``item``'s lastmod is strictly newer than ``than``'s (both dated)."""
    return item[2] is not None and than[2] is not None and item[2] > than[2]


_BLOCK = 8192  # entries serialised at a time: bounded memory, C-speed list operations
_newest_of = itemgetter(2)


def _write_shards(
    ordered: list[_Item],
    staged: StagedFiles,
    stem: str,
    max_urls: int,
    max_bytes: int,
    gzip: bool,
    any_alternates: bool,
    dropped: list[Dropped],
) -> list[_Shard]:
    """Stream the sorted entries into temporary urlset files; return them in order.

    Entries are serialised a block at a time. In the usual block (no alternates, no
    entry too big for an empty file) the cut points come from running byte totals by
    bisection, and the text goes out in joined slices, so the per-entry work is a list
    comprehension. Any other block is placed entry by entry.
    """
    stream = _ShardStream(staged, stem, gzip, len(ordered), max_urls)
    alternates = [i for i, item in enumerate(ordered) if item[5]] if any_alternates else []
    room = max_bytes - len(URLSET_END)  # the most bytes a file may hold before its end tag
    plain_room = room - len(URLSET_START)  # the most one entry may take in a plain file
    try:
        for first in range(0, len(ordered), _BLOCK):
            block = ordered[first : first + _BLOCK]
            records = [f"<url><loc>{item[1]}</loc>{item[4]}</url>\n" for item in block]
            if "".join(records).isascii():
                sizes = list(map(len, records))
            else:
                sizes = [len(record.encode("utf-8")) for record in records]
            if any_alternates or max(sizes) > plain_room:
                _place_one_by_one(
                    stream, first, block, records, sizes, room, max_urls, alternates, dropped
                )
                continue
            totals = list(accumulate(sizes, initial=0))
            i, end = 0, len(block)
            while i < end:
                if stream.count >= max_urls or stream.size + sizes[i] > room:
                    stream.start(URLSET_START)
                last = min(end, i + max_urls - stream.count)
                j = bisect_right(totals, totals[i] + room - stream.size, i, last + 1) - 1
                assert j > i  # entry i fits: checked just above
                dated = list(filter(_newest_of, block[i:j]))
                stream.add(
                    "".join(records[i:j]),
                    totals[j] - totals[i],
                    j - i,
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
    block: list[_Item],
    records: list[str],
    sizes: list[int],
    room: int,
    max_urls: int,
    alternates: list[int],
    dropped: list[Dropped],
) -> None:
    """Place a block entry by entry: it holds alternates or an entry too big to fit.

    ``alternates`` are the positions (in the sorted entries) of entries with alternates.
    A file declares ``xmlns:xhtml`` when one could fall into it: the next such entry is
    fewer than ``max_urls`` entries ahead of the file's first.
    """
    for offset, item in enumerate(block):
        nbytes = sizes[offset]
        if stream.count >= max_urls or stream.size + nbytes > room:
            header = URLSET_START
            position = first + offset
            ahead = bisect_left(alternates, position)
            if ahead < len(alternates) and alternates[ahead] - position < max_urls:
                header = URLSET_START_XHTML
            if len(header) + nbytes > room:
                dropped.append(
                    Dropped(
                        item[6],
                        f"too big for a sitemap file of max_bytes={room + len(URLSET_END):,} "
                        f"({nbytes:,} bytes)",
                    )
                )
                continue
            stream.start(header)
        stream.add(records[offset], nbytes, 1, item if item[2] is not None else None)


def _write_index(
    shards: list[_Shard],
    names: list[str],
    staged: StagedFiles,
    filename: str,
    base: _Base,
    gzip: bool,
    lastmod_format: LastmodFormat,
) -> list[tuple[Path, str]]:
    """Write the index (and its ``.gz``, listing the ``.gz`` shards) to temporary files."""
    variants = [("", filename)] + ([(".gz", filename + ".gz")] if gzip else [])
    renames = []
    for suffix, final in variants:
        lines = [INDEX_START]
        for shard, name in zip(shards, names):
            loc = base.url + name + suffix
            if len(loc) > MAX_LOC_LENGTH:
                raise SitemapError(
                    f"sitemap file URL {loc} is longer than {MAX_LOC_LENGTH:,} characters"
                )
            lastmod = (
                ""
                if shard.newest is None
                else f"<lastmod>{format_lastmod(shard.newest, lastmod_format)}</lastmod>"
            )
            lines.append(f"<sitemap><loc>{xml_escape(loc)}</loc>{lastmod}</sitemap>\n")
        lines.append(INDEX_END)
        data = "".join(lines).encode("utf-8")
        if len(data) > PROTOCOL_MAX_BYTES:
            raise SitemapError(
                f"the sitemap index would be {len(data):,} bytes, more than the protocol's "
                f"{PROTOCOL_MAX_BYTES:,}; raise max_urls or max_bytes"
            )
        if suffix:
            data = gzip_bytes(data)
        temp, handle = staged.new(final)
        with handle:
            handle.write(data)
        renames.append((temp, final))
    # The .gz index goes into place before the .xml index, which is read as "the index".
    return renames[::-1]


_LOC_TEXT = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?loc\b[^>]*>\s*([^<]*?)\s*(?:<|\Z)")


def _previously_listed(index_path: Path, stem: str) -> set[int]:
    """Shard numbers of the previous index at ``index_path``, if this generator wrote it.

    Tolerant: a missing, unreadable or non-index file lists nothing, and the file is
    scanned with a regular expression, so a truncated or malformed index still counts.
    Cautious: the index counts as ours only if every file it lists is named
    ``<stem>-1.xml`` … ``<stem>-<k>.xml`` (or ``.xml.gz``), numbered 1..k without gaps,
    as this generator writes them. A hand-made index listing ``sitemap-2023.xml`` is
    not ours, so nothing it lists is removed.
    """
    try:
        data = index_path.read_bytes()
    except OSError:
        return set()
    if b"sitemapindex" not in data:
        return set()
    pattern = re.compile(re.escape(stem) + r"-([1-9][0-9]{0,8})\.xml(?:\.gz)?")
    numbers = set()
    for match in _LOC_TEXT.finditer(data):
        loc = match.group(1).decode("utf-8", "replace").replace("&amp;", "&")
        found = pattern.fullmatch(loc.rsplit("/", 1)[-1])
        if found is None:
            return set()
        numbers.add(int(found.group(1)))
    if numbers != set(range(1, len(numbers) + 1)):
        return set()
    return numbers
