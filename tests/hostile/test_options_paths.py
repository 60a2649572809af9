"""Issue 42, experiments 8 and 9: options naming paths stay where they belong.

``cache_dir`` inside ``docs_dir`` or ``site_dir`` (its files, which hold the local
repository's path, would be published) or empty (the project's root) is a configuration
error naming ``cache_dir``; ``ignore_commits`` names a file inside the repository, and a
bad line of it is reported by its number, never by its contents.
"""

from __future__ import annotations

import logging

import pytest

from mkdocs_sitemap_pro.cli.main import main
from tests.support.dates import D1, D2, utc
from tests.support.sites import SITE_URL, Site


def _pages(site: Site) -> str:
    site.page("index.md", "# Home\n")
    site.page("a.md", "# A\n")
    first = site.commit("first", D1)
    site.page("a.md", "# A\n\nMore.\n")
    site.commit("second", D2)
    return first


@pytest.mark.parametrize("cache_dir", ["docs/.cache", "docs", "site/cache", "site", "", "  "])
def test_cache_dir_where_it_would_be_published_or_empty_is_an_error(site, cache_dir):
    site.set_options(cache_dir=cache_dir)
    _pages(site)
    result = site.cli("build")
    assert result.returncode != 0, result.stderr
    assert "cache_dir" in result.stderr, result.stderr
    site_dir = site.root / "site"
    assert not any(p.name.endswith(".json") for p in site_dir.rglob("*")) if site_dir.exists() else True
    assert not (site.root / "history.json").exists()


def test_cache_dir_inside_docs_dir_is_an_error_of_the_build_command(site, monkeypatch, capsys):
    site.config["plugins"] = []
    site.write_config()
    _pages(site)
    assert site.cli("build").returncode == 0
    site.set_options(cache_dir="docs/cache")
    monkeypatch.chdir(site.root)
    assert main(["build"]) == 2
    assert "cache_dir" in capsys.readouterr().err
    assert not (site.root / "docs" / "cache").exists()


def test_a_cache_dir_elsewhere_is_fine(site, tmp_path):
    site.set_options(cache_dir=str(tmp_path / "cache"))
    _pages(site)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert (tmp_path / "cache" / "history.json").is_file()


def test_ignore_commits_outside_the_repository_is_an_error(site, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret line\n")
    site.set_options(ignore_commits=str(secret))
    _pages(site)
    result = site.cli("build")
    assert result.returncode != 0
    assert "ignore_commits" in result.stderr and "inside the repository" in result.stderr, \
        result.stderr
    assert "top secret" not in result.stderr


def test_ignore_commits_through_a_link_out_of_the_repository_is_an_error(site, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret line\n")
    (site.root / "revs").symlink_to(secret)
    site.set_options(ignore_commits="revs")
    _pages(site)
    result = site.cli("build")
    assert result.returncode != 0 and "ignore_commits" in result.stderr, result.stderr
    assert "top secret" not in result.stderr


def test_a_bad_line_of_ignore_commits_is_reported_by_its_number(site):
    first = _pages(site)
    site.repo.write(".git-blame-ignore-revs",
                    f"# reformatting\n\nnot a sha: password=hunter2\n{first}\n\x1b[2Jzz\n")
    site.set_options(ignore_commits=".git-blame-ignore-revs")
    built = site.build()
    assert built.error is None, built.error
    said = built.messages(logging.DEBUG)
    assert not any("hunter2" in m or "\x1b" in m for m in said), said
    warned = built.messages()
    assert any("ignore_commits" in m and "line 3" in m for m in warned), warned
    assert any("ignore_commits" in m and "line 5" in m for m in warned), warned
    urls = built.sitemap()
    assert urls[SITE_URL + "a/"]["lastmod"] == utc(D2)
    assert "lastmod" not in urls[SITE_URL] or urls[SITE_URL]["lastmod"] != utc(D1)
