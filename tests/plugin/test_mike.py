"""Versioned sites: real ``mike deploy`` builds, each version's sitemap in its folder."""

from __future__ import annotations

from lxml import etree

from tests.support.mike import ROOT, deploy, deployed, make_site, show, tree
from tests.support.schemas import SM


def locs(text: str) -> list[str]:
    root = etree.fromstring(text.encode())
    return [e.text or "" for e in root.iter(f"{SM}loc")]


def test_each_version_lists_its_own_folder_and_writes_no_robots_txt(site, tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",), ("2.0", "latest", "--update-aliases"))
    paths = tree(site)
    assert paths["latest"] == "120000"  # mike's default alias: a symlink
    for version in ("1.0", "2.0"):
        text = show(site, f"{version}/sitemap.xml")
        assert text is not None
        assert sorted(locs(text)) == [f"{ROOT}{version}/", f"{ROOT}{version}/guide/"]
        assert f"{version}/sitemap.xml.gz" in paths
        assert f"{version}/robots.txt" not in paths  # no crawler reads it there


def test_robots_txt_true_set_explicitly_is_still_written(site):
    make_site(site)
    site.config["plugins"] = [{"sitemap-pro": {"robots_txt": True}}]
    site.write_config()
    site.commit("robots", "2024-01-11T09:00:00+00:00")
    deploy(site, "1.0")
    assert show(site, "1.0/robots.txt") == f"Sitemap: {ROOT}1.0/sitemap.xml\n"


def test_pages_canonical_in_another_version_are_not_listed(site):
    make_site(site, canonical_version="2.0")
    first = deploy(site, "1.0")
    deploy(site, "2.0")
    assert "1.0/sitemap.xml" not in tree(site)
    assert "canonical_version is '2.0'" in first.stderr
    assert "WARNING" not in first.stderr
    assert sorted(locs(show(site, "2.0/sitemap.xml") or "")) == [f"{ROOT}2.0/", f"{ROOT}2.0/guide/"]
