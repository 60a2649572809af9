"""``mkdocs-sitemap-pro build`` on sites deployed as they are: under mike, languages
built one at a time, and a run that must not remove the builder's sitemap.

Every site is built by a real `zensical build` in a real git repository with fixed
dates; mike cannot run Zensical (it runs ``mkdocs``/``properdocs``), so its variable is
set as ``mike deploy`` sets it, and site_dir is the folder mike commits as the version's.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from mkdocs_sitemap_pro.cli.main import main
from tests.cli.test_build import ZENSICAL, needs_zensical, run_build, zensical_build
from tests.support.dates import D1, D2, D3, utc
from tests.support.git import GitRepo, git_env
from tests.support.hreflang import read_with_alternates
from tests.support.schemas import parse_sitemap
from tests.support.sites import SITE_URL, Site

pytestmark = needs_zensical
VERSION = "MIKE_DOCS_VERSION"


def _dates(path: Path) -> dict[str, str | None]:
    return {url.findtext("{*}loc"): url.findtext("{*}lastmod") for url in parse_sitemap(path)}


def _two_pages(site: Site) -> None:
    site.page("index.md", "# Home\n")
    site.page("guide.md", "# Guide\n")
    site.commit("first", D1)
    site.page("guide.md", "# Guide\n\nMore.\n")
    site.commit("guide", D2)


def _zensical_version(site: Site, version: str) -> None:
    """`zensical build` as `mike deploy` runs its builder: the version in the environment."""
    result = subprocess.run([str(ZENSICAL), "build", "--clean"], cwd=site.root,
                            env=git_env({VERSION: version}), capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("entry", [None, {"alias_type": "copy"}])
def test_under_mike_the_version_urls_are_listed_and_dated(site, monkeypatch, capsys, entry):
    if entry is not None:
        site.config["plugins"] = [{"mike": entry}, {"sitemap-pro": {}}]
        site.write_config()
    _two_pages(site)
    _zensical_version(site, "1.0")
    theirs = (site.root / "site" / "sitemap.xml").read_text("utf-8")
    assert f"{SITE_URL}1.0/guide/" in theirs and "<lastmod>" not in theirs

    monkeypatch.setenv(VERSION, "1.0")
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    assert _dates(site.root / "site" / "sitemap.xml") == {
        SITE_URL + "1.0/": utc(D1),
        SITE_URL + "1.0/guide/": utc(D2),
    }
    assert not (site.root / "site" / "robots.txt").exists()  # none in a version folder


def test_under_mike_a_canonical_version_elsewhere_lists_nothing(site, monkeypatch, capsys):
    site.config["plugins"] = [{"mike": {"canonical_version": "latest"}}, {"sitemap-pro": {}}]
    site.write_config()
    _two_pages(site)
    _zensical_version(site, "1.0")  # Zensical's lists latest/, outside the 1.0 folder
    monkeypatch.setenv(VERSION, "1.0")
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    assert not (site.root / "site" / "sitemap.xml").exists()
    assert "the pages of version 1.0 are canonical there" in capsys.readouterr().err

    _zensical_version(site, "latest")
    monkeypatch.setenv(VERSION, "latest")
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    assert _dates(site.root / "site" / "sitemap.xml") == {
        SITE_URL + "latest/": utc(D1),
        SITE_URL + "latest/guide/": utc(D2),
    }


def test_nothing_listed_leaves_the_builders_sitemap_and_fails(site, monkeypatch, capsys):
    _two_pages(site)
    _zensical_version(site, "1.0")  # but `build` runs without the variable
    monkeypatch.delenv(VERSION, raising=False)
    before = {name: (site.root / "site" / name).read_bytes()
              for name in ("sitemap.xml",)}
    assert run_build(site, monkeypatch) == 1
    err = capsys.readouterr().err
    assert "no page of" in err and "MIKE_DOCS_VERSION" in err and "left as they were" in err
    assert {name: (site.root / "site" / name).read_bytes() for name in before} == before
    assert sorted(p.name for p in (site.root / "site").iterdir() if "sitemap" in p.name) == [
        "sitemap.xml"]
    assert not (site.root / "site" / "robots.txt").exists()


def test_fewer_pages_than_the_builder_leaves_its_sitemap_and_fails(site, monkeypatch, capsys):
    site.config["use_directory_urls"] = False
    site.write_config()
    _two_pages(site)
    zensical_build(site)
    before = (site.root / "site" / "sitemap.xml").read_bytes()
    site.config["use_directory_urls"] = True  # not what the site was built with
    site.write_config()
    assert run_build(site, monkeypatch) == 1
    err = capsys.readouterr().err
    assert f"({SITE_URL}index.html)" in err and "use_directory_urls" in err
    assert (site.root / "site" / "sitemap.xml").read_bytes() == before
    assert not (site.root / "site" / "sitemap.html").exists()


def _language(repo: GitRepo, language: str, config: dict[str, object]) -> None:
    repo.write(f"docs/{language}/mkdocs.yml", yaml.safe_dump(config))


def _zensical_copy(root: Path, language: str, into: Path) -> None:
    """Build one language in its folder, then copy it where the deploy has it."""
    result = subprocess.run([str(ZENSICAL), "build", "--clean", "-f", f"docs/{language}/mkdocs.yml"],
                            cwd=root, env=git_env(), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    shutil.copytree(root / "docs" / language / "site", into, dirs_exist_ok=True)


def test_languages_built_one_at_a_time(tmp_path, monkeypatch, capsys):
    root = tmp_path / "project"
    repo = GitRepo(root)
    repo.write(".gitignore", "site/\n")
    _language(repo, "en", {"site_name": "T", "site_url": SITE_URL, "plugins": ["sitemap-pro"]})
    _language(repo, "es", {"INHERIT": "../en/mkdocs.yml", "site_url": SITE_URL + "es/"})
    repo.write("docs/en/docs/index.md", "# Home\n")
    repo.write("docs/en/docs/guide.md", "# Guide\n")
    repo.write("docs/en/docs/only-en.md", "# Only in English\n")
    repo.write("docs/es/docs/guide.md", "# Guía\n")
    repo.commit("first", D1)
    repo.write("docs/es/docs/index.md", "# Inicio\n")
    repo.commit("es index", D2)
    repo.write("docs/en/docs/guide.md", "# Guide\n\nMore.\n")
    repo.commit("en guide", D3)
    deploy = root / "site"
    _zensical_copy(root, "en", deploy)
    _zensical_copy(root, "es", deploy / "es")
    es_sitemap = (deploy / "es" / "sitemap.xml").read_bytes()

    monkeypatch.chdir(root)
    assert main(["build", "-f", "docs/en/mkdocs.yml", "--site-dir", "site", "--strict"]) == 0, \
        capsys.readouterr().err
    urls, alternates = read_with_alternates(deploy / "sitemap.xml")  # validated
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == {
        SITE_URL: utc(D1),
        SITE_URL + "guide/": utc(D3),
        SITE_URL + "only-en/": utc(D1),
        SITE_URL + "es/": utc(D2),
        SITE_URL + "es/guide/": utc(D1),
    }
    home = [("en", SITE_URL), ("es", SITE_URL + "es/"), ("x-default", SITE_URL)]
    guide = [("en", SITE_URL + "guide/"), ("es", SITE_URL + "es/guide/"),
             ("x-default", SITE_URL + "guide/")]
    assert alternates == {SITE_URL: home, SITE_URL + "es/": home,
                          SITE_URL + "guide/": guide, SITE_URL + "es/guide/": guide}
    # The Spanish build's own sitemap stays for its theme (instant navigation reads it).
    assert (deploy / "es" / "sitemap.xml").read_bytes() == es_sitemap
    assert "language es" in capsys.readouterr().err


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root``, byte for byte."""
    return {str(path.relative_to(root)): path.read_bytes()
            for path in sorted(root.rglob("*")) if path.is_file()}


@pytest.mark.parametrize("how", ["version", "site_dir"])
def test_a_version_or_site_dir_that_matches_nothing_is_an_error(site, monkeypatch, capsys,
                                                                 how):
    """Built under 1.0, run under 2.0 (or with --site-dir on another site's tree): exit 2,
    naming the computed site_url and what the tree's sitemap holds; no file touched."""
    _two_pages(site)
    if how == "version":
        _zensical_version(site, "1.0")
        tree, args, held = site.root / "site", (), f"{SITE_URL}1.0/"
        monkeypatch.setenv(VERSION, "2.0")
        wanted = f"{SITE_URL}2.0/ ({VERSION}=2.0)"
    else:
        site.config["site_url"] = held = "https://other.example.org/docs/"
        site.write_config()
        zensical_build(site)  # another site, built into another folder
        tree, args = site.root.parent / "other", ("--site-dir", str(site.root.parent / "other"))
        shutil.move(site.root / "site", tree)
        site.config["site_url"] = SITE_URL
        site.write_config()
        monkeypatch.delenv(VERSION, raising=False)
        wanted = f"{SITE_URL} ({VERSION} unset)"
    before = _tree(tree)
    assert run_build(site, monkeypatch, *args) == 2
    err = capsys.readouterr().err
    assert wanted in err and f"lists URLs under {held}" in err, err
    assert "every file was left as it was" in err, err
    assert _tree(tree) == before
