"""``images: true``: each page's entry lists the images its content shows, from real
Material builds (content, navigation and theme images on the same pages)."""

from __future__ import annotations

from lxml import html

from mkdocs_sitemap_pro.core.check import CheckOptions, check
from tests.support.dates import D1, D2
from tests.support.schemas import images_of, parse_sitemap
from tests.support.sites import SITE_URL

PNG = b"\x89PNG\r\n\x1a\n"  # enough of a picture for a build that only copies it
OTHER_HOST = "https://cdn.example.org/badge.png"
DATA_URI = "data:image/png;base64,iVBORw0KGgo="
# The navigation and the header carry an image on every page: the theme's, not the page's.
NAV_OVERRIDE = """{% extends "base.html" %}
{% block site_nav %}<img class="nav-picture" src="{{ 'img/nav.png' | url }}" alt="">{{ super() }}{% endblock %}
"""


def material_site_with_images(site, **options):
    """A Material site whose pages show images in their content, and whose theme (logo)
    and navigation (a template override) show images on every page."""
    site.config.update(theme={"name": "material", "logo": "img/logo.png",
                              "custom_dir": "overrides"},
                       plugins=["search", {"sitemap-pro": options}])
    site.write_config()
    site.repo.write("overrides/main.html", NAV_OVERRIDE)
    (site.root / "docs" / "img").mkdir(parents=True)
    for name in ("logo.png", "nav.png", "shot.png", "abs.png", "été shot.png"):
        (site.root / "docs" / "img" / name).write_bytes(PNG)
    site.page("guide/diagram.svg", "<svg/>")
    site.page("index.md", "# Home\n\n![Shot](img/shot.png)\n\n![Again](img/shot.png)\n")
    site.page("guide/setup.md", "\n".join([
        "# Setup", "",
        "![Diagram](diagram.svg)", "",
        "![Shot](../img/shot.png)", "",
        "![Accented](<../img/été shot.png>)", "",
        f'<img src="{SITE_URL}img/abs.png" alt="absolute, own host">', "",
        # Raw HTML is not rewritten by MkDocs: relative to the page's URL, as a browser reads it.
        '<img src="../../img/shot.png?v=1&amp;w=2" alt="a query">', "",
        f'<img src="{OTHER_HOST}" alt="another host">', "",
        f'<img src="{DATA_URI}" alt="inline">', "",
        '<img data-src="../img/lazy.png" alt="no src">', "",
    ]))
    site.page("plain.md", "# Plain\n\nNo picture here.\n")
    site.commit("first", D1)


def test_only_the_contents_own_host_images_are_listed(site):
    material_site_with_images(site, images=True)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    home = (built.site_dir / "index.html").read_text(encoding="utf-8")
    assert "img/logo.png" in home and "nav-picture" in home  # theme and navigation images

    sitemap = built.site_dir / "sitemap.xml"
    root = parse_sitemap(sitemap)  # validated with the image schema
    assert images_of(root) == {
        SITE_URL: [f"{SITE_URL}img/shot.png"],  # once, though shown twice
        SITE_URL + "guide/setup/": [
            f"{SITE_URL}guide/diagram.svg",
            f"{SITE_URL}img/shot.png",
            f"{SITE_URL}img/%C3%A9t%C3%A9%20shot.png",
            f"{SITE_URL}img/abs.png",
            f"{SITE_URL}img/shot.png?v=1&w=2",
        ],
        SITE_URL + "plain/": [],
    }
    text = sitemap.read_text(encoding="utf-8")
    assert text.splitlines()[1] == (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">')
    assert "img/shot.png?v=1&amp;w=2</image:loc>" in text  # escaped as the protocol demands
    assert "logo.png" not in text and "nav.png" not in text and "cdn.example.org" not in text

    # The view says how many images each URL lists, and links each.
    view = html.fromstring((built.site_dir / "sitemap.html").read_bytes())
    assert "Images" in [th.text_content().strip() for th in view.xpath("//thead//th")]
    cells = {row.xpath("string(td[1]//a/@href)"): row.xpath("td[@data-label='Images']")[0]
             for row in view.xpath("//tbody/tr")}
    assert cells[SITE_URL + "guide/setup/"].get("data-value") == "5"
    assert cells[SITE_URL + "guide/setup/"].xpath("details/a/@href")[0] == (
        f"{SITE_URL}guide/diagram.svg")
    assert cells[SITE_URL + "plain/"].get("data-value") == "0"

    # The checker reads them and finds nothing wrong.
    report = check(str(built.site_dir), CheckOptions(site_url=SITE_URL))
    assert [f for f in report.findings if f.rule.startswith("image")] == []
    assert report.errors == []


def test_dirty_build_reads_unrendered_pages_images_from_their_content_element(site):
    material_site_with_images(site, images=True)
    first = site.build()
    assert first.error is None, first.messages()
    expected = images_of(parse_sitemap(first.site_dir / "sitemap.xml"))
    assert len(expected[SITE_URL + "guide/setup/"]) == 5
    site.page("plain.md", "# Plain\n\nStill no picture.\n")
    site.commit("plain", D2)
    again = site.build(dirty=True)
    assert again.error is None, again.messages()
    rendered = [m for m in again.messages(0) if m.startswith("Building page ")]
    assert rendered == ["Building page plain.md"]  # the others are read back from disk
    assert images_of(parse_sitemap(again.site_dir / "sitemap.xml")) == expected


def test_off_by_default(site):
    material_site_with_images(site)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    text = (built.site_dir / "sitemap.xml").read_text(encoding="utf-8")
    assert "image" not in text
    site.set_options(images=True)  # the same site, asked: now they are listed
    built = site.build(strict=True)
    assert "<image:image>" in (built.site_dir / "sitemap.xml").read_text(encoding="utf-8")
