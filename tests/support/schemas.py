"""Schema validation of written sitemaps, against the official sitemaps.org XSDs.

The schemas are copied into ``tests/schemas/`` (with their licence note) so that a clone
alone runs the tests.
"""

from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path

from lxml import etree

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
SM = f"{{{NS}}}"


@lru_cache(maxsize=None)
def _schema(name: str) -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(SCHEMAS / name)))


def parse_sitemap(path: Path) -> etree._Element:
    """Parse a written sitemap file (``.xml`` or ``.xml.gz``) and validate it.

    A ``<urlset>`` is validated against ``sitemap.xsd`` and a ``<sitemapindex>`` against
    ``siteindex.xsd``; anything else fails. Returns the root element.
    """
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    if root.tag == f"{SM}urlset":
        schema = _schema("sitemap.xsd")
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
