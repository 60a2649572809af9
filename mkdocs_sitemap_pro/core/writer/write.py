"""Entries -> sitemap files: the ``write_sitemaps`` pipeline.

It knows nothing about MkDocs. ``write_sitemaps`` takes ``SitemapEntry`` values and
writes the files into a folder as one ``WriteOptions`` value says, in five steps:

1. *Collect* (``items``): normalise, check, escape; merge equal locs.
2. *Write* (``urlset``): sorted by loc (code point order), streamed into hidden temporary
   files, split at ``max_urls`` and ``max_bytes``.
3. *Index* (``index``): one file and ``index="auto"``: that file is ``filename``.
   Otherwise ``filename`` is a ``<sitemapindex>`` listing ``<stem>-1.xml`` … .
4. *Commit* (``atomic``): only when every file is complete are they renamed into place,
   shards first, then the index. Any failure before removes every temporary file, and a
   failed rename puts back what it replaced, so the previous files stay byte-identical.
   With ``html_view``, each file's page for people (``html_view``: ``<stem>.html``,
   ``<stem>-<n>.html``) is staged from the staged XML and renamed in the same commit.
5. *Clean up*: files listed by the previous index at ``filename`` (read before it is
   replaced, see ``index.previously_listed``) are removed with their ``.gz`` when the
   new tree does not hold them. With ``gzip=False``, a leftover ``<filename>.gz`` is
   removed too: it is the compressed twin of the entry file this function owns, and
   would otherwise advertise an outdated sitemap. View pages of ours (they carry a
   generator mark) that the new tree does not have are removed. Temporary files that a killed run
   left behind are removed before writing. Nothing else is ever removed.

With ``feed`` (``FeedSettings``), ``<stem>.atom`` (``feed``: the newest of the items
written, by their lastmod) is staged and renamed in the same commit, and the view pages
link to it; a feed of ours that the new tree does not have is removed.

Output is byte-for-byte reproducible: the same entries give the same ``.xml`` and
``.xml.gz`` bytes (gzip header time 0, no file name, fixed level ``GZIP_LEVEL``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.atomic import StagedFiles, remove_leftovers
from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.protocol import MAX_URLS, UTC, LastmodTexts, SitemapError
from mkdocs_sitemap_pro.core.urls import SiteUrl
from mkdocs_sitemap_pro.core.writer.feed import feed_name, remove_stale_feed, stage_feed
from mkdocs_sitemap_pro.core.writer.html_view import ViewFile, remove_stale_views, stage_views
from mkdocs_sitemap_pro.core.writer.index import previously_listed, write_index
from mkdocs_sitemap_pro.core.writer.items import Dropped, Item, Row, collect, sort_and_merge
from mkdocs_sitemap_pro.core.writer.options import WriteOptions
from mkdocs_sitemap_pro.core.writer.urlset import Shard, too_many_files, write_shards

__all__ = ["WriteReport", "write_sitemaps"]


class WriteReport(NamedTuple):
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
    html_files: tuple[str, ...] = ()  # view pages written (``html_view``)
    html_refused: tuple[str, ...] = ()  # view names taken by the site's own files
    feed_files: tuple[str, ...] = ()  # the Atom feed written (``feed``), if one was
    feed_refused: tuple[str, ...] = ()  # its name, when taken by the site's own file


def write_sitemaps(
    entries: Iterable[SitemapEntry],
    out_dir: Path | str,
    base_url: str,
    options: WriteOptions = WriteOptions(),
    titles: Mapping[str, str] | None = None,
) -> WriteReport:
    """Write the sitemap files for ``entries`` into ``out_dir`` (see the module docstring),
    as ``options`` say (``WriteOptions``; by default ``sitemap.xml`` and its ``.gz``).
    ``titles``: pages' titles by their loc as given, shown beside the URLs on the pages
    for people (``html_view``), never written into the XML.

    Raises ``ValueError`` for a ``base_url`` that cannot be a site URL, ``SitemapError``
    for an invalid entry or more files than an index may list, and re-raises any
    ``OSError`` from writing after removing the temporary files.
    """
    try:
        site = SiteUrl(base_url)
    except ValueError as error:
        raise ValueError(f"base_url: {error}") from None
    folder = Path(out_dir)
    # Temporary files of a run that was killed while writing: ours, and never removed
    # else. First, so that a run that stops on an error below removes them too.
    leftovers = remove_leftovers(folder, _temporaries(options.stem))

    texts = options.lastmod_texts or LastmodTexts(options.lastmod_format)
    collected = collect(entries, site, texts, options.build_time or dt.datetime.now(UTC))
    dropped = collected.dropped
    report = WriteReport(dropped_lastmods=tuple(collected.dropped_lastmods))
    if not collected.rows:
        return report._replace(dropped=tuple(dropped))
    ordered, duplicates = sort_and_merge(collected.rows)
    report = report._replace(duplicates=tuple(sorted(duplicates)))
    extensions = collected.extensions
    del collected  # the sorted list is all that is needed from here
    if -(-len(ordered) // options.max_urls) > MAX_URLS:
        raise SitemapError(too_many_files(len(ordered), options.max_urls))

    folder.mkdir(parents=True, exist_ok=True)
    staged = StagedFiles(folder)
    try:
        shards = write_shards(ordered, staged, options, extensions, dropped)
        if not shards:
            return report._replace(dropped=tuple(dropped))
        files, renames = _stage_sitemaps(shards, staged, site, options)
        beside = _stage_beside(folder, staged, site, options, ordered, dropped, shards, files,
                               titles)
        previous = previously_listed(folder / options.filename, options.stem)
        staged.commit(beside.renames + renames)
    except BaseException:
        staged.discard()
        raise

    gz_files = [name + ".gz" for name in files] if options.gzip else []
    keep = {*files, *gz_files, *beside.html_files, *beside.feed_files}
    removed = leftovers + _remove_stale(folder, options, previous, keep)
    return report._replace(
        files=tuple(files),
        gz_files=tuple(gz_files),
        url_count=sum(shard.count for shard in shards),
        is_index=len(files) > 1,
        dropped=tuple(dropped),
        removed=tuple(removed),
        html_files=beside.html_files,
        html_refused=beside.html_refused,
        feed_files=beside.feed_files,
        feed_refused=beside.feed_refused,
    )


def _temporaries(stem: str) -> re.Pattern[str]:
    """The labels of the temporary files a run writes (see ``atomic.remove_leftovers``)."""
    return re.compile(re.escape(stem) + (
        r"(?:(?:-[1-9][0-9]*)?(?:-page-[1-9][0-9]*)?\.(?:xml(?:\.gz)?|html|atom)(?:\.bak)?"
        r"|\.manifest\.json)"))


def _stage_sitemaps(
    shards: list[Shard], staged: StagedFiles, site: SiteUrl, options: WriteOptions
) -> tuple[list[str], list[tuple[Path, str]]]:
    """The ``.xml`` names (the index first, if there is one) and the renames, in commit
    order, of the shards and the index: ``filename`` itself when one file is enough."""
    filename = options.filename
    if len(shards) == 1 and options.index == "auto":
        names = [filename]
    else:
        names = [f"{options.stem}-{n}.xml" for n in range(1, len(shards) + 1)]
    renames: list[tuple[Path, str]] = []
    for shard, name in zip(shards, names):
        renames.append((shard.temp, name))
        if shard.gz_temp is not None:
            renames.append((shard.gz_temp, name + ".gz"))
    if names[0] == filename:
        return names, renames
    return [filename, *names], renames + write_index(shards, names, staged, site, options)


class _Beside(NamedTuple):
    """What is staged beside the sitemap files: the view pages and the feed."""

    renames: list[tuple[Path, str]]
    html_files: tuple[str, ...]
    html_refused: tuple[str, ...]
    feed_files: tuple[str, ...]
    feed_refused: tuple[str, ...]


def _stage_beside(
    folder: Path,
    staged: StagedFiles,
    site: SiteUrl,
    options: WriteOptions,
    ordered: list[Row],
    dropped: list[Dropped],
    shards: list[Shard],
    files: list[str],
    titles: Mapping[str, str] | None,
) -> _Beside:
    """Stage the feed (``feed``) and the view pages (``html_view``) of the written tree;
    ``files`` are its ``.xml`` names, the index first if there is one."""
    renames: list[tuple[Path, str]] = []
    feed_file: str | None = None
    feed_refused = False
    if options.feed is not None:
        left_out = {d.loc for d in dropped}  # too big for a file: not written
        written = (item for item in map(Item._make, ordered)
                   if not left_out or item.given not in left_out)
        renames, feed_file, feed_refused = stage_feed(
            folder, staged, written, options.stem, site, options.feed)
    html_files: list[str] = []
    refused: list[str] = []
    if options.html_view:
        index_name = files[0] if len(files) > 1 else None
        views = [ViewFile(list(map(Item._make, shard.items)), name, shard.count, shard.newest)
                 for shard, name in zip(shards, files[1:] if index_name else files)]
        view_renames, html_files, refused = stage_views(
            folder, staged, views, index_name, options.title, site.url, feed_file, titles)
        renames = view_renames + renames
    return _Beside(
        renames,
        tuple(html_files),
        tuple(refused),
        (feed_file,) if feed_file is not None else (),
        (feed_name(options.stem),) if feed_refused else (),
    )


def _remove_stale(
    folder: Path, options: WriteOptions, previous: set[int], keep: set[str]
) -> list[str]:
    """Remove what the new tree no longer has: the shards the previous index listed (with
    their ``.gz``), ``<filename>.gz`` without ``gzip``, our view pages and our feed."""
    stem = options.stem
    stale = {name for n in previous for name in (f"{stem}-{n}.xml", f"{stem}-{n}.xml.gz")}
    if not options.gzip:
        stale.add(options.filename + ".gz")
    removed = []
    for name in sorted(stale - keep):
        try:
            (folder / name).unlink()
        except FileNotFoundError:
            continue
        removed.append(name)
    return removed + remove_stale_views(folder, stem, keep) + remove_stale_feed(folder, stem, keep)
