"""The rules for ``image:image`` entries, as Google states them for image sitemaps.

Each ``<image:image>`` holds an ``<image:loc>``: an absolute http(s) URL, URL-escaped as
a loc is (``urls.normalise_loc``); one URL lists at most ``MAX_IMAGES`` images, each
once. Images may be served from another host (a CDN), so the host is not judged.
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import urlsplit

from mkdocs_sitemap_pro.core.check.findings import Findings
from mkdocs_sitemap_pro.core.check.tree_rules import ListedUrls
from mkdocs_sitemap_pro.core.protocol import MAX_IMAGES
from mkdocs_sitemap_pro.core.urls import normalise_loc

__all__ = ["check_images"]


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
