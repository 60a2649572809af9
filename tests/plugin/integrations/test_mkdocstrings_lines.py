"""``dependencies: lines`` with mkdocstrings: a page is dated by the lines it shows.

A real site built with MkDocs' own build, mkdocstrings and its Python handler (griffe),
and a plugin listed after them that does what the tracker does around each page (open
the observer, ``watch``, and after the page's conversion ``take``), with
``RenderedObjects`` itself. Each page renders one ``::: identifier`` block; the lines
expected are counted by hand in ``IMPL`` and ``INIT`` below, and checked against their
text (a decorator starts a range, a docstring's closing quotes end one).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import griffe
import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.plugins import BasePlugin

from mkdocs_sitemap_pro.core.page.reads import Observer
from mkdocs_sitemap_pro.core.page.api_lines import shown_lines as _shown_lines
from mkdocs_sitemap_pro.plugin.integrations.mkdocstrings import RenderedObjects

INIT = '''\
"""The package.

Its docstring: lines 1 to 4.
"""

from pkg._impl import Thing, helper

__all__ = ["Thing", "helper"]
'''

IMPL = '''\
"""Implementation."""

import functools

LIMIT: dict[str, int] = {
    "a": 1,
}
"""The limit: lines 5 to 8."""


@functools.lru_cache(
    maxsize=None,
)
@functools.wraps(print)
def helper(
    x: int,
) -> int:
    """Help.

    Lines 11 to 21.
    """
    y = x + 1
    return y


def nodoc(a,
          b):
    return a + b


@functools.total_ordering
class Thing(
    object,
):
    """A thing: lines 31 to 38.

    Long.
    """

    size: int = 3
    """Size: lines 40 to 41."""

    def method(self, n: int) -> int:
        """Do: lines 43 to 44."""
        total = n
        return total

    def _private(self):
        """Hidden: 48 to 49."""


class Bare(object):
    counter = 1

    def m(self):
        pass


class Made:
    """Made: lines 59 to 60."""

    def __init__(self, a: int) -> None:
        """Init: lines 62 to 63."""
        self.a = a
'''

# src_uri -> (the block, its options)
PAGES: dict[str, tuple[str, dict[str, Any]]] = {
    "helper.md": ("pkg._impl.helper", {}),
    "nodoc.md": ("pkg._impl.nodoc", {}),
    "limit.md": ("pkg._impl.LIMIT", {}),
    "module.md": ("pkg", {"members": False}),
    "impl.md": ("pkg._impl", {"members": False}),
    "alias.md": ("pkg.Thing", {}),
    "thing.md": ("pkg._impl.Thing", {"filters": ["!^_"]}),
    "no_root.md": ("pkg._impl.Thing", {"show_root_heading": False}),
    "one_member.md": ("pkg._impl.Thing", {"members": ["method"]}),
    "no_members.md": ("pkg._impl.Thing", {"members": False}),
    "bare.md": ("pkg._impl.Bare", {"members": False}),
    "made.md": ("pkg._impl.Made", {"members": False}),
    "merged.md": ("pkg._impl.Made", {"members": False, "merge_init_into_class": True}),
    "source.md": ("pkg._impl.Thing", {"show_source": True}),
    "source_fn.md": ("pkg._impl.helper", {"show_source": True}),
    "plain.md": ("", {}),
}

# What each page shows, in lines of _impl.py (or __init__.py for module.md).
EXPECTED = {
    "helper.md": [(11, 21)],  # both decorators, the signature, the docstring; not the body
    "nodoc.md": [(26, 28)],  # all of it: where its signature ends is not known
    "limit.md": [(5, 8)],  # its statement (the value is shown) and its docstring
    "impl.md": [(1, 1)],  # a module: its docstring
    "alias.md": [(31, 38), (40, 41), (43, 44)],  # pkg.Thing: where it is defined
    # The class (decorator to docstring) and its rendered members; not _private.
    "thing.md": [(31, 38), (40, 41), (43, 44)],
    "no_root.md": [(31, 38), (40, 41), (43, 44)],
    "one_member.md": [(31, 38), (43, 44)],
    "no_members.md": [(31, 38)],
    "bare.md": [(52, 52)],  # no docstring: up to its first member
    "made.md": [(59, 60)],
    "merged.md": [(59, 60), (62, 63)],  # merge_init_into_class: __init__'s signature too
    "source.md": [(31, 49)],  # show_source: all of each object
    "source_fn.md": [(11, 23)],
}


class _Probe(BasePlugin):  # type: ignore[type-arg]
    """What the tracker does with ``RenderedObjects`` around each page, last of all."""

    def __init__(self, lines: bool, unknown: str = "") -> None:
        super().__init__()
        self.lines = lines
        self.unknown = unknown  # an object whose lines griffe is made not to know
        self.taken: dict[str, tuple[set[str], dict[str, list[tuple[int, int]]]]] = {}

    def on_config(self, config: Any) -> None:
        self.observer = Observer()
        self.objects = RenderedObjects(config, self.observer, lines=self.lines)

    def on_pre_page(self, page: Any, config: Any, files: Any) -> None:
        self.observer.open()
        self.objects.watch()

    def on_page_content(self, html: str, page: Any, config: Any, files: Any) -> None:
        self.observer.close()
        if self.unknown and self.objects.pending:  # as if inspected: no end line
            handler = config.plugins["mkdocstrings"].handlers.get_handler("python")
            handler.collect(self.unknown, {}).endlineno = None
        if self.objects.pending:
            self.taken[page.file.src_uri] = self.objects.take()


def _project(root: Path) -> Path:
    (root / "src/pkg").mkdir(parents=True)
    (root / "src/pkg/__init__.py").write_text(INIT, encoding="utf-8")
    (root / "src/pkg/_impl.py").write_text(IMPL, encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs/index.md").write_text("# Home\n", encoding="utf-8")
    for name, (ident, options) in PAGES.items():
        block = f"::: {ident}\n" if ident else "Nothing rendered.\n"
        if options:
            block += "    options:\n" + "".join(f"      {key}: {json.dumps(value)}\n"
                                               for key, value in options.items())
        (root / "docs" / name).write_text(f"# {name}\n\n{block}", encoding="utf-8")
    handler = {"paths": ["src"], "options": {"show_source": False, "show_root_heading": True,
                                             "filters": ["!^_[^_]"]}}
    config = {"site_name": "Lines", "theme": {"name": "material"},
              "plugins": [{"mkdocstrings": {"handlers": {"python": handler}}}]}
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    return root


def _build(root: Path, lines: bool, unknown: str = "",
           ) -> dict[str, tuple[set[str], dict[str, list[tuple[int, int]]]]]:
    old = os.getcwd()
    os.chdir(root)
    try:
        cfg = load_config(str(root / "mkdocs.yml"))
        probe = _Probe(lines, unknown)
        cfg.plugins["lines-probe"] = probe  # after mkdocstrings: its handlers exist
        cfg.plugins.on_startup(command="build", dirty=False)
        try:
            build(cfg)
        finally:
            cfg.plugins.on_shutdown()
    finally:
        os.chdir(old)
    return probe.taken


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _project(tmp_path_factory.mktemp("lines"))


@pytest.fixture(scope="module")
def by_lines(project: Path) -> dict[str, tuple[set[str], dict[str, list[tuple[int, int]]]]]:
    return _build(project, lines=True)


def _impl(project: Path) -> str:
    return str(project / "src/pkg/_impl.py")


def _init(project: Path) -> str:
    return str(project / "src/pkg/__init__.py")


def test_the_texts_are_counted_right() -> None:
    """The expected ranges start at a decorator or a definition and end at a docstring's
    last line (or a body's): the counts by hand are right."""
    text = IMPL.splitlines()
    line = lambda n: text[n - 1].strip()  # noqa: E731
    assert line(11).startswith("@functools.lru_cache") and line(21) == '"""'
    assert line(23) == "return y"
    assert line(26).startswith("def nodoc") and line(28) == "return a + b"
    assert line(5).startswith("LIMIT") and line(8).startswith('"""The limit')
    assert line(31) == "@functools.total_ordering" and line(38) == '"""'
    assert line(40).startswith("size") and line(41).startswith('"""Size')
    assert line(43).startswith("def method") and line(44).startswith('"""Do')
    assert line(49).startswith('"""Hidden')
    assert line(52).startswith("class Bare") and line(53).startswith("counter")
    assert line(59).startswith("class Made") and line(60).startswith('"""Made')
    assert line(62).startswith("def __init__") and line(63).startswith('"""Init')
    assert INIT.splitlines()[3] == '"""'


def test_griffe_starts_a_decorated_object_at_its_first_decorator(project: Path) -> None:
    """What the ranges rely on (griffe 2): ``lineno`` is the first decorator's line."""
    pkg = griffe.load("pkg", search_paths=[str(project / "src")])
    assert pkg["_impl.helper"].lineno == 11 and pkg["_impl.helper"].decorators[0].lineno == 11
    assert pkg["_impl.Thing"].lineno == 31


@pytest.mark.parametrize("page", sorted(EXPECTED))
def test_a_page_shows_the_lines_of_what_it_renders(project: Path, by_lines: Any, page: str) -> None:
    files, parts = by_lines[page]
    assert files == set()
    assert parts == {_impl(project): EXPECTED[page]}


def test_a_module_shows_its_docstring(project: Path, by_lines: Any) -> None:
    assert by_lines["module.md"] == (set(), {_init(project): [(1, 4)]})


def test_a_page_that_renders_nothing_takes_nothing(by_lines: Any) -> None:
    assert "plain.md" not in by_lines and "index.md" not in by_lines


def test_by_files_the_files_are_whole_and_the_lines_empty(project: Path) -> None:
    """``dependencies: files``: today's answer, every file shown whole."""
    taken = _build(project, lines=False)
    assert taken["module.md"] == ({_init(project)}, {})
    for page in EXPECTED:
        assert taken[page] == ({_impl(project)}, {}), page


def test_unknown_lines_show_the_whole_file(project: Path) -> None:
    """An object griffe has no lines for (inspected): its file, whole."""
    pkg = griffe.load("pkg", search_paths=[str(project / "src")])
    helper, thing = pkg["_impl.helper"], pkg["Thing"]
    assert _shown_lines(helper, False, False, {}) == [(_impl(project), [(11, 21)])]
    helper.endlineno = None
    assert _shown_lines(helper, False, False, {}) == [(_impl(project), None)]
    # A docstring without lines (griffe-typingdoc's): the object's own lines, never
    # the whole file.
    target = thing.final_target
    target.docstring.endlineno = None
    assert _shown_lines(thing, False, False, {}) == [
        (_impl(project), [(target.lineno, target.endlineno)])]
    assert _shown_lines(pkg["_impl.Bare"], False, False, {}) == [(_impl(project), [(52, 52)])]
    pkg["_impl.Bare"].members = None  # anything that breaks the reading: the whole file
    assert _shown_lines(pkg["_impl.Bare"], False, False, {}) == [(_impl(project), None)]


def test_show_source_on_one_block_shows_all_of_every_object_of_the_page(project: Path) -> None:
    """A block with ``show_source`` (mkdocstrings-python's default): all the lines of
    every object of that page, the blocks without it too."""
    root = project.parent / "source_once"
    _project(root)
    page = root / "docs/helper.md"
    page.write_text(page.read_text() + "\n::: pkg._impl.nodoc\n    options:\n"
                    "      show_source: true\n\n::: pkg._impl.LIMIT\n", encoding="utf-8")
    taken = _build(root, lines=True)
    impl = str(root / "src/pkg/_impl.py")
    assert taken["helper.md"] == (set(), {impl: [(5, 8), (11, 23), (26, 28)]})
    assert taken["thing.md"] == (set(), {impl: EXPECTED["thing.md"]}), "the next page's own"


def test_a_file_shown_whole_is_not_in_the_lines(project: Path) -> None:
    """One object of a file without lines makes all of that file shown, once."""
    root = project.parent / "whole"
    _project(root)
    page = root / "docs/helper.md"
    page.write_text(page.read_text() + "\n::: pkg._impl.nodoc\n\n::: pkg.Thing\n", encoding="utf-8")
    taken = _build(root, lines=True, unknown="pkg._impl.nodoc")
    impl = str(root / "src/pkg/_impl.py")
    assert taken["helper.md"] == ({impl}, {})
    assert taken["limit.md"] == (set(), {impl: [(5, 8)]})
    assert taken["nodoc.md"] == ({impl}, {})
