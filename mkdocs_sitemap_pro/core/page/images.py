"""The images a page's content shows, for its sitemap entry's ``image:image`` elements.

Google lists a page's images from ``<image:loc>``; a page's images are the ``<img src>``
of its content (what its Markdown became, or the content element of a built page: a
theme's logo, icons and navigation are on every page and say nothing of this one).
Only images served from the page's own scheme and host are listed, each once, in the
order they come, at most ``MAX_IMAGES``. Scanned with regular expressions: a page is
read once, and most of its text holds no ``<img``.
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import urljoin, urlsplit

from mkdocs_sitemap_pro.core.page.html_head import tag_attributes
from mkdocs_sitemap_pro.core.protocol import MAX_IMAGES

__all__ = ["ImagesFound", "content_element", "content_images"]

_IMG = re.compile(r"<img\b([^>]*)>", re.IGNORECASE)
# The content element of a built page, most specific first: Material's and Zensical's
# article, then the page's main landmark.
_CONTENT_STARTS = (
    re.compile(r"<(article)\b[^>]*\bclass\s*=\s*[\"'][^\"']*\bmd-content__inner\b[^>]*>",
               re.IGNORECASE),
    re.compile(r"<(main)\b[^>]*>", re.IGNORECASE),
    re.compile(r"<([a-z][a-z0-9]*)\b[^>]*\brole\s*=\s*[\"']?main\b[^>]*>", re.IGNORECASE),
)


class ImagesFound(NamedTuple):
    """A page's image URLs, and how many more it showed past ``MAX_IMAGES``."""

    urls: tuple[str, ...] = ()
    beyond: int = 0


def content_images(content: str, page_url: str) -> ImagesFound:
    """The absolute URLs of the images ``content`` (HTML) shows from ``page_url``'s own
    scheme and host: each ``<img src>`` resolved against ``page_url``, its fragment
    dropped, ``data:`` and other hosts skipped, each once, the first ``MAX_IMAGES``."""
    own = _origin(page_url)
    found: dict[str, None] = {}
    beyond = 0
    for tag in _IMG.finditer(content):
        # The attribute ``src`` itself: not ``data-src``, ``srcset``, or "src=" in an alt text.
        src = tag_attributes(tag.group(1)).get("src", "").strip()
        if not src or src.lower().startswith("data:"):
            continue
        url = urljoin(page_url, src).partition("#")[0]
        if _origin(url) != own or url in found:
            continue
        if len(found) >= MAX_IMAGES:
            beyond += 1
            continue
        found[url] = None
    return ImagesFound(tuple(found), beyond)


def content_element(page_html: str) -> str:
    """The HTML of a built page's content element (Material's ``md-content__inner``
    article, else ``<main>``, else the ``role="main"`` element); the whole page if it
    has none."""
    for start in _CONTENT_STARTS:
        match = start.search(page_html)
        if match is not None:
            return _element_at(page_html, match)
    return page_html


def _element_at(page_html: str, start: re.Match[str]) -> str:
    """The element ``start`` opens, up to its own end tag (nested ones of the same name
    counted); to the end of the page if it is not closed."""
    name = re.escape(start.group(1))
    tags = re.compile(rf"<(/?){name}\b[^>]*>", re.IGNORECASE)
    depth = 1
    for tag in tags.finditer(page_html, start.end()):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return page_html[start.end():tag.start()]
    return page_html[start.end():]


def _origin(url: str) -> tuple[str, str] | None:
    """(scheme, host[:port]) of an http(s) URL, lower case; None for anything else."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.netloc:
        return None
    return scheme, parts.netloc.lower()
