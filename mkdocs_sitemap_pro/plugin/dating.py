"""Each sitemap page's lastmod: front matter, then git (or mtime), then the fallback.

Works on the pages `site_pages` collected and knows nothing of XML. Counts how every page
was dated, so the plugin can say it in one INFO line, and gives git's warnings back.
"""

from __future__ import annotations

import datetime as dt
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from mkdocs_sitemap_pro.core.git import GitHistory, Known, Unknown
from mkdocs_sitemap_pro.core.protocol import UTC
from mkdocs_sitemap_pro.plugin.pages import SitemapPage

Lastmod = dt.date | dt.datetime | None


@dataclass
class Dating:
    """The lastmod chosen for each page (by src_uri), and how each was found."""

    lastmods: dict[str, Lastmod] = field(default_factory=dict)
    sources: Counter[str] = field(default_factory=Counter)  # "git", "front matter", ...
    omitted: Counter[str] = field(default_factory=Counter)  # reason -> pages left undated
    warnings: list[str] = field(default_factory=list)
    undated: list[tuple[str, str]] = field(default_factory=list)  # (src_uri, reason)


def date_pages(
    pages: Sequence[SitemapPage],
    *,
    mode: Literal["git", "mtime", "none"],
    fallback: Literal["omit", "mtime", "build_time"],
    history: GitHistory | None,
    build_time: dt.datetime,
    dependencies: Mapping[str, Sequence[Path]] | None = None,
) -> Dating:
    """Choose every page's lastmod; ``history`` is the one git read (for ``mode="git"``).

    ``dependencies`` (src_uri -> absolute paths) are the other files a page shows (what
    it includes, the posts it lists); under git the page is as new as the newest of them.
    """
    dating = Dating()
    # Front matter wins over anything derived.
    pending: list[SitemapPage] = []
    for page in pages:
        if page.settings.lastmod is not None:
            dating.lastmods[page.src_uri] = page.settings.lastmod
            dating.sources["front matter"] += 1
        else:
            pending.append(page)
    if history is not None:
        dating.warnings.extend(history.warnings)

    for page in pending:
        when, reason = _derived(page, mode, history, (dependencies or {}).get(page.src_uri, ()))
        if when is None and mode != "none":
            when = _fallback(page, fallback, build_time)
            if when is not None:
                dating.sources[fallback.replace("_", " ")] += 1
                dating.undated.append((page.src_uri, f"{reason}, dated by {fallback}"))
            else:
                dating.omitted[reason] += 1
                dating.undated.append((page.src_uri, reason))
        elif when is None:
            dating.omitted["lastmod: none"] += 1
        else:
            dating.sources[mode] += 1
        dating.lastmods[page.src_uri] = when
    return dating


def _derived(
    page: SitemapPage, mode: str, history: GitHistory | None, shown: Sequence[Path]
) -> tuple[Lastmod, str]:
    """The date the chosen mode gives a page, or None and the reason it has none."""
    if page.source_path is None and not (shown and mode == "git"):
        return None, "generated"
    if mode == "git" and history is not None:
        own = [page.source_path] if page.source_path is not None else []
        changes = [history.last_changed(path) for path in [*own, *shown]]
        known = [change.when for change in changes if isinstance(change, Known)]
        if known:
            return max(known), ""
        first = changes[0]
        if page.source_path is None or not isinstance(first, Unknown):
            return None, "generated"
        return None, first.reason
    if mode == "mtime" and page.source_path is not None:
        return _mtime(page.source_path), "no source file"
    return None, "lastmod: none"


def _fallback(page: SitemapPage, fallback: str, build_time: dt.datetime) -> Lastmod:
    """The ``lastmod_fallback`` date for a page the chosen mode could not date."""
    if fallback == "build_time":
        return build_time
    if fallback == "mtime" and page.source_path is not None:
        return _mtime(page.source_path)
    return None


def _mtime(path: Path) -> dt.datetime | None:
    """The source file's modification time in UTC (following symlinks), if it exists."""
    try:
        return dt.datetime.fromtimestamp(os.stat(path).st_mtime, UTC).replace(
            microsecond=0
        )
    except OSError:
        return None
