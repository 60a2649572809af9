"""Sources whose HTML is not at their MkDocs URL, found by their title.

A blog plugin (Material's, Zensical's) writes each post at a URL of its own making
(``blog/2024/01/31/hello/`` for ``blog/posts/hello.md``), from settings and a date
format we do not re-implement. What every builder keeps is the title: a source whose
title (front matter ``title``, else its first ``#`` heading) is the ``<h1>`` of exactly
one unclaimed HTML page, and no other such source has it, is that page.
"""

from __future__ import annotations

import html
import os
import re
from collections import defaultdict
from collections.abc import Sequence

from mkdocs.structure.files import File
from mkdocs.utils.meta import get_data

__all__ = ["built_heading", "match_moved"]

_H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1\s*>", re.IGNORECASE | re.DOTALL)
_HEADERLINK = re.compile(r"<a\b[^>]*\bheaderlink\b[^>]*>.*?</a\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_ATX = re.compile(r"^#[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_SPACE = re.compile(r"\s+")


def match_moved(orphans: Sequence[File], unclaimed: Sequence[str], site_dir: str) -> dict[str, str]:
    """``src_uri -> dest_uri`` for each orphan source that one unclaimed page is titled by."""
    if not orphans or not unclaimed:
        return {}
    sources: dict[str, list[str]] = defaultdict(list)
    for file in orphans:
        title = _source_title(file)
        if title:
            sources[title].append(file.src_uri)
    pages: dict[str, list[str]] = defaultdict(list)
    for dest_uri in unclaimed:
        title = _page_title(os.path.join(site_dir, dest_uri))
        if title in sources:
            pages[title].append(dest_uri)
    return {
        sources[title][0]: dests[0]
        for title, dests in pages.items()
        if len(dests) == 1 and len(sources[title]) == 1
    }


def _source_title(file: File) -> str:
    """The title a source gives itself: front matter ``title``, else its first heading."""
    try:
        markdown, meta = get_data(file.content_string)
    except (OSError, UnicodeDecodeError):
        return ""
    title = meta.get("title")
    if isinstance(title, str) and title.strip():
        return _plain(title)
    heading = _ATX.search(markdown)
    return _plain(heading.group(1)) if heading else ""


def _page_title(path: str) -> str:
    """The text of a page's first ``<h1>``, without its permalink."""
    return _plain(html.unescape(built_heading(path) or ""))


def built_heading(path: str) -> str | None:
    """The first ``<h1>`` of the built page at ``path`` as HTML text (tags and its
    permalink stripped, entities kept, white space collapsed), as MkDocs keeps a title
    taken from a heading; None: no such heading, or no such file."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fd:
            text = fd.read()
    except OSError:
        return None
    heading = _H1.search(text)
    if heading is None:
        return None
    return _plain(_TAG.sub("", _HEADERLINK.sub("", heading.group(1)))) or None


def _plain(text: str) -> str:
    """Whitespace collapsed, so the Markdown and the HTML compare equal."""
    return _SPACE.sub(" ", text).strip()
