"""The writer's options, checked once, as one immutable value passed down the pipeline."""

from __future__ import annotations

from typing import Literal, NamedTuple

from mkdocs_sitemap_pro.core.protocol import (
    MAX_BYTES,
    MAX_URLS,
    MIN_BYTES,
    LastmodFormat,
    check_filename,
    check_limit,
)

__all__ = ["WriteOptions"]


class _WriteFields(NamedTuple):
    filename: str
    max_urls: int
    max_bytes: int
    index_mode: Literal["auto", "always"]  # ``index`` (a tuple's ``index`` is a method)
    gzip: bool
    lastmod_format: LastmodFormat
    html_view: bool  # also write a page for people beside each file
    title: str  # the site's name, shown on those pages


class WriteOptions(_WriteFields):
    """How ``write_sitemaps`` splits and names the files (see its docstring).

    Construction checks every field by the protocol's rules and raises ``ValueError``
    naming the field, so a bad option fails before any file is touched. (A checked
    tuple: defining a frozen dataclass cost every build 3.7 M instructions at import.)
    """

    __slots__ = ()

    def __new__(cls, filename: str = "sitemap.xml", max_urls: int = MAX_URLS,
                max_bytes: int = MAX_BYTES, index: Literal["auto", "always"] = "auto",
                gzip: bool = True, lastmod_format: LastmodFormat = "datetime",
                html_view: bool = False, title: str = "") -> "WriteOptions":
        checks = (
            ("filename", lambda: check_filename(filename)),
            ("max_urls", lambda: check_limit(max_urls, 1, MAX_URLS)),
            ("max_bytes", lambda: check_limit(max_bytes, MIN_BYTES, MAX_BYTES)),
        )
        for name, check in checks:
            try:
                check()
            except ValueError as error:
                raise ValueError(f"{name}: {error}") from None
        if index not in ("auto", "always"):
            raise ValueError(f"index {index!r}: expected 'auto' or 'always'")
        if lastmod_format not in ("datetime", "date"):
            raise ValueError(f"lastmod_format {lastmod_format!r}: expected 'datetime' or 'date'")
        return super().__new__(cls, filename, max_urls, max_bytes, index, gzip, lastmod_format,
                               html_view, title)

    @property
    def stem(self) -> str:
        """The entry file's name without ``.xml``: shards are ``<stem>-<n>.xml``."""
        return self.filename[:-4]
