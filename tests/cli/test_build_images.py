"""``images: true`` under ``mkdocs-sitemap-pro build`` after a real `zensical build`: the
images come from each built page's content element."""

from __future__ import annotations

from tests.cli.test_build import needs_zensical, run_build, zensical_build
from tests.plugin.test_images import OTHER_HOST, PNG
from tests.support.dates import D1
from tests.support.schemas import images_of, parse_sitemap
from tests.support.sites import SITE_URL


@needs_zensical
def test_after_zensical_the_content_elements_own_host_images(site, monkeypatch, capsys):
    site.config.update(theme={"name": "material", "logo": "img/logo.png"},
                       plugins=[{"sitemap-pro": {"images": True}}])
    site.write_config()
    (site.root / "docs" / "img").mkdir(parents=True)
    for name in ("logo.png", "shot.png", "other.png"):
        (site.root / "docs" / "img" / name).write_bytes(PNG)
    site.page("index.md", "# Home\n\n![Shot](img/shot.png)\n\n![Shot](img/shot.png)\n")
    site.page("guide/setup.md", "\n".join([
        "# Setup", "",
        "![Other](../img/other.png)", "",
        f'<img src="{OTHER_HOST}" alt="another host">', "",
    ]))
    site.page("plain.md", "# Plain\n")
    site.commit("first", D1)
    zensical_build(site)
    home = (site.root / "site" / "index.html").read_text(encoding="utf-8")
    assert "logo.png" in home  # the theme's image, on every page

    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    root = parse_sitemap(site.root / "site" / "sitemap.xml")  # with the image schema
    assert images_of(root) == {
        SITE_URL: [f"{SITE_URL}img/shot.png"],
        SITE_URL + "guide/setup/": [f"{SITE_URL}img/other.png"],
        SITE_URL + "plain/": [],
    }
