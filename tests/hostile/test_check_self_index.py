"""Issue 54, experiment 6: a sitemap index that lists itself.

An index listing only itself was "no problem found", exit 0 even with ``--strict``: its
own URL was already seen, so the entry was skipped without a word (two indexes listing
each other were caught, as an index inside an index). An index may list only urlset
files, itself included: an error [index-self], so ``check`` exits 1.
"""

from __future__ import annotations

import pytest

from mkdocs_sitemap_pro.cli.main import main
from tests.core.check.tree_files import SITE, index, pages, url, urlset, write_tree


@pytest.mark.parametrize("listed", [
    [SITE + "sitemap.xml"],  # only itself
    [SITE + "sitemap-1.xml", SITE + "sitemap.xml"],  # itself among real files
])
@pytest.mark.parametrize("target", ["", "sitemap.xml"])  # from robots.txt, or the file
def test_an_index_listing_itself_fails_check(tmp_path, capsys, listed, target):
    write_tree(tmp_path, {
        "robots.txt": f"User-agent: *\nSitemap: {SITE}sitemap.xml\n",
        "sitemap.xml": index(*((loc, "2024-01-02") for loc in listed)),
        "sitemap-1.xml": urlset(url(SITE, "2024-01-02")),
        **pages(""),
    })
    status = main(["check", "--strict", str(tmp_path / target), "--site-url", SITE])
    out = capsys.readouterr().out
    assert status == 1, out
    found = [line for line in out.splitlines() if "index-self" in line]
    assert len(found) == 1, out
    assert found[0].startswith("error") and "sitemap.xml: lists itself" in found[0], out
    assert "no problem found" not in out
