"""Reading one sitemap for the checker without holding its element tree.

A 50 MB sitemap is half a million elements or more: as a tree (and a copy of it for the
schema) it took gigabytes. Here lxml's ``iterparse`` (the same safe parser options as
``core.reader``) hands each child of the root over as soon as it and the text after it
are complete; its entry is read, and it is schema-validated in batches of
``BATCH`` children, then dropped. What the checker keeps is the file's entries (their
texts, repeated strings shared), a digest of its XML, and the schema's first messages.

The batches give the messages one validation of the whole document gives (the checks
in ``_Schema`` say how): extension elements (``xhtml:link``, image, news) are set aside
first, as before, since the official schemas accept other namespaces only strictly.
A file that is not well-formed is parsed once more, building nothing, for the very
message a whole-document parse gives.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib.resources import files
from typing import cast

from lxml import etree

from mkdocs_sitemap_pro.core.entry import Alternate
from mkdocs_sitemap_pro.core.protocol import SITEMAP_NS, XHTML_NS
from mkdocs_sitemap_pro.core.reader import (
    DEFAULT_EXPAND_LIMIT,
    ReadEntry,
    SitemapFile,
    SitemapReadError,
    decompress,
    entry_of,
    is_gzip,
    syntax_message,
)

__all__ = ["BATCH", "Progress", "Reading", "StreamedDocument", "read_streamed"]

#: Children of the root validated (and then dropped) together.
BATCH = 1_000
#: Schema messages kept for one file (the rest are not shown).
SCHEMA_ERRORS_SHOWN = 5



@dataclass(frozen=True)
class Reading:
    """How far reading a file has got: the root's children read, the bytes parsed (of
    ``size``), and the elements held meanwhile (children waiting for validation, and
    those the parser has built ahead)."""

    children: int
    done: int
    size: int
    held: int


#: Told how far reading has got, every so many children of the root.
Progress = Callable[[Reading], None]


@dataclass(frozen=True)
class StreamedDocument:
    """A sitemap read by ``read_streamed``: its values, the SHA-256 of its XML (a
    ``.gz`` expanded), and the schema's messages (at most ``SCHEMA_ERRORS_SHOWN``)."""

    file: SitemapFile
    digest: bytes
    schema_errors: tuple[str, ...]


@lru_cache(maxsize=None)
def _schema(name: str) -> etree.XMLSchema:
    data = files("mkdocs_sitemap_pro.core.check").joinpath("schemas", name).read_bytes()
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    return etree.XMLSchema(etree.fromstring(data, parser))


class _NoTree:
    """A parser target that builds nothing: parsing only to learn where it fails."""

    def close(self) -> None:
        return None




def _whole_document_error(data: bytes, streamed: etree.XMLSyntaxError) -> SitemapReadError:
    """The error a whole-document parse reports: ``iterparse`` words some differently
    ("no element found" for "Document is empty"). A limit of the tree being built
    (depth, a huge text node) is the streamed parse's: a parse that builds nothing
    checks it one level later, or not at all."""
    if "Excessive depth" in str(streamed.msg or streamed):
        return SitemapReadError(syntax_message(streamed))
    try:
        parser = etree.XMLParser(  # the options of ``core.reader``
            target=cast("etree.ParserTarget", _NoTree()), resolve_entities=False,
            load_dtd=False, dtd_validation=False, no_network=True, huge_tree=False,
            remove_comments=True, remove_pis=True)
        etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        return SitemapReadError(syntax_message(error))
    return SitemapReadError(syntax_message(streamed))


class _Schema:
    """Validates the root's children batch by batch, as one validation would.

    Each batch is a copy of the root (its attributes and leading text in the first
    batch only) holding the batch's children. What one validation carries from one
    child to the next is kept between batches: once a ``url`` (``sitemap``) child has
    been seen, a valid one stands first in the next batch, so that the content model is
    where it was; "missing child" on the root is judged only at the end; once a child
    of the root is "not expected", libxml2 validates no later child, so no later batch
    is validated. Past the messages kept, batches are still validated: a later one that
    cannot be (an entity reference) makes that the only message, as it did.
    """

    def __init__(self, root: etree._Element, child: str) -> None:
        self.schema = _schema("siteindex.xsd" if child == "sitemap" else "sitemap.xsd")
        self.root = root
        self.shell = etree.Element(root.tag, attrib=cast("dict[str, str]", dict(root.attrib)),
                                   nsmap=cast("dict[str, str]", root.nsmap))
        self.shell.sourceline = root.sourceline
        self.has_text = False  # the root's leading text, complete once a child starts
        self.child_tag = f"{{{SITEMAP_NS}}}{child}"
        self.seen_child = False
        self.batches = 0
        self.messages: list[str] = []
        self.stopped = False  # no later child is validated

    def add(self, element: etree._Element) -> None:
        """Take a complete child of the root (its tail included), extensions set aside."""
        for sub in list(element):
            if isinstance(sub.tag, str) and etree.QName(sub).namespace != SITEMAP_NS:
                element.remove(sub)
        self._take_text()
        self.shell.append(element)
        if len(self.shell) >= BATCH:
            self.validate(last=False)

    def _take_text(self) -> None:
        if not self.has_text:
            self.shell.text, self.has_text = self.root.text, True

    def validate(self, last: bool) -> None:
        """Validate the children taken since the last batch; drop them."""
        self._take_text()
        shell = self.shell
        if self.stopped or (not last and len(shell) == 0):
            del shell[:]
            return
        if self.seen_child and self.batches > 0:
            stand_in = etree.Element(self.child_tag)
            etree.SubElement(stand_in, f"{{{SITEMAP_NS}}}loc").text = "https://example.com/"
            shell.insert(0, stand_in)
        self.seen_child = self.seen_child or any(c.tag == self.child_tag for c in shell)
        try:
            self.schema.validate(shell)
        except etree.XMLSchemaValidateError as failure:  # e.g. unresolved entity references
            self.messages = [f"cannot be validated: {failure}"]
            self.stopped = True
        else:
            log = cast("Iterable[etree._LogEntry]", self.schema.error_log)  # stubs miss __iter__
            for error in log:
                depth = error.path.count("/")
                if not last and depth == 1 and "Missing child element(s)" in error.message:
                    continue  # the root's children go on in the next batch
                if len(self.messages) < SCHEMA_ERRORS_SHOWN:
                    self.messages.append(f"line {error.line}: {error.message}")
                if depth == 2 and "This element is not expected" in error.message:
                    self.stopped = True  # libxml2 validates no later child of the root
        self.batches += 1
        del shell[:]
        shell.text = None
        shell.attrib.clear()


class _Strings:
    """Shares equal alternates between entries: an hreflang group lists the same
    alternates on each of its pages, and each ``href`` is another entry's ``loc``."""

    def __init__(self) -> None:
        self.groups: dict[tuple[Alternate, ...], tuple[Alternate, ...]] = {}
        self.texts: dict[str, str] = {}

    def entry(self, entry: ReadEntry) -> ReadEntry:
        if not entry.alternates:
            return entry
        shared = self.groups.get(entry.alternates)
        if shared is None:
            text = self.texts.setdefault
            shared = tuple(Alternate(text(a.hreflang, a.hreflang), text(a.href, a.href))
                           for a in entry.alternates)
            self.groups[shared] = shared
        return replace(entry, alternates=shared)


def read_streamed(data: bytes, *, expand_limit: int = DEFAULT_EXPAND_LIMIT,
                  schema: bool = True, urls: bool = True, progress: Progress | None = None,
                  every: int = 10_000) -> StreamedDocument:
    """Parse sitemap bytes (gzip detected by its magic number) as ``parse_document``
    does, without keeping the tree; validate them unless ``schema`` is False; keep a
    urlset's entries unless ``urls`` is False (a ``.gz`` twin is compared by its digest:
    its file then lists none); ``progress`` is called every ``every`` children of the root."""
    if is_gzip(data):
        data = decompress(data, expand_limit)
    reader = _StreamReader(data, schema, urls, progress, every)
    events = etree.iterparse(  # the options of ``core.reader``
        reader.stream, events=("start", "end"), resolve_entities=False, load_dtd=False,
        dtd_validation=False, no_network=True, huge_tree=False, remove_comments=True,
        remove_pis=True)
    try:
        reader.read(events)
    except etree.XMLSyntaxError as error:
        raise _whole_document_error(data, error) from None
    return reader.document()


class _StreamReader:
    """One streamed read: the root's children taken one at a time as each is complete
    (its entry kept, the element handed to the schema or dropped)."""

    def __init__(self, data: bytes, schema: bool, urls: bool, progress: Progress | None,
                 every: int) -> None:
        self.data, self.validate, self.urls = data, schema, urls
        self.progress, self.every = progress, every
        self.stream = io.BytesIO(data)
        self.root: etree._Element | None = None
        self.kind: str | None = None
        self.batches: _Schema | None = None
        self.wanted: set[str] = set()
        self.child_name = ""
        self.entries: list[ReadEntry] = []
        self.strings = _Strings()
        self.namespace_error: str | None = None
        self.count = 0

    def read(self, events: Iterable[tuple[str, etree._Element]]) -> None:
        """Go through the parser's events; each child of the root is taken once the next
        one ends (the text after it is complete then)."""
        pending: etree._Element | None = None
        depth = 0
        for event, element in events:
            if event == "start":
                depth += 1
                if depth == 1:
                    self._opened(element)
                continue
            depth -= 1
            if depth != 1 or self.kind is None:
                continue  # inside a child; or not a sitemap: read on, for a syntax error
            if pending is not None:
                self._take(pending)
            pending = element
        if pending is not None and self.kind is not None:
            self._take(pending)
        if self.root is not None and self.kind is not None:
            for rest in list(self.root):  # entity references after the last element
                self._leave(rest)

    def _opened(self, root: etree._Element) -> None:
        """The root element: which sitemap it is, and its schema if it is one."""
        self.root = root
        name = etree.QName(root)
        if name.localname not in ("urlset", "sitemapindex"):
            return
        self.kind = name.localname
        self.child_name = "url" if self.kind == "urlset" else "sitemap"
        self.wanted = {self.child_name, f"{{{name.namespace}}}{self.child_name}"}
        if name.namespace != SITEMAP_NS:
            self.namespace_error = f"the root element is not in the namespace {SITEMAP_NS}"
        elif self.validate:
            self.batches = _Schema(root, self.child_name)

    def _leave(self, node: etree._Element) -> None:
        """Hand a complete child of the root to the schema, or drop it."""
        if self.batches is not None:
            self.batches.add(node)
        else:
            cast(etree._Element, node.getparent()).remove(node)

    def _take(self, element: etree._Element) -> None:
        """A complete child of the root: its entry kept (if wanted), then let go."""
        tag = element.tag
        if (self.urls or self.kind == "sitemapindex") and isinstance(tag, str) and (
                tag in self.wanted or etree.QName(element).localname == self.child_name):
            self.entries.append(self.strings.entry(entry_of(element)))
        for before in reversed(list(element.itersiblings(preceding=True))):
            self._leave(before)  # not an element (an entity reference): the ones before are gone
        self._leave(element)
        self.count += 1
        if self.progress is not None and self.count % self.every == 0:
            assert self.root is not None
            held = len(self.root) + (len(self.batches.shell) if self.batches is not None else 0)
            self.progress(Reading(self.count, self.stream.tell(), len(self.data), held))

    def document(self) -> StreamedDocument:
        """What was read, once the parser is done; ``SitemapReadError`` if no sitemap."""
        root, kind = self.root, self.kind
        if root is None:
            raise SitemapReadError("no XML element found")
        if kind is None:
            raise SitemapReadError(
                f"the root element is <{etree.QName(root).localname}>, not <urlset> or <sitemapindex>")
        if self.batches is not None:
            self.batches.validate(last=True)
        parsed = SitemapFile(
            kind=kind,  # type: ignore[arg-type]  # one of the two, checked above
            namespace=etree.QName(root).namespace,
            entries=tuple(self.entries),
            size=len(self.data),
            declares_xhtml=XHTML_NS in (root.nsmap or {}).values(),
        )
        errors = ([self.namespace_error] if self.namespace_error
                  else (self.batches.messages if self.batches else []))
        return StreamedDocument(parsed, hashlib.sha256(self.data).digest(),
                                tuple(errors[:SCHEMA_ERRORS_SHOWN]))
