"""Each sitemap page's lastmod: front matter, then git (or mtime), then the fallback.

Works on the pages `site_pages` collected and knows nothing of XML. Counts how every page
was dated, so the plugin can say it in one INFO line, and gives git's warnings back.
"""

from __future__ import annotations

import datetime as dt
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from mkdocs_sitemap_pro.core.git import GitHistory, Known
from mkdocs_sitemap_pro.core.protocol import UTC
from mkdocs_sitemap_pro.core.shown import (
    Dependencies,
    decide,
    with_posts,
)
from mkdocs_sitemap_pro.plugin.pages import SitemapPage

Lastmod = dt.date | dt.datetime | None

# Why a page another plugin generated has no date: its source is not in git, and
# nothing it rendered (objects, includes, an edit path) is.
_GENERATED = "generated, showing nothing git can date"


@dataclass
class Dating:
    """The lastmod chosen for each page (by src_uri), and how each was found."""

    lastmods: dict[str, Lastmod] = field(default_factory=dict)
    sources: Counter[str] = field(default_factory=Counter)  # "git", "front matter", ...
    omitted: Counter[str] = field(default_factory=Counter)  # reason -> pages left undated
    warnings: list[str] = field(default_factory=list)
    undated: list[tuple[str, str]] = field(default_factory=list)  # (src_uri, reason)
    # Pages dated by something other than their source: "an included file", "listed posts".
    by: Counter[str] = field(default_factory=Counter)
    deciders: Counter[str] = field(default_factory=Counter)  # file -> pages it dated
    notes: list[tuple[str, str]] = field(default_factory=list)  # (src_uri, DEBUG detail)


def date_pages(
    pages: Sequence[SitemapPage],
    *,
    mode: Literal["git", "mtime", "none"],
    fallback: Literal["omit", "mtime", "build_time"],
    history: GitHistory | None,
    build_time: dt.datetime,
    dependencies: Dependencies | None = None,
) -> Dating:
    """Choose every page's lastmod; ``history`` is the one git read (for ``mode="git"``).

    With ``dependencies`` (git only), a page is dated by the newest of its source and
    what it showed, and a listing page by its posts too (so listing pages come last).
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
    deps = dependencies if mode == "git" and history is not None else None
    if deps is not None:
        if any(entry.posts for entry in deps.pages.values()):
            pending.sort(key=lambda p: bool(_posts(deps, p)))
        dating.notes.extend(
            (src_uri, "not rendered in this build and not in the dependency cache: "
             "dated by its source alone") for src_uri in deps.missing
        )

    for page in pending:
        if deps is not None and history is not None:
            when, reason = _with_dependencies(page, history, deps, dating)
        else:
            when, reason = _derived(page, mode, history)
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
    page: SitemapPage, mode: str, history: GitHistory | None
) -> tuple[Lastmod, str]:
    """The date the chosen mode gives a page, or None and the reason it has none."""
    if page.source_path is None:
        return None, "generated"  # with dependencies off, nothing else is asked
    if mode == "git" and history is not None:
        change = history.last_changed(page.source_path)
        if isinstance(change, Known):
            return change.when, ""
        return None, change.reason
    if mode == "mtime":
        return _mtime(page.source_path), "no source file"
    return None, "lastmod: none"


def _posts(deps: Dependencies, page: SitemapPage) -> tuple[str, ...]:
    entry = deps.pages.get(page.src_uri)
    return entry.posts if entry is not None else ()


def _shows_files(deps: Dependencies, page: SitemapPage) -> bool:
    entry = deps.pages.get(page.src_uri)
    return entry is not None and bool(entry.files)


def _with_dependencies(
    page: SitemapPage, history: GitHistory, deps: Dependencies, dating: Dating
) -> tuple[Lastmod, str]:
    """The git date of a page by everything it shows; notes what decided it."""
    reason = _GENERATED
    change: Known | None = None
    entry = deps.pages.get(page.src_uri)
    if page.source_path is not None:
        found = history.last_changed(page.source_path)
        if not isinstance(found, Known):
            return None, found.reason
        if entry is None or not (entry.files or entry.posts):
            return found.when, reason  # it showed nothing (most pages)
        change = found
    # A generated page has no source of its own: what it shows dates it, if anything.
    decision = decide(change, entry, deps, history)
    own: Lastmod = decision.when
    decider = decision.file
    if decision.notes:
        dating.notes.extend((page.src_uri, f"left out of its date: {n}") for n in decision.notes)
    post = ""
    posts = _posts(deps, page)
    if posts:
        own, post = with_posts(own, posts, dating.lastmods)
    if post:
        dating.by["listed posts"] += 1
        dating.notes.append((page.src_uri, f"dated by the listed post {post}"))
    elif decider:
        dating.by["an included file"] += 1
        dating.deciders[decider] += 1
        dating.notes.append((page.src_uri, f"dated by the included file {decider}"))
    elif own is not None and (posts or _shows_files(deps, page)):
        dating.notes.append((page.src_uri, "dated by its own source (nothing it shows changed later)"))
    return own, reason


def _fallback(page: SitemapPage, fallback: str, build_time: dt.datetime) -> Lastmod:
    """The ``lastmod_fallback`` date for a page the chosen mode could not date."""
    if fallback == "build_time":
        return build_time
    if fallback == "mtime" and page.source_path is not None:
        return _mtime(page.source_path)
    return None


def _mtime(path: str) -> dt.datetime | None:
    """The source file's modification time in UTC (following symlinks), if it exists."""
    try:
        return dt.datetime.fromtimestamp(os.stat(path).st_mtime, UTC).replace(
            microsecond=0
        )
    except OSError:
        return None
