"""griffe extensions under ``mkdocs-sitemap-pro build``, loaded as mkdocstrings-python
loads them: a ``:::`` block's own ``options: extensions:``, and the handler's as names,
``module:Class``, ``{name: options}`` or ``.py`` paths relative to the config file.

griffe-inherited-docstrings gives a method without a docstring its parent's: the page
then shows lines of the parent's file, and is dated by them, as the plugin dates it
under ``mkdocs build``.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.cli.test_build import needs_zensical, run_build, zensical_build
from tests.cli.test_build_api import _dates, _site
from tests.support.dates import D1, D2, D3, utc
from tests.support.sites import SITE_URL, Site

BASE = '''\
"""Bases."""


class Base:
    """Base."""

    def run(self) -> int:
        """Run it.

        Longer words.
        """
        return 0
'''

CHILD = '''\
"""Children."""

from ipkg.base import Base


class Child(Base):
    """Child."""

    def run(self) -> int:
        return 1
'''

INHERIT = "griffe_inherited_docstrings"


def _package(root: Path) -> None:
    (root / "src" / "ipkg").mkdir(parents=True, exist_ok=True)
    (root / "src" / "ipkg" / "__init__.py").write_text("")
    (root / "src" / "ipkg" / "base.py").write_text(BASE)
    (root / "src" / "ipkg" / "child.py").write_text(CHILD)


@needs_zensical
@pytest.mark.parametrize("extension", [True, False])
def test_a_blocks_own_extension_dates_by_what_it_shows(site: Site, monkeypatch, capsys,
                                                       extension: bool) -> None:
    """Base.run's docstring, which Child.run inherits, changes on D3; Base.run's code,
    shown by no page, on D2. With the block's extension the page shows the docstring."""
    pytest.importorskip(INHERIT)
    _site(site, "lines")
    _package(site.root)
    own = f"      extensions:\n        - {INHERIT}\n" if extension else ""
    site.page("child.md", "# Child\n\n::: ipkg.child.Child\n    options:\n"
              f"      show_source: false\n{own}")
    site.commit("first", D1)
    base = site.root / "src" / "ipkg" / "base.py"
    base.write_text(BASE.replace("return 0", "return 2"))
    site.commit("code", D2)
    base.write_text(BASE.replace("return 0", "return 2").replace("Longer", "Longest"))
    site.commit("docstring", D3)

    zensical_build(site)
    html = (site.root / "site" / "child" / "index.html").read_text()
    assert ("Longest words" in html) is extension
    assert run_build(site, monkeypatch) == 0, capsys.readouterr().err
    after_zensical = _dates(site)[SITE_URL + "child/"]
    assert after_zensical == (utc(D3) if extension else utc(D1))

    built = site.build(strict=True)  # the plugin, under MkDocs, for the same site
    assert built.error is None, built.messages()
    assert ("Longest words" in (built.site_dir / "child" / "index.html").read_text()) is extension
    assert built.sitemap()[SITE_URL + "child/"]["lastmod"] == after_zensical


@pytest.mark.parametrize("extensions", [
    [INHERIT],
    [{INHERIT: {"merge": False}}],
    [f"{INHERIT}:InheritDocstringsExtension"],
    ["exts/inherit.py"],  # relative to the config file's folder, not the working one
    ["not_an_installed_extension", INHERIT],  # the others still load
])
def test_handler_extensions_in_every_form(tmp_path: Path, monkeypatch, caplog,
                                          extensions: list[object]) -> None:
    from mkdocs_sitemap_pro.plugin.standalone.api_objects import ApiObjects

    pytest.importorskip(INHERIT)
    project = tmp_path / "project"
    _package(project)
    (project / "exts").mkdir()
    (project / "exts" / "inherit.py").write_text(
        f"from {INHERIT} import InheritDocstringsExtension\n")
    monkeypatch.chdir(tmp_path)
    api = ApiObjects({"handlers": {"python": {"paths": ["src"], "options": {
        "show_source": False, "extensions": extensions}}}}, project)
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        files, parts, _ = api.shown("::: ipkg.child.Child\n", lines=True)
    assert files == set()
    assert parts[str(project / "src" / "ipkg" / "base.py")] == [(8, 11)]  # the docstring
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    if "not_an_installed_extension" in extensions:
        assert len(warned) == 1 and "'not_an_installed_extension'" in warned[0], warned
    else:
        assert warned == []
