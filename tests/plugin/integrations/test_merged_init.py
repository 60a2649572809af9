"""``merge_init_into_class`` as the installed mkdocstrings-python renders it: a class that
inherits its ``__init__`` shows none of it before 1.7.1 (``class.members``), its
signature but not its docstring from 1.13 on (2.x: ``all_members``, the docstring only
when ``inherited_members`` selects it). textual's checkbox page (mkdocstrings-python
1.3) was dated by ``ToggleButton.__init__``'s new parameter, which it never shows.

Real builds: with the 2.x of the test environment in process, and with 1.7.0 installed
into a temporary folder (``slow``: it asks PyPI) in a ``mkdocs build`` subprocess.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.dates import day, utc
from tests.support.sites import SITE_URL, Site

PKG = '''\
class Base:
    """Base."""

    def __init__(self, a: int, compact: bool = False) -> None:
        """Init.

        Args:
            a: A.
        """


class Child(Base):
    """Child."""
'''

PAGE = """# Child

::: pkg.Child
    options:
      members: false
      show_source: false
      show_root_heading: true
      merge_init_into_class: true
"""


def _site(site: Site) -> None:
    """The page of a class that inherits its ``__init__``; the inherited signature
    changes on day 4, its docstring on day 7."""
    site.config["plugins"] = [
        "search", {"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}},
        {"sitemap-pro": {}}]
    site.write_config()
    site.page("child.md", PAGE)
    site.repo.write("src/pkg/__init__.py", PKG)
    site.commit("site", day(1))
    for when, old, new in ((4, "compact: bool = False", "compact: bool = False, wide: int = 0"),
                           (7, '"""Init.', '"""Initialise.')):
        path = site.root / "src/pkg/__init__.py"
        path.write_text(path.read_text().replace(old, new))
        site.commit(f"day {when}", day(when))


def _lastmod(site_dir: Path) -> str | None:
    from tests.support.schemas import NS, parse_sitemap

    for url in parse_sitemap(site_dir / "sitemap.xml"):
        if url.findtext(f"{{{NS}}}loc") == f"{SITE_URL}child/":
            return url.findtext(f"{{{NS}}}lastmod")
    raise AssertionError("child/ is not in the sitemap")


def test_an_inherited_init_shows_its_signature_not_its_docstring_under_2x(site: Site) -> None:
    _site(site)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    html = (built.site_dir / "child/index.html").read_text()
    assert "wide" in html and "Initialise" not in html  # what 2.x renders
    assert _lastmod(built.site_dir) == utc(day(4))


@pytest.mark.slow
def test_an_inherited_init_shows_nothing_under_1x(site: Site, tmp_path: Path) -> None:
    target = tmp_path / "mkdocstrings-python-1"
    pins = ["mkdocstrings-python==1.7.0", "mkdocstrings==0.26.*", "griffe<0.39",
            "pymdown-extensions<10.17"]  # the last releases 1.7.0 runs with
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet",
         "--disable-pip-version-check", "--target", str(target), *pins],
        capture_output=True, text=True, timeout=300)
    if pip.returncode != 0:
        pytest.skip("could not install mkdocstrings-python 1.7.0 from PyPI (unreachable?): "
                    + (pip.stderr.strip().splitlines() or ["no output"])[-1])
    _site(site)
    path = os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")])
    run = site.cli("build", "--strict", env={"PYTHONPATH": path})
    assert run.returncode == 0, run.stderr
    html = (site.root / "site/child/index.html").read_text()
    assert "wide" not in html and "Init" not in html  # what 1.7.0 renders
    assert _lastmod(site.root / "site") == utc(day(1))


@pytest.mark.parametrize("version, rule", [
    ("1.3.0", "own"), ("1.7.0", "own"), ("1.7.1", "all"), ("1.12.2", "all"),
    ("1.13.0", "selected"), ("2.0.11", "selected"), (None, "selected"), ("dev", "selected")])
def test_the_rule_of_each_release(version: str | None, rule: str) -> None:
    """The boundaries read from each release's ``class`` template (1.7.0/1.7.1: members
    to all_members; 1.12.2/1.13.0: the docstring only when selected)."""
    from mkdocs_sitemap_pro.core.page.api_lines import rule_for

    assert rule_for(version) == rule
