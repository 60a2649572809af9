"""The writer's options, checked once, as one immutable value passed down the pipeline."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from mkdocs_sitemap_pro.core.protocol import (
    MAX_BYTES,
    MAX_URLS,
    MIN_BYTES,
    LastmodFormat,
    LastmodTexts,
    check_filename,
    check_limit,
)
from mkdocs_sitemap_pro.core.writer.feed import FeedSettings

__all__ = ["WriteOptions"]


@dataclass(frozen=True)
class WriteOptions:
    """How ``write_sitemaps`` writes: how it splits, names and dates the files, and
    what it writes beside them. The defaults write ``sitemap.xml`` and its ``.gz``.

    ``build_time``: an aware datetime, the limit a lastmod may not pass by more than a
    day; None: the time of the write. ``lastmod_texts``: the maker of the ``<lastmod>``
    texts, in ``lastmod_format`` (a build's, so that the text a page was given as it
    rendered is the one written for it); None: one of the writer's own. ``feed``: also
    write ``<stem>.atom`` (``FeedSettings``).

    Construction checks every field by the protocol's rules and raises ``ValueError``
    naming the field, so a bad option fails before any file is touched.
    """

    filename: str = "sitemap.xml"
    max_urls: int = MAX_URLS
    max_bytes: int = MAX_BYTES
    index: Literal["auto", "always"] = "auto"
    gzip: bool = True
    lastmod_format: LastmodFormat = "datetime"
    html_view: bool = False  # also write a page for people beside each file
    title: str = ""  # the site's name, shown on those pages
    build_time: dt.datetime | None = None
    feed: FeedSettings | None = None
    lastmod_texts: LastmodTexts | None = None

    def __post_init__(self) -> None:
        checks = (
            ("filename", lambda: check_filename(self.filename)),
            ("max_urls", lambda: check_limit(self.max_urls, 1, MAX_URLS)),
            ("max_bytes", lambda: check_limit(self.max_bytes, MIN_BYTES, MAX_BYTES)),
        )
        for name, check in checks:
            try:
                check()
            except ValueError as error:
                raise ValueError(f"{name}: {error}") from None
        if self.index not in ("auto", "always"):
            raise ValueError(f"index {self.index!r}: expected 'auto' or 'always'")
        if self.lastmod_format not in ("datetime", "date"):
            raise ValueError(
                f"lastmod_format {self.lastmod_format!r}: expected 'datetime' or 'date'")
        texts, when = self.lastmod_texts, self.build_time
        if texts is not None and texts.format != self.lastmod_format:
            raise ValueError(f"lastmod_texts make {texts.format!r} texts, "
                             f"but lastmod_format is {self.lastmod_format!r}")
        if when is not None and (when.tzinfo is None or when.utcoffset() is None):
            raise ValueError(f"build_time {when!r}: expected an aware datetime")

    @property
    def stem(self) -> str:
        """The entry file's name without ``.xml``: shards are ``<stem>-<n>.xml``."""
        return self.filename[:-4]
