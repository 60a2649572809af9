"""``mkdocs-sitemap-pro build`` reads the configuration as data, as Zensical reads it.

zensical.toml and mkdocs.yml (INHERIT, !ENV, ``!!python/name:`` tags, Material's
extension names, plugins that are not installed), each built by a real ``zensical
build`` first; none of the site's extensions is imported by our command, which also
runs installed alone. And its log: ``-v`` says per page what dated it, and no line
reaches the root logger a second time.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import feedparser
import pytest
import yaml

from mkdocs_sitemap_pro.plugin.standalone.config import load_site_config
from tests.cli.test_build import needs_zensical, run_build
from tests.support import REPO
from tests.support.dates import D1, D2, D3, utc
from tests.support.git import git_env
from tests.support.schemas import parse_sitemap
from tests.support.sites import SITE_URL, Site
from tests.support.venvs import cached_venv

ZENSICAL = Path(sys.executable).parent / "zensical"
SUMMARY = "INFO    -  sitemap-pro: "
# A Markdown extension of the site's own: Zensical imports it; our command must not.
TRIPWIRE = '''\
"""A Markdown extension that marks, in the importing process, that it was imported."""
from markdown.extensions import Extension
from pymdownx.superfences import fence_code_format as fence

class TripwireExtension(Extension):
    def extendMarkdown(self, md):
        pass

def makeExtension(**kwargs):
    return TripwireExtension(**kwargs)
'''


def zensical_build(site: Site, env: dict[str, str] | None = None) -> None:
    """A real `zensical build --clean` in the project folder (its own modules importable)."""
    paths = [str(site.root), *filter(None, [os.environ.get("PYTHONPATH")])]
    result = subprocess.run(
        [str(ZENSICAL), "build", "--clean"], cwd=site.root,
        env=git_env({"PYTHONPATH": os.pathsep.join(paths), **(env or {})}),
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def sitemap(site: Site) -> dict[str, dict[str, str]]:
    """The written urlset, validated, as ``{loc: {field: text}}``."""
    out = {}
    for url in parse_sitemap(site.root / "site" / "sitemap.xml"):
        fields = {child.tag.split("}")[1]: child.text or "" for child in url}
        out[fields["loc"]] = fields
    return out


def dated_pages(site: Site) -> None:
    """index (D1), guide (D2), usage: its own text D1, the snippet it includes D3."""
    site.page("index.md", "# Home\n")
    site.page("guide.md", "# Guide (c)\n")
    site.page("usage.md", '# Usage\n\n--8<-- "shared.md"\n')
    site.repo.write("snippets/shared.md", "Shared text.\n")
    site.commit("first", D1)
    site.page("guide.md", "# Guide (c)\n\nMore.\n")
    site.commit("guide", D2)
    site.repo.write("snippets/shared.md", "Shared text, changed.\n")
    site.commit("snippet", D3)


DATES = {SITE_URL: utc(D1), SITE_URL + "guide/": utc(D2), SITE_URL + "usage/": utc(D3)}


def toml_site(site: Site) -> None:
    """The project configured by zensical.toml alone, options under [project.plugins]."""
    (site.root / "mkdocs.yml").unlink()
    site.repo.write("zensical.toml", textwrap.dedent(f"""\
        [project]
        site_name = "Test"
        site_url = "{SITE_URL}"

        [project.markdown_extensions.pymdownx.snippets]
        base_path = ["snippets"]

        [project.markdown_extensions.zensical.extensions.preview]

        [project.plugins.sitemap-pro]
        changefreq = "weekly"
        """))


@needs_zensical
@pytest.mark.parametrize("named", [False, True])
def test_zensical_toml_alone(site, monkeypatch, capsys, named):
    toml_site(site)
    dated_pages(site)
    zensical_build(site)
    theirs = (site.root / "site" / "sitemap.xml").read_text(encoding="utf-8")
    assert "<lastmod>" not in theirs  # Zensical's own

    args = ["-f", "zensical.toml"] if named else []
    assert run_build(site, monkeypatch, "--strict", *args) == 0, capsys.readouterr().err
    urls = sitemap(site)
    assert {loc: fields["lastmod"] for loc, fields in urls.items()} == DATES
    assert {fields["changefreq"] for fields in urls.values()} == {"weekly"}


@needs_zensical
def test_zensical_toml_comes_before_mkdocs_yml(site, monkeypatch, capsys):
    """Without -f, as Zensical: zensical.toml wins over a mkdocs.yml beside it."""
    toml_site(site)
    dated_pages(site)
    zensical_build(site)
    site.config["site_url"] = "https://elsewhere.example.org/"
    site.write_config()  # a stale mkdocs.yml that Zensical ignores
    assert run_build(site, monkeypatch) == 0, capsys.readouterr().err
    assert set(sitemap(site)) == set(DATES)


def yaml_site(site: Site, **options: object) -> None:
    """mkdocs.yml inheriting base.yml, with !ENV, Python tags, Material's extension
    names, the site's own extension and a plugin that is not installed; ``options``:
    sitemap-pro's, besides ``changefreq``."""
    site.repo.write("tripwire_ext.py", TRIPWIRE)
    site.repo.write("base.yml", textwrap.dedent("""\
        site_name: Test
        theme:
          name: material
        markdown_extensions:
          - pymdownx.emoji:
              emoji_index: !!python/name:material.extensions.emoji.twemoji
              emoji_generator: !!python/name:material.extensions.emoji.to_svg
          - material.extensions.preview:
              targets:
                include:
                  - guide.md
          - tripwire_ext
          - pymdownx.smartsymbols
        """))
    options = yaml.safe_dump({"plugins": [
        "not-an-installed-plugin", {"sitemap-pro": {"changefreq": "monthly", **options}}]})
    (site.root / "mkdocs.yml").write_text(textwrap.dedent("""\
        INHERIT: base.yml
        site_url: !ENV [SITEMAP_TEST_URL, "https://wrong.example.org/"]
        markdown_extensions:
          - pymdownx.smartsymbols
          - pymdownx.snippets:
              base_path: [snippets]
          - pymdownx.superfences:
              custom_fences:
                - name: mermaid
                  class: mermaid
                  format: !!python/name:tripwire_ext.fence
        """) + options, encoding="utf-8")


@needs_zensical
def test_mkdocs_yml_read_as_zensical_reads_it(site, monkeypatch, capsys):
    yaml_site(site)
    dated_pages(site)
    zensical_build(site, {"SITEMAP_TEST_URL": SITE_URL})
    monkeypatch.setenv("SITEMAP_TEST_URL", SITE_URL)
    monkeypatch.syspath_prepend(str(site.root))  # importable, yet never imported
    sys.modules.pop("tripwire_ext", None)

    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    urls = sitemap(site)
    assert {loc: fields["lastmod"] for loc, fields in urls.items()} == DATES
    assert {fields["changefreq"] for fields in urls.values()} == {"monthly"}
    assert "tripwire_ext" not in sys.modules


@needs_zensical
def test_a_feed_takes_its_titles_from_the_built_pages(site, monkeypatch, capsys):
    """`feed = true`: the titles are the headings Zensical wrote (smartsymbols' ©); the
    site's Markdown extensions are never imported (the old code converted each heading
    with them)."""
    toml_site(site)
    site.repo.write("tripwire_ext.py", TRIPWIRE)
    with (site.root / "zensical.toml").open("a", encoding="utf-8") as toml:
        toml.write('feed = true\n\n[project.markdown_extensions.pymdownx.smartsymbols]\n\n'
                   '[project.markdown_extensions.tripwire_ext]\n')
    dated_pages(site)
    site.page("guide.md", "Fish & *Chips* (c)\n==================\n\nMore.\n")
    site.commit("guide's title", D3)
    zensical_build(site)
    monkeypatch.syspath_prepend(str(site.root))  # importable, yet never imported
    sys.modules.pop("tripwire_ext", None)

    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    assert "tripwire_ext" not in sys.modules
    feed = feedparser.parse((site.root / "site" / "sitemap.atom").read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert [(e.link, e.title) for e in feed.entries] == [
        (SITE_URL + "guide/", "Fish & Chips \u00a9"), (SITE_URL + "usage/", "Usage"),
        (SITE_URL, "Home")]


def test_relative_config_dir_is_the_path_it_names(site, monkeypatch):
    """MkDocs' `!relative $config_dir/...` (which Zensical does not read) is a path."""
    (site.root / "docs").mkdir()
    (site.root / "mkdocs.yml").write_text(textwrap.dedent("""\
        site_name: Test
        markdown_extensions:
          - pymdownx.snippets:
              base_path: !relative $config_dir/snippets
          - pymdownx.tabbed:
              slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}
        """), encoding="utf-8")
    monkeypatch.chdir(site.root)
    config = load_site_config(None).mkdocs
    assert config.mdx_configs["pymdownx.snippets"] == {"base_path": str(site.root / "snippets")}
    slugify = config.mdx_configs["pymdownx.tabbed"]["slugify"]
    assert (slugify.tag, slugify.value) == ("python/object/apply", "pymdownx.slugs.slugify")
    assert config.markdown_extensions == [
        "toc", "tables", "fenced_code", "pymdownx.snippets", "pymdownx.tabbed"]


@needs_zensical
def test_verbose_names_what_dated_each_page(site, monkeypatch, capsys):
    toml_site(site)
    dated_pages(site)
    zensical_build(site)
    assert run_build(site, monkeypatch, "-v") == 0
    err = capsys.readouterr().err
    assert "DEBUG   -  sitemap-pro: page 'usage.md': dated by the included file snippets/shared.md" in err
    for page in ("index.md", "guide.md"):
        assert f"DEBUG   -  sitemap-pro: page '{page}': dated by its source docs/{page}" in err
    assert "Loaded theme configuration" not in err  # MkDocs' default theme: none of the site's
    assert run_build(site, monkeypatch) == 0
    assert "DEBUG" not in capsys.readouterr().err


@needs_zensical
def test_a_root_handler_prints_nothing_twice(site, monkeypatch, capsys):
    """A site's extension (mdx_include) calls logging.basicConfig() when imported."""
    toml_site(site)
    dated_pages(site)
    zensical_build(site)
    root = logging.getLogger()
    pytests = list(root.handlers)  # basicConfig() does nothing while root has handlers
    for handler in pytests:
        root.removeHandler(handler)
    logging.basicConfig()
    added = list(root.handlers)
    for handler in pytests:
        root.addHandler(handler)
    mkdocs_logger = logging.getLogger("mkdocs")
    try:
        assert added  # a handler of its own, on stderr
        assert run_build(site, monkeypatch) == 0
    finally:
        for handler in added:
            root.removeHandler(handler)
    err = capsys.readouterr().err
    assert err.count("sitemap-pro: 3 URLs in 1 file") == 1, err
    assert "INFO:mkdocs" not in err  # nothing in basicConfig's format
    lines = err.splitlines()
    assert len(lines) == len(set(lines)), err
    assert mkdocs_logger.propagate  # given back as it was


@pytest.fixture(scope="session")
def alone_venv() -> Path:
    """A virtual environment with this project and its runtime dependencies only (cached):
    no pymdown-extensions, no Material, no Zensical, as `pipx install` gives."""
    return cached_venv("alone", lambda pip: [[*pip, "install", "-q", str(REPO)]])


@needs_zensical
def test_installed_by_itself(site, alone_venv):
    """pymdownx.superfences and Material's extensions are named, none is installed; the
    feed's titles are the headings Zensical wrote (smartsymbols' ©)."""
    yaml_site(site, feed=True)
    dated_pages(site)
    zensical_build(site, {"SITEMAP_TEST_URL": SITE_URL})
    env = {k: v for k, v in git_env({"SITEMAP_TEST_URL": SITE_URL}).items()
           if k != "PYTHONPATH"}
    python = alone_venv / "bin" / "python"
    for module in ("pymdownx", "material", "zensical"):
        missing = subprocess.run([str(python), "-c", f"import {module}"], cwd=site.root,
                                 env=env, capture_output=True, text=True)
        assert missing.returncode != 0 and "ModuleNotFoundError" in missing.stderr, module

    result = subprocess.run([str(alone_venv / "bin" / "mkdocs-sitemap-pro"), "build", "--strict"],
                            cwd=site.root, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    urls = sitemap(site)
    assert {loc: fields["lastmod"] for loc, fields in urls.items()} == DATES
    assert f"{SUMMARY}3 URLs in 1 file" in result.stderr
    feed = feedparser.parse((site.root / "site" / "sitemap.atom").read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert [(e.link, e.title) for e in feed.entries] == [
        (SITE_URL + "usage/", "Usage"), (SITE_URL + "guide/", "Guide \u00a9"),
        (SITE_URL, "Home")]
