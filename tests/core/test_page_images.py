"""The images a page's content shows (``core.page.html``)."""

from __future__ import annotations

from mkdocs_sitemap_pro.core.page.html import content_element, content_images
from mkdocs_sitemap_pro.core.protocol import MAX_IMAGES

PAGE = "https://example.com/docs/guide/setup/"


def test_src_resolved_against_the_page_own_host_once_each() -> None:
    content = "".join([
        '<img alt="src=fake.png" src="../img/a.png">',  # "src=" inside another attribute
        "<IMG SRC='b.png#zoom' data-src='lazy.png'>",  # the fragment is no other image
        '<img data-src="only-lazy.png">',
        '<img srcset="wide.png 2x">',
        "<img src=/root.svg>",
        '<img src="data:image/png;base64,AAAA">',
        '<img src="https://cdn.example.org/c.png">',
        '<img src="http://example.com/docs/other-scheme.png">',
        '<img src="https://example.com:8443/docs/other-port.png">',
        '<img src="b.png">',
        '<img src="q.png?a=1&amp;b=2">',
    ])
    assert content_images(content, PAGE).urls == (
        "https://example.com/docs/guide/img/a.png",
        "https://example.com/docs/guide/setup/b.png",
        "https://example.com/root.svg",
        "https://example.com/docs/guide/setup/q.png?a=1&b=2",
    )


def test_at_most_max_images_the_rest_counted() -> None:
    content = "".join(f'<img src="{n}.png">' for n in range(MAX_IMAGES + 3))
    found = content_images(content, PAGE)
    assert len(found.urls) == MAX_IMAGES and found.beyond == 3
    assert found.urls[0] == PAGE + "0.png"


def test_content_element_of_a_built_page() -> None:
    material = ('<html><body><header><img src="logo.png"></header><main>'
                '<article class="md-content__inner md-typeset"><h1>T</h1>'
                '<article class="md-post"><img src="post.png"></article><img src="own.png">'
                '</article><img src="after.png"></main></body></html>')
    assert content_element(material) == (
        '<h1>T</h1><article class="md-post"><img src="post.png"></article><img src="own.png">')
    assert content_element('<nav><img src="n.png"></nav><main><p>x</p></main>') == "<p>x</p>"
    assert content_element('<div role="main"><div>in</div></div><div>out</div>') == "<div>in</div>"
    assert content_element("<p>no landmark</p>") == "<p>no landmark</p>"
