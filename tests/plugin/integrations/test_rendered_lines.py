"""Pages other plugins make or fill, dated by the lines they render (``dependencies:
lines``, the default), not by the whole file those lines live in: real MkDocs builds with
the real plugins.

- mkdocs-gen-files: a generated page whose script calls ``set_edit_path`` is dated as the
  same ``:::`` block on a hand-written page is (the edit path is a link, not shown).
- mkdocs-click: a page is dated by the commands it renders (decorators, signature,
  docstring), not by an internal function of the same module.

Every expected date is the commit that changed a rendered line; a later commit outside
them must move no page.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator

import pytest

from tests.support.dates import day, utc
from tests.support.sites import SITE_URL, Built, Site


def _lastmods(built: Built) -> dict[str, str | None]:
    assert built.error is None, built.messages()
    return {loc.removeprefix(SITE_URL): fields.get("lastmod")
            for loc, fields in built.sitemap().items()}


def _edit(site: Site, rel: str, old: str, new: str, date: str) -> None:
    path = site.root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    site.commit(f"edit {rel}", date)


# ------------------------------------------------------------------ mkdocs-gen-files

GEN_SCRIPT = '''
import mkdocs_gen_files

for name, edit in (("edited", "../src/pkg/mod.py"), ("plain", None)):
    with mkdocs_gen_files.open(f"reference/{name}.md", "w") as fd:
        fd.write("::: pkg.mod\\n")
    if edit:
        mkdocs_gen_files.set_edit_path(f"reference/{name}.md", edit)
'''

MOD = '''\
"""The module."""

import os


def one() -> int:
    """One."""
    return len(os.sep)
'''


def test_a_generated_page_with_an_edit_path_is_dated_by_the_lines_it_renders(site: Site) -> None:
    """pawamoy's git-changelog providers page: an imports-only commit re-dated it."""
    site.config["plugins"] = [
        "search",
        {"gen-files": {"scripts": ["gen_pages.py"]}},
        {"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}},
        {"sitemap-pro": {}},
    ]
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("written.md", "# Written\n\n::: pkg.mod\n")  # the same block, by hand
    site.repo.write("gen_pages.py", GEN_SCRIPT)
    site.repo.write("src/pkg/__init__.py", "")
    site.repo.write("src/pkg/mod.py", MOD)
    site.commit("site", day(1))
    _edit(site, "src/pkg/mod.py", '"""One."""', '"""One, said better."""', day(5))
    _edit(site, "src/pkg/mod.py", "import os\n", "import os\nimport sys\n", day(9))
    built = site.build(strict=True)
    assert "One, said better." in (built.site_dir / "reference/edited/index.html").read_text()
    got = _lastmods(built)
    shown = utc(day(5))  # the docstring's commit; the imports' (day 9) shows nothing
    assert {page: got[page] for page in ("written/", "reference/plain/", "reference/edited/")} \
        == dict.fromkeys(("written/", "reference/plain/", "reference/edited/"), shown)
    assert got[""] == utc(day(1))


# ------------------------------------------------------------------ mkdocs-click

CLI = '''\
import click

LEVELS = ["low", "high"]


def _louder(text):
    return text.upper()


@click.group()
def cli():
    """The tool."""


@cli.command()
@click.option("--level", type=click.Choice(LEVELS), help="How loud.")
def hello(level):
    """Say hello."""
    click.echo(_louder(level))
'''


@pytest.fixture
def clitool(site: Site) -> Iterator[None]:
    """The project's ``src`` on sys.path, as an installed package would be; undone after."""
    path = str(site.root / "src")
    sys.path.insert(0, path)
    yield
    sys.path.remove(path)
    _forget()


def _forget() -> None:
    """Drop the imported CLI: the next build imports it afresh, as ``mkdocs build`` does."""
    for name in [m for m in sys.modules if m == "clitool" or m.startswith("clitool.")]:
        del sys.modules[name]


def _click_lastmods(site: Site) -> dict[str, str | None]:
    _forget()
    return _lastmods(site.build(strict=True))


def test_click_pages_are_dated_by_the_lines_of_the_commands_they_render(
        site: Site, clitool: None) -> None:
    """dbt-bouncer's CLI page moved for a change to an internal function of its module."""
    site.config["markdown_extensions"] = ["mkdocs-click"]
    site.write_config()
    site.page("cli.md", "# CLI\n\n::: mkdocs-click\n    :module: clitool.cli\n    :command: cli\n\n")
    site.repo.write("src/clitool/__init__.py", "")
    site.repo.write("src/clitool/cli.py", CLI)
    site.commit("site", day(1))
    cli = "src/clitool/cli.py"
    _edit(site, cli, "How loud.", "How loud it says it.", day(3))  # an option's help
    _edit(site, cli, "return text.upper()", "return text.upper() + '!'", day(6))  # internal
    _edit(site, cli, "click.echo(_louder(level))", "click.echo(_louder(level or ''))",
          day(8))  # the command's body: not rendered
    _edit(site, cli, "import click\n", "import sys\n\nimport click\n", day(9))  # lines move
    got = _click_lastmods(site)
    assert got["cli/"] == utc(day(3))
    # The docstring of a command, a value an option shows (its choices), a decorator.
    for when, old, new in ((11, '"""Say hello."""', '"""Say hello, loudly."""'),
                           (13, '["low", "high"]', '["low", "high", "max"]'),
                           (15, "@click.group()", "@click.group(epilog='Bye.')")):
        _edit(site, cli, old, new, day(when))
        got = _click_lastmods(site)
        assert got["cli/"] == utc(day(when)), (when, old)
    assert "max" in (site.root / "site/cli/index.html").read_text()


SHARED = '''\
import click


def verbose(func):
    return click.option("--verbose", is_flag=True, help="Say more.")(func)
'''

TOOL = '''\
import click

from clitool.shared import verbose


def _internal():
    return 1


@click.command()
@verbose
def tool(verbose):
    """The tool."""
'''


def test_a_click_command_whose_options_are_declared_elsewhere_is_dated_by_its_file(
        site: Site, clitool: None) -> None:
    """An option added by a decorator from another module is not in the command's lines:
    they would miss what it renders, so its whole file dates the page, said at DEBUG."""
    site.config["markdown_extensions"] = ["mkdocs-click"]
    site.write_config()
    site.page("tool.md", "# Tool\n\n::: mkdocs-click\n    :module: clitool.tool\n"
              "    :command: tool\n\n")
    site.repo.write("src/clitool/__init__.py", "")
    site.repo.write("src/clitool/shared.py", SHARED)
    site.repo.write("src/clitool/tool.py", TOOL)
    site.commit("site", day(1))
    _edit(site, "src/clitool/tool.py", "return 1", "return 2", day(4))
    _forget()
    built = site.build(strict=True)
    assert "Say more." in (built.site_dir / "tool/index.html").read_text()
    assert _lastmods(built)["tool/"] == utc(day(4))
    assert any("mkdocs-click command 'tool': '--verbose' is not in its decorators" in m
               for m in built.messages(logging.DEBUG)), built.messages(logging.DEBUG)
