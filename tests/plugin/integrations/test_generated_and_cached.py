"""Pages dated by what they show where no read is seen: real builds with the real plugins.

- mkdocs-macros: three pages include one template; Jinja reads it once and caches it, yet
  every page is dated by it (and by a template it includes in turn).
- mkdocs-gen-files + mkdocs-literate-nav + mkdocstrings, the recipe of mkdocstrings' docs:
  one generated page per module, each with ``set_edit_path``: dated by what it renders
  of its module (a function added), as a written page is.
- mkdocs-click: a page renders a group whose subcommand lives in another module: dated
  by the commands' docstrings in both.

Each shared file changes after the pages; every expected date is git's own
(``git log -1 --first-parent -- <file>``), in one build and under ``--dirty``.
"""

from __future__ import annotations

import logging
import sys

import pytest

from tests.support.dates import day
from tests.support.git import git_date
from tests.support.sites import SITE_URL, Built, Site


def _lastmods(built: Built) -> dict[str, str | None]:
    assert built.error is None, built.messages()
    return {loc.removeprefix(SITE_URL): fields.get("lastmod")
            for loc, fields in built.sitemap().items()}


def _touch(site: Site, rel: str, date: str, line: str) -> None:
    path = site.root / rel
    path.write_text(path.read_text(encoding="utf-8") + line, encoding="utf-8")
    site.commit(f"change {rel}", date)


def _replace(site: Site, rel: str, old: str, new: str, date: str) -> None:
    path = site.root / rel
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    site.commit(f"change {rel}", date)


def _newest(site: Site, *rels: str) -> str:
    return max(git_date(site.root, rel) for rel in rels)


# ------------------------------------------------------------------ mkdocs-macros

def _macros_site(site: Site) -> Site:
    site.config["plugins"] = ["search", {"macros": {"include_dir": "include"}}, {"sitemap-pro": {}}]
    site.write_config()
    for name in ("a", "b", "c"):
        site.page(f"{name}.md", f"# {name}\n\n{{% include 'notice.md' %}}\n")
    site.page("d.md", "# d\n\n{% if false %}{% include 'unused.md' %}{% endif %}\n")
    site.page("plain.md", "# plain\n")
    site.repo.write("include/notice.md", "Notice.\n\n{% include 'nested/footer.md' %}\n")
    site.repo.write("include/nested/footer.md", "Footer.\n")
    site.repo.write("include/unused.md", "Unused.\n")
    site.commit("pages", day(1))
    _touch(site, "include/notice.md", day(5), "Notice, edited.\n")
    _touch(site, "include/nested/footer.md", day(9), "Footer, edited.\n")
    _touch(site, "include/unused.md", day(12), "Never shown.\n")
    return site


def test_macros_includes_date_every_page_that_shows_them(site: Site) -> None:
    _macros_site(site)
    built = site.build(strict=True)
    got = _lastmods(built)
    shared = _newest(site, "include/notice.md", "include/nested/footer.md")
    assert shared == git_date(site.root, "include/nested/footer.md")
    for name in ("a", "b", "c"):  # b and c: Jinja served the cached template
        assert "Footer, edited." in (built.site_dir / name / "index.html").read_text()
        assert got[f"{name}/"] == shared, name
    # An include in a branch not taken shows nothing; a page with no macro, its source.
    assert got["d/"] == git_date(site.root, "docs/d.md")
    assert got["plain/"] == git_date(site.root, "docs/plain.md")
    # A later edit of the shared include, then a --dirty build that renders no page.
    _touch(site, "include/notice.md", day(20), "Edited again.\n")
    dirty = _lastmods(site.build(dirty=True))
    assert {n: dirty[f"{n}/"] for n in "abc"} == {n: git_date(site.root, "include/notice.md")
                                                  for n in "abc"}


# ------------------------------------------------------------------ mkdocs-gen-files

GEN_SCRIPT = '''
from pathlib import Path
import mkdocs_gen_files

nav = mkdocs_gen_files.Nav()
for path in sorted(Path("src").rglob("*.py")):
    module = path.relative_to("src").with_suffix("")
    parts = tuple(module.parts)
    if parts[-1] == "__init__":
        continue
    doc = Path("reference", *parts).with_suffix(".md")
    nav[parts] = doc.relative_to("reference").as_posix()
    with mkdocs_gen_files.open(doc, "w") as fd:
        fd.write(f"::: {'.'.join(parts)}\\n")
    mkdocs_gen_files.set_edit_path(doc, Path("..") / path)
with mkdocs_gen_files.open("reference/SUMMARY.md", "w") as fd:
    fd.writelines(nav.build_literate_nav())
# A page copied from a project file by the script (read in on_files, unseen by any page):
# only its edit path says what it shows.
with mkdocs_gen_files.open("changes.md", "w") as fd:
    fd.write(Path("CHANGELOG.md").read_text())
mkdocs_gen_files.set_edit_path("changes.md", "../CHANGELOG.md")
'''


def _function(name: str) -> str:
    """A public function appended to a module: rendered on its page."""
    return f'\n\ndef {name}() -> None:\n    """{name}."""\n'


def _gen_files_site(site: Site, ours_first: bool = False) -> Site:
    plugins: list[object] = [
        "search",
        {"gen-files": {"scripts": ["gen_ref_pages.py"]}},
        {"literate-nav": {"nav_file": "SUMMARY.md"}},
        {"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}},
    ]
    # Listed first, sitemap-pro's on_config runs before mkdocstrings makes its handlers.
    site.config["plugins"] = [{"sitemap-pro": {}}, *plugins] if ours_first else [
        *plugins, {"sitemap-pro": {}}]
    site.config["nav"] = [{"Home": "index.md"}, {"Reference": "reference/"}]
    site.write_config()
    site.page("index.md", "# Home\n")
    site.repo.write("gen_ref_pages.py", GEN_SCRIPT)
    site.repo.write("CHANGELOG.md", "# Changes\n")
    site.repo.write("src/pkg/__init__.py", '"""The package."""\n')
    site.repo.write("src/pkg/alpha.py", '"""Alpha."""\n\n\ndef one() -> int:\n    """One."""\n    return 1\n')
    site.repo.write("src/pkg/beta.py", '"""Beta."""\n\n\ndef two() -> int:\n    """Two."""\n    return 2\n')
    site.commit("site", day(1))
    _touch(site, "src/pkg/alpha.py", day(4), _function("alpha_edited"))
    _touch(site, "src/pkg/beta.py", day(7), _function("beta_edited"))
    _touch(site, "gen_ref_pages.py", day(10), "# the script, edited\n")
    _touch(site, "CHANGELOG.md", day(11), "\n- one change\n")
    return site


@pytest.mark.parametrize("ours_first", [False, True])
def test_generated_api_pages_are_dated_by_their_modules(site: Site, ours_first: bool) -> None:
    _gen_files_site(site, ours_first)
    built = site.build(strict=True)
    got = _lastmods(built)
    assert "Alpha." in (built.site_dir / "reference/pkg/alpha/index.html").read_text()
    assert got["reference/pkg/alpha/"] == git_date(site.root, "src/pkg/alpha.py")
    assert got["reference/pkg/beta/"] == git_date(site.root, "src/pkg/beta.py")
    assert got["changes/"] == git_date(site.root, "CHANGELOG.md")
    assert got[""] == git_date(site.root, "docs/index.md")
    # The generated nav file renders nothing that can be dated: left undated, and said.
    assert got.get("reference/SUMMARY/") is None
    line = [m for m in built.infos() if " URLs in " in m][0]
    assert "1 omitted (generated, showing nothing git can date)" in line, line
    # A module edited later moves its page only.
    _touch(site, "src/pkg/alpha.py", day(15), _function("again"))
    again = _lastmods(site.build(dirty=True))
    assert again["reference/pkg/alpha/"] == git_date(site.root, "src/pkg/alpha.py")
    assert again["reference/pkg/beta/"] == got["reference/pkg/beta/"]


# ------------------------------------------------------------------ mkdocs-click

CLI = '''
import click

from clipkg.db import db


@click.group()
def cli():
    """The tool."""


@cli.command()
@click.pass_context
def hello(ctx):
    """Say hello."""


cli.add_command(db)
'''

DB = '''
import click


@click.group()
def db():
    """The database."""


@db.command()
def migrate():
    """Migrate."""
'''


@pytest.fixture
def importable(site: Site):  # type: ignore[no-untyped-def]
    """The project's ``src`` on sys.path, as an installed package would be; undone after."""
    path = str(site.root / "src")
    sys.path.insert(0, path)
    yield
    sys.path.remove(path)
    for name in [m for m in sys.modules if m == "clipkg" or m.startswith("clipkg.")]:
        del sys.modules[name]


def test_click_pages_are_dated_by_the_commands_they_render(site: Site, importable: None) -> None:
    site.config["markdown_extensions"] = ["mkdocs-click"]
    site.write_config()
    site.page("cli.md", "# CLI\n\n::: mkdocs-click\n    :module: clipkg.cli\n    :command: cli\n\n")
    site.page("plain.md", "# Plain\n")
    site.repo.write("src/clipkg/__init__.py", "")
    site.repo.write("src/clipkg/cli.py", CLI)
    site.repo.write("src/clipkg/db.py", DB)
    site.repo.write("src/clipkg/other.py", "X = 1\n")
    site.commit("site", day(1))
    _replace(site, "src/clipkg/cli.py", "Say hello.", "Say hello again.", day(3))
    import clipkg.cli  # noqa: F401 - imported before the build, as the project's own package is

    built = site.build(strict=True)
    assert "migrate" in (built.site_dir / "cli/index.html").read_text()
    got = _lastmods(built)
    assert got["cli/"] == git_date(site.root, "src/clipkg/cli.py")
    # The subcommand's docstring, edited later, dates the page; a module it does not use
    # does not (the module stays imported: its lines do not move).
    _replace(site, "src/clipkg/db.py", "Migrate.", "Migrate the data.", day(6))
    _touch(site, "src/clipkg/other.py", day(8), "# unused\n")
    got = _lastmods(site.build(strict=True))
    assert got["cli/"] == git_date(site.root, "src/clipkg/db.py")
    assert got["plain/"] == git_date(site.root, "docs/plain.md")


def test_each_integration_says_at_debug_when_its_hook_point_is_missing(site: Site) -> None:
    """A gen-files whose ``_edit_paths`` is not the dict we read (a future version) is said
    at DEBUG, and its pages are still dated by what they render."""
    _gen_files_site(site)
    site.repo.write("hooks.py", (
        "from mkdocs.plugins import event_priority\n"
        "class Paths:  # what gen-files itself uses of it, and no more\n"
        "    def __init__(self, d): self.d = d\n"
        "    def __contains__(self, k): return k in self.d\n"
        "    def pop(self, k): return self.d.pop(k)\n"
        "    def items(self): return self.d.items()\n"
        "@event_priority(-50)\n"
        "def on_files(files, config):\n"
        "    plugin = config.plugins['gen-files']\n"
        "    plugin._edit_paths = Paths(plugin._edit_paths)\n"))
    site.config["hooks"] = ["hooks.py"]
    # Whole files: the edit below lies after every object beta.py's page renders.
    site.config["plugins"][-1] = {"sitemap-pro": {"dependencies": "files"}}
    site.write_config()
    built = site.build()
    assert built.error is None, built.messages()
    assert any("mkdocs-gen-files keeps no '_edit_paths'" in m
               for m in built.messages(logging.DEBUG))
    got = _lastmods(built)  # mkdocstrings' objects still date the pages
    assert got["reference/pkg/beta/"] == git_date(site.root, "src/pkg/beta.py")


# ------------------------------------------------------------------ one rule, whatever caches

@pytest.mark.parametrize("includer", ["snippets", "include-markdown"])
def test_pages_with_the_same_include_are_dated_by_the_same_files(site: Site, includer: str) -> None:
    """pymdownx.snippets and include-markdown read on every page: every page that includes
    the shared file is dated by it, in one build and under ``--dirty``."""
    if includer == "snippets":
        site.config["markdown_extensions"] = [{"pymdownx.snippets": {"base_path": ["."]}}]
        directive = '--8<-- "shared/notice.md"'
    else:
        site.config["plugins"] = ["search", "include-markdown", {"sitemap-pro": {}}]
        directive = '{% include-markdown "../shared/notice.md" %}'
    site.write_config()
    for name in ("a", "b", "c"):
        site.page(f"{name}.md", f"# {name}\n\n{directive}\n")
    site.repo.write("shared/notice.md", "Notice.\n")
    site.commit("pages", day(1))
    _touch(site, "shared/notice.md", day(5), "Edited.\n")
    got = _lastmods(site.build(strict=True))
    assert {n: got[f"{n}/"] for n in "abc"} == dict.fromkeys("abc", git_date(site.root, "shared/notice.md"))
    _touch(site, "shared/notice.md", day(9), "Edited again.\n")
    dirty = _lastmods(site.build(dirty=True))
    assert {n: dirty[f"{n}/"] for n in "abc"} == dict.fromkeys("abc", git_date(site.root, "shared/notice.md"))
