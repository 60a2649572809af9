"""The rules that look across the files of a tree: duplicates, index lastmods against
their files, ``.xml``/``.xml.gz`` twins, and lastmods that cannot all be true.

Also the rules on the tree's listed URLs: none that robots.txt keeps crawlers from (``loc-
disallowed``), hreflang alternates and ``image:image`` as Google states them.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterator, Mapping
from urllib.parse import urlsplit

from mkdocs_sitemap_pro.core.check.findings import Findings
from mkdocs_sitemap_pro.core.check.tree import Loaded, Tree
from mkdocs_sitemap_pro.core.protocol import MAX_IMAGES, check_hreflang, check_lastmod, utc_key
from mkdocs_sitemap_pro.core.reader import ReadEntry
from mkdocs_sitemap_pro.core.robots import RobotsRules, host_robots_url
from mkdocs_sitemap_pro.core.urls import normalise_loc

__all__ = [
    "SAME_DAY_MIN_URLS", "ListedUrls", "check_tree", "listed_urls", "MAX_STEPS",
    "check_crawlable", "check_alternates", "check_images",
]

#: "Every page dated the day it was built" is judged only from this many dated URLs on:
#: a small site written and committed in one day is no sign of anything.
SAME_DAY_MIN_URLS = 20


Place = tuple[Loaded, ReadEntry]


class ListedUrls(Mapping[str, tuple[Place, ...]]):
    """Every loc of the tree's urlsets -> where it is listed (the file, the entry), in
    order. A loc listed once (all but the duplicates) is held as one pair, not a list:
    half a million locs in a hostile file."""

    def __init__(self) -> None:
        self._first: dict[str, Place] = {}
        self._more: dict[str, list[Place]] = {}

    def add(self, loc: str, place: Place) -> None:
        if loc in self._first:
            self._more.setdefault(loc, []).append(place)
        else:
            self._first[loc] = place

    def __getitem__(self, loc: str) -> tuple[Place, ...]:
        first = self._first[loc]
        more = self._more.get(loc)
        return (first, *more) if more else (first,)

    def __iter__(self) -> Iterator[str]:
        return iter(self._first)

    def __len__(self) -> int:
        return len(self._first)


def listed_urls(tree: Tree) -> ListedUrls:
    """Every loc of every urlset in the tree, with where it is listed."""
    urls = ListedUrls()
    for loaded in tree.files:
        if loaded.doc.file.is_index:
            continue
        for entry in loaded.doc.file.entries:
            urls.add(entry.loc, (loaded, entry))
    return urls


def check_tree(tree: Tree, urls: ListedUrls,
               found: Findings, built_on: dt.date | None = None) -> None:
    """Run every rule across files; ``built_on``: the day the tree was written (its
    newest file's time), when it is known."""
    _duplicates(urls, found)
    _index_lastmods(tree, found)
    _twins(tree, found)
    if built_on is not None:
        _build_date(urls, found, built_on)


def _duplicates(urls: ListedUrls, found: Findings) -> None:
    for loc, places in urls.items():
        if len(places) > 1:
            names = sorted({loaded.shown for loaded, _ in places})
            found.error("duplicate", places[1][0].shown,
                        f"{loc} is listed {len(places)} times (in {', '.join(names)})", url=loc)


def _lastmod(text: str | None) -> dt.datetime | None:
    if text is None:
        return None
    try:
        return utc_key(check_lastmod(text))
    except ValueError:
        return None  # reported by the file rules


def _index_lastmods(tree: Tree, found: Findings) -> None:
    """An index entry's lastmod must not be older than the newest lastmod in its file."""
    by_url = {loaded.url: loaded for loaded in tree.files}
    for index in tree.files:
        if not index.doc.file.is_index:
            continue
        for entry in index.doc.file.entries:
            child = by_url.get(entry.loc)
            stated = _lastmod(entry.lastmod)
            if child is None or stated is None or child.doc.file.is_index:
                continue
            dates = [d for d in (_lastmod(e.lastmod) for e in child.doc.file.entries) if d]
            if dates and max(dates) > stated:
                newest = max(dates).isoformat()
                found.error("index-lastmod", index.shown,
                            f"{entry.loc}: the index says lastmod {entry.lastmod}, but the "
                            f"file holds a URL modified at {newest}; crawlers may skip it", url=entry.loc)


def _twins(tree: Tree, found: Findings) -> None:
    """An ``.xml`` and its ``.xml.gz`` must say the same.

    Urlsets must be byte-identical once expanded. Index twins may differ in one way
    only: the ``.gz`` index may list the ``.gz`` files where the other lists ``.xml``.
    """
    for first, second in tree.twins:
        a, b = first.doc, second.doc
        if not a.file.is_index and not b.file.is_index:
            if a.digest != b.digest:
                found.error("gz-twin", second.shown,
                            f"differs from {first.shown} once expanded: the two must be "
                            "the same sitemap")
            continue
        if a.file.kind != b.file.kind or len(a.file.entries) != len(b.file.entries):
            found.error("gz-twin", second.shown, f"does not list the same files as {first.shown}")
            continue
        for x, y in zip(a.file.entries, b.file.entries):
            bare_x, bare_y = x.loc.removesuffix(".gz"), y.loc.removesuffix(".gz")
            if bare_x != bare_y or x.lastmod != y.lastmod:
                found.error("gz-twin", second.shown,
                            f"lists {y.loc} ({y.lastmod}) where {first.shown} lists "
                            f"{x.loc} ({x.lastmod})")


def _build_date(urls: ListedUrls, found: Findings,
                built_on: dt.date) -> None:
    """Every dated URL on the day the tree was built: the build date stamped on every
    page (MkDocs' own sitemap does it), not when each page changed. Pages committed on
    one day that is not the build's are a real history, and fine."""
    dated = 0
    first: Loaded | None = None
    for places in urls.values():
        loaded, entry = places[0]
        value = _lastmod(entry.lastmod)
        if value is None:
            continue
        if value.date() != built_on:
            return
        dated += 1
        first = first or loaded
    if first is not None and dated >= SAME_DAY_MIN_URLS:
        found.error("lastmod-same-day", first.shown,
                    f"all {dated:,} lastmods fall on {built_on.isoformat()}, the day the "
                    "sitemap was built: that is the build date stamped on every page, not "
                    "when each changed, and search engines learn to ignore it")


#: Look-ups and matches spent on one tree at most (a few seconds): what a hostile
#: robots.txt of thousands of ``/*…`` rules against 50,000 URLs would cost is bounded.
MAX_STEPS = 5_000_000


def _host(url: str) -> str:
    parts = urlsplit(host_robots_url(url))
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def check_crawlable(urls: ListedUrls, robots_url: str, shown: str, text: str,
                    found: Findings) -> None:
    """One ``loc-disallowed`` error for each listed URL the robots.txt at ``robots_url``
    (its ``text``; ``shown``: how a message names it) disallows for every crawler."""
    rules = RobotsRules.parse(text)
    if not rules.rules:
        return
    host = _host(robots_url)
    for judged, (loc, places) in enumerate(urls.items()):
        if rules.steps > MAX_STEPS:  # a robots.txt made to be slow to match
            found.warning("not-checked", shown,
                          f"{len(rules.rules):,} rules for every crawler: stopped comparing "
                          f"them with the sitemap after {judged:,} of {len(urls):,} URLs")
            return
        try:
            if _host(loc) != host:
                continue
        except ValueError:  # not a URL at all: the loc rules say so
            continue
        rule = rules.disallowing(loc)
        if rule is not None:
            found.error("loc-disallowed", places[0][0].shown,
                        f"{loc} is listed, but {shown} keeps every crawler from it ({rule}), "
                        "which search engines report as an error: leave it out of the "
                        "sitemap, or allow it in robots.txt", url=loc)


def check_alternates(urls: ListedUrls, found: Findings) -> None:
    """Judge the alternates of every listed URL."""
    for loc, places in urls.items():
        loaded, entry = places[0]
        if not entry.alternates:
            continue
        shown = loaded.shown
        codes = Counter(alt.hreflang for alt in entry.alternates)
        for alt in entry.alternates:
            try:
                check_hreflang(alt.hreflang)
            except ValueError as error:
                found.error("hreflang-code", shown, f"{loc}: {error}", url=loc)
            if not alt.href.startswith(("http://", "https://")):
                found.error("hreflang-href", shown,
                            f"{loc}: alternate {alt.hreflang} {alt.href!r} is not an absolute URL", url=loc)
        if codes["x-default"] > 1:
            found.error("hreflang-x-default", shown,
                        f"{loc}: x-default is given {codes['x-default']} times; at most once", url=loc)
        for code, count in codes.items():
            if count > 1 and code != "x-default":
                found.error("hreflang-duplicate", shown,
                            f"{loc}: hreflang {code} is given {count} times", url=loc)
        if not any(alt.href == loc for alt in entry.alternates):
            found.error("hreflang-self", shown,
                        f"{loc}: its alternates do not include the URL itself", url=loc)
        for alt in entry.alternates:
            if alt.href == loc:
                continue
            other = urls.get(alt.href)
            if other is None:
                found.warning("hreflang-unlisted", shown,
                              f"{loc}: alternate {alt.hreflang} {alt.href} is not listed "
                              "in the sitemap, so its return link cannot be seen", url=loc)
            elif alt.hreflang != "x-default" and not any(
                back.href == loc for back in other[0][1].alternates
            ):
                found.error("hreflang-reciprocal", shown,
                            f"{loc} names {alt.href} ({alt.hreflang}) as an alternate, "
                            "but that URL does not name it back", url=loc)


def check_images(urls: ListedUrls, found: Findings) -> None:
    """Judge the images of every listed URL."""
    for loc, places in urls.items():
        loaded, entry = places[0]
        if not entry.images:
            continue
        shown = loaded.shown
        if len(entry.images) > MAX_IMAGES:
            found.error("image-limit", shown, f"{loc}: {len(entry.images):,} images, more "
                        f"than the {MAX_IMAGES:,} one URL may list", url=loc)
        for image in entry.images:
            problem = _image_problem(image)
            if problem is not None:
                found.error("image-loc", shown, f"{loc}: {problem}", url=loc)
        for image, count in Counter(entry.images).items():
            if count > 1 and image:
                found.warning("image-duplicate", shown,
                              f"{loc}: image {image} is listed {count} times", url=loc)


def _image_problem(image: str) -> str | None:
    """What is wrong with one ``image:loc`` text, or None."""
    if not image:
        return "an <image:image> without an <image:loc>"
    parts = urlsplit(image)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return f"image {image!r} is not an absolute http(s) URL"
    try:
        normal = normalise_loc(image)
    except ValueError as error:
        return f"image {image!r}: {error}"
    if normal != image:
        return (f"image {image!r} is not URL-escaped (raw non-ASCII, spaces or other "
                f"unsafe characters): write {normal}")
    return None
