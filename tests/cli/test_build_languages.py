"""``build`` on languages built one at a time from staged copies, as FastAPI's deploy
script does: each ``docs/<lang>/docs`` copied into a git-ignored
``site_zensical_src/<lang>/content`` with a generated config and its own site_url, built
by a real `zensical build` into ``site/`` and ``site/<lang>/``. One run on the default
language's staged config lists every language, dated by the tracked files the copies are
of, with symmetric hreflang alternates; under mike, in the version's folder. And a site
built by `mkdocs build` with mkdocs-static-i18n, read from its `i18n` entry."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from mkdocs_sitemap_pro.cli.main import main
from tests.cli.test_build import ZENSICAL, needs_zensical, run_build
from tests.support.dates import D1, D2, D3, utc
from tests.support.git import GitRepo, git_env
from tests.support.hreflang import read_with_alternates
from tests.plugin.test_i18n import expected_alternates, make_site
from tests.support.sites import SITE_URL

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
                     env: dict[str, str] | None = None, staged: bool = False) -> Path:
    """Copy one language's docs into the staging folder (unless ``staged`` already) with
    a generated config, build it with a real `zensical build` (which keeps site_dir
    inside the project), and copy the result where the deploy has it."""
    if not staged:  # a plain copy of the language's docs
        shutil.copytree(root / "docs" / language / "docs", root / STAGE / language / "content")
    staged_at = root / STAGE / language
    into = root / "site" if language == "en" else root / "site" / language
    path = staged_at / "mkdocs.yml"
    path.write_text(yaml.safe_dump({
        "site_name": "T", "docs_dir": "content", "site_dir": "site", **config,
    }), encoding="utf-8")
    result = subprocess.run([str(ZENSICAL), "build", "-f", str(path)], cwd=root,
                            env=git_env(env), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    shutil.copytree(staged_at / "site", into, dirs_exist_ok=True)
    return path


@needs_zensical
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


BANNER = "/// info\n\nTranslated.\n\n///\n"  # tracked, as FastAPI's banner and notice
NOTICE = "/// warning\n\nNot translated yet.\n\n///\n"


def _stage_with_notices(root: Path, language: str) -> None:
    """As FastAPI's script stages a translation: the English tree, each page replaced by
    its translation with the language's banner after the title, or kept with the
    "not translated" notice (both tracked files)."""
    content = root / STAGE / language / "content"
    banner = (root / "docs" / language / "docs" / "translation-banner.md").read_text("utf-8")
    notice = (root / "docs" / "missing-translation.md").read_text("utf-8")
    for page in content.rglob("*.md"):
        translated = root / "docs" / language / "docs" / page.relative_to(content)
        title, _, body = (translated if translated.is_file() else page).read_text(
            encoding="utf-8").partition("\n")
        added = banner if translated.is_file() else notice
        page.write_text(f"{title}\n\n{added}{body}", encoding="utf-8")


@needs_zensical
def test_fastapi_staged_translations_with_notices(tmp_path, monkeypatch, capsys):
    """FastAPI's real staging adds a banner to every translated page, and stages the
    English text (with a notice) where no translation exists: no byte twin, yet each page
    is dated by the tracked file whose lines it holds."""
    root = tmp_path / "project"
    repo = _translated_repo(root)
    repo.write("docs/en/docs/only-en.md", "# Only English\n\nText.\n")
    repo.write("docs/es/docs/translation-banner.md", BANNER)
    repo.write("docs/missing-translation.md", NOTICE)
    repo.commit("only English, the banner and the notice", D1)
    english = _stage_and_build(root, "en", {"site_url": SITE_URL, "plugins": ["sitemap-pro"]})
    shutil.copytree(root / "docs/en/docs", root / STAGE / "es" / "content")
    _stage_with_notices(root, "es")
    _stage_and_build(root, "es", {"site_url": SITE_URL + "es/"}, staged=True)

    monkeypatch.chdir(root)
    assert main(["build", "-f", str(english.relative_to(root)), "--site-dir", "site",
                 "--strict"]) == 0, capsys.readouterr().err
    urls, alternates = read_with_alternates(root / "site" / "sitemap.xml")
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == {
        SITE_URL: utc(D1), SITE_URL + "guide/": utc(D3), SITE_URL + "about/": utc(D3),
        SITE_URL + "only-en/": utc(D1),
        SITE_URL + "es/": utc(D2), SITE_URL + "es/guide/": utc(D1),
        SITE_URL + "es/about/": utc(D2),  # its own language's file, as above
        SITE_URL + "es/only-en/": utc(D1),  # the English text, with a notice
    }
    assert alternates[SITE_URL + "es/guide/"] == [
        ("en", SITE_URL + "guide/"), ("es", SITE_URL + "es/guide/"),
        ("x-default", SITE_URL + "guide/")]
    assert "undated" not in capsys.readouterr().err


@needs_zensical
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


@pytest.mark.parametrize("layout", ["folder", "suffix"])
def test_static_i18n_built_by_mkdocs_is_read_as_the_plugin_reads_it(site, monkeypatch, capsys,
                                                                    layout):
    """A real `mkdocs build` with static-i18n (and no sitemap-pro in it): `build` reads the
    `i18n` entry's languages and docs_structure as data and lists every language, each
    page dated by its own source, fallback copies left out, alternates as the plugin's."""
    expected = make_site(site, layout, "after")
    site.config["plugins"] = [p for p in site.config["plugins"]
                              if not (isinstance(p, dict) and "sitemap-pro" in p)]
    site.config["hooks"] = []
    site.write_config()
    built = site.build(strict=True)
    assert built.error is None, built.messages()

    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    urls, alternates = read_with_alternates(site.root / "site" / "sitemap.xml")  # validated
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == expected
    for loc in urls:
        assert alternates[loc] == expected_alternates(loc), loc


# zensical-i18n 0.3 requires zensical<0.1: in the test extra it would hold every Zensical
# test below 0.1, so it is not there. .ci/run installs it into a folder of its own, first
# on PYTHONPATH, and sets SITEMAP_PRO_TEST_ZENSICAL_I18N: then these run, never skip.
needs_zensical_i18n = pytest.mark.skipif(
    importlib.util.find_spec("zensical_i18n") is None
    and not os.environ.get("SITEMAP_PRO_TEST_ZENSICAL_I18N"),
    reason="zensical-i18n not installed (.ci/run tests it in a step of its own)")


IMPLIED = "folder, implied"


@needs_zensical
@needs_zensical_i18n
@pytest.mark.parametrize("layout", ["folder", "suffix", IMPLIED])
def test_zensical_i18n_languages_dated_with_alternates(tmp_path, monkeypatch, capsys, layout):
    """A real `zensical-i18n build` (its zensical.toml entry is static-i18n's): every
    language listed, dated by its own source, the fallback copy left out, alternates."""
    repo = _i18n_repo(tmp_path, layout)
    result = subprocess.run([sys.executable, "-m", "zensical_i18n", "build"], cwd=repo.path,
                            env=git_env(), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (repo.path / "site/pt/guide/index.html").is_file()  # the fallback copy

    monkeypatch.chdir(repo.path)
    assert main(["build", "--strict"]) == 0, capsys.readouterr().err
    urls, alternates = read_with_alternates(repo.path / "site" / "sitemap.xml")  # validated
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == {
        SITE_URL: utc(D1), SITE_URL + "guide/": utc(D3), SITE_URL + "pt/": utc(D2)}
    home = [("en", SITE_URL), ("pt", SITE_URL + "pt/"), ("x-default", SITE_URL)]
    assert alternates == {SITE_URL: home, SITE_URL + "pt/": home}


def _i18n_source(layout: str, language: str, page: str) -> str:
    if layout in ("folder", IMPLIED):
        return f"docs/{language}/{page}.md"
    return f"docs/{page}.md" if language == "en" else f"docs/{page}.{language}.md"


@needs_zensical
@needs_zensical_i18n
def test_zensical_i18n_under_mike_lists_every_language_in_the_version(tmp_path, monkeypatch,
                                                                     capsys):
    """Under MIKE_DOCS_VERSION, Zensical bases the Portuguese canonical links on
    ``pt/1.0/``; the pages are in the version's ``pt/``: listed there, with alternates."""
    repo = _i18n_repo(tmp_path, "suffix")
    result = subprocess.run([sys.executable, "-m", "zensical_i18n", "build"], cwd=repo.path,
                            env=git_env({"MIKE_DOCS_VERSION": "1.0"}), capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr

    monkeypatch.setenv("MIKE_DOCS_VERSION", "1.0")
    monkeypatch.chdir(repo.path)
    assert main(["build", "--strict"]) == 0, capsys.readouterr().err
    urls, alternates = read_with_alternates(repo.path / "site" / "sitemap.xml")
    version = SITE_URL + "1.0/"
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == {
        version: utc(D1), version + "guide/": utc(D3), version + "pt/": utc(D2)}
    home = [("en", version), ("pt", version + "pt/"), ("x-default", version)]
    assert alternates == {version: home, version + "pt/": home}
    assert not (repo.path / "site" / "robots.txt").exists()


def _i18n_repo(tmp_path: Path, layout: str) -> GitRepo:
    """A site with zensical-i18n's settings in zensical.toml: English and Portuguese
    home pages, an English guide with no translation; three dates."""
    repo = GitRepo(tmp_path / "project")
    repo.write(".gitignore", "site/\n.cache/\n")
    repo.write("zensical.toml", "\n".join([
        "[project]", 'site_name = "Docs"', f'site_url = "{SITE_URL}"', "",
        "[project.plugins.i18n]",
        # Unset, with docs/en/: zensical-i18n keeps reading folders (with a warning).
        "" if layout == IMPLIED else f'docs_structure = "{layout}"',
        "[[project.plugins.i18n.languages]]", 'locale = "en"', 'name = "English"',
        "default = true",
        "[[project.plugins.i18n.languages]]", 'locale = "pt"', 'name = "Português"', ""]))
    pages = {("en", "index"): "# Home\n", ("pt", "index"): "# Início\n",
             ("en", "guide"): "# Guide\n"}
    for (language, page), text in pages.items():
        repo.write(_i18n_source(layout, language, page), text)
    repo.commit("first", D1)
    repo.write(_i18n_source(layout, "pt", "index"), "# Início\n\nMais.\n")
    repo.commit("pt", D2)
    repo.write(_i18n_source(layout, "en", "guide"), "# Guide\n\nMore.\n")
    repo.commit("guide", D3)
    return repo


@needs_zensical
def test_an_i18n_entry_plain_zensical_ignored_is_read_as_one_site(tmp_path, monkeypatch,
                                                                  capsys):
    """Plain `zensical build` runs no plugin: with no language folder in site_dir, the
    entry is not applied and every page is listed where Zensical wrote it."""
    repo = _i18n_repo(tmp_path, "suffix")
    result = subprocess.run([str(ZENSICAL), "build", "--clean"], cwd=repo.path,
                            env=git_env(), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr

    monkeypatch.chdir(repo.path)
    assert main(["build", "--strict"]) == 0, capsys.readouterr().err
    urls, alternates = read_with_alternates(repo.path / "site" / "sitemap.xml")
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == {
        SITE_URL: utc(D1), SITE_URL + "guide/": utc(D3), SITE_URL + "index.pt/": utc(D2)}
    assert alternates == {}
    assert "built without the i18n plugin" in capsys.readouterr().err


# Languages built in separate jobs (FastAPI's CI): each job stages and builds one
# language and uploads its folder; the deploy job merges them into site/ and has the
# repository (docs/en/mkdocs.yml, docs/<lang>/docs/), never the staged configs.


def _job_artifact(root: Path, language: str, artifacts: Path, site_url: str,
                  env: dict[str, str] | None = None) -> None:
    """One language's job, as FastAPI's `docs.py build-lang`: stage (a translated page
    with a banner, an untranslated one as the English text with a notice), build with a
    real `zensical build`, keep the language's folder as the job's artifact, and leave
    nothing else behind."""
    if language != "en":
        shutil.copytree(root / "docs/en/docs", root / STAGE / language / "content")
        _stage_with_notices(root, language)
    _stage_and_build(root, language, {"site_url": site_url}, env, staged=language != "en")
    built = root / "site" if language == "en" else root / "site" / language
    shutil.copytree(built, artifacts / language)
    shutil.rmtree(root / "site")
    shutil.rmtree(root / STAGE)


def _deploy_checkout(root: Path, artifacts: Path, languages: dict[str, str]) -> None:
    """The deploy job: the repository and site/ merged from the jobs' artifacts
    (``languages``: artifact -> folder of site/, "" for the root)."""
    for artifact, folder in languages.items():
        shutil.copytree(artifacts / artifact, root / "site" / folder, dirs_exist_ok=True)
    assert not (root / STAGE).exists()


def _fastapi_repo(root: Path) -> GitRepo:
    """FastAPI's layout: docs/en/mkdocs.yml the only config, docs/es/docs/ the Spanish
    pages, an English page with no translation, the tracked banner and notice."""
    repo = _translated_repo(root)
    repo.write("docs/en/mkdocs.yml", yaml.safe_dump(
        {"site_name": "T", "site_url": SITE_URL, "plugins": ["sitemap-pro"]}))
    repo.write("docs/en/docs/only-en.md", "# Only English\n\nText.\n")
    repo.write("docs/es/docs/translation-banner.md", BANNER)
    repo.write("docs/missing-translation.md", NOTICE)
    repo.commit("config, an English page, the banner and the notice", D1)
    return repo


@needs_zensical
def test_languages_built_in_separate_jobs_dated_by_the_repository(tmp_path, monkeypatch,
                                                                   capsys):
    """The deploy job runs `build -f docs/en/mkdocs.yml` on the merged site: each Spanish
    page dated by its own source in docs/es/docs/, the untranslated one by the English
    text it shows, alternates both ways, the same as a run on the staged config."""
    root = tmp_path / "project"
    _fastapi_repo(root)
    artifacts = tmp_path / "artifacts"
    _job_artifact(root, "en", artifacts, SITE_URL)
    _job_artifact(root, "es", artifacts, SITE_URL + "es/")
    _deploy_checkout(root, artifacts, {"en": "", "es": "es"})

    monkeypatch.chdir(root)
    assert main(["build", "-f", "docs/en/mkdocs.yml", "--site-dir", "site",
                 "--strict"]) == 0, capsys.readouterr().err
    urls, alternates = read_with_alternates(root / "site" / "sitemap.xml")  # validated
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == {
        SITE_URL: utc(D1), SITE_URL + "guide/": utc(D3), SITE_URL + "about/": utc(D3),
        SITE_URL + "only-en/": utc(D1),
        SITE_URL + "es/": utc(D2),  # docs/es/docs/index.md
        SITE_URL + "es/guide/": utc(D1),
        SITE_URL + "es/about/": utc(D2),
        SITE_URL + "es/only-en/": utc(D1),  # the English text, with a notice
    }
    for page in ("", "guide/", "about/", "only-en/"):
        pair = [("en", SITE_URL + page), ("es", SITE_URL + "es/" + page),
                ("x-default", SITE_URL + page)]
        assert alternates[SITE_URL + page] == alternates[SITE_URL + "es/" + page] == pair
    err = capsys.readouterr().err
    assert "WARNING" not in err and "language es" in err


@needs_zensical
def test_languages_built_in_separate_jobs_under_mike(tmp_path, monkeypatch, capsys):
    """Every job builds under MIKE_DOCS_VERSION, and so does the deploy job's run: the
    Spanish pages are listed in the version's es/ folder, dated by docs/es/docs/."""
    root = tmp_path / "project"
    _fastapi_repo(root)
    artifacts = tmp_path / "artifacts"
    mike = {"MIKE_DOCS_VERSION": "1.0"}
    _job_artifact(root, "en", artifacts, SITE_URL, mike)
    _job_artifact(root, "es", artifacts, SITE_URL + "es/", mike)
    _deploy_checkout(root, artifacts, {"en": "", "es": "es"})

    monkeypatch.setenv("MIKE_DOCS_VERSION", "1.0")
    monkeypatch.chdir(root)
    assert main(["build", "-f", "docs/en/mkdocs.yml", "--site-dir", "site",
                 "--strict"]) == 0, capsys.readouterr().err
    urls, alternates = read_with_alternates(root / "site" / "sitemap.xml")  # validated
    version = SITE_URL + "1.0/"
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == {
        version: utc(D1), version + "guide/": utc(D3), version + "about/": utc(D3),
        version + "only-en/": utc(D1),
        version + "es/": utc(D2), version + "es/guide/": utc(D1),
        version + "es/about/": utc(D2), version + "es/only-en/": utc(D1),
    }
    assert alternates[version + "es/guide/"] == alternates[version + "guide/"] == [
        ("en", version + "guide/"), ("es", version + "es/guide/"),
        ("x-default", version + "guide/")]


@needs_zensical
def test_a_language_folder_with_no_known_sources_is_a_warning(tmp_path, monkeypatch, capsys):
    """A folder whose job built docs the deploy checkout does not have (here site/fr/):
    its pages cannot be dated by their sources; the run names the folder and where it
    looked, and --strict fails. The other languages are listed as ever."""
    root = tmp_path / "project"
    _fastapi_repo(root)
    artifacts = tmp_path / "artifacts"
    _job_artifact(root, "en", artifacts, SITE_URL)
    _job_artifact(root, "es", artifacts, SITE_URL + "es/")
    _deploy_checkout(root, artifacts, {"en": "", "es": "es"})
    shutil.copytree(artifacts / "es", root / "site" / "fr")  # no docs/fr/ in the checkout

    monkeypatch.chdir(root)
    assert main(["build", "-f", "docs/en/mkdocs.yml", "--site-dir", "site", "--strict"]) == 1
    err = capsys.readouterr().err
    fr = os.path.join(root, "site", "fr")
    assert f"WARNING -  sitemap-pro: {fr}: 4 pages with no known source" in err
    assert os.path.join(root, "docs", "fr", "docs") in err

    assert main(["build", "-f", "docs/en/mkdocs.yml", "--site-dir", "site"]) == 0
    assert "site/fr: 4 pages with no known source" in capsys.readouterr().err
    urls, alternates = read_with_alternates(root / "site" / "sitemap.xml")  # validated
    assert urls[SITE_URL + "es/guide/"].get("lastmod") == utc(D1)
    assert len(alternates[SITE_URL + "es/guide/"]) == 3


_LANGUAGE_HOOK = '''\
"""FastAPI's MkDocs-era hook: a language's site_url is the English one with its folder,
and a page with no translation is built from the English file."""
from pathlib import Path

from mkdocs.structure.files import File


def on_config(config, **kwargs):
    lang = Path(config.docs_dir).parent.name
    if lang != "en" and not config.site_url.endswith(f"{lang}/"):
        config.site_url = f"{config.site_url}{lang}/"
    return config


def on_files(files, config, **kwargs):
    english = Path(config.docs_dir).parent.parent / "en" / "docs"
    for path in sorted(english.rglob("*.md")):
        name = path.relative_to(english).as_posix()
        if files.get_file_from_path(name) is None:
            files.append(File(name, str(english), config.site_dir, config.use_directory_urls))
    return files
'''


def test_mkdocs_languages_whose_config_only_inherits(tmp_path, monkeypatch, capsys):
    """FastAPI's MkDocs-era layout: docs/es/mkdocs.yml only INHERITs the English config
    (a hook gives it the site_url of its folder), each language built by a real
    `mkdocs build` in its own job: the Spanish pages are listed at es/, dated by their
    own sources (the untranslated page by the English file), with alternates."""
    root = tmp_path / "project"
    repo = _translated_repo(root)
    repo.write("docs/en/mkdocs.yml", yaml.safe_dump(
        {"site_name": "T", "site_url": SITE_URL, "hooks": ["../../scripts/hooks.py"]}))
    repo.write("docs/es/mkdocs.yml", "INHERIT: ../en/mkdocs.yml\n")
    repo.write("scripts/hooks.py", _LANGUAGE_HOOK)
    repo.write("docs/en/docs/only-en.md", "# Only English\n")
    repo.commit("configs", D1)
    artifacts = tmp_path / "artifacts"
    for language in ("en", "es"):
        result = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "-q", "-f", f"docs/{language}/mkdocs.yml",
             "--site-dir", str(artifacts / language)],
            cwd=root, env=git_env(), capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stdout + result.stderr
    _deploy_checkout(root, artifacts, {"en": "", "es": "es"})

    monkeypatch.chdir(root)
    assert main(["build", "-f", "docs/en/mkdocs.yml", "--site-dir", "site",
                 "--strict"]) == 0, capsys.readouterr().err
    urls, alternates = read_with_alternates(root / "site" / "sitemap.xml")  # validated
    assert {loc: fields.get("lastmod") for loc, fields in urls.items()} == {
        SITE_URL: utc(D1), SITE_URL + "guide/": utc(D3), SITE_URL + "about/": utc(D3),
        SITE_URL + "only-en/": utc(D1),
        SITE_URL + "es/": utc(D2), SITE_URL + "es/guide/": utc(D1),
        SITE_URL + "es/about/": utc(D2), SITE_URL + "es/only-en/": utc(D1),
    }
    guide = [("en", SITE_URL + "guide/"), ("es", SITE_URL + "es/guide/"),
             ("x-default", SITE_URL + "guide/")]
    assert alternates[SITE_URL + "guide/"] == alternates[SITE_URL + "es/guide/"] == guide
    assert alternates[SITE_URL + "es/only-en/"][1] == ("es", SITE_URL + "es/only-en/")
