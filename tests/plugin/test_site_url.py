"""site_url: checked before the build starts, and every URL built from it in one place."""

from __future__ import annotations

import pytest

from tests.support.dates import D1
from tests.support.schemas import parse_sitemap, urls_of
from tests.support.sites import Site

# A hook that does what mike does: rewrite site_url to the version folder, without the
# trailing slash, after the configuration was checked.
MIKE_LIKE_HOOK = """
def on_config(config):
    config.site_url = "https://example.com/proj/1.0"
    return config
"""


@pytest.mark.parametrize(
    "site_url",
    [
        "https://example.com/docs/?x=1",
        "https://example.com/docs/#top",
        "https://example.com/docs?x=1#top",
    ],
)
def test_query_or_fragment_stops_the_build_before_it_starts(site: Site, site_url: str) -> None:
    site.page("index.md")
    site.commit("first", D1)
    site.config["site_url"] = site_url
    site.write_config()
    result = site.cli("build")
    assert result.returncode != 0
    assert "site_url" in result.stderr and "query or a fragment" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert not (site.root / "site" / "index.html").exists()  # stopped before rendering


def test_site_url_without_trailing_slash_gives_correct_urls_everywhere(site: Site) -> None:
    site.page("index.md")
    site.page("a.md")
    site.repo.write("hooks.py", MIKE_LIKE_HOOK)
    site.commit("first", D1)
    site.config["hooks"] = ["hooks.py"]
    site.set_options(max_urls=1)  # an index too, whose children are URLs built from it
    built = site.build()
    assert built.error is None, built.messages()
    root = "https://example.com/proj/1.0/"
    index = parse_sitemap(built.site_dir / "sitemap.xml")
    assert [c["loc"] for c in urls_of(index)] == [root + "sitemap-1.xml", root + "sitemap-2.xml"]
    locs = [u["loc"] for n in (1, 2) for u in urls_of(parse_sitemap(built.site_dir / f"sitemap-{n}.xml"))]
    assert locs == [root, root + "a/"]
    assert (built.site_dir / "robots.txt").read_text() == f"Sitemap: {root}sitemap.xml\n"
    advice = [m for m in built.infos() if "only at the root" in m]
    assert len(advice) == 1 and f"written at {root}robots.txt," in advice[0], built.infos()
    assert "1.0robots.txt" not in advice[0] and "1.0sitemap" not in advice[0]


def test_without_site_url_the_message_names_the_config_file_given(site: Site) -> None:
    site.page("index.md")
    site.commit("first", D1)
    del site.config["site_url"]
    site.write_config()
    (site.root / "mkdocs.test.yml").write_text((site.root / "mkdocs.yml").read_text())
    (site.root / "mkdocs.yml").unlink()
    result = site.cli("build", "-f", "mkdocs.test.yml")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "site_url is required" in result.stderr
    assert "set site_url in mkdocs.test.yml to the published address" in result.stderr, result.stderr
    assert "mkdocs.yml" not in result.stderr.replace("mkdocs.test.yml", "")


def test_without_site_url_under_mike_it_is_the_unversioned_root(site: Site) -> None:
    site.page("index.md")
    site.commit("first", D1)
    del site.config["site_url"]
    site.write_config()
    result = site.cli("build", env={"MIKE_DOCS_VERSION": "1.0"})
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert ("set site_url in mkdocs.yml to the site's unversioned root, e.g. "
            "https://example.com/docs/ (mike adds each version's folder to it)") in result.stderr
