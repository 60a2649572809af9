"""mkdocs-redirects: a page turned into a redirect stub is not listed, whichever order."""

from __future__ import annotations

import pytest

from tests.support.dates import D1
from tests.support.sites import SITE_URL, Site

REDIRECTS = {"redirects": {"redirect_maps": {"old.md": "new.md"}}}

# Replaces a rendered page with a redirect stub after MkDocs wrote it, as a plugin's
# on_post_build may; no redirect_maps tells us about this one.
STUB_HOOK = """
from pathlib import Path

def on_post_build(config):
    page = Path(config.site_dir) / "moved" / "index.html"
    page.write_text(
        '<!doctype html><html><head><meta http-equiv="refresh" content="0; url=../new/">'
        '</head><body></body></html>'
    )
"""


@pytest.mark.parametrize("order", ["redirects first", "sitemap-pro first"])
def test_redirect_stub_pages_are_left_out(site: Site, order: str) -> None:
    for name in ("index.md", "old.md", "new.md"):
        site.page(name, f"# {name}\n")
    site.commit("first", D1)
    ours = {"sitemap-pro": {}}
    site.config["plugins"] = [REDIRECTS, ours] if order == "redirects first" else [ours, REDIRECTS]
    site.write_config()
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert "refresh" in (built.site_dir / "old" / "index.html").read_text()  # the stub is there
    assert sorted(built.sitemap()) == [SITE_URL, SITE_URL + "new/"]


def test_a_page_replaced_by_a_stub_after_rendering_is_judged_by_the_file(site: Site) -> None:
    for name in ("index.md", "moved.md", "new.md"):
        site.page(name, f"# {name}\n")
    site.repo.write("hooks.py", STUB_HOOK)
    site.commit("first", D1)
    site.config["hooks"] = ["hooks.py"]
    site.write_config()
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert sorted(built.sitemap()) == [SITE_URL, SITE_URL + "new/"]
    assert any("'moved.md' left out: a redirect stub (meta refresh)" in m
               for m in built.messages(level=10)), built.messages(level=10)


def test_only_a_search_index_after_the_pages_means_no_page_is_read_again() -> None:
    from mkdocs.contrib.search import SearchPlugin
    from material.plugins.search.plugin import SearchPlugin as MaterialSearch

    from mkdocs_sitemap_pro.plugin.pages import writes_no_page

    assert writes_no_page(SearchPlugin().on_post_build)
    assert writes_no_page(MaterialSearch().on_post_build)

    def on_post_build(config):  # a hook's, which may rewrite any page
        return None

    assert not writes_no_page(on_post_build)
    assert not writes_no_page(object().__repr__)  # a method of anything else
    assert not writes_no_page(Site.build)  # not bound to a plugin at all
