"""mkdocstrings: a page with ``::: identifier`` is dated by the files of what it rendered,
or (``dependencies: lines``) by the lines it showed of them.

mkdocstrings loads each module once (reading every module of its package) and keeps it,
so watching reads would date the first page that loads a package by all of it and the
next ones by none. Instead, each handler's ``collect`` runs with observation suspended,
and the page asks the handler for what it rendered: the collected objects and every
heading mkdocstrings wrote (members included), each looked up again with ``collect(id,
{})`` (which only looks up, never loads) and dated by the file of its final target (an
alias re-exported from ``pkg/__init__.py`` by ``pkg/_impl.py``, where it is defined).
Reads while rendering (a docstring's own ``--8<--`` line) are still observed, and so is
everything a handler of another language (shell, crystal, c...) reads: that is what
dates its pages.

The lines an object shows follow ``core/page/api_lines.py`` (the rule ``build`` uses too).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.core.page.api_lines import Ranges, add_shown, source_files
from mkdocs_sitemap_pro.core.page.api_lines import (NEWEST, installed_version, rule_for,
                                                 selects_init)
from mkdocs_sitemap_pro.core.page.reads import Observer
from mkdocs_sitemap_pro.core.page.shown import merge_lines
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["RenderedObjects"]

_PLUGIN = "mkdocstrings"
_MARK = "_sitemap_pro_wrapped"


class RenderedObjects:
    """What mkdocstrings rendered on the current page, as source files (and lines)."""

    def __init__(self, config: MkDocsConfig, observer: Observer, *, lines: bool = False) -> None:
        self._observer = observer
        self._lines = lines  # ``dependencies: lines``: the lines shown, not whole files
        self._collected: list[Any] = []
        self._headings: list[tuple[Any, str]] = []  # (its handler's lookup, heading id)
        self._show_source = False  # a block of the page shows its objects' source
        self._merge_init = False  # a block of the page merges ``__init__`` into classes
        self._inherited_init = False  # a block's ``inherited_members`` selects ``__init__``
        self._init_rule = NEWEST  # which ``__init__`` the installed handler merges
        self._where: dict[Any, list[str]] = {}  # a griffe ``filepath`` -> the files found
        self.template_folders: list[str] = []
        self._plugin = config.plugins.get(_PLUGIN)  # None once its handlers are wrapped
        custom = getattr(self._plugin, "config", {}).get("custom_templates")
        if custom:
            self.template_folders.append(os.path.abspath(custom))
        if self._plugin is not None and lines:
            version = installed_version()
            self._init_rule = rule_for(version)
            log.debug(f"mkdocstrings-python {version or '(version unknown)'}: a class "
                      f"merges its __init__ by the rule '{self._init_rule}'")

    def watch(self) -> None:
        """Before the first page converts: wrap mkdocstrings' handlers, which it makes
        in its ``on_config`` (after this plugin's, if it is listed later)."""
        plugin, self._plugin = self._plugin, None
        if plugin is None:
            return
        handlers = getattr(plugin, "_handlers", None)  # private to mkdocstrings (0.26-1.0)
        if handlers is None or not hasattr(handlers, "get_handler"):
            log.debug("mkdocstrings has no '_handlers.get_handler': its pages are dated by "
                      "the reads seen while they render, not by the objects they show")
            return
        original = handlers.get_handler

        def get_handler(*args: Any, **kwargs: Any) -> Any:
            handler = original(*args, **kwargs)
            if not getattr(handler, _MARK, False):
                name = args[0] if args else kwargs.get("name", "python")
                self._wrap(handler, loads_modules=name == "python")
            return handler

        handlers.get_handler = get_handler  # the extension calls this same object

    def _wrap(self, handler: Any, *, loads_modules: bool) -> None:
        """``loads_modules``: python's handler (griffe), which loads whole packages
        once; another language's (shell, crystal, c...) reads what it renders, and that
        is what dates its page."""
        collect, get_headings = handler.collect, handler.get_headings
        find = _finder(handler, collect)
        observer = self._observer

        def wrapped_collect(identifier: str, options: Any) -> Any:
            if not loads_modules:
                return collect(identifier, options)
            with observer.suspended():  # griffe loading modules: not this page's reads
                data = collect(identifier, options)
            if observer.watching and options != {}:
                self._collected.append(data)
                if self._lines:
                    self._show_source |= _option(options, "show_source")
                    self._merge_init |= _option(options, "merge_init_into_class")
                    self._inherited_init |= _selects_init(options)
            return data

        def wrapped_headings() -> Any:
            headings = get_headings()
            if observer.watching:
                for heading in headings:
                    ident = heading.get("id") if hasattr(heading, "get") else None
                    if ident:
                        self._headings.append((find, ident))
            return headings

        handler.collect, handler.get_headings = wrapped_collect, wrapped_headings
        setattr(handler, _MARK, True)

    @property
    def pending(self) -> bool:
        """Whether an API object was rendered since the last ``take`` (most pages: no)."""
        return bool(self._collected or self._headings)

    def take(self) -> tuple[set[str], dict[str, list[tuple[int, int]]]]:
        """What was rendered since the last call: the source files shown whole and, with
        ``lines``, {absolute path: the 1-based inclusive line ranges shown} of the others
        (sorted, merged; a file is never in both). Without ``lines`` the dict is empty."""
        objects = self._collected
        for find, ident in self._headings:
            try:
                with self._observer.suspended():
                    objects.append(find(ident.partition("(")[0]))
            except Exception:  # noqa: BLE001 - an id that names no object (CollectionError)
                continue
        # A block's object has a heading too: each object once.
        objects = list({id(obj): obj for obj in objects}.values())
        show_source, merge_init = self._show_source, self._merge_init
        inherited_init = self._inherited_init
        self._collected, self._headings = [], []
        self._show_source = self._merge_init = self._inherited_init = False
        files: set[str] = set()
        where = self._where
        if not self._lines:
            for obj in objects:
                files.update(source_files(obj, where)[2])
            return files, {}
        parts: dict[str, Ranges] = {}
        for obj in objects:
            add_shown(obj, show_source, merge_init, where, files, parts,
                      init_rule=self._init_rule, inherited_init=inherited_init)
        shown: dict[str, list[tuple[int, int]]] = {}
        for path, ranges in parts.items():
            merged = merge_lines(ranges)
            if path not in files and merged:
                shown[path] = list(merged)
        return files, shown


def _finder(handler: Any, collect: Any) -> Any:
    """How a heading's id is looked up: ``collect(id, {})``, which only looks up. Of
    mkdocstrings-python that is its modules collection's ``[id]`` after building the
    handler's options anew, a call per heading: the collection is read directly."""
    modules = getattr(handler, "_modules_collection", None)  # private to mkdocstrings-python
    if modules is not None and hasattr(modules, "__getitem__") and type(
            handler).__module__.startswith("mkdocstrings_handlers.python"):
        return modules.__getitem__
    return lambda ident: collect(ident, {})


def _selects_init(options: Any) -> bool:
    """Whether a block's ``inherited_members`` selects an inherited ``__init__``;
    unknown: True (its docstring counted: more lines, never fewer)."""
    try:
        if isinstance(options, Mapping):
            return "inherited_members" not in options or selects_init(
                options["inherited_members"])
        return selects_init(getattr(options, "inherited_members", True))
    except Exception:  # noqa: BLE001 - an options object of another kind
        return True


def _option(options: Any, name: str) -> bool:
    """A handler option of a block (mkdocstrings-python's ``PythonOptions``, or a dict);
    unknown: True, which can only count more lines."""
    try:
        if isinstance(options, Mapping):
            return bool(options.get(name, True))
        return bool(getattr(options, name, True))
    except Exception:  # noqa: BLE001 - an options object of another kind
        return True
