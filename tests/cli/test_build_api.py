"""``mkdocs-sitemap-pro build`` after a real ``zensical build`` of mkdocstrings pages:
each ``:::`` page dated by the source lines (or files) it renders, resolved with griffe."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_build import needs_zensical, run_build, zensical_build
from tests.support.dates import D1, D2, D3, day, utc
from tests.support.schemas import parse_sitemap
from tests.support.sites import SITE_URL, Site

MODULE = '''\
"""The module."""

import os

CONSTANT = 1


def func(x: int) -> int:
    """Double a number.

    More words.
    """
    return x * 2


class Thing:
    """A thing."""

    def method(self) -> int:
        """A method."""
        return 1


def other() -> int:
    """Not shown by any page."""
    return 3
'''

TYPINGDOC = '''\
"""Typed docs."""

from typing import Annotated

from typing_extensions import Doc


def first() -> int:
    """First, not shown."""
    return 0


def typed(
    count: Annotated[int, Doc("How many.")],
) -> int:
    return count


def last() -> int:
    """Last, not shown."""
    return 9
'''


def _site(site: Site, depth: str, **handler: object) -> None:
    python: dict[str, object] = {"paths": ["src"], **handler}
    site.config.update(plugins=[{"mkdocstrings": {"handlers": {"python": python}}},
                                {"sitemap-pro": {"dependencies": depth}}])
    site.write_config()
    site.page("index.md", "# Home\n")


def _dates(site: Site) -> dict[str | None, str | None]:
    root = parse_sitemap(site.root / "site" / "sitemap.xml")
    return {url.findtext("{*}loc"): url.findtext("{*}lastmod") for url in root}


@needs_zensical
@pytest.mark.parametrize("depth", ["lines", "files"])
def test_pages_dated_by_the_source_they_render(site, monkeypatch, capsys, depth):
    _site(site, depth)
    site.repo.write("src/pkg/__init__.py", '"""The package."""\n')
    site.repo.write("src/pkg/mod.py", MODULE)
    site.page("func.md", "# Func\n\n::: pkg.mod.func\n")
    site.page("thing.md", "# Thing\n\n::: pkg.mod.Thing\n    options:\n      show_source: false\n")
    site.page("code.md", "# Code\n\n```\n::: pkg.mod.other\n```\n")  # not a block
    site.commit("first", D1)
    # Outside every shown object: only whole files move.
    site.repo.write("src/pkg/mod.py", MODULE.replace("return 3", "return 4"))
    site.commit("other", D2)
    # Inside func's docstring: only the page that shows it.
    site.repo.write("src/pkg/mod.py", MODULE.replace("return 3", "return 4")
                    .replace("More words.", "More words, changed."))
    site.commit("func doc", D3)
    zensical_build(site)
    assert "Double a number" in (site.root / "site" / "func" / "index.html").read_text()

    assert run_build(site, monkeypatch) == 0, capsys.readouterr().err
    dates = _dates(site)
    if depth == "lines":
        assert dates[SITE_URL + "func/"] == utc(D3)
        assert dates[SITE_URL + "thing/"] == utc(D1)
    else:
        assert dates[SITE_URL + "func/"] == utc(D3)
        assert dates[SITE_URL + "thing/"] == utc(D3)
    assert dates[SITE_URL + "code/"] == utc(D1)
    # Whole files may have changed at a line no page shows: the summary says which.
    err = capsys.readouterr().err
    if depth == "lines":
        assert "(1 by the API objects it shows)" in err, err
    else:
        assert "(2 by the whole files of the API objects it shows)" in err, err


@needs_zensical
def test_typingdoc_dates_by_the_objects_own_lines(site, monkeypatch, capsys):
    _site(site, "lines", options={"extensions": ["griffe_typingdoc"]})
    site.repo.write("src/tpkg/__init__.py", "")
    site.repo.write("src/tpkg/typed.py", TYPINGDOC)
    # No docstring: griffe-typingdoc makes one from ``Doc()``, without line numbers.
    site.page("typed.md", "# Typed\n\n::: tpkg.typed.typed\n"
              "    options:\n      show_source: false\n")
    site.commit("first", D1)
    site.repo.write("src/tpkg/typed.py", TYPINGDOC.replace("return 9", "return 10"))
    site.commit("outside", D2)
    zensical_build(site)
    assert "How many." in (site.root / "site" / "typed" / "index.html").read_text()
    assert run_build(site, monkeypatch) == 0, capsys.readouterr().err
    assert _dates(site)[SITE_URL + "typed/"] == utc(D1)  # not the whole file's D2

    site.repo.write("src/tpkg/typed.py", TYPINGDOC.replace("return 9", "return 10")
                    .replace("How many.", "How many, at most."))
    site.commit("inside", D3)
    assert run_build(site, monkeypatch) == 0, capsys.readouterr().err
    assert _dates(site)[SITE_URL + "typed/"] == utc(D3)


def test_blocks_outside_fences_with_their_options() -> None:
    from mkdocs_sitemap_pro.plugin.standalone.api_objects import blocks

    text = ("::: a.b\n    options:\n      members: [x]\n\n```\n::: no\n```\n"
            "  ::: c.d\ntext\n")
    assert list(blocks(text)) == [("a.b", {"options": {"members": ["x"]}}), ("c.d", {})]


@pytest.mark.parametrize("broken", ["missing", "emptied"])
def test_without_griffe_each_block_is_named(tmp_path: Path, monkeypatch, broken) -> None:
    """griffe is a dependency of the tool; an install where it cannot be imported names
    each block (the page's WARNING), rather than guessing by the module's file.
    ``emptied``: pip upgrading griffe 1 to 2 in place leaves a ``griffe`` folder
    without its files (an importable namespace)."""
    import sys
    import types

    from mkdocs_sitemap_pro.plugin.standalone.api_objects import ApiObjects

    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "__init__.py").write_text("")
    (tmp_path / "src" / "pkg" / "mod.py").write_text("def f(): pass\n")
    monkeypatch.setitem(sys.modules, "griffe",  # as if not installed, or emptied
                        None if broken == "missing" else types.ModuleType("griffe"))
    api = ApiObjects({"handlers": {"python": {"paths": ["src"]}}}, tmp_path)
    files, parts, missed = api.shown("::: pkg.mod.f\n\n::: pkg\n", lines=True)
    assert (files, parts) == (set(), {})
    assert [name for name, _ in missed] == ["pkg.mod.f", "pkg"]
    assert all("griffe cannot be imported whole" in why for _, why in missed)


def test_members_rendered_follow_mkdocstrings_python(tmp_path: Path) -> None:
    """A module block: its public members (default filters), not the private one, not
    the imported name, not a submodule; ``members`` at the block's object only."""
    from mkdocs_sitemap_pro.plugin.standalone.api_objects import ApiObjects

    pkg = tmp_path / "src" / "mpkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text('"""Sub."""\n')
    (pkg / "m.py").write_text(
        '"""Doc."""\n'                       # 1
        "from os import path\n"              # 2
        "\n"                                 # 3
        "def pub() -> None:\n"               # 4
        '    """Pub."""\n'                   # 5
        "\n"                                 # 6
        "def _priv() -> None:\n"             # 7
        '    """Priv."""\n'                  # 8
        "\n"                                 # 9
        "def two() -> None:\n"               # 10
        '    """Two."""\n'                   # 11
    )
    api = ApiObjects({"handlers": {"python": {"paths": ["src"],
                                              "options": {"show_source": False}}}}, tmp_path)
    name = str(pkg / "m.py")
    assert api.shown("::: mpkg.m\n", lines=True) == (set(), {name: [(1, 1), (4, 5), (10, 11)]}, [])
    only = "::: mpkg.m\n    options:\n      members: [two]\n"
    assert api.shown(only, lines=True) == (set(), {name: [(1, 1), (10, 11)]}, [])
    assert api.shown("::: mpkg.m\n", lines=False) == ({name}, {}, [])
    assert api.shown("::: mpkg\n", lines=True) == (set(), {}, [])  # submodules not rendered
    with_subs = "::: mpkg\n    options:\n      show_submodules: true\n"
    assert api.shown(with_subs, lines=True)[1][str(pkg / "sub" / "__init__.py")] == [(1, 1)]


@needs_zensical
def test_an_inherited_init_counts_what_the_installed_handler_shows(site, monkeypatch, capsys):
    """mkdocstrings-python 2.x (installed here): a class merging the ``__init__`` it
    inherits shows its signature, not its docstring (``core/page/api_lines.py``)."""
    from tests.plugin.integrations.test_merged_init import PAGE, _site as merged_site

    merged_site(site)
    _site(site, "lines")
    site.page("child.md", PAGE)
    site.commit("build config", D1)  # mkdocs.yml and index.md: child.md is unchanged
    zensical_build(site)
    html = (site.root / "site" / "child" / "index.html").read_text()
    assert "wide" in html and "Initialise" not in html
    assert run_build(site, monkeypatch) == 0, capsys.readouterr().err
    assert _dates(site)[SITE_URL + "child/"] == utc(day(4))
