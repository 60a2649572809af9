"""The last sitemap tree written, so a rebuild that would write the same bytes writes nothing.

Under ``mkdocs serve --dirty`` most saves change no URL and no git date (an uncommitted
edit never does), and the site folder is kept between rebuilds: writing, gzipping and
reading back the same files again is most of what the plugin would cost. ``write_once``
calls the writer only when its input (every entry and option) differs from the last
write's, or a file that write left is gone or changed on disk (its size, mtime, inode).
A write that dropped a lastmod for being in the future is never reused (the build time
it was judged against has moved on).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.writer import WriteReport, write_sitemaps
from mkdocs_sitemap_pro.core.stamps import Stamp, file_stamp

__all__ = ["KeptOutput", "write_once"]


class KeptOutput:
    """The input, report and file stamps of the last write (one site folder)."""

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._report: WriteReport | None = None
        self._stamps: dict[str, Stamp | None] = {}

    def recall(self, key: tuple[Any, ...], folder: Path) -> WriteReport | None:
        if self._key != key or self._report is None:
            return None
        if any(file_stamp(folder / name) != stamp for name, stamp in self._stamps.items()):
            return None
        return self._report._replace(removed=())

    def keep(self, key: tuple[Any, ...], folder: Path, report: WriteReport) -> None:
        reusable = not report.dropped_lastmods and report.url_count > 0
        self._key = key if reusable else None
        self._report = report
        names = (*report.files, *report.gz_files, *report.html_files, *report.feed_files)
        self._stamps = {name: file_stamp(folder / name) for name in names}

    def clear(self) -> None:
        self._key, self._report, self._stamps = None, None, {}


def write_once(
    kept: KeptOutput | None,
    entries: Sequence[SitemapEntry],
    out_dir: str,
    base_url: str,
    **options: Any,
) -> WriteReport:
    """``write_sitemaps``, skipped when ``kept`` says the same files are already written."""
    if kept is None:
        return write_sitemaps(entries, out_dir, base_url, **options)
    folder = Path(out_dir)
    fixed = tuple(sorted((k, v) for k, v in options.items() if k != "build_time"))
    key = (tuple(entries), os.path.abspath(out_dir), base_url, fixed)
    report = kept.recall(key, folder)
    if report is None:
        report = write_sitemaps(entries, out_dir, base_url, **options)
        kept.keep(key, folder, report)
    return report
