"""Fingerprints of rendered content, the rule of later deploys, and the manifest's pages."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from mkdocs_sitemap_pro.core.deploy.manifest import (
    Manifest,
    ManifestError,
    RenderedPages,
    manifest_bytes,
    page_key,
    parse_manifest,
)
from mkdocs_sitemap_pro.core.dating import LastDeploy, later_date
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions, Known
from mkdocs_sitemap_pro.core.page.fingerprint import (
    FINGERPRINT_CHARS,
    content_of,
    fingerprint,
)

UTC = dt.timezone.utc
T1 = dt.datetime(2024, 1, 2, 10, tzinfo=UTC)
T2 = dt.datetime(2024, 1, 11, 10, tzinfo=UTC)
T3 = dt.datetime(2024, 2, 1, 10, tzinfo=UTC)


def same(a: str, b: str) -> bool:
    return fingerprint([a]) == fingerprint([b])


@pytest.mark.parametrize("a, b", [
    ("<p>a b c</p>", "<p>a\n  b\r\nc</p>"),  # re-wrapped, CRLF
    ("<p>words.</p>\n<p>more</p>", "<p>words. </p>\n\n\n<p>more</p>"),  # blanks at a block's edge
    ('<a href="x" class="c">l</a>', '<a class="c" href="x">l</a>'),  # attribute order
    ("<pre><code>x = 1   \ny\n</code></pre>", "<pre><code>x = 1\ny\n</code></pre>"),  # line-end blanks
    ('<pre><code><span class="n">x</span><span class="w">  </span>\n</code></pre>',
     '<pre><code><span class="n">x</span>\n</code></pre>'),  # a highlighter's blank span
    ("<p>a</p><!-- NOTE: old -->", "<p>a</p><!-- NOTE: new\nlines -->"),  # comments
    ("<code>auth=&lt;Default object at 0x7fa90ea203d0&gt;</code><em>x=<D object at 0x7f1></em>",
     "<code>auth=&lt;Default object at 0x7f0000000001&gt;</code><em>x=<D object at 0x9ab></em>"),
])
def test_what_renders_the_same_hashes_the_same(a: str, b: str) -> None:
    assert same(a, b)


@pytest.mark.parametrize("a, b", [
    ("<p>One word.</p>", "<p>One other word.</p>"),
    ("<pre><code>if x:\n    y\n</code></pre>", "<pre><code>if x:\n  y\n</code></pre>"),  # indentation
    ("<p>a b</p>", "<p>ab</p>"),  # a space between words
    ('<a href="x">l</a>', '<a href="y">l</a>'),
])
def test_what_renders_differently_hashes_differently(a: str, b: str) -> None:
    assert not same(a, b)


def test_a_space_beside_a_tag_counts_as_none() -> None:
    # Beside a block's edge it renders as nothing; between two inline elements it is
    # lost too (a documented price of the fast pass).
    assert same("<p> a </p>", "<p>a</p>") and same("<em>a</em> <em>b</em>", "<em>a</em><em>b</em>")


def test_parts_do_not_run_into_each_other() -> None:
    assert fingerprint(["ab", "c"]) != fingerprint(["a", "bc"])
    assert len(fingerprint(["x"])) == FINGERPRINT_CHARS


def test_the_content_of_a_built_page_leaves_out_chrome_and_its_date() -> None:
    page = ('<html><body><nav>Home</nav><article class="md-content__inner md-typeset">'
            '<h1>T</h1><article>inner</article><aside class="md-source-file">May 1</aside>'
            '</article><footer>built at 10:00</footer></body></html>')
    assert content_of(page) == "<h1>T</h1><article>inner</article>"
    assert content_of("<body><main><p>x</p></main></body>") == "<p>x</p>"
    assert content_of('<div role="main"><div>a</div>b</div><div>c</div>') == "<div>a</div>b"
    # A blog's listing in Material and Zensical: the content is a div, not the sidebar.
    listing = ('<main class="md-main"><nav>Archive 2026</nav><div class="md-content" data-md-'
               'component="content"><div class="md-content__inner"><h1>Blog</h1><div>post'
               '</div></div></div></main>')
    assert content_of(listing) == "<h1>Blog</h1><div>post</div>"


DEPLOY = LastDeploy(RenderedPages("converted-1", {"k": ("fp", T2), "undated": ("fp", None)}),
                    "c" * 40, Known(T3, "d" * 40))


@pytest.mark.parametrize("key, fp, when, expected", [
    ("k", "fp", T3, (T2, "kept")),  # unchanged: the last deploy's date, whatever git says
    ("k", "other", T3, (T3, "changed")),  # changed, git newer: git's
    ("k", "other", T1, (T3, "redated")),  # changed, git not newer: the commit being built
    ("new", "fp", T1, (T1, "new")),  # no record: git's
    ("undated", "fp", T1, (T1, "new")),  # no date recorded: nothing to keep
])
def test_the_rule_of_later_deploys(key: str, fp: str, when: dt.datetime, expected: tuple) -> None:
    assert later_date(DEPLOY, "converted-1", key, fp, when) == expected


def test_fingerprints_made_another_way_decide_nothing() -> None:
    assert later_date(DEPLOY, "built-1", "k", "fp", T1) == (T1, "new")


def test_the_manifest_keeps_pages_under_40_bytes_each_and_reads_them_back() -> None:
    pages = {page_key(f"p{n}/"): (fingerprint([str(n)]), T2 if n % 2 else None)
             for n in range(1000)}
    manifest = Manifest("c" * 40, HistoryOptions(), {}, frozenset(),
                        RenderedPages("converted-1", pages))
    raw = manifest_bytes(manifest)
    empty = manifest_bytes(manifest._replace(rendered=RenderedPages("converted-1", {})))
    assert (len(raw) - len(empty)) / len(pages) <= 40
    assert raw == json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":")).encode() + b"\n"
    assert parse_manifest(raw).rendered == RenderedPages("converted-1", pages)
    assert parse_manifest(manifest_bytes(manifest._replace(rendered=None))).rendered is None


@pytest.mark.parametrize("pages", [
    {"short": "AAAAAAAAAAA1"}, {"AAAAAAAAAAA": "not a fingerprint"},
    {"AAAAAAAAAAA": "AAAAAAAAAAA0123"}, {"AAAAAAAAAAA": 5}, [],
])
def test_a_page_record_of_the_wrong_shape_refuses_the_manifest(pages: object) -> None:
    data = json.loads(manifest_bytes(Manifest("c" * 40, HistoryOptions(), {})))
    data.update(pages=pages, rendered="converted-1")
    with pytest.raises(ManifestError):
        parse_manifest(json.dumps(data).encode())
