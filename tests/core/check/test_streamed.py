"""Issue 54, item 9: a sitemap is read streaming, and judged as if it were read whole.

A 60 MB sitemap took 357 s and ~2 GB under ``check``: its tree and a copy of it for the
schema were held at once. ``streamed.read_streamed`` drops each child of the root once
it is read and validated (in batches of ``BATCH``). These tests hold it to that (the
elements held at any time stay near one batch) and to giving what one validation of
the whole document gives, also where a batch ends.
"""

from __future__ import annotations

import copy
import datetime as dt
from typing import cast

import pytest
from lxml import etree

from mkdocs_sitemap_pro.core.check.streamed import BATCH, Reading, _schema, read_streamed
from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry
from mkdocs_sitemap_pro.core.protocol import SITEMAP_NS
from mkdocs_sitemap_pro.core.reader import SitemapReadError, parse_document
from mkdocs_sitemap_pro.core.writer import WriteOptions, write_sitemaps

SITE = "https://example.com/"
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
ROOT = (f'<urlset xmlns="{SITEMAP_NS}" xmlns:xhtml="http://www.w3.org/1999/xhtml" '
        'xmlns:o="urn:other"')
LINK = '<xhtml:link rel="alternate" hreflang="en" href="{loc}"/>'


def whole_document(data: bytes) -> list[str]:
    """The schema's messages as the checker gave them before: the whole tree, copied,
    extension elements removed from each child of the root, validated once, first five."""
    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    tree = copy.deepcopy(root)
    for child in tree:
        for element in list(child):
            if isinstance(element.tag, str) and etree.QName(element).namespace != SITEMAP_NS:
                child.remove(element)
    schema = _schema("siteindex.xsd" if etree.QName(root).localname == "sitemapindex"
                     else "sitemap.xsd")
    try:
        if schema.validate(tree):
            return []
    except etree.XMLSchemaValidateError as failure:
        return [f"cannot be validated: {failure}"]
    return [f"line {e.line}: {e.message}" for e in cast(list, list(schema.error_log))[:5]]


def good(n: int) -> str:
    loc = f"{SITE}p{n}/"
    return f"<url><loc>{loc}</loc><lastmod>2024-01-02</lastmod>{LINK.format(loc=loc)}</url>\n"


def urlset(children: list[str], attributes: str = "", text: str = "\n") -> bytes:
    return (HEAD + ROOT + attributes + ">" + text + "".join(children) + "</urlset>\n").encode()


def many(n: int, **replaced: str) -> list[str]:
    """``n`` valid children, some replaced (by position, ``at_<i>``)."""
    children = [good(i) for i in range(n)]
    for key, value in replaced.items():
        children[int(key.removeprefix("at_"))] = value
    return children


BAD_LOC = "<url><loc>x</loc></url>\n"
CASES = {
    "valid, with alternates": urlset(many(2 * BATCH + 500)),
    "bad locs around a batch's end": urlset(many(2 * BATCH + 10, **{
        f"at_{BATCH - 2}": BAD_LOC, f"at_{BATCH - 1}": BAD_LOC, f"at_{BATCH}": BAD_LOC,
        f"at_{BATCH + 1}": BAD_LOC})),
    "an unexpected child of the root, then nothing is validated": urlset(many(3 * BATCH, **{
        f"at_{BATCH + 500}": "<o:x/>\n", f"at_{BATCH + 600}": BAD_LOC,
        f"at_{2 * BATCH + 10}": BAD_LOC})),
    "an unexpected child first in a batch": urlset(many(2 * BATCH, **{
        f"at_{BATCH}": "<o:x/>\n"})),
    "an unexpected child in the sitemap namespace first in a batch": urlset(many(
        2 * BATCH, **{f"at_{BATCH}": "<page/>\n"})),
    "an other namespace before any url": urlset(["<o:x/>\n", *many(2 * BATCH)]),
    "a url without loc first in a batch": urlset(many(2 * BATCH, **{
        f"at_{BATCH}": "<url><lastmod>2024-01-02</lastmod></url>\n"})),
    "an extension element before loc": urlset(many(BATCH + 5, **{
        f"at_{BATCH + 1}": f'<url>{LINK.format(loc=SITE)}<loc>{SITE}</loc></url>\n'})),
    "an attribute and text on the root, text across batches": urlset(many(
        2 * BATCH + 3, **{f"at_{BATCH - 1}": good(1).rstrip() + "text\n",
                          f"at_{BATCH}": good(2).rstrip() + "more\n"}),
        attributes=' a="1"', text="lead"),
    "an empty urlset": urlset([]),
    "five errors, then an entity reference in a later batch": (
        HEAD + '<!DOCTYPE urlset [<!ENTITY a "b">]>\n' + ROOT + ">"
        + "".join(many(2 * BATCH + 5, **{f"at_{i}": BAD_LOC for i in range(6)},
                       **{f"at_{2 * BATCH}": f"<url><loc>{SITE}&a;</loc></url>"}))
        + "</urlset>\n").encode(),
    "an entity reference among the root's children": (
        HEAD + '<!DOCTYPE urlset [<!ENTITY a "b">]>\n'
        + ROOT + ">&a;" + "".join(many(BATCH + 5)) + "&a;</urlset>\n").encode(),
    "a urlset of one batch": urlset(many(BATCH)),
    "an index, a bad lastmod first in a batch": (
        HEAD + f'<sitemapindex xmlns="{SITEMAP_NS}">\n'
        + "".join(f"<sitemap><loc>{SITE}s{i}.xml</loc>"
                  f"<lastmod>{'2024-13-45' if i == BATCH else '2024-01-02'}</lastmod></sitemap>\n"
                  for i in range(BATCH + 20))
        + "</sitemapindex>\n").encode(),
}


@pytest.mark.parametrize("name", list(CASES))
def test_batches_say_what_one_validation_says(name):
    data = CASES[name]
    streamed = read_streamed(data)
    assert list(streamed.schema_errors) == whole_document(data)
    assert streamed.file == parse_document(data).file


def test_a_line_past_65535_is_named():
    """The copy validated before lost the line numbers libxml2 keeps apart past 65,535
    ("line 0"); the elements validated now are the parsed ones: the real line."""
    data = urlset(many(3 * BATCH, **{f"at_{3 * BATCH - 1}": BAD_LOC}), text="\n" * 70_000)
    before = whole_document(data)
    assert len(before) == 1 and before[0].startswith("line 0: ")
    assert read_streamed(data).schema_errors == ("line 73001: " + before[0][len("line 0: "):],)


def test_a_large_sitemap_is_never_held_whole(tmp_path):
    """20,000 URLs (4 MB, ten alternates each), written by the project's writer: the
    elements held while reading stay near one batch, whatever the file's size."""
    langs = ["en", "fr", "de", "es", "it", "pt", "nl", "pl", "ja", "zh"]
    entries = []
    for page in range(2_000):
        group = {lang: f"{SITE}{lang}/p{page}/" for lang in langs}
        alternates = tuple(Alternate(lang, loc) for lang, loc in group.items())
        entries += [SitemapEntry(loc, dt.date(2024, 1, 2), alternates=alternates)
                    for loc in group.values()]
    write_sitemaps(entries, tmp_path, SITE, WriteOptions(gzip=False))
    data = (tmp_path / "sitemap.xml").read_bytes()
    seen: list[Reading] = []
    streamed = read_streamed(data, progress=seen.append, every=500)
    assert len(streamed.file.entries) == 20_000 and streamed.schema_errors == ()
    assert len(seen) == 40 and seen[-1].children == 20_000
    assert max(r.held for r in seen) <= BATCH + 500, [r.held for r in seen]
    # an hreflang group's alternates are one tuple, shared by its ten pages
    assert len({id(e.alternates) for e in streamed.file.entries}) == 2_000


@pytest.mark.parametrize("data", [
    b"",
    b"<urlset",
    b"garbage",
    (HEAD + ROOT + ">" + good(1) + "<url><loc>").encode(),
    (HEAD + ROOT + "><url><loc>a</loc>" + "<x>" * 300 + "</x>" * 300 + "</url></urlset>").encode(),
    (HEAD + ROOT + "/><urlset/>").encode(),
    (HEAD + "<html><p>x</html>").encode(),
])
def test_a_broken_file_is_told_as_a_whole_parse_tells_it(data):
    with pytest.raises(SitemapReadError) as whole:
        parse_document(data)
    with pytest.raises(SitemapReadError) as streamed:
        read_streamed(data)
    assert str(streamed.value) == str(whole.value)
