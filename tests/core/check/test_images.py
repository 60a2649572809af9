"""The checker on hand-written trees with ``image:image`` entries."""

from __future__ import annotations

from mkdocs_sitemap_pro.core.protocol import IMAGE_NS, MAX_IMAGES
from tests.core.check.tree_files import HEAD, SITE, pages, rules, run, url

URLSET_IMAGE = ('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
                f'xmlns:image="{IMAGE_NS}">')


def images(*locs: str | None) -> str:
    return "".join("<image:image/>" if loc is None else
                   f"<image:image><image:loc>{loc}</image:loc></image:image>" for loc in locs)


def tree(*urls: str) -> dict[str, str | bytes]:
    text = HEAD + URLSET_IMAGE + "\n" + "".join(urls) + "</urlset>\n"
    return {"sitemap.xml": text, "sitemap.xml.gz": text, **pages("", "a/")}


def test_good_images_anywhere_are_fine(tmp_path):
    report = run(tmp_path, tree(
        url(SITE, "2024-01-02", images(SITE + "img/a.png", "https://cdn.example.org/b.png")),
        url(SITE + "a/", "2024-01-02")))
    assert report.findings == []


def test_each_broken_image_is_an_error(tmp_path):
    report = run(tmp_path, tree(
        url(SITE, "2024-01-02", images("img/relative.png", SITE + "img/été.png", None,
                                       SITE + "img/twice.png", SITE + "img/twice.png")),
        url(SITE + "a/", "2024-01-02")))
    found = {(f.rule, f.severity) for f in report.findings}
    assert ("image-loc", "error") in found and ("image-duplicate", "warning") in found
    messages = [f.message for f in report.findings if f.rule == "image-loc"]
    assert any("'img/relative.png' is not an absolute http(s) URL" in m for m in messages)
    assert any(f"write {SITE}img/%C3%A9t%C3%A9.png" in m for m in messages)
    assert any("without an <image:loc>" in m for m in messages)
    assert report.status() == 1


def test_more_images_than_google_reads(tmp_path):
    many = images(*(f"{SITE}img/{n}.png" for n in range(MAX_IMAGES + 1)))
    report = run(tmp_path, tree(url(SITE, "2024-01-02", many), url(SITE + "a/", "2024-01-02")))
    assert rules(report) == {"image-limit"}
    assert f"{MAX_IMAGES + 1:,} images, more than the {MAX_IMAGES:,}" in report.findings[0].message
