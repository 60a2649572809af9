"""What a rendered page's HTML says: its head to search engines, the images its content shows,
the posts a listing page lists.

What a rendered page's ``<head>`` tells search engines about indexing it.

A theme or a page template can say ``<meta name="robots" content="noindex">`` or point
``<link rel="canonical">`` elsewhere, and a redirect stub (mkdocs-redirects writes them)
says ``<meta http-equiv="refresh">``; listing such a page would contradict the page
itself. Used by the plugin (each page as it is rendered) and by the checker (each
page of a built site). Only the head is scanned, with a quick pre-check, since this runs once per page.

Also the images a page's content shows (``image:image``) and the posts a blog's generated
page lists.
"""

from __future__ import annotations

import html
import re
from typing import NamedTuple
from urllib.parse import urldefrag, urljoin, urlsplit

from mkdocs_sitemap_pro.core.protocol import MAX_IMAGES

__all__ = [
    "HeadDirectives", "add_meta_property", "read_head", "robots_forbids_indexing",
    "tag_attributes", "written_head_end", "ImagesFound", "content_element", "content_images",
    "listed_urls",
]

_HEAD_END = re.compile(r"</head\s*>|<body[\s>]", re.IGNORECASE)
_TAG = re.compile(r"<(meta|link)\b([^>]*)>", re.IGNORECASE)
# No cased letter in it: matched as it is (IGNORECASE would lowercase every character).
_ATTR = re.compile(r"""([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
_TOKEN_SPLIT = re.compile(r"[\s,]+")
_ROBOTS_NAMES = frozenset({"robots", "googlebot"})
# Words a tag must hold to matter here; most head tags hold none and are skipped unparsed.
_NEEDLES = ("robots", "googlebot", "canonical", "refresh")


def robots_forbids_indexing(value: str) -> bool:
    """Whether a robots directive list (``"noindex, follow"``) holds ``noindex``.

    ``none`` counts too: the robots standard defines it as ``noindex, nofollow``.
    """
    tokens = {token.lower() for token in _TOKEN_SPLIT.split(value) if token}
    return bool(tokens & {"noindex", "none"})


class HeadDirectives(NamedTuple):
    """The indexing directives found in a page's head."""

    noindex: bool = False
    canonical: str | None = None
    refresh: bool = False  # a meta refresh: the page is a redirect stub


def written_head_end(page_html: str) -> int:
    """Where the first ``</head>`` written in lower case is (-1: none). Most pages close
    their head so: found with ``str.find``, which costs far less than the pattern. An
    earlier end written otherwise (``</HEAD>``, ``<body>``) is for the caller to rule out."""
    at = page_html.find("</head")
    if at != -1 and (page_html.startswith(">", at + 6) or _HEAD_END.match(page_html, at)):
        return at
    return -1


def read_head(page_html: str, written_end: int | None = None) -> HeadDirectives:
    """Find a ``noindex`` robots/googlebot meta tag, the canonical link and a meta refresh.

    ``written_end``: ``written_head_end(page_html)``, where the caller has it already."""
    at = written_head_end(page_html) if written_end is None else written_end
    if at != -1:
        head = page_html[:at]
        lowered = head.lower()
        tags = _candidate_tags(head, lowered)
        # The head may end earlier, at an end written otherwise (</HEAD>, <body>): only
        # one before the end of the last tag read would change what is read.
        if not tags:
            return _NOTHING
        last = tags[-1][0]
        if lowered.find("</head", 0, last) == -1 and lowered.find("<body", 0, last) == -1:
            return _directives(tags)
    return _directives(_candidate_tags(*_head(page_html)))


_NOTHING = HeadDirectives()
#: A candidate tag: (where it ends, "meta" or "link" as written, its attributes' text);
#: a theme's canonical link is (where it ends, None, its href).
_Tag = tuple[int, str | None, str]
# A canonical link as themes write it, ``<link rel="canonical" href="...">`` (or ``/>``),
# nothing in its href to unescape: its href is sliced out, no pattern run (most pages
# have one). Any other form is parsed attribute by attribute.
_THEME_LINK = '<link rel="canonical" href="'


def _directives(tags: list[_Tag]) -> HeadDirectives:
    """What the candidate tags of a head say."""
    if not tags:
        return _NOTHING
    noindex = refresh = False
    canonical: str | None = None
    for _, kind, text in tags:
        if kind is None:  # a theme's canonical link, its href read already
            if canonical is None:
                canonical = text
            continue
        attrs = tag_attributes(text)
        if kind.lower() == "meta":
            if attrs.get("name", "").lower() in _ROBOTS_NAMES and robots_forbids_indexing(
                attrs.get("content", "")
            ):
                noindex = True
            elif attrs.get("http-equiv", "").lower() == "refresh":
                refresh = True
        elif canonical is None and "canonical" in attrs.get("rel", "").lower().split():
            canonical = attrs.get("href")
    return HeadDirectives(noindex, canonical, refresh)


def _head(page_html: str) -> tuple[str, str]:
    """The page's head as the pattern finds it, as it is and lowercased."""
    end = _HEAD_END.search(page_html)
    head = page_html[: end.start()] if end else page_html
    return head, head.lower()


def _candidate_tags(head: str, lowered: str) -> list[_Tag]:
    """The meta and link tags of ``head`` that hold one of the needles, in order.

    Most heads hold one needle or none (a theme's own canonical link), so the needles
    are found with ``str.find`` and only the tag around each hit is matched. A hit whose
    tag is not found that way (a ``<`` inside an attribute value before it, a needle
    in a title or script), or a head that lowercasing made longer (offsets in one are
    not offsets in the other), falls back to matching every tag of the head.
    """
    if len(lowered) != len(head):
        return _every_candidate_tag(head)
    hits: dict[int, _Tag | None] = {}  # where a tag starts -> the tag, if read already
    for needle in _NEEDLES:
        hit = lowered.find(needle)
        if needle == "canonical" and hit >= _TO_CANONICAL:
            theme = _theme_link(head, lowered, hit - _TO_CANONICAL)
            if theme is not None:
                # The first "canonical" is a theme's link: the page's canonical URL. A
                # later one cannot be, and it holds another needle or none that matters.
                hits[hit - _TO_CANONICAL] = theme
                continue
        while hit != -1:
            hits.setdefault(lowered.rfind("<", 0, hit))
            hit = lowered.find(needle, hit + len(needle))
    found: list[_Tag] = []
    for start in sorted(hits):
        tag = hits[start]
        if tag is None:
            opened = lowered.rfind("<", 0, start)  # a "<" inside an earlier tag starts none
            match = _TAG.match(head, start) if start >= 0 else None
            if match is None or (opened != -1 and lowered.find(">", opened, start) == -1):
                return _every_candidate_tag(head)
            tag = (match.end(), match.group(1), match.group(2))
        found.append(tag)
    return found


_TO_CANONICAL = len('<link rel="')  # from a theme link's start to its "canonical"


def _theme_link(head: str, lowered: str, start: int) -> _Tag | None:
    """The theme's canonical link starting at ``start``, read by slicing; None if the
    text there is not one (exactly, closed by ``>`` or ``/>``, with an href that needs
    no unescaping)."""
    if not head.startswith(_THEME_LINK, start):
        return None
    opened = lowered.rfind("<", 0, start)  # a "<" inside an earlier tag starts none
    if opened != -1 and lowered.find(">", opened, start) == -1:
        return None
    href_at = start + len(_THEME_LINK)
    quote, end = head.find('"', href_at), head.find(">", href_at)
    if not -1 < quote < end or "&" in (href := head[href_at:quote]):
        return None
    if end != quote + 1 and head[quote + 1:end].replace("/", "").strip():
        return None  # something besides spaces and slashes before the ">"
    return end + 1, None, href


def _every_candidate_tag(head: str) -> list[_Tag]:
    """Every meta and link tag of ``head`` that holds a needle (the slow, sure way)."""
    return [
        (match.end(), match.group(1), match.group(2))
        for match in _TAG.finditer(head)
        if any(needle in match.group(2).lower() for needle in _NEEDLES)
    ]


def tag_attributes(text: str) -> dict[str, str]:
    """The attributes of one tag, names lowercased, values with entities resolved."""
    attrs: dict[str, str] = {}
    for name, dq, sq, bare in _ATTR.findall(text):
        value = dq or sq or bare
        attrs.setdefault(name.lower(), html.unescape(value) if "&" in value else value)
    return attrs


_SPECIAL = re.compile(r"[&<>\"']")  # what html.escape replaces
_PROPERTY_TAG = r"""<meta\b[^>]*\bproperty\s*=\s*["']?{name}["'\s/>][^>]*>"""


def add_meta_property(page_html: str, name: str, content: str,
                      written_end: int | None = None) -> tuple[str, str | None]:
    """The page with ``<meta property="name" content="…">`` added at the end of its
    head, and None; or, when the head has one already, the page unchanged and that
    tag's content (a tag is never written twice). A page with no head is unchanged.

    ``written_end``: ``written_head_end(page_html)``, where the caller has it already."""
    at = written_head_end(page_html) if written_end is None else written_end
    if at == -1:
        end = _HEAD_END.search(page_html)
        if end is None:
            return page_html, None
        at = end.start()
    if page_html.find(name, 0, at) != -1:
        head = page_html[:at]
        found = re.search(_PROPERTY_TAG.format(name=re.escape(name)), head, re.IGNORECASE)
        if found is not None:
            return page_html, tag_attributes(found.group(0)[5:-1]).get("content", "")
    if _SPECIAL.search(content):  # (a date has nothing to escape: no call a page)
        content = html.escape(content)
    tag = f'<meta property="{name}" content="{content}">\n'
    return page_html[:at] + tag + page_html[at:], None


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
