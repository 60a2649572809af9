"""The posts a blog's generated page lists, read from its HTML.

Material for MkDocs and Zensical render each listed post as an excerpt,
``<article class="md-post md-post--excerpt">``, whose title (``<a class="toclink">``)
and "continue reading" link (``<nav class="md-post__action">``) point to the post. An
archive, category or pagination page is as new as the newest post it lists; other links
(navigation, categories, authors) say nothing of that and are not read.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urldefrag, urljoin

__all__ = ["listed_urls"]

_EXCERPT = re.compile(
    r"<article\b[^>]*\bclass=[\"'][^\"']*\bmd-post--excerpt\b[^>]*>(.*?)</article\s*>",
    re.IGNORECASE | re.DOTALL,
)
_ACTION = re.compile(r"<nav\b[^>]*\bmd-post__action\b[^>]*>(.*?)</nav\s*>", re.IGNORECASE | re.DOTALL)
_TOCLINK = re.compile(r"<a\b[^>]*\bclass=[\"'][^\"']*\btoclink\b[^>]*>", re.IGNORECASE)
_HREF = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)


def listed_urls(page_html: str, page_url: str) -> list[str]:
    """The absolute URLs (no fragment) of the posts whose excerpts ``page_html`` shows."""
    urls: dict[str, None] = {}
    if "md-post--excerpt" not in page_html:
        return []
    for excerpt in _EXCERPT.finditer(page_html):
        body = excerpt.group(1)
        links = [m.group(0) for m in _TOCLINK.finditer(body)]
        links += [m.group(1) for m in _ACTION.finditer(body)]
        for link in links:
            href = _HREF.search(link)
            if href:
                target = html.unescape(href.group(1) or href.group(2) or "")
                urls[urldefrag(urljoin(page_url, target))[0]] = None
    return list(urls)
