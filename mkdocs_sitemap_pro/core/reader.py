"""Sitemap files -> values: a reader for ``<urlset>`` and ``<sitemapindex>``, ``.xml`` or ``.gz``.

Used by the writer (to read the previous index before replacing it) and by the checker.
Sitemaps read here may come from anywhere, so parsing is safe by construction: lxml
with a parser that resolves no entities, loads no DTD, reads nothing from the network
and refuses huge trees; gzip data is expanded only up to a cap. Values are kept as the
text the file holds (stripped of surrounding white space), so a checker can judge them.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from lxml import etree

from mkdocs_sitemap_pro.core.entry import Alternate
from mkdocs_sitemap_pro.core.protocol import IMAGE_NS, MAX_BYTES, SITEMAP_NS, XHTML_NS

__all__ = [
    "ReadEntry", "SitemapDocument", "SitemapFile", "SitemapReadError", "decompress",
    "entry_of", "is_gzip", "parse_document", "parse_sitemap", "read_sitemap", "syntax_message",
]

_GZIP_MAGIC = b"\x1f\x8b"
#: How far a ``.gz`` file may expand: the protocol's limit, plus room to see it broken.
DEFAULT_EXPAND_LIMIT = 2 * MAX_BYTES


class SitemapReadError(ValueError):
    """The data is not a sitemap: not XML, not gzip, too large, or another root element."""


@dataclass(frozen=True, slots=True)
class ReadEntry:
    """One ``<url>`` or ``<sitemap>`` child as written: its fields' texts (None if absent)."""

    loc: str
    lastmod: str | None = None
    changefreq: str | None = None
    priority: str | None = None
    alternates: tuple[Alternate, ...] = ()
    images: tuple[str, ...] = ()  # each ``image:image``'s ``image:loc`` text ("" if none)


@dataclass(frozen=True, slots=True)
class SitemapFile:
    """A parsed sitemap file: which kind, its namespace, its children and its size."""

    kind: Literal["urlset", "sitemapindex"]
    namespace: str | None
    entries: tuple[ReadEntry, ...]
    size: int  # bytes of XML (after expanding a .gz)
    declares_xhtml: bool = False

    @property
    def is_index(self) -> bool:
        return self.kind == "sitemapindex"


def _parser(recover: bool) -> etree.XMLParser:
    """A parser that cannot be made to read anything but the bytes it is given."""
    return etree.XMLParser(
        resolve_entities=False,
        load_dtd=False,
        dtd_validation=False,
        no_network=True,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
        recover=recover,
    )


def decompress(data: bytes, limit: int = DEFAULT_EXPAND_LIMIT) -> bytes:
    """Expand gzip ``data``, refusing to produce more than ``limit`` bytes."""
    inflater = zlib.decompressobj(wbits=31)
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error as error:
        raise SitemapReadError(f"not valid gzip data: {error}") from None
    if len(out) > limit:
        raise SitemapReadError(f"expands to more than {limit:,} bytes")
    return out


def parse_sitemap(data: bytes, *, recover: bool = False, expand_limit: int = DEFAULT_EXPAND_LIMIT
                  ) -> SitemapFile:
    """Parse sitemap bytes (gzip detected by its magic number).

    ``recover`` reads what it can of a truncated or broken file (the writer's view of a
    previous index a killed build may have cut short); the checker reads strictly.
    """
    return parse_document(data, recover=recover, expand_limit=expand_limit).file


@dataclass(frozen=True)
class SitemapDocument:
    """A parsed sitemap with what a checker needs beyond its values: the XML bytes (a
    ``.gz`` expanded) and the element tree, for schema validation."""

    file: SitemapFile
    xml: bytes
    root: etree._Element


def is_gzip(data: bytes) -> bool:
    """Whether ``data`` starts as gzip data does (its name may say otherwise)."""
    return data[:2] == _GZIP_MAGIC


def syntax_message(error: etree.XMLSyntaxError) -> str:
    """Where and why XML is not well-formed, said plainly (lxml's text ends with where
    it parsed from, "(<string>, line 4)")."""
    line, column = error.position
    detail = str(error.msg or error).split(", line ")[0]
    return f"not well-formed XML at line {line}, column {column}: {detail}"


def parse_document(data: bytes, *, recover: bool = False,
                   expand_limit: int = DEFAULT_EXPAND_LIMIT) -> SitemapDocument:
    """``parse_sitemap``, keeping the expanded bytes and the tree."""
    if is_gzip(data):
        data = decompress(data, expand_limit)
    try:
        root = etree.fromstring(data, _parser(recover))
    except etree.XMLSyntaxError as error:
        raise SitemapReadError(syntax_message(error)) from None
    if root is None:
        raise SitemapReadError("no XML element found")
    name = etree.QName(root)
    if name.localname not in ("urlset", "sitemapindex"):
        raise SitemapReadError(
            f"the root element is <{name.localname}>, not <urlset> or <sitemapindex>"
        )
    child_name = "url" if name.localname == "urlset" else "sitemap"
    # A child is one of ours by its local name, whatever its namespace (as QName says).
    wanted = {child_name, f"{{{name.namespace}}}{child_name}"}
    entries = tuple(
        entry_of(child) for child in root if isinstance(child.tag, str)
        and (child.tag in wanted or etree.QName(child).localname == child_name)
    )
    parsed = SitemapFile(
        kind=name.localname,  # type: ignore[arg-type]  # checked just above
        namespace=name.namespace,
        entries=entries,
        size=len(data),
        declares_xhtml=XHTML_NS in (root.nsmap or {}).values(),
    )
    return SitemapDocument(parsed, data, root)


def read_sitemap(path: Path | str, *, recover: bool = False,
                 expand_limit: int = DEFAULT_EXPAND_LIMIT) -> SitemapFile:
    """Read and parse the sitemap file at ``path``; ``OSError`` if it cannot be read."""
    return parse_sitemap(Path(path).read_bytes(), recover=recover, expand_limit=expand_limit)


# The tags of the fields read, by their Clark names (``{namespace}name``): looked up
# in a dict, since building a ``QName`` per field was most of the time of a read.
_FIELD_TAGS = {
    tag: name
    for name in ("loc", "lastmod", "changefreq", "priority")
    for tag in (f"{{{SITEMAP_NS}}}{name}", name)
}
_XHTML_LINK = f"{{{XHTML_NS}}}link"
_IMAGE = f"{{{IMAGE_NS}}}image"
_IMAGE_LOC = f"{{{IMAGE_NS}}}loc"


def entry_of(element: etree._Element) -> ReadEntry:
    """The texts of one ``<url>``/``<sitemap>`` child's fields, its alternates and images."""
    fields: dict[str, str] = {}
    alternates: list[Alternate] = []
    images: list[str] = []
    for field in element:
        tag = field.tag
        if not isinstance(tag, str):
            continue
        name = _FIELD_TAGS.get(tag)
        if name is None:
            if tag == _XHTML_LINK:
                if field.get("rel") == "alternate":
                    alternates.append(
                        Alternate(field.get("hreflang") or "", field.get("href") or "")
                    )
                continue
            if tag == _IMAGE:
                loc = field.find(_IMAGE_LOC)
                images.append("" if loc is None else (loc.text or "").strip())
                continue
            qname = etree.QName(field)
            if qname.namespace not in (None, SITEMAP_NS):
                continue  # news:, video: extensions are not ours to read
            name = qname.localname
        if name not in fields:
            fields[name] = (field.text or "").strip()
    return ReadEntry(
        loc=fields.get("loc", ""),
        lastmod=fields.get("lastmod"),
        changefreq=fields.get("changefreq"),
        priority=fields.get("priority"),
        alternates=tuple(alternates),
        images=tuple(images),
    )
