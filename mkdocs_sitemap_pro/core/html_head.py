"""What a rendered page's ``<head>`` tells search engines about indexing it.

A theme or a page template can say ``<meta name="robots" content="noindex">`` or point
``<link rel="canonical">`` elsewhere, and a redirect stub (mkdocs-redirects writes them)
says ``<meta http-equiv="refresh">``; listing such a page would contradict the page
itself. Used by the plugin (each page as it is rendered) and by the checker (each
page of a built site). Only the head is scanned, with a quick pre-check, since this runs once per page.
"""

import html
import re
from typing import NamedTuple

__all__ = ["HeadDirectives", "add_meta_property", "read_head", "robots_forbids_indexing"]

_HEAD_END = re.compile(r"</head\s*>|<body[\s>]", re.IGNORECASE)
_TAG = re.compile(r"<(meta|link)\b([^>]*)>", re.IGNORECASE)
# No cased letter in it: matched as it is (IGNORECASE would lowercase every character).
_ATTR = re.compile(r"""([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
_TOKEN_SPLIT = re.compile(r"[\s,]+")
_ROBOTS_NAMES = frozenset({"robots", "googlebot"})
# Words a tag must hold to matter here; most head tags hold none and are skipped unparsed.
_NEEDLES = ("robots", "googlebot", "canonical", "refresh")
# A canonical link as themes write it (``<link rel="canonical" href="...">``, nothing to
# unescape): its href read without parsing every attribute. Any other form is parsed.
_THEMES_CANONICAL = re.compile(r'\s+rel="canonical"\s+href="([^"&]*)"[\s/]*')


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


def read_head(page_html: str) -> HeadDirectives:
    """Find a ``noindex`` robots/googlebot meta tag, the canonical link and a meta refresh."""
    # Most pages close their head with a plain ``</head>``: found with ``str.find``, it
    # ends the head if nothing before it (seen lowercased) could have ended it first;
    # otherwise the pattern is searched, which costs more per character.
    at = page_html.find("</head")
    if at != -1 and (page_html.startswith(">", at + 6) or _HEAD_END.match(page_html, at)):
        head = page_html[:at]
        lowered = head.lower()
        if "</head" in lowered or "<body" in lowered:
            head, lowered = _head(page_html)
    else:
        head, lowered = _head(page_html)
    starts = _candidate_tags(head, lowered)
    if not starts:
        return _NOTHING
    noindex = refresh = False
    canonical: str | None = None
    for match in starts:
        if canonical is None and (plain := _THEMES_CANONICAL.fullmatch(match.group(2))):
            if match.group(1).lower() == "link":
                canonical = plain.group(1)
                continue
        attrs = _attributes(match.group(2))
        if match.group(1).lower() == "meta":
            if attrs.get("name", "").lower() in _ROBOTS_NAMES and robots_forbids_indexing(
                attrs.get("content", "")
            ):
                noindex = True
            elif attrs.get("http-equiv", "").lower() == "refresh":
                refresh = True
        elif canonical is None and "canonical" in attrs.get("rel", "").lower().split():
            canonical = attrs.get("href")
    return HeadDirectives(noindex, canonical, refresh)


_NOTHING = HeadDirectives()


def _head(page_html: str) -> tuple[str, str]:
    """The page's head as the pattern finds it, as it is and lowercased."""
    end = _HEAD_END.search(page_html)
    head = page_html[: end.start()] if end else page_html
    return head, head.lower()


def _candidate_tags(head: str, lowered: str) -> list[re.Match[str]]:
    """The meta and link tags of ``head`` that hold one of the needles, in order.

    Most heads hold one needle or none (a theme's own canonical link), so the needles
    are found with ``str.find`` and only the tag around each hit is matched. A hit whose
    tag is not found that way (a ``<`` inside an attribute value before it, a needle
    in a title or script), or a head that lowercasing made longer (offsets in one are
    not offsets in the other), falls back to matching every tag of the head.
    """
    if len(lowered) != len(head):
        return _every_candidate_tag(head)
    starts: set[int] = set()
    for needle in _NEEDLES:
        hit = lowered.find(needle)
        while hit != -1:
            starts.add(lowered.rfind("<", 0, hit))
            hit = lowered.find(needle, hit + len(needle))
    if not starts:
        return []
    found = []
    for start in sorted(starts):
        match = _TAG.match(head, start) if start >= 0 else None
        opened = lowered.rfind("<", 0, start)  # a "<" inside an earlier tag starts none
        if match is None or (opened != -1 and lowered.find(">", opened, start) == -1):
            return _every_candidate_tag(head)
        found.append(match)
    return found


def _every_candidate_tag(head: str) -> list[re.Match[str]]:
    """Every meta and link tag of ``head`` that holds a needle (the slow, sure way)."""
    return [
        match
        for match in _TAG.finditer(head)
        if any(needle in match.group(2).lower() for needle in _NEEDLES)
    ]


def _attributes(text: str) -> dict[str, str]:
    """The attributes of one tag, names lowercased, values with entities resolved."""
    attrs: dict[str, str] = {}
    for name, dq, sq, bare in _ATTR.findall(text):
        value = dq or sq or bare
        attrs.setdefault(name.lower(), html.unescape(value) if "&" in value else value)
    return attrs


_SPECIAL = re.compile(r"[&<>\"']")  # what html.escape replaces
_PROPERTY_TAG = r"""<meta\b[^>]*\bproperty\s*=\s*["']?{name}["'\s/>][^>]*>"""


def add_meta_property(page_html: str, name: str, content: str) -> tuple[str, str | None]:
    """The page with ``<meta property="name" content="…">`` added at the end of its
    head, and None; or, when the head has one already, the page unchanged and that
    tag's content (a tag is never written twice). A page with no head is unchanged."""
    at = page_html.find("</head")
    if at == -1 or not (page_html.startswith(">", at + 6) or _HEAD_END.match(page_html, at)):
        end = _HEAD_END.search(page_html)
        if end is None:
            return page_html, None
        at = end.start()
    if page_html.find(name, 0, at) != -1:
        head = page_html[:at]
        found = re.search(_PROPERTY_TAG.format(name=re.escape(name)), head, re.IGNORECASE)
        if found is not None:
            return page_html, _attributes(found.group(0)[5:-1]).get("content", "")
    if _SPECIAL.search(content):  # (a date has nothing to escape: no call a page)
        content = html.escape(content)
    tag = f'<meta property="{name}" content="{content}">\n'
    return page_html[:at] + tag + page_html[at:], None
