"""Entries -> sitemap files: the ``write_sitemaps`` pipeline.

It knows nothing about MkDocs. ``write_sitemaps`` takes ``SitemapEntry`` values and
writes the files into a folder, in five steps:

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
from typing import Literal, NamedTuple

from mkdocs_sitemap_pro.core.atomic import StagedFiles, remove_leftovers
from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.protocol import (
    MAX_BYTES,
    MAX_URLS,
    UTC,
    LastmodFormat,
    LastmodTexts,
    SitemapError,
)
from mkdocs_sitemap_pro.core.urls import SiteUrl
from mkdocs_sitemap_pro.core.writer.feed import (
    FeedSettings,
    feed_name,
    remove_stale_feed,
    stage_feed,
)
from mkdocs_sitemap_pro.core.writer.html_view import ViewFile, remove_stale_views, stage_views
from mkdocs_sitemap_pro.core.writer.index import previously_listed, write_index
from mkdocs_sitemap_pro.core.writer.items import Dropped, collect, sort_and_merge
from mkdocs_sitemap_pro.core.writer.options import WriteOptions
from mkdocs_sitemap_pro.core.writer.urlset import too_many_files, write_shards

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
    *,
    filename: str = "sitemap.xml",
    max_urls: int = MAX_URLS,
    max_bytes: int = MAX_BYTES,
    index: Literal["auto", "always"] = "auto",
    gzip: bool = True,
    lastmod_format: LastmodFormat = "datetime",
    build_time: dt.datetime | None = None,
    html_view: bool = False,
    title: str = "",
    feed: FeedSettings | None = None,
    lastmod_texts: LastmodTexts | None = None,
    titles: Mapping[str, str] | None = None,
) -> WriteReport:
    """Write the sitemap files for ``entries`` into ``out_dir`` (see the module docstring).

    ``lastmod_texts``: the maker of the ``<lastmod>`` texts, in ``lastmod_format``: a
    build's, so that the text a page was given as it rendered is the one written for it;
    None: one of its own. ``titles``: pages' titles by their loc as given, shown beside
    the URLs on the pages for people (``html_view``), never written into the XML.

    Raises ``ValueError`` for an option out of range, ``SitemapError`` for an invalid
    entry or more files than an index may list, and re-raises any ``OSError`` from
    writing after removing the temporary files.
    """
    options = WriteOptions(
        filename, max_urls, max_bytes, index, gzip, lastmod_format, html_view, title
    )
    if lastmod_texts is None:
        lastmod_texts = LastmodTexts(lastmod_format)
    elif lastmod_texts.format != lastmod_format:
        raise ValueError(f"lastmod_texts make {lastmod_texts.format!r} texts, "
                         f"but lastmod_format is {lastmod_format!r}")
    if build_time is None:
        build_time = dt.datetime.now(UTC)
    elif build_time.tzinfo is None or build_time.utcoffset() is None:
        raise ValueError(f"build_time {build_time!r}: expected an aware datetime")
    try:
        site = SiteUrl(base_url)
    except ValueError as error:
        raise ValueError(f"base_url: {error}") from None
    folder = Path(out_dir)
    # Temporary files of a run that was killed while writing: ours, and never removed
    # else. First, so that a run that stops on an error below removes them too.
    ours = re.escape(options.stem) + (
        r"(?:(?:-[1-9][0-9]*)?(?:-page-[1-9][0-9]*)?\.(?:xml(?:\.gz)?|html|atom)(?:\.bak)?"
        r"|\.manifest\.json)")
    leftovers = remove_leftovers(folder, re.compile(ours))

    collected = collect(entries, site, lastmod_texts, build_time)
    dropped, dropped_lastmods = collected.dropped, collected.dropped_lastmods
    if not collected.items:
        return WriteReport(
            dropped=tuple(dropped),
            dropped_lastmods=tuple(dropped_lastmods),
        )
    ordered, duplicates = sort_and_merge(collected.items)
    any_alternates = collected.any_alternates
    del collected  # the sorted list is all that is needed from here
    if -(-len(ordered) // max_urls) > MAX_URLS:
        raise SitemapError(too_many_files(len(ordered), max_urls))

    folder.mkdir(parents=True, exist_ok=True)
    stem = options.stem
    staged = StagedFiles(folder)
    try:
        shards = write_shards(ordered, staged, options, any_alternates, dropped)
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
            renames += write_index(shards, names, staged, site, options)
            files = [filename, *names]
        else:
            renames.append((shards[0].temp, filename))
            if shards[0].gz_temp is not None:
                renames.append((shards[0].gz_temp, filename + ".gz"))
            files = [filename]
        gz_files = [name + ".gz" for name in files] if gzip else []
        html_files: list[str] = []
        refused: list[str] = []
        feed_file: str | None = None
        feed_refused = False
        if feed is not None:
            left_out = {d.loc for d in dropped}  # too big for a file: not written
            written = (item for item in ordered if not left_out or item.given not in left_out)
            feed_renames, feed_file, feed_refused = stage_feed(
                folder, staged, written, stem, site, feed)
            renames = feed_renames + renames
        if html_view:
            views = [ViewFile(shard.items, name, shard.count, shard.newest)
                     for shard, name in zip(shards, files[1:] if is_index else files)]
            view_renames, html_files, refused = stage_views(
                folder, staged, views, filename if is_index else None, title, site.url,
                feed_file, titles,
            )
            renames = view_renames + renames
        previous = previously_listed(folder / filename, stem)
        staged.commit(renames)
    except BaseException:
        staged.discard()
        raise

    feed_files = (feed_file,) if feed_file is not None else ()
    keep = set(files) | set(gz_files) | set(html_files) | set(feed_files)
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
    removed += remove_stale_views(folder, stem, keep)
    removed += remove_stale_feed(folder, stem, keep)

    return WriteReport(
        files=tuple(files),
        gz_files=tuple(gz_files),
        url_count=sum(shard.count for shard in shards),
        is_index=is_index,
        dropped=tuple(dropped),
        dropped_lastmods=tuple(dropped_lastmods),
        duplicates=tuple(sorted(duplicates)),
        removed=tuple(removed),
        html_files=tuple(html_files),
        html_refused=tuple(refused),
        feed_files=feed_files,
        feed_refused=(feed_name(stem),) if feed_refused else (),
    )

