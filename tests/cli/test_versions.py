"""``mkdocs-sitemap-pro versions`` after real ``mike deploy`` runs: the root index and
robots.txt committed to gh-pages, every sitemap on the branch inside its folder."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from lxml import etree

from mkdocs_sitemap_pro.cli.main import main
from mkdocs_sitemap_pro.core.git.commit import Branch, commit_files
from tests.support.mike import ROOT, deploy, make_site, mike_env, show, tip, tree
from tests.support.schemas import SM, parse_sitemap


@pytest.fixture
def env(monkeypatch):
    """The in-process command sees the same isolated git as mike does."""
    for key, value in mike_env().items():
        monkeypatch.setenv(key, value)


def versions(site, *args: str) -> int:
    return main(["versions", "-f", str(site.root / "mkdocs.yml"), *args])


def index_locs(site) -> list[str]:
    text = show(site, "sitemap.xml")
    assert text is not None
    path = site.root.parent / "index.xml"
    path.write_text(text, encoding="utf-8")
    root = parse_sitemap(path)  # validated against siteindex.xsd
    assert root.tag == f"{SM}sitemapindex"
    return [e.text or "" for e in root.iter(f"{SM}loc")]


def check_location_rule(site) -> None:
    """Every sitemap in a version folder (and the root index) lists URLs inside its folder."""
    listed = json.loads(show(site, "versions.json") or "[]")
    for name in [v["version"] for v in listed]:
        text = show(site, f"{name}/sitemap.xml")
        if text is None:
            continue
        for loc in etree.fromstring(text.encode()).iter(f"{SM}loc"):
            assert (loc.text or "").startswith(f"{ROOT}{name}/"), (name, loc.text)
    for loc in index_locs(site):
        assert loc.startswith(ROOT)


def test_root_index_covers_each_version_once_and_robots_keeps_other_lines(site, env, capsys):
    make_site(site)
    deploy(site, "1.0")
    deploy(site, "2.0", "latest", "--update-aliases")
    # A root robots.txt of the user's own, already on the branch.
    branch = Branch.find(site.root, "gh-pages")
    assert branch is not None
    commit_files(branch, {"robots.txt": b"User-agent: *\nDisallow: /private/\n"}, "robots")
    before, head, status = tip(site), tip(site, "HEAD"), site.repo.git("status", "--porcelain")

    assert versions(site) == 0
    assert "lists 2.0, 1.0" in capsys.readouterr().out
    assert index_locs(site) == [f"{ROOT}2.0/sitemap.xml", f"{ROOT}1.0/sitemap.xml"]
    assert show(site, "robots.txt") == (
        f"User-agent: *\nDisallow: /private/\nSitemap: {ROOT}sitemap.xml\n"
    )
    check_location_rule(site)
    # One commit on top of the old tip, made without a checkout.
    assert site.repo.git("rev-parse", "gh-pages^").strip() == before
    assert site.repo.git("diff", "--name-only", before, "gh-pages").split() == ["robots.txt", "sitemap.xml"]
    assert tip(site, "HEAD") == head and site.repo.git("status", "--porcelain") == status
    assert tree(site)["latest"] == "120000"  # mike's alias kept

    # Again, through the console entry point: nothing changed, so no empty commit.
    after = tip(site)
    proc = subprocess.run([sys.executable, "-m", "mkdocs_sitemap_pro", "versions"],
                          cwd=site.root, env=mike_env(), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "up to date" in proc.stdout and tip(site) == after

    # A new version moves the alias: the index follows, robots.txt keeps one line.
    deploy(site, "3.0", "latest", "--update-aliases")
    assert show(site, "sitemap.xml") is not None  # mike keeps the root files
    assert versions(site) == 0
    assert index_locs(site) == [f"{ROOT}{v}/sitemap.xml" for v in ("3.0", "2.0", "1.0")]
    assert (show(site, "robots.txt") or "").count("Sitemap:") == 1
    check_location_rule(site)


@pytest.mark.parametrize("alias_type", ["copy", "redirect"])
def test_aliases_of_every_kind_are_not_listed(site, env, alias_type):
    make_site(site)
    deploy(site, "1.0")
    deploy(site, "2.0", "latest", "--update-aliases", "--alias-type", alias_type)
    assert "latest/index.html" in tree(site)
    assert versions(site) == 0
    assert index_locs(site) == [f"{ROOT}2.0/sitemap.xml", f"{ROOT}1.0/sitemap.xml"]
    check_location_rule(site)


def test_with_canonical_version_only_that_version_is_listed(site, env):
    make_site(site, canonical_version="2.0")
    deploy(site, "1.0")
    deploy(site, "2.0")
    assert versions(site) == 0
    assert index_locs(site) == [f"{ROOT}2.0/sitemap.xml"]
    check_location_rule(site)


def test_site_url_option_names_the_root(site, env):
    make_site(site)
    deploy(site, "1.0")
    assert versions(site, "--site-url", "https://docs.example.org/") == 2  # 1.0 lists example.com
    assert show(site, "sitemap.xml") is None


def test_unknown_branch_exits_2(site, env, capsys):
    make_site(site)
    assert versions(site, "--branch", "pages") == 2
    assert "no branch 'pages'" in capsys.readouterr().err


def test_branch_without_versions_json_exits_2_and_commits_nothing(site, env, capsys):
    make_site(site)
    site.repo.git("branch", "gh-pages")
    before = tip(site)
    assert versions(site) == 2
    assert "versions.json is not on gh-pages" in capsys.readouterr().err
    assert tip(site) == before


def test_version_folder_without_sitemap_exits_2_and_commits_nothing(site, env, capsys):
    make_site(site)
    deploy(site, "1.0")
    branch = Branch.find(site.root, "gh-pages")
    assert branch is not None
    listed = json.loads(show(site, "versions.json") or "")
    listed.insert(0, {"version": "0.9", "title": "0.9", "aliases": []})
    commit_files(branch, {"versions.json": json.dumps(listed).encode(),
                          "0.9/index.html": b"<p>old</p>"}, "a version without a sitemap")
    before = tip(site)
    assert versions(site) == 2
    assert "0.9/sitemap.xml is not on gh-pages" in capsys.readouterr().err
    assert tip(site) == before and show(site, "sitemap.xml") is None
