"""A fingerprint of what a page renders: equal where a reader sees the same content.

A page's fingerprint is 64 bits of BLAKE2b over its rendered content, normalised so that
what a browser renders the same hashes the same: every run of whitespace outside
``<pre>`` and ``<textarea>`` counts as one space, and none beside a tag (a re-wrapped
paragraph, blank lines, trailing spaces, CRLF or LF), blanks at the end of a line inside them count as none,
and the attributes of a tag count in any order. What is
not the page's content is never part of it: under MkDocs the plugin hashes the content
MkDocs and every plugin converted (``CONVERTED``), with its title, tags and the excerpts
it lists; for a site another builder wrote (``BUILT``), ``content_of`` takes the built
page's content element, less the facts that show its own date.

Two fingerprints are compared only when made the same way (``Method``): a manifest
names the way its were made.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from typing import Literal

__all__ = ["BUILT", "CONVERTED", "FINGERPRINT_CHARS", "Method", "content_of", "fingerprint"]

Method = Literal["converted-1", "built-1"]
#: Under MkDocs: the page's converted content, title, tags and listed excerpts.
CONVERTED: Method = "converted-1"
#: After another builder: the content element of the page it wrote.
BUILT: Method = "built-1"
#: The length of a fingerprint as text (64 bits, unpadded URL-safe base64).
FINGERPRINT_CHARS = 11

# Where whitespace is content (``<pre>``, ``<textarea>``): kept byte for byte. The text
# is UTF-8 from here on; every page goes through the passes below.
_VERBATIM = ((b"<pre", b"</pre>"), (b"<textarea", b"</textarea>"))
# Inside them, what renders nothing: a highlighter's span of blanks only, and blanks at
# a line's end (before the tags that close there).
_BLANK_SPAN = re.compile(rb"<span\b[^>]*>([ \t\r]*)</span>")
_LINE_END_BLANKS = re.compile(rb"[ \t\r]+(?=(?:</[a-zA-Z]+>)*(?:\n|$))")
# A start tag with two ``=`` or more: one whose attributes may come in another order.
_MANY_ATTRIBUTES = re.compile(rb"<([a-zA-Z][^\s<>/]*)( [^<>=]*=[^<>=]*=[^<>]*?)(/?)>")
_ATTRIBUTE = re.compile(rb"[^\s\"'<>/=]+(?:=(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
# What renders nothing or changes by itself: comments, and the address in the repr of an
# object (``<Default object at 0x7f...>``, which some API generators write).
_COMMENT = re.compile(rb"<!--.*?-->", re.S)
_ADDRESS = re.compile(rb" at 0x[0-9a-fA-F]+(?=>|&gt;)")
# Whitespace as ``bytes.split`` knows it (ASCII), each byte made a space.
_SPACES = bytes.maketrans(b"\t\n\r\x0b\x0c", b"     ")
# The part separator: a byte no HTML text holds (a C0 control), so that parts cannot run
# into each other.
_SEPARATOR = b"\x1f"


def fingerprint(parts: Iterable[str], text: Iterable[str] = ()) -> str:
    """The fingerprint of content made of ``parts`` (HTML) and ``text`` (plain text such
    as a title, taken as it is), as 11 characters of URL-safe base64."""
    digest = hashlib.blake2b(digest_size=8)
    for words in text:
        digest.update(words.encode("utf-8", "surrogatepass"))
        digest.update(_SEPARATOR)
    for part in parts:
        digest.update(_normalised(part.encode("utf-8", "surrogatepass")))
        digest.update(_SEPARATOR)
    return base64.urlsafe_b64encode(digest.digest()).decode("ascii").rstrip("=")


def _normalised(html: bytes) -> bytes:
    """``html`` with comments and object addresses left out, whitespace outside
    ``<pre>``/``<textarea>`` collapsed and attributes sorted: what renders the same
    reads the same. (Tags as MkDocs and Zensical write them: in lower case.)"""
    if b"<!--" in html:
        html = _COMMENT.sub(b"", html)
    if b" at 0x" in html:
        html = _ADDRESS.sub(b"", html)
    parts = _verbatim_split(html)
    if len(parts) == 1:
        return _flowing(html)
    for at in range(0, len(parts), 2):  # even parts lie outside the verbatim blocks
        parts[at] = _flowing(parts[at])
    for at in range(1, len(parts), 2):
        parts[at] = _LINE_END_BLANKS.sub(b"", _BLANK_SPAN.sub(rb"\1", parts[at]))
    return b"".join(parts)


def _verbatim_split(html: bytes) -> list[bytes]:
    """``html`` cut around its ``<pre>`` and ``<textarea>`` elements: the text between
    them at even places, each element (open to close) at odd ones."""
    parts: list[bytes] = []
    at = 0
    while True:
        found = [(start, close) for opening, close in _VERBATIM
                 if (start := html.find(opening, at)) != -1]
        if not found:
            break
        start, close = min(found)
        end = html.find(close, start)
        end = len(html) if end == -1 else end + len(close)
        parts += [html[at:start], html[start:end]]
        at = end
    parts.append(html[at:])
    return parts


def _flowing(html: bytes) -> bytes:
    """HTML where whitespace flows: each run one space, none beside a tag. A space beside
    a block's edge renders as nothing; one between two inline elements (``</em> <em>``)
    is lost too, the price of a pass at the speed of ``bytes.replace``."""
    collapsed = html.translate(_SPACES)
    while b"  " in collapsed:  # a run of n spaces is one after log2(n) passes
        collapsed = collapsed.replace(b"  ", b" ")
    collapsed = b">".join(collapsed.strip(b" ").split(b"> ")).replace(b" <", b"<")
    return _MANY_ATTRIBUTES.sub(_sorted_attributes, collapsed)


def _sorted_attributes(match: re.Match[bytes]) -> bytes:
    attributes = _ATTRIBUTE.findall(match.group(2))
    if len(attributes) < 2:
        return match.group(0)
    ordered = sorted(attributes)
    if attributes == ordered:
        return match.group(0)
    return b"<" + match.group(1) + b" " + b" ".join(ordered) + match.group(3) + b">"


# The content element of a built page: Material's and Zensical's (an article on a page,
# a div on a blog's listing), else the element that says it is the main content.
_STARTS = (
    re.compile(r"<(?:article|div)\b[^>]*\bmd-content__inner\b[^>]*>"),
    re.compile(r"<main\b[^>]*>"),
    re.compile(r"<(div|section)\b[^>]*\brole=[\"']?main\b[^>]*>"),
    re.compile(r"<article\b[^>]*>"),
)
# Facts beside the content that show the page's own dates (Material's and Zensical's
# "last update" and "created" line, git-revision-date-localized's spans).
_DATE_FACTS = re.compile(
    r"<aside\b[^>]*\bmd-source-file\b[^>]*>.*?</aside\s*>"
    r"|<span\b[^>]*\bgit-revision-date-localized-plugin\b[^>]*>[^<]*</span\s*>",
    re.S)


def content_of(page_html: str) -> str:
    """The content element of a page another builder wrote (its inner HTML), less the
    facts that show its date; the whole text when no element says it is the content."""
    for start in _STARTS:
        found = start.search(page_html)
        if found is not None:
            name = found.group(0)[1:].split(None, 1)[0].rstrip(">")
            end = _end_of(page_html, found.end(), name.lower())
            return _DATE_FACTS.sub("", page_html[found.end():end])
    return _DATE_FACTS.sub("", page_html)


def _end_of(html: str, at: int, name: str) -> int:
    """Where the element of tag ``name`` opened just before ``at`` closes (its
    ``</name>``, nested ones counted); the end of the text if it never does."""
    depth = 1
    for tag in re.finditer(rf"<(/?){name}\b", html[at:], re.I):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return at + tag.start()
    return len(html)
