"""``dependencies: lines``: of a file shown in part, only the lines shown date a page.

Real builds (mkdocstrings-python, pymdownx.snippets, include-markdown) in real git
repositories with fixed dates: one module documents two classes on two pages, and each
commit changes one part of it — a docstring, a signature, a method's body, an attribute
no page renders, the imports — so the pages' dates say which changes each page showed.
Under ``files`` every page takes the module's last change.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
import logging
from pathlib import Path

import pytest

from tests.support.dates import day, utc
from tests.support.git_calls import GitCalls, subcommand
from tests.support.sites import SITE_URL, Built, Site

MODULE = '''\
"""Shapes."""

import math


class Square:
    """A square."""

    _cache = {}

    def __init__(self, side: float) -> None:
        """Make one."""
        self.side = side

    def area(self) -> float:
        """Its area."""
        return self.side * self.side


class Circle:
    """A circle."""

    def area(self) -> float:
        """Its area."""
        return math.pi
'''


# mkdocstrings-python shows each object's source by default; API references that are
# read (not browsed) turn it off, and a page then shows signatures and docstrings.
HANDLER = {"paths": ["src"], "options": {"show_source": False}}


def _edit(site: Site, rel: str, old: str, new: str, date: str, message: str = "") -> str:
    path = site.root / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (old, text)
    path.write_text(text.replace(old, new), encoding="utf-8")
    return site.commit(message or f"edit {rel}", date)


def _api_site(site: Site, **options: object) -> None:
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\n")
    site.repo.write("src/shapes.py", MODULE)
    site.page("index.md", "# Home\n")
    site.page("square.md", "# Square\n\n::: shapes.Square\n")
    site.page("circle.md", "# Circle\n\n::: shapes.Circle\n")
    site.config.update(plugins=[
        {"mkdocstrings": {"handlers": {"python": HANDLER}}},
        {"sitemap-pro": options},
    ])
    site.write_config()
    site.commit("pages", day(1))


def _history(site: Site) -> None:
    """Day 3: Square's docstring; day 5: Circle.area's signature; later, what no page shows."""
    _edit(site, "src/shapes.py", '"""A square."""', '"""A square, four equal sides."""', day(3))
    _edit(site, "src/shapes.py", "    def area(self) -> float:\n        \"\"\"Its area.\"\"\"\n"
          "        return math.pi", "    def area(self, r: float = 1.0) -> float:\n"
          "        \"\"\"Its area.\"\"\"\n        return math.pi", day(5))
    _edit(site, "src/shapes.py", "return self.side * self.side", "return self.side ** 2", day(7),
          "a method body")
    _edit(site, "src/shapes.py", "_cache = {}", "_cache = {0: 0}", day(9), "an unrendered attribute")
    _edit(site, "src/shapes.py", "import math\n", "import math as math\n", day(11), "imports")


def lastmod(built: Built, page: str) -> str:
    assert built.error is None, built.messages()
    return built.sitemap()[SITE_URL + ("" if page == "index" else page + "/")]["lastmod"]


def test_each_page_is_dated_by_the_lines_of_its_own_objects(site: Site) -> None:
    _api_site(site)
    _history(site)
    built = site.build(strict=True)
    html = (built.site_dir / "square/index.html").read_text()
    assert "four equal sides" in html and "Make one." in html  # members are rendered
    assert "_cache" not in html  # a private attribute is not
    assert lastmod(built, "square") == utc(day(3))  # its docstring; not the body of area
    assert lastmod(built, "circle") == utc(day(5))  # its signature
    assert lastmod(built, "index") == utc(day(1))
    debug = built.messages(logging.DEBUG)
    assert any("shown in part: src/shapes.py lines 6-7, " in m for m in debug), debug
    # Under files, the module's last change (the imports) dates both pages.
    site.config["plugins"][-1] = {"sitemap-pro": {"dependencies": "files"}}
    site.write_config()
    files = site.build(strict=True)
    assert lastmod(files, "square") == lastmod(files, "circle") == utc(day(11))


def test_show_source_counts_the_whole_object(site: Site) -> None:
    _api_site(site)
    site.page("square.md", "# Square\n\n::: shapes.Square\n    options:\n      show_source: true\n")
    site.commit("square shows its source", day(2))
    _history(site)
    built = site.build(strict=True)
    assert "Source code in" in (built.site_dir / "square/index.html").read_text()
    assert lastmod(built, "square") == utc(day(9))  # the body of area, then _cache in the class
    assert lastmod(built, "circle") == utc(day(5))


@pytest.mark.parametrize(("history", "expected"), [("first-parent", 15), ("all", 13)])
def test_a_merged_change_counts_from_its_merge(site: Site, history: str, expected: int) -> None:
    _api_site(site, git_history=history)
    site.repo.git("checkout", "-q", "-b", "side")
    _edit(site, "src/shapes.py", '"""A circle."""', '"""A round circle."""', day(13))
    site.repo.git("checkout", "-q", "main")
    _edit(site, "src/shapes.py", "import math\n", "import math  # pi\n", day(14))
    site.repo.merge("side", day(15))
    built = site.build(strict=True)
    assert lastmod(built, "circle") == utc(day(expected))
    assert lastmod(built, "square") == utc(day(1))  # the import line is not on its page


def test_an_ignored_commit_does_not_date_the_lines_it_changed(site: Site) -> None:
    _api_site(site)
    ignored = _edit(site, "src/shapes.py", '"""A square."""', '"""A Square."""', day(3))
    _edit(site, "src/shapes.py", "import math\n", "import math  # pi\n", day(4))
    site.config["plugins"][-1] = {"sitemap-pro": {"ignore_commits": [ignored]}}
    site.write_config()
    built = site.build(strict=True)
    assert lastmod(built, "square") == utc(day(1))
    site.config["plugins"][-1] = {"sitemap-pro": {}}
    site.write_config()
    assert lastmod(site.build(strict=True), "square") == utc(day(3))


def test_a_renamed_file_keeps_the_dates_of_its_lines(site: Site) -> None:
    _api_site(site)
    _edit(site, "src/shapes.py", '"""A circle."""', '"""A round circle."""', day(3))
    (site.root / "lib").mkdir()
    site.repo.git("mv", "src/shapes.py", "lib/shapes.py")
    site.config["plugins"][0] = {"mkdocstrings": {"handlers": {"python": dict(HANDLER, paths=["lib"])}}}
    site.write_config()
    site.commit("the module moves", day(6))
    built = site.build(strict=True)
    assert "A round circle." in (built.site_dir / "circle/index.html").read_text()
    # git blame follows the rename: the lines shown last changed on day 3 and day 1.
    assert lastmod(built, "circle") == utc(day(3))
    assert lastmod(built, "square") == utc(day(1))


def test_uncommitted_edits_date_the_file_whole(site: Site) -> None:
    _api_site(site)
    _history(site)
    (site.root / "src/shapes.py").write_text("# a new first line\n" + MODULE, encoding="utf-8")
    built = site.build(strict=True)
    # Its lines on disk are not HEAD's: the file's last commit dates it (never older).
    assert lastmod(built, "square") == lastmod(built, "circle") == utc(day(11))


def line_walks(calls: list[str]) -> int:
    """The git processes that dated lines: the line walk (``log -p``) and blames."""
    return sum(subcommand(c) == "blame" or (subcommand(c) == "log" and " -p " in c)
               for c in calls)


def test_an_unchanged_file_is_dated_once_in_one_walk(site: Site, tmp_path: Path) -> None:
    _api_site(site)
    _history(site)
    site.repo.write("src/more.py", '"""More."""\n\n\nclass More:\n    """More of it."""\n')
    site.page("more.md", "# More\n\n::: more.More\n")
    site.commit("another module", day(12))
    git = GitCalls(tmp_path / "bin")
    first = site.build(env=git.env)
    calls = git.take()
    assert line_walks(calls) == 1  # one walk for both files, no blame
    assert "blame" not in [subcommand(c) for c in calls]
    second = site.build(env=git.env)
    assert line_walks(git.take()) == 0
    assert lastmod(second, "square") == lastmod(first, "square") == utc(day(3))
    assert lastmod(second, "more") == utc(day(12))
    cache = json.loads((site.root / ".cache/plugin/sitemap-pro/blame.json").read_text())
    assert sorted(key.split("\n")[0] for key in cache["files"]) == ["src/more.py", "src/shapes.py"]
    # A new change to the file: dated again, and its page re-dated.
    _edit(site, "src/shapes.py", '"""A circle."""', '"""A round circle."""', day(20))
    third = site.build(env=git.env)
    assert line_walks(git.take()) == 1
    assert lastmod(third, "circle") == utc(day(20))
    assert lastmod(third, "square") == utc(day(3))


SNIPPET_CODE = "".join(f"line {n}\n" for n in range(1, 11))
SECTION = "intro\n<!-- --8<-- [start:keep] -->\nkept one\nkept two\n<!-- --8<-- [end:keep] -->\noutro\n"


def _snippet_site(site: Site) -> None:
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\n")
    site.repo.write("parts/code.txt", SNIPPET_CODE)
    site.repo.write("parts/section.md", SECTION)
    site.repo.write("parts/notes.md", "before\n<!-- start -->\nnote a\nnote b\n<!-- end -->\nafter\n")
    site.page("index.md", "# Home\n")
    site.page("range.md", '# Range\n\n```\n--8<-- "parts/code.txt:4:6"\n```\n')
    site.page("section.md", '# Section\n\n--8<-- "parts/section.md:keep"\n')
    site.page("both.md", '# Both\n\n--8<-- "parts/section.md:keep"\n\n--8<-- "parts/section.md"\n')
    site.page("include.md", '# Include\n\n{% include-markdown "../parts/notes.md" '
              'start="<!-- start -->" end="<!-- end -->" %}\n')
    site.config.update(
        markdown_extensions=["pymdownx.snippets", "pymdownx.superfences"],
        plugins=["include-markdown", {"sitemap-pro": {}}],
    )
    site.write_config()
    site.commit("pages", day(1))


def test_snippet_ranges_and_sections_are_dated_by_their_lines(site: Site) -> None:
    _snippet_site(site)
    _edit(site, "parts/code.txt", "line 5\n", "line five\n", day(3))  # inside the range
    _edit(site, "parts/section.md", "kept two\n", "kept 2\n", day(4))  # inside the section
    _edit(site, "parts/notes.md", "note b\n", "note B\n", day(5))  # between the markers
    _edit(site, "parts/code.txt", "line 9\n", "line nine\n", day(6))  # outside: no page
    _edit(site, "parts/section.md", "outro\n", "the end\n", day(7))  # outside the section
    _edit(site, "parts/notes.md", "after\n", "later\n", day(8))  # after the end marker
    built = site.build(strict=True)
    assert "line five" in (built.site_dir / "range/index.html").read_text()
    section = (built.site_dir / "section/index.html").read_text()
    assert "kept 2" in section and "the end" not in section
    assert lastmod(built, "range") == utc(day(3))
    assert lastmod(built, "section") == utc(day(4))
    include = (built.site_dir / "include/index.html").read_text()
    assert "note B" in include and "later" not in include
    assert lastmod(built, "include") == utc(day(5))
    assert lastmod(built, "both") == utc(day(7))  # it shows the whole file as well
    assert lastmod(built, "index") == utc(day(1))


FIGURES = '"""Figures, documented by importing them."""\n\nimport math\n\n\n' \
    'class Circle:\n    """A circle."""\n\n    def area(self) -> float:\n' \
    '        """Its area."""\n        return math.pi\n'


def test_a_file_shown_whole_and_in_part_on_one_page_counts_whole(site: Site) -> None:
    """A module inspected (its lines not known to griffe) shows its whole file; a snippet
    of lines 1-3 of that file on the same page does not narrow it to those lines."""
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\n")
    site.repo.write("src/figures.py", FIGURES)
    snippet = '```python\n--8<-- "src/figures.py:1:3"\n```\n\n'
    site.page("module.md", f"# Module\n\n{snippet}::: figures\n")
    options = {"show_source": True, "force_inspection": True}
    site.config.update(
        markdown_extensions=["pymdownx.snippets", "pymdownx.superfences"],
        plugins=[{"mkdocstrings": {"handlers": {"python": {"paths": ["src"], "options": options}}}},
                 {"sitemap-pro": {}}])
    site.write_config()
    site.commit("pages", day(1))
    # Outside lines 1-3, inside the source shown (Circle.area's body).
    _edit(site, "src/figures.py", "return math.pi", "return math.tau / 2", day(5))
    try:
        built = site.build(strict=True)
        assert "tau" in (built.site_dir / "module/index.html").read_text()
        assert lastmod(built, "module") == utc(day(5))  # the whole file (was day 1: lines 1-3)
        # A dirty rebuild does not render the page again: the cache kept the file whole.
        _edit(site, "src/figures.py", '"""A circle."""', '"""A round figure."""', day(7))
        assert lastmod(site.build(dirty=True), "module") == utc(day(7))
    finally:
        sys.modules.pop("figures", None)  # imported by the inspection


def test_a_dirty_rebuild_keeps_the_lines_each_page_showed(site: Site) -> None:
    _snippet_site(site)
    _edit(site, "parts/code.txt", "line 5\n", "line five\n", day(3))
    assert lastmod(site.build(strict=True), "range") == utc(day(3))
    _edit(site, "parts/code.txt", "line 9\n", "line nine\n", day(6))  # outside the range
    dirty = site.build(dirty=True)  # range.md is not rendered again
    assert lastmod(dirty, "range") == utc(day(3))
    assert lastmod(dirty, "section") == utc(day(1))
    _edit(site, "parts/code.txt", "line 4\n", "line four\n", day(8))  # inside it
    assert lastmod(site.build(dirty=True), "range") == utc(day(8))


def test_a_blame_past_git_timeout_dates_the_file_whole(site: Site, tmp_path: Path) -> None:
    _api_site(site, git_timeout=1)
    _history(site)
    started = time.monotonic()
    built = site.build(strict=True, env=_slow_git(tmp_path, '*" blame "*|*" -U0 "*'))
    assert time.monotonic() - started < 15
    assert lastmod(built, "square") == lastmod(built, "circle") == utc(day(11))
    assert any("git did not finish dating lines" in m for m in built.messages(logging.DEBUG))
    assert not (site.root / ".cache/plugin/sitemap-pro/blame.json").exists()


def test_a_history_walk_past_git_timeout_leaves_the_lines_undated(
        site: Site, tmp_path: Path) -> None:
    """No history at all (git log outran ``git_timeout``): pages shown in part are
    dated as every other page then is, not by a line walk over a history never read."""
    _snippet_site(site)
    site.config["plugins"] = ["include-markdown", {"sitemap-pro": {
        "git_timeout": 1, "lastmod_fallback": "build_time"}}]
    site.write_config()
    site.commit("timeout", day(2))
    started = time.monotonic()
    built = site.build(env={**_slow_git(tmp_path, '*" log "*'),
                            "SOURCE_DATE_EPOCH": "1735689600"})
    assert time.monotonic() - started < 15
    assert built.error is None, built.messages()
    assert {u["lastmod"] for u in built.sitemap().values()} == {"2025-01-01T00:00:00+00:00"}
    assert any("git_timeout" in m for m in built.messages(logging.WARNING))


def _slow_git(folder: Path, pattern: str) -> dict[str, str]:
    """A PATH whose ``git`` sleeps 20 s when its arguments match the shell ``pattern``,
    and runs the real git otherwise."""
    folder = folder / "slow"
    folder.mkdir()
    script = folder / "git"
    script.write_text(f'#!/bin/sh\ncase "$*" in {pattern}) sleep 20;; esac\n'
                      f'exec "{shutil.which("git")}" "$@"\n')
    script.chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}
