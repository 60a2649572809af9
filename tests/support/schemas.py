"""Schema validation of written sitemaps, against the official sitemaps.org XSDs.

The schemas are copied into ``tests/schemas/`` (with their licence note) so that a clone
alone runs the tests. A ``<urlset>`` is validated by ``sitemap.xsd`` together with
Google's image extension (``sitemap-image.xsd``): ``sitemap.xsd`` takes elements of
other namespaces only strictly, so ``image:image`` validates only with its schema loaded.
"""

from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path

from lxml import etree

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
SM = f"{{{NS}}}"
IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"
IM = f"{{{IMAGE_NS}}}"
# A schema of no namespace of its own that loads both: the urlset and its image elements.
_URLSET_WITH_IMAGES = f"""<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <xsd:import namespace="{NS}" schemaLocation="sitemap.xsd"/>
  <xsd:import namespace="{IMAGE_NS}" schemaLocation="sitemap-image.xsd"/>
</xsd:schema>
"""


@lru_cache(maxsize=None)
def _schema(name: str) -> etree.XMLSchema:
    if name == "urlset":
        wrapper = etree.fromstring(_URLSET_WITH_IMAGES.encode(),
                                   base_url=(SCHEMAS / "urlset.xsd").as_uri())
        return etree.XMLSchema(wrapper)
    return etree.XMLSchema(etree.parse(str(SCHEMAS / name)))


def parse_sitemap(path: Path) -> etree._Element:
    """Parse a written sitemap file (``.xml`` or ``.xml.gz``) and validate it.

    A ``<urlset>`` is validated against ``sitemap.xsd`` (with the image extension's
    schema) and a ``<sitemapindex>`` against ``siteindex.xsd``; anything else fails.
    Returns the root element.
    """
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    if root.tag == f"{SM}urlset":
        schema = _schema("urlset")
    elif root.tag == f"{SM}sitemapindex":
        schema = _schema("siteindex.xsd")
    else:
        raise AssertionError(f"{path.name}: unexpected root element {root.tag}")
    if not schema.validate(root):
        raise AssertionError(f"{path.name} fails the official schema: {schema.error_log}")
    return root


def urls_of(root: etree._Element) -> list[dict[str, str]]:
    """The ``<url>`` (or ``<sitemap>``) children of a parsed sitemap as plain dicts."""
    out = []
    for child in root:
        out.append({etree.QName(field).localname: (field.text or "") for field in child})
    return out


def images_of(root: etree._Element) -> dict[str, list[str]]:
    """Each ``<url>``'s loc -> the ``image:loc`` texts of its ``image:image`` elements."""
    return {
        url.findtext(f"{SM}loc", ""): [image.findtext(f"{IM}loc", "")
                                       for image in url.iter(f"{IM}image")]
        for url in root
    }
