"""``mkdocs-sitemap-pro versions`` reads the site's config as data (issue 53, item 6).

A Zensical site names a theme, plugins and Markdown extensions (Material's, pymdownx,
``!!python/name:`` tags) that the tool, installed alone, does not have. ``versions``
needs only site_url and mike's and the plugin's settings, so it reads zensical.toml or
mkdocs.yml as ``build`` does: nothing the file names is imported. Each test deploys real
versions with mike, then gives the project a config naming what is not installed.
"""

from __future__ import annotations

import sys

import pytest

from mkdocs_sitemap_pro.cli.main import main
from tests.cli.test_versions_rebuild import branch_sitemap, deploy_old_then_new, source_dates
from tests.support.mike import ROOT, deployed, mike_env, show
from tests.support.schemas import SM, parse_sitemap
from tests.support.sites import Site

NOT_INSTALLED_YAML = f"""\
site_name: Test
site_url: {ROOT}
theme:
  name: notinstalled
  features: [navigation.instant]
markdown_extensions:
  - nosuch.ext
  - nosuch.fences:
      custom_fences:
        - name: mermaid
          format: !!python/name:zensical_not_here.fence_code_format
plugins:
  - notinstalled
  - mike:
      canonical_version: "2.0"
  - sitemap-pro
"""

NOT_INSTALLED_TOML = f"""\
[project]
site_name = "Test"
site_url = "{ROOT}"

[project.theme]
name = "notinstalled"

[project.markdown_extensions.nosuch_ext]
[project.markdown_extensions.pymdownx.nosuch]

[project.plugins.notinstalled]
[project.plugins.mike]
canonical_version = "2.0"

[project.plugins.sitemap-pro]
"""


@pytest.fixture
def env(monkeypatch):
    """The in-process command sees the same isolated git as mike does."""
    for key, value in mike_env().items():
        monkeypatch.setenv(key, value)


def index_locs(site: Site, tmp_path) -> list[str]:
    """The root index's URLs, validated against the schema."""
    text = show(site, "sitemap.xml")
    assert text is not None, "no root index on gh-pages"
    path = tmp_path / "index.xml"
    path.write_text(text, encoding="utf-8")
    root = parse_sitemap(path)
    assert root.tag == f"{SM}sitemapindex"
    return [e.text or "" for e in root.iter(f"{SM}loc")]


def two_versions(site: Site, factory: pytest.TempPathFactory) -> None:
    deployed(site, factory, ("1.0",), ("2.0",))


def test_mkdocs_yml_naming_what_is_not_installed(site, env, capsys, tmp_path, tmp_path_factory):
    two_versions(site, tmp_path_factory)
    (site.root / "mkdocs.yml").write_text(NOT_INSTALLED_YAML, encoding="utf-8")
    assert main(["versions", "-f", str(site.root / "mkdocs.yml")]) == 0, capsys.readouterr().err
    # mike's canonical_version, read as data: only 2.0 is listed.
    assert index_locs(site, tmp_path) == [f"{ROOT}2.0/sitemap.xml"]
    assert show(site, "robots.txt") == f"Sitemap: {ROOT}sitemap.xml\n"
    assert not any(name.startswith(("nosuch", "zensical_not_here")) for name in sys.modules)


def test_zensical_toml_found_as_zensical_finds_it(site, env, capsys, tmp_path, monkeypatch,
                                                  tmp_path_factory):
    two_versions(site, tmp_path_factory)
    (site.root / "mkdocs.yml").unlink()
    site.repo.write("zensical.toml", NOT_INSTALLED_TOML)
    monkeypatch.chdir(site.root)
    assert main(["versions"]) == 0, capsys.readouterr().err
    assert index_locs(site, tmp_path) == [f"{ROOT}2.0/sitemap.xml"]
    # -f names it too; nothing changed since, so nothing is committed.
    assert main(["versions", "-f", "zensical.toml"]) == 0
    assert "gh-pages is up to date" in capsys.readouterr().out


def test_rebuild_with_todays_config_naming_what_is_not_installed(site, env, capsys, tmp_path,
                                                                 tmp_path_factory):
    source = deploy_old_then_new(site, tmp_path_factory)
    (site.root / "mkdocs.yml").write_text(
        NOT_INSTALLED_YAML.replace('      canonical_version: "2.0"\n', "      {}\n"),
        encoding="utf-8")
    assert main(["versions", "-f", str(site.root / "mkdocs.yml"), "--rebuild", "1.0"]) == 0, \
        capsys.readouterr().err
    listed = branch_sitemap(site, "1.0/sitemap.xml", tmp_path)
    expected = source_dates(site, source)
    assert set(listed) == set(expected) and all(listed.values())
    assert index_locs(site, tmp_path) == [f"{ROOT}2.0/sitemap.xml", f"{ROOT}1.0/sitemap.xml"]


@pytest.mark.parametrize("mike_entry, option", [
    ("  - mike:\n      remote_branch: [gh-pages]\n", "Plugin 'mike' option 'remote_branch'"),
    ("  - mike: not-a-mapping\n", "Plugin 'mike': its options must be a mapping"),
], ids=["not-a-string", "not-a-mapping"])
def test_mike_options_that_cannot_work_name_the_option(site, env, capsys, mike_entry, option,
                                                       tmp_path_factory):
    two_versions(site, tmp_path_factory)
    text = NOT_INSTALLED_YAML.replace('  - mike:\n      canonical_version: "2.0"\n', mike_entry)
    (site.root / "mkdocs.yml").write_text(text, encoding="utf-8")
    before = site.repo.git("rev-parse", "gh-pages")
    assert main(["versions", "-f", str(site.root / "mkdocs.yml")]) == 2
    err = capsys.readouterr().err
    assert option in err and "Traceback" not in err, err
    assert site.repo.git("rev-parse", "gh-pages") == before

