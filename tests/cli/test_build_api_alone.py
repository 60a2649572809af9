"""``::: identifier`` blocks under ``mkdocs-sitemap-pro build`` with the tool installed
alone (a fresh venv holding this package and what it requires, as ``pipx install``
gives), after a real ``zensical build`` of a staged copy of the docs in a git-ignored
folder (FastAPI's script): the package is found in the repository, a re-export in
``__init__.py`` is followed to the module that defines the object, and the page is
dated by the lines it shows there. A block that cannot be followed is a WARNING naming
the page and the block (a hostile identifier: ``tests/hostile/test_build_identifiers.py``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.cli.test_build import ZENSICAL, needs_zensical, run_build
from tests.cli.test_build_config import alone_venv  # noqa: F401 - a fixture
from tests.support.dates import D1, D2, D3, utc
from tests.support.git import GitRepo, git_env
from tests.support.schemas import parse_sitemap
from tests.support.sites import SITE_URL, Site

URL = "https://example.com/"
STAGED = "site_zensical_src/en"

INIT = '''\
"""The app package."""

from .main import App, helper

__version__ = "1.0"
'''

MAIN = '''\
"""Where the app lives."""


class App:
    """An application.

    It serves requests.
    """

    def run(self) -> None:
        """Run it."""


def helper() -> int:
    """Help a little."""
    return 1


def unshown() -> int:
    """No page shows this."""
    return 2
'''


def _repo(tmp_path: Path) -> GitRepo:
    """The package under ``src/`` (re-exporting its classes), the tracked docs and
    config in ``docs/en`` (no handler ``paths``: the build installs the package), dated
    D1; the docstring ``app.App`` shows changes at D2, then a release bumps
    ``__version__`` (a line no page shows) and changes an unshown function at D3."""
    repo = GitRepo(tmp_path / "project")
    repo.write(".gitignore", "site_zensical_src/\n")
    repo.write("src/app/__init__.py", INIT)
    repo.write("src/app/main.py", MAIN)
    repo.write("docs/en/mkdocs.yml", yaml.safe_dump({
        "site_name": "App", "site_url": URL,
        "plugins": [{"mkdocstrings": {"handlers": {"python": {"options": {
            "show_source": False}}}}}, {"sitemap-pro": {}}],
    }))
    repo.write("docs/en/docs/index.md", "# Home\n")
    repo.write("docs/en/docs/reference/app.md", "# App\n\n::: app.App\n")
    repo.write("docs/en/docs/reference/helper.md", "# Helper\n\n::: app.helper\n")
    repo.commit("first", D1)
    repo.write("src/app/main.py", MAIN.replace("It serves requests.",
                                               "It serves requests, quickly."))
    repo.commit("docstring", D2)
    repo.write("src/app/__init__.py", INIT.replace('"1.0"', '"1.1"'))
    repo.write("src/app/main.py", MAIN.replace("It serves requests.",
                                               "It serves requests, quickly.")
               .replace("return 2", "return 3"))
    repo.commit("release 1.1", D3)
    return repo


def _stage(repo: Path) -> Path:
    """As FastAPI's script: the docs copied into the ignored folder, a config written
    there from the tracked one, built by a real `zensical build` that imports the
    package from where the build installed it (here: PYTHONPATH)."""
    staged = repo / STAGED
    shutil.copytree(repo / "docs/en/docs", staged / "content")
    config = yaml.safe_load((repo / "docs/en/mkdocs.yml").read_text(encoding="utf-8"))
    config.update(docs_dir="content", site_dir="site")
    path = staged / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    result = subprocess.run([str(ZENSICAL), "build", "--clean", "-f", path.name],
                            cwd=staged, env=git_env({"PYTHONPATH": str(repo / "src")}),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return path


def _dates(sitemap: Path) -> dict[str | None, str | None]:
    return {url.findtext("{*}loc"): url.findtext("{*}lastmod")
            for url in parse_sitemap(sitemap)}


@pytest.mark.slow
@needs_zensical
def test_the_tool_alone_dates_a_staged_site_by_the_lines_shown(tmp_path, alone_venv):
    repo = _repo(tmp_path)
    config = _stage(repo.path)
    html = (config.parent / "site/reference/app/index.html").read_text(encoding="utf-8")
    assert "It serves requests, quickly." in html  # what the page shows
    env = {k: v for k, v in git_env().items() if k != "PYTHONPATH"}
    python = alone_venv / "bin" / "python"
    for module in ("mkdocstrings", "app"):  # alone: neither the handler nor the package
        missing = subprocess.run([str(python), "-c", f"import {module}"], cwd=config.parent,
                                 env=env, capture_output=True, text=True)
        assert "ModuleNotFoundError" in missing.stderr, module

    result = subprocess.run(
        [str(alone_venv / "bin" / "mkdocs-sitemap-pro"), "build", "--strict", "-v",
         "-f", str(config)],
        cwd=config.parent, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    dates = _dates(config.parent / "site" / "sitemap.xml")
    # Its docstring's change in main.py, not the release's __version__ bump in
    # __init__.py (which re-exports App) nor the unshown function's change.
    assert dates[URL + "reference/app/"] == utc(D2), result.stderr
    assert dates[URL + "reference/helper/"] == utc(D1), result.stderr
    assert dates[URL] == utc(D1)
    assert "(1 by the API objects it shows)" in result.stderr, result.stderr
    assert "src/app/main.py lines" in result.stderr  # -v names the lines that decided


def _unfollowed_site(site: Site) -> None:
    """A package the build imports from a folder neither ``paths`` nor the repository's
    top level or ``src/`` names (``lib/``, installed by the build): ``build`` cannot
    follow its blocks."""
    site.config.update(plugins=[{"mkdocstrings": {}}, {"sitemap-pro": {}}])
    site.write_config()
    site.page("index.md", "# Home\n")
    site.repo.write("lib/hidden/__init__.py", '"""Hidden."""\n\n\ndef f() -> None:\n'
                    '    """Eff."""\n')
    site.page("hidden.md", "# Hidden\n\n::: hidden.f\n\n::: hidden.f\n    options:\n"
              "      show_source: false\n")
    site.commit("first", D1)
    site.repo.write("lib/hidden/__init__.py", '"""Hidden."""\n\n\ndef f() -> None:\n'
                    '    """Eff, changed."""\n')
    site.commit("docstring", D2)


@needs_zensical
def test_a_block_that_cannot_be_followed_is_a_warning(site, monkeypatch, capsys):
    _unfollowed_site(site)
    result = subprocess.run([str(ZENSICAL), "build", "--clean"], cwd=site.root,
                            env=git_env({"PYTHONPATH": str(site.root / "lib")}),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Eff, changed." in (site.root / "site/hidden/index.html").read_text()

    assert run_build(site, monkeypatch, "--strict") == 1
    err = capsys.readouterr().err
    warnings = [line for line in err.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1, err
    assert "page 'hidden.md': mkdocstrings blocks not followed" in warnings[0]
    # One page, one WARNING: its blocks named with their reason once.
    assert "'::: hidden.f', '::: hidden.f': its package 'hidden' is not found" in warnings[0]
    assert "'paths'" in warnings[0]  # what to set
    assert "1 with a ::: block not followed" in err

    # Said where: with `paths: [lib]` the page is dated by the docstring it shows.
    site.config.update(plugins=[{"mkdocstrings": {"handlers": {"python": {
        "paths": ["lib"]}}}}, {"sitemap-pro": {}}])
    site.write_config()
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    root = parse_sitemap(site.root / "site" / "sitemap.xml")
    dates = {url.findtext("{*}loc"): url.findtext("{*}lastmod") for url in root}
    assert dates[SITE_URL + "hidden/"] == utc(D2)


@needs_zensical
def test_a_staged_config_s_paths_are_also_read_from_its_tracked_original(tmp_path, monkeypatch,
                                                                        capsys):
    """The handler's ``paths`` were written for the tracked ``docs/en/mkdocs.yml``
    (``../../lib``); the staged copy sits at another depth, where they name nothing."""
    repo = GitRepo(tmp_path / "project")
    repo.write(".gitignore", ".staging/\n")
    repo.write("lib/deep/__init__.py", "from .impl import Thing\n\n__version__ = '1'\n")
    repo.write("lib/deep/impl.py", 'class Thing:\n    """A thing."""\n')
    repo.write("docs/en/mkdocs.yml", yaml.safe_dump({
        "site_name": "Deep", "site_url": URL,
        "plugins": [{"mkdocstrings": {"handlers": {"python": {"paths": ["../../lib"]}}}},
                    {"sitemap-pro": {}}]}))
    repo.write("docs/en/docs/index.md", "# Home\n\n::: deep.Thing\n")
    repo.commit("first", D1)
    repo.write("lib/deep/impl.py", 'class Thing:\n    """A thing, changed."""\n')
    repo.commit("docstring", D2)
    repo.write("lib/deep/__init__.py", "from .impl import Thing\n\n__version__ = '2'\n")
    repo.commit("release", D3)
    staged = repo.path / ".staging"
    shutil.copytree(repo.path / "docs/en/docs", staged / "content")
    config = yaml.safe_load((repo.path / "docs/en/mkdocs.yml").read_text(encoding="utf-8"))
    config.update(docs_dir="content", site_dir="site")
    (staged / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    result = subprocess.run([str(ZENSICAL), "build", "--clean"], cwd=staged,
                            env=git_env({"PYTHONPATH": str(repo.path / "lib")}),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "A thing, changed." in (staged / "site/index.html").read_text(encoding="utf-8")

    monkeypatch.chdir(staged)
    from mkdocs_sitemap_pro.cli.main import main

    assert main(["build", "--strict"]) == 0, capsys.readouterr().err
    assert _dates(staged / "site" / "sitemap.xml")[URL] == utc(D2)


def test_a_re_export_chain_to_another_package_dates_nothing_and_warns_not(tmp_path):
    """FastAPI's ``::: fastapi.Request``: ``fastapi.requests`` re-exports Starlette's,
    which is not installed beside the tool: shown, but outside the repository (as under
    MkDocs, it dates nothing). A re-export of a name the repository's own module lacks
    cannot be followed: said."""
    from mkdocs_sitemap_pro.plugin.standalone.api_objects import ApiObjects

    pkg = tmp_path / "src" / "web"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .requests import Request\nfrom .gone import Lost\n")
    (pkg / "requests.py").write_text("from notinstalled.requests import Request\n")
    (pkg / "gone.py").write_text('"""Nothing called Lost here."""\n')
    api = ApiObjects({}, tmp_path / "docs", top=tmp_path)
    assert api.shown("::: web.Request\n", lines=True) == (set(), {}, [])
    files, parts, missed = api.shown("::: web.Lost\n", lines=True)
    assert (files, parts) == (set(), {})
    assert missed == [("web.Lost", "it re-exports 'web.gone.Lost', which griffe cannot "
                                   "resolve in the repository's sources")]
