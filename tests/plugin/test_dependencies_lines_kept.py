"""A snippet's part kept in the dependency cache, after its file moved (issue 41, item 11).

Real ``mkdocs build`` and ``mkdocs build --dirty`` in a real git repository: a page shows a
pymdownx.snippets section of ``src/pkg/example.py``, another its lines 1:3, each in a
fenced block, and mkdocstrings documents the package on a third page. ``--dirty`` does not
render pages whose source is unchanged: what they show comes from ``dependencies.json``,
whose line numbers are those of the file when the page last rendered. A commit that
changes a line outside both parts and inserts one just after line 3 moves the section
down: the kept numbers then name other lines (the changed marker line) and re-dated the
section page. The lines are now read again from the page's text once the file changed.
"""

from __future__ import annotations

import logging

from tests.cli.test_build import needs_zensical, run_build, zensical_build
from tests.support.dates import day, utc
from tests.support.schemas import parse_sitemap
from tests.support.sites import SITE_URL, Built, Site

EXAMPLE = '''\
"""Example."""

import os
# --8<-- [start:demo]
def demo() -> int:
    """Demo."""
    return 1
# --8<-- [end:demo]


def other() -> str:
    """Other."""
    return "x"
'''


def _site(site: Site) -> None:
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\n")
    site.repo.write("src/pkg/__init__.py", '"""Pkg."""\n')
    site.repo.write("src/pkg/example.py", EXAMPLE)
    site.page("index.md", "# Home\n")
    site.page("section.md", '# Section\n\n```python\n--8<-- "src/pkg/example.py:demo"\n```\n')
    site.page("range.md", '# Range\n\n```python\n--8<-- "src/pkg/example.py:1:3"\n```\n')
    site.page("api.md", "# API\n\n::: pkg.example.other\n")
    site.config.update(
        markdown_extensions=["pymdownx.snippets", "pymdownx.superfences"],
        plugins=[{"mkdocstrings": {"handlers": {"python": {
            "paths": ["src"], "options": {"show_source": False}}}}}, {"sitemap-pro": {}}],
    )
    site.write_config()
    site.commit("pages", day(1))


def _edit(site: Site, old: str, new: str, date: str) -> None:
    path = site.root / "src/pkg/example.py"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    site.commit("edit example.py", date)


def _lastmods(built: Built) -> dict[str, str]:
    assert built.error is None, built.messages()
    return {loc.removeprefix(SITE_URL): fields["lastmod"]
            for loc, fields in built.sitemap().items()}


def test_kept_parts_follow_their_file_after_a_line_moves_them(site: Site) -> None:
    _site(site)
    assert _lastmods(site.build()) == {p: utc(day(1)) for p in ("", "section/", "range/", "api/")}
    # One commit: the section's start marker (shown by neither page) changes, and a line
    # goes in just after line 3, so the section moves down a line.
    _edit(site, "import os\n# --8<-- [start:demo]\n",
          "import os\nimport sys\n# --8<-- [start:demo]  (the demo)\n", day(3))
    section_html = site.root / "site/section/index.html"
    rendered = section_html.stat().st_mtime_ns
    dirty = site.build(dirty=True)
    assert section_html.stat().st_mtime_ns == rendered  # not rendered: the cache answered
    got = _lastmods(dirty)
    assert got["section/"] == utc(day(1)), got
    assert got["range/"] == utc(day(1)), got
    debug = dirty.messages(logging.DEBUG)
    assert any("page 'section.md': shown in part: src/pkg/example.py lines 6-8" in m
               for m in debug), [m for m in debug if "section.md" in m]
    # A later change inside lines 1:3 dates the range page, not the section page.
    _edit(site, '"""Example."""', '"""An example."""', day(5))
    got = _lastmods(site.build(dirty=True))
    assert got["range/"] == utc(day(5)), got
    assert got["section/"] == utc(day(1)), got
    # A full build from no cache agrees.
    fresh = _lastmods(site.build())
    assert (fresh["section/"], fresh["range/"]) == (utc(day(1)), utc(day(5)))


def test_a_kept_part_on_an_api_page_is_dated_whole_once_its_file_changed(site: Site) -> None:
    """mkdocstrings' lines cannot be read again without rendering: the file dates the
    page whole (never older than what it shows), until the page renders again."""
    _site(site)
    site.build()
    _edit(site, '    return "x"', '    return "xy"', day(3))  # other's body: not shown
    _edit(site, "import os\n", "import os\nimport sys\n", day(4))  # other moves down
    got = _lastmods(site.build(dirty=True))
    assert got["api/"] == utc(day(4)), got
    assert got["section/"] == got["range/"] == utc(day(1)), got
    assert _lastmods(site.build())["api/"] == utc(day(1))  # rendered: its own lines again


@needs_zensical
def test_after_zensical_build_dates_the_same_pages_by_their_lines(site, monkeypatch, capsys):
    """``mkdocs-sitemap-pro build`` keeps no page's lines: the same history, the same dates."""
    _site(site)
    _edit(site, "import os\n# --8<-- [start:demo]\n",
          "import os\nimport sys\n# --8<-- [start:demo]  (the demo)\n", day(3))
    _edit(site, '"""Example."""', '"""An example."""', day(5))
    zensical_build(site)
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    got = {url.findtext("{*}loc"): url.findtext("{*}lastmod")
           for url in parse_sitemap(site.root / "site" / "sitemap.xml")}
    assert got[SITE_URL + "section/"] == utc(day(1)), got
    assert got[SITE_URL + "range/"] == utc(day(5)), got
    assert got[SITE_URL + "api/"] == utc(day(1)), got
