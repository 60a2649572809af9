"""``build`` from a staged copy of the docs (FastAPI's script): a git-ignored folder the
tracked docs are copied into, with a generated config, built by a real `zensical build`.
Copies are dated by their tracked twins; a copy with no twin stays undated, and a build
whose pages mostly have none says so in a WARNING."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from mkdocs_sitemap_pro.cli.main import main
from tests.cli.test_build import ZENSICAL, needs_zensical
from tests.support.dates import D1, D2, D3, day, utc
from tests.support.git import GitRepo, git_env
from tests.support.schemas import parse_sitemap

URL = "https://example.com/"
STAGED = "site_zensical_src/en"


def _repo(tmp_path: Path) -> GitRepo:
    """Tracked docs in ``docs/en/docs`` with three dates; a second language holds a
    byte copy of one English page, changed later (a twin the rule must not prefer)."""
    repo = GitRepo(tmp_path / "project")
    repo.write(".gitignore", "site/\nsite_zensical_src/\n")
    repo.write("docs/en/docs/index.md", '# Home\n\n--8<-- "includes/shared.txt"\n')
    repo.write("docs/en/docs/includes/shared.txt", "Shared text.\n")
    repo.write("docs/en/docs/tutorial/a.md", "# A\n")
    repo.write("docs/en/docs/tutorial/b.md", "# B\n")
    repo.commit("first", D1)
    repo.write("docs/en/docs/tutorial/a.md", "# A\n\nMore.\n")
    repo.commit("a", D2)
    repo.write("docs/en/docs/includes/shared.txt", "Shared text, changed.\n")
    repo.write("docs/es/docs/otro/a.md", "# A\n\nMore.\n")  # the same bytes as a.md
    repo.commit("snippet and a copy", D3)
    return repo


def _stage(repo: Path) -> Path:
    """As FastAPI's script: copy the docs into the ignored folder, write a config there,
    and build it with a real `zensical build`."""
    staged = repo / STAGED
    shutil.copytree(repo / "docs/en/docs", staged / "content")
    config = staged / "mkdocs.yml"
    config.write_text(yaml.safe_dump({
        "site_name": "Staged", "site_url": URL, "docs_dir": "content",
        "site_dir": "site",
        "markdown_extensions": [{"pymdownx.snippets": {"base_path": ["content"]}}],
        "plugins": [{"sitemap-pro": {}}],
    }), encoding="utf-8")
    return config


def _zensical(config: Path) -> None:
    result = subprocess.run([str(ZENSICAL), "build", "--clean", "-f", str(config)],
                            cwd=config.parent, env=git_env(), capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def _dates(repo: Path) -> dict[str | None, str | None]:
    root = parse_sitemap(repo / STAGED / "site" / "sitemap.xml")
    return {url.findtext("{*}loc"): url.findtext("{*}lastmod") for url in root}


@needs_zensical
def test_staged_pages_and_include_dated_by_their_tracked_twins(tmp_path, monkeypatch, capsys):
    repo = _repo(tmp_path)
    config = _stage(repo.path)
    # A staged page whose text is no tracked file's: no twin, so undated.
    (config.parent / "content/tutorial/c.md").write_text("# C, only here\n", encoding="utf-8")
    _zensical(config)
    monkeypatch.chdir(config.parent)

    assert main(["build", "-f", str(config), "--strict"]) == 0, capsys.readouterr().err
    assert _dates(repo.path) == {
        URL: utc(D3),  # its own twin is D1; the included snippet's twin D3
        URL + "tutorial/a/": utc(D2),  # the twin at the same path, not es/otro/a.md (D3)
        URL + "tutorial/b/": utc(D1),
        URL + "tutorial/c/": None,
    }
    assert "not tracked" not in capsys.readouterr().err


@needs_zensical
def test_staged_copy_with_no_twin_warns_and_fails_strict(tmp_path, monkeypatch, capsys):
    repo = _repo(tmp_path)
    config = _stage(repo.path)
    for page in (config.parent / "content").rglob("*.md"):
        # A line changed, not only lines added (a notice would be: see derived.py).
        page.write_text(page.read_text(encoding="utf-8").replace("# ", "# Edited: "),
                        encoding="utf-8")
    _zensical(config)
    monkeypatch.chdir(config.parent)

    assert main(["build", "-f", str(config)]) == 0
    err = capsys.readouterr().err
    assert err.count("WARNING") == 1, err
    assert "3 of 3 pages are undated" in err and f"repository at {repo.path.resolve()}" in err
    assert "run the build from the tracked docs folder, or commit" in err
    assert set(_dates(repo.path).values()) == {None}
    assert main(["build", "-f", str(config), "--strict"]) == 1


def test_plugin_under_mkdocs_dates_a_staged_copy_the_same_way(tmp_path):
    repo = _repo(tmp_path)
    config = _stage(repo.path)
    (config.parent / "content/tutorial/c.md").write_text("# C, only here\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                             str(config)], cwd=config.parent, env=git_env(),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr

    assert _dates(repo.path) == {
        URL: utc(D3),  # by the snippet's twin
        URL + "tutorial/a/": utc(D2),
        URL + "tutorial/b/": utc(D1),
        URL + "tutorial/c/": None,
    }


@needs_zensical
def test_cache_of_a_staged_config_outlives_the_staging_folder(tmp_path, monkeypatch, capsys):
    """The staging folder is deleted and made again between two runs (as FastAPI's script
    does): the second run reads the history map the first one kept, from the repository
    root's .cache, since git does not track the staged config."""
    repo = _repo(tmp_path)
    monkeypatch.chdir(repo.path)
    for run in ("cold", "warm"):
        shutil.rmtree(repo.path / "site_zensical_src", ignore_errors=True)
        config = _stage(repo.path)
        _zensical(config)
        assert main(["build", "-f", str(config), "-v", "--strict"]) == 0
        err = capsys.readouterr().err
        kept = "git history: the map kept for this HEAD" in err
        assert kept is (run == "warm"), err
        assert _dates(repo.path)[URL + "tutorial/a/"] == utc(D2)
    assert (repo.path / ".cache/plugin/sitemap-pro/history.json").is_file()
    assert not (config.parent / ".cache/plugin").exists()  # .cache/ itself: Zensical's

    # An explicit cache_dir is kept as given: relative to the staged config.
    written = yaml.safe_load(config.read_text(encoding="utf-8"))
    written["plugins"] = [{"sitemap-pro": {"cache_dir": "here"}}]
    config.write_text(yaml.safe_dump(written), encoding="utf-8")
    assert main(["build", "-f", str(config), "--strict"]) == 0, capsys.readouterr().err
    assert (config.parent / "here/history.json").is_file()



BANNER = ("/// details | Traducción\n\nTraducido por IA.\n\nCorrígela si hace falta.\n\n"
          "[Versión en inglés](ENGLISH_VERSION_URL)\n\n///\n")
D4 = day(90)  # after D3
NOTICE = "/// warning\n\nEsta página aún no está traducida.\n\nPronto lo estará.\n\n///\n"


def _translated_repo(tmp_path: Path) -> GitRepo:
    """FastAPI's layout: English docs, a Spanish translation of two of its three pages,
    the Spanish banner and the shared notice for untranslated pages (tracked files)."""
    repo = GitRepo(tmp_path / "project")
    repo.write(".gitignore", "site/\nsite_zensical_src/\n.cache/\n")
    for name in ("index", "a", "b"):
        repo.write(f"docs/en/docs/{name}.md", f"# {name.upper()}\n\nText of {name}.\n")
    repo.write("docs/es/docs/index.md", "# Inicio\n\nBienvenido.\n")
    repo.write("docs/es/docs/a.md", "# A\n\nTexto de a.\n")
    repo.write("docs/es/docs/translation-banner.md", BANNER)
    repo.write("docs/missing-translation.md", NOTICE)
    repo.commit("first", D1)
    repo.write("docs/es/docs/a.md", "# A\n\nTexto de a, mejor.\n")
    repo.commit("a", D2)
    return repo


def _notice(markdown: str, notice: str) -> str:
    """FastAPI's ``add_markdown_notice``: the notice after the title."""
    header, _, body = markdown.partition("\n\n")
    return f"{header}\n\n{notice}\n\n{body}"


def _stage_spanish(repo: Path, zensical: bool = True) -> Path:
    """As FastAPI's ``stage_zensical_docs('es')``: the English docs copied; a translated
    page replaced by its translation with the banner (its English URL filled in), an
    untranslated one given the notice; then a real `zensical build`."""
    staged = repo / "site_zensical_src" / "es"
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(repo / "docs/en/docs", staged / "content")
    banner = (repo / "docs/es/docs/translation-banner.md").read_text(encoding="utf-8")
    notice = (repo / "docs/missing-translation.md").read_text(encoding="utf-8")
    for page in sorted((staged / "content").glob("*.md")):
        translated = repo / "docs/es/docs" / page.name
        if translated.is_file():
            url = f"https://example.com/{page.stem}/".replace("/index/", "/")
            text = _notice(translated.read_text(encoding="utf-8"),
                           banner.replace("ENGLISH_VERSION_URL", url))
        else:
            text = _notice(page.read_text(encoding="utf-8"), notice)
        page.write_text(text, encoding="utf-8")
    config = staged / "mkdocs.yml"
    config.write_text(yaml.safe_dump({
        "site_name": "Staged", "site_url": URL + "es/", "docs_dir": "content",
        "site_dir": "site", "plugins": [{"sitemap-pro": {}}],
    }), encoding="utf-8")
    if zensical:
        _zensical(config)
    return config


def _spanish_dates(repo: Path) -> dict[str | None, str | None]:
    root = parse_sitemap(repo / "site_zensical_src/es/site/sitemap.xml")
    return {url.findtext("{*}loc"): url.findtext("{*}lastmod") for url in root}


@needs_zensical
def test_a_staged_banner_or_notice_dates_the_pages_that_show_it(tmp_path, monkeypatch,
                                                                capsys):
    """A commit changing only the banner re-dates the translated pages (which show it
    with their English URL filled in); one changing only the notice, the untranslated."""
    repo = _translated_repo(tmp_path)
    monkeypatch.chdir(repo.path)
    es = URL + "es/"

    def dates() -> dict[str | None, str | None]:
        config = _stage_spanish(repo.path)
        assert main(["build", "-f", str(config), "--strict", "-v"]) == 0, \
            capsys.readouterr().err
        return _spanish_dates(repo.path)

    assert dates() == {es: utc(D1), es + "a/": utc(D2), es + "b/": utc(D1)}
    err = capsys.readouterr().err
    assert "come from docs/es/docs/translation-banner.md, which date it too" in err, err

    repo.write("docs/es/docs/translation-banner.md",
               BANNER.replace("Traducido por IA.", "Traducido por IA y personas."))
    repo.commit("banner", D3)
    assert dates() == {es: utc(D3), es + "a/": utc(D3), es + "b/": utc(D1)}

    repo.write("docs/missing-translation.md", NOTICE.replace("Pronto", "Muy pronto"))
    repo.commit("notice", D4)
    assert dates() == {es: utc(D3), es + "a/": utc(D3), es + "b/": utc(D4)}


@needs_zensical
def test_staged_lines_no_tracked_file_holds_warn_and_fail_strict(tmp_path, monkeypatch,
                                                                capsys):
    repo = _translated_repo(tmp_path)
    monkeypatch.chdir(repo.path)
    config = _stage_spanish(repo.path)
    page = config.parent / "content/b.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nBuilt on a Tuesday.\n",
                    encoding="utf-8")
    _zensical(config)
    assert main(["build", "-f", str(config), "--strict"]) == 1
    err = capsys.readouterr().err
    assert err.count("WARNING") == 1, err
    assert ("staged page 'site_zensical_src/es/content/b.md' adds lines to "
            "docs/en/docs/b.md that no tracked file holds") in err, err
    assert "1 with staged lines no tracked file holds)" in err, err  # counted in the summary
    assert main(["build", "-f", str(config)]) == 0
    assert _spanish_dates(repo.path)[URL + "es/b/"] == utc(D1)  # by what it could follow


def test_plugin_under_mkdocs_dates_a_staged_banner_the_same_way(tmp_path):
    repo = _translated_repo(tmp_path)
    repo.write("docs/es/docs/translation-banner.md",
               BANNER.replace("Traducido por IA.", "Traducido por IA y personas."))
    repo.commit("banner", D3)
    staged = repo.path / "site_zensical_src" / "es"
    config = _stage_spanish(repo.path, zensical=False)
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                             str(config)], cwd=staged, env=git_env(),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    es = URL + "es/"
    assert _spanish_dates(repo.path) == {es: utc(D3), es + "a/": utc(D3), es + "b/": utc(D1)}
