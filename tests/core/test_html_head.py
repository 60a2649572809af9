"""read_head's quick paths (str.find for the head's end and the needles, attributes read
by splitting at quotes) say what the patterns alone say, on any head."""

import html
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mkdocs_sitemap_pro.core.page.html import (
    HeadDirectives,
    add_meta_property,
    read_head,
    robots_forbids_indexing,
)

# The slow, sure reading, written apart from the module: the head ends at the first
# </head> or <body>; every meta and link tag is read with one pattern for attributes.
_END = re.compile(r"</head\s*>|<body[\s>]", re.IGNORECASE)
_TAG = re.compile(r"<(meta|link)\b([^>]*)>", re.IGNORECASE)
_ATTR = re.compile(r"""([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")


def reference(page: str) -> HeadDirectives:
    end = _END.search(page)
    head = page[: end.start()] if end else page
    noindex = refresh = False
    canonical = None
    for tag in _TAG.finditer(head):
        attrs: dict[str, str] = {}
        for name, dq, sq, bare in _ATTR.findall(tag.group(2)):
            attrs.setdefault(name.lower(), html.unescape(dq or sq or bare))
        if tag.group(1).lower() == "meta":
            if attrs.get("name", "").lower() in ("robots", "googlebot") and \
                    robots_forbids_indexing(attrs.get("content", "")):
                noindex = True
            elif attrs.get("http-equiv", "").lower() == "refresh":
                refresh = True
        elif canonical is None and "canonical" in attrs.get("rel", "").lower().split():
            canonical = attrs.get("href")
    return HeadDirectives(noindex, canonical, refresh)


_NAMES = st.sampled_from([
    "rel", "REL", "href", "name", "Name", "content", "http-equiv", "HTTP-EQUIV", "property",
    "data-x", "disabled", "a_b", "x:y", "", "x\"rel",
])
_VALUES = st.sampled_from([
    "canonical", "Canonical alternate", "robots", "GoogleBot", "noindex", "NoIndex, follow",
    "refresh", "/a/", "https://e.com/x?a=1&amp;b=2", "x<y", "", "a b",
])
_SPACE = st.sampled_from(["", " ", "  ", "\n", "\t"])
_QUOTE = st.sampled_from(['"', "'", ""])


@st.composite
def attribute(draw: st.DrawFn) -> str:
    quote = draw(_QUOTE)
    name, value = draw(_NAMES), draw(_VALUES)
    if draw(st.booleans()):
        return draw(_SPACE) + name
    return f"{draw(_SPACE)}{name}{draw(_SPACE)}={draw(_SPACE)}{quote}{value}{quote}"


@st.composite
def tag(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["meta", "META", "link", "Link", "link_", "linkx", "meta-x",
                                 "title", "li\u0130nk"]))
    attrs = "".join(draw(st.lists(attribute(), max_size=4)))
    return f"<{kind}{draw(_SPACE)}{attrs}{draw(st.sampled_from(['>', '/>', ' />', '']))}"


_PIECES = st.one_of(
    tag(),
    st.sampled_from(["<head>", "</head>", "</HEAD >", "</head", "<body>", "<BODY\n>", "<bodyx>",
                     "<title>robots canonical</title>", "<!-- refresh -->", "text", "\u0130",
                     "\u212a", "<", ">", '"', "'"]),
)


@settings(max_examples=600)
@given(st.lists(_PIECES, max_size=12).map("".join))
@example('<head><link rel="canonical"href="/a/"></head>')  # no space between: the pattern
@example('<head><link REL="canonical" HREF="/a/"></head>')
@example('<head><link_ rel="canonical" href="/a/"><link rel=canonical href=/b/></head>')
@example('<head>\u0130\u0130\u0130\u0130<link rel="canonical" href="/a/"></head>')  # lowering lengthens
@example('<meta<link rel="canonical" href="/a/">')  # a "<" inside a tag starts none
# A theme's canonical link, read without the attribute parser, and near misses of it.
@example('<head><LINK rel="canonical" href="/a/" /><link rel="canonical" href="/b/"></head>')
@example('<head><meta rel="canonical" href="/a/"><link rel="canonical" href="/a&amp;b/"></head>')
@example('<head><link rel="canonical" href="/a/" href="/b/"></head>')
@example('<head><link rel="canonical"  href="/a/"/ ></head>')
@example('<head><link rel="canonical" href="/a/>"></head>')  # a ">" in the href ends the tag
@example('<head><link rel="canonical" href="/a/" ></head>')
# An end written otherwise, before the first </head>: within the last tag read, or before it.
@example('<head><link rel="canonical" href="/a/"</HEAD ><link rel="canonical" href="/b/"></head>')
@example('<head><meta name="robots" content="noindex"><BODY><link rel="canonical" href="/a/"></head>')
@example('<head><link rel="canonical" href="/a/"></HEAD><meta name="robots" content="none"></head>')
def test_the_quick_reading_is_the_sure_one(page: str) -> None:
    assert read_head(page) == reference(page)


def test_a_theme_head_is_read_the_quick_way_and_right() -> None:
    page = ('<html><head>\n<meta charset="utf-8">\n<link rel="canonical" '
            'href="https://e.com/docs/a/">\n<link rel="stylesheet" href="x.css">\n'
            '<meta name="robots" content="noindex, follow" />\n</head><body></body></html>')
    assert read_head(page) == HeadDirectives(True, "https://e.com/docs/a/", False)


def test_a_meta_property_is_added_once_with_its_content_escaped() -> None:
    page = "<html><head><title>T</title></head><body>x</body></html>"
    changed, existing = add_meta_property(page, "article:modified_time", "2024-02-29T13:05:09+00:00")
    assert existing is None
    assert changed == page.replace("</head>", '<meta property="article:modified_time" '
                                   'content="2024-02-29T13:05:09+00:00">\n</head>')
    odd, _ = add_meta_property(page, "og:title", "A & \"B\" <C> 'D'")
    assert 'content="A &amp; &quot;B&quot; &lt;C&gt; &#x27;D&#x27;"' in odd
    again, existing = add_meta_property(changed, "article:modified_time", "2025-01-01")
    assert again == changed and existing == "2024-02-29T13:05:09+00:00"
