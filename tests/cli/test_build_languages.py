"""``build`` on languages built one at a time from staged copies, as FastAPI's deploy
script does: each ``docs/<lang>/docs`` copied into a git-ignored
``site_zensical_src/<lang>/content`` with a generated config and its own site_url, built
by a real `zensical build` into ``site/`` and ``site/<lang>/``. One run on the default
language's staged config lists every language, dated by the tracked files the copies are
of, with symmetric hreflang alternates."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import yaml

from mkdocs_sitemap_pro.cli.main import main
from tests.cli.test_build import ZENSICAL, needs_zensical
from tests.support.dates import D1, D2, D3, utc
from tests.support.git import GitRepo, git_env
from tests.support.hreflang import read_with_alternates
from tests.support.sites import SITE_URL

pytestmark = needs_zensical
STAGE = "site_zensical_src"


def _translated_repo(root: Path) -> GitRepo:
    """English and Spanish docs with three dates. ``about.md`` ends untranslated: the
    Spanish file took the English text at D2, the English one the same text at D3."""
    repo = GitRepo(root)
    repo.write(".gitignore", f"site/\n{STAGE}/\n")
    repo.write("docs/en/docs/index.md", "# Home\n")
    repo.write("docs/en/docs/guide.md", "# Guide\n")
    repo.write("docs/en/docs/about.md", "# About\n")
    repo.write("docs/es/docs/guide.md", "# Guía\n")
    repo.write("docs/es/docs/about.md", "# Acerca\n")
    repo.commit("first", D1)
    repo.write("docs/es/docs/index.md", "# Inicio\n")
    repo.write("docs/es/docs/about.md", "# About\n\nMore.\n")
    repo.commit("es index and about", D2)
    repo.write("docs/en/docs/guide.md", "# Guide\n\nMore.\n")
    repo.write("docs/en/docs/about.md", "# About\n\nMore.\n")  # now the same bytes
    repo.commit("guide and about", D3)
    return repo


def _stage_and_build(root: Path, language: str, config: dict[str, object],
                     env: dict[str, str] | None = None) -> Path:
    """Copy one language's docs into the staging folder with a generated config, build
    it with a real `zensical build` (which keeps site_dir inside the project), and copy
    the result where the deploy has it."""
    staged = root / STAGE / language
    shutil.copytree(root / "docs" / language / "docs", staged / "content")
    into = root / "site" if language == "en" else root / "site" / language
    path = staged / "mkdocs.yml"
    path.write_text(yaml.safe_dump({
        "site_name": "T", "docs_dir": "content", "site_dir": "site", **config,
    }), encoding="utf-8")
    result = subprocess.run([str(ZENSICAL), "build", "-f", str(path)], cwd=root,
                            env=git_env(env), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    shutil.copytree(staged / "site", into, dirs_exist_ok=True)
    return path


def test_translated_staged_copies_dated_by_their_tracked_files(tmp_path, monkeypatch, capsys):
    root = tmp_path / "project"
    _translated_repo(root)
    english = _stage_and_build(root, "en", {"site_url": SITE_URL, "plugins": ["sitemap-pro"]})
    _stage_and_build(root, "es", {"site_url": SITE_URL + "es/"})

    monkeypatch.chdir(root)
    assert main(["build", "-f", str(english.relative_to(root)), "--site-dir", "site",
                 "--strict"]) == 0, capsys.readouterr().err
    urls, alternates = read_with_alternates(root / "site" / "sitemap.xml")  # validated
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == {
        SITE_URL: utc(D1),
        SITE_URL + "guide/": utc(D3),
        SITE_URL + "about/": utc(D3),
        SITE_URL + "es/": utc(D2),
        SITE_URL + "es/guide/": utc(D1),
        # The same bytes as the newer English file: dated by the Spanish one (D2), the
        # tracked file of its own language's folder.
        SITE_URL + "es/about/": utc(D2),
    }
    for page in ("", "guide/", "about/"):
        pair = [("en", SITE_URL + page), ("es", SITE_URL + "es/" + page),
                ("x-default", SITE_URL + page)]
        assert alternates[SITE_URL + page] == alternates[SITE_URL + "es/" + page] == pair
    assert "undated" not in capsys.readouterr().err


def test_under_mike_each_language_is_listed_under_the_version(tmp_path, monkeypatch, capsys):
    """`mike deploy` builds with MIKE_DOCS_VERSION set; the deploy script builds every
    language with it, so the version's folder holds ``es/``: its URLs are under the
    version, dated and with alternates, and the root index is left to `versions`."""
    root = tmp_path / "project"
    _translated_repo(root)
    monkeypatch.setenv("MIKE_DOCS_VERSION", "1.0")
    english = _stage_and_build(root, "en", {"site_url": SITE_URL, "plugins": ["sitemap-pro"]},
                               {"MIKE_DOCS_VERSION": "1.0"})
    _stage_and_build(root, "es", {"site_url": SITE_URL + "es/"}, {"MIKE_DOCS_VERSION": "1.0"})
    before = (root / "site" / "sitemap.xml").read_bytes()

    monkeypatch.chdir(root)
    assert main(["build", "-f", str(english.relative_to(root)), "--site-dir", "site",
                 "--strict"]) == 0, capsys.readouterr().err
    urls, alternates = read_with_alternates(root / "site" / "sitemap.xml")  # validated
    version = SITE_URL + "1.0/"
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == {
        version: utc(D1),
        version + "guide/": utc(D3),
        version + "about/": utc(D3),
        version + "es/": utc(D2),
        version + "es/guide/": utc(D1),
        version + "es/about/": utc(D2),
    }
    assert alternates[version + "es/guide/"] == [
        ("en", version + "guide/"), ("es", version + "es/guide/"), ("x-default", version + "guide/")]
    assert not (root / "site" / "robots.txt").exists()  # the root's, written by `versions`
    assert (root / "site" / "sitemap.xml").read_bytes() != before
