"""The writer's options, checked once, as one immutable value passed down the pipeline."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mkdocs_sitemap_pro.core.protocol import (
    MAX_BYTES,
    MAX_URLS,
    MIN_BYTES,
    LastmodFormat,
    check_filename,
    check_limit,
)

__all__ = ["WriteOptions"]


@dataclass(frozen=True)
class WriteOptions:
    """How ``write_sitemaps`` splits and names the files (see its docstring).

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

    @property
    def stem(self) -> str:
        """The entry file's name without ``.xml``: shards are ``<stem>-<n>.xml``."""
        return self.filename[:-4]
