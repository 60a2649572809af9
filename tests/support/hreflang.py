"""Sitemaps with ``xhtml:link`` alternates, checked in two halves.

The official ``sitemap.xsd`` allows foreign elements inside ``<url>`` only laxly, so a
sitemap is validated with the ``xhtml:link`` elements removed, and those elements are
checked on their own: where they sit, their attributes, and that the namespace is
declared exactly in the files that use it.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from lxml import etree

from tests.support.schemas import SCHEMAS, SM

XHTML = "http://www.w3.org/1999/xhtml"
_DECLARATION = f'xmlns:xhtml="{XHTML}"'
_TAG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")

Alternates = dict[str, list[tuple[str, str]]]  # loc -> [(hreflang, href), ...] in file order


def read_with_alternates(path: Path) -> tuple[dict[str, dict[str, str]], Alternates]:
    """A urlset's URLs (``{loc: {field: text}}``, validated without the links) and the
    alternates of each loc that has any."""
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    assert root.tag == f"{SM}urlset", f"{path.name} is not a urlset"
    links = root.findall(f".//{{{XHTML}}}link")
    declared = _DECLARATION in data.decode("utf-8").split(">", 2)[1]
    assert declared == bool(links), f"{path.name}: xmlns:xhtml declared={declared}, links={len(links)}"
    alternates: Alternates = {}
    for link in links:
        parent = link.getparent()
        assert parent is not None and parent.tag == f"{SM}url", "xhtml:link outside <url>"
        assert sorted(link.keys()) == ["href", "hreflang", "rel"], link.attrib
        assert link.get("rel") == "alternate"
        tag = link.get("hreflang") or ""
        assert tag == "x-default" or _TAG.fullmatch(tag), tag
        href = link.get("href") or ""
        assert href.startswith(("https://", "http://")), href
        loc = parent.findtext(f"{SM}loc") or ""
        alternates.setdefault(loc, []).append((tag, href))
        parent.remove(link)
    schema = etree.XMLSchema(etree.parse(str(SCHEMAS / "sitemap.xsd")))
    assert schema.validate(root), f"{path.name} fails the official schema: {schema.error_log}"
    urls = {}
    for url in root:
        fields = {etree.QName(child).localname: child.text or "" for child in url}
        urls[fields["loc"]] = fields
    return urls, alternates
