"""mkdocstrings: a page with ``::: identifier`` is dated by the files of what it rendered,
or (``dependencies: lines``) by the lines it showed of them.

mkdocstrings loads each module once (reading every module of its package) and keeps it,
so watching reads would date the first page that loads a package by all of it and the
next ones by none. Instead, each handler's ``collect`` runs with observation suspended,
and the page asks the handler for what it rendered: the collected objects and every
heading mkdocstrings wrote (members included), each looked up again with ``collect(id,
{})`` (which only looks up, never loads) and dated by the file of its final target (an
alias re-exported from ``pkg/__init__.py`` by ``pkg/_impl.py``, where it is defined).
Reads while rendering (a docstring's own ``--8<--`` line) are still observed.

The lines an object shows are griffe's (``lineno``, which for a decorated object is its
first decorator's line, ``endlineno``, its docstring's, its members'), never parsed from
the source: a function or class shows its signature, decorators included, and its
docstring; a function without a docstring all of it (where its signature ends is not
known); a class without one up to its first member; an attribute its whole statement
(its value is shown) and its docstring; a module its docstring. A member shows its own
lines only when it is rendered (it has a heading then). Where a block on the page has
``show_source`` (mkdocstrings-python's default), every object shows all its lines; with
``merge_init_into_class``, a class shows its ``__init__`` too. An object whose lines
griffe does not know (inspected, no ``lineno``) shows its whole file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.core.reads import Observer
from mkdocs_sitemap_pro.core.shown import merge_lines
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["RenderedObjects"]

_PLUGIN = "mkdocstrings"
_MARK = "_sitemap_pro_wrapped"

Ranges = list[tuple[int, int]]


class RenderedObjects:
    """What mkdocstrings rendered on the current page, as source files (and lines)."""

    def __init__(self, config: MkDocsConfig, observer: Observer, *, lines: bool = False) -> None:
        self._observer = observer
        self._lines = lines  # ``dependencies: lines``: the lines shown, not whole files
        self._collected: list[Any] = []
        self._headings: list[tuple[Any, str]] = []  # (original collect, heading id)
        self._show_source = False  # a block of the page shows its objects' source
        self._merge_init = False  # a block of the page merges ``__init__`` into classes
        self._where: dict[Any, list[str]] = {}  # a griffe ``filepath`` -> the files found
        self.template_folders: list[str] = []
        self._plugin = config.plugins.get(_PLUGIN)  # None once its handlers are wrapped
        custom = getattr(self._plugin, "config", {}).get("custom_templates")
        if custom:
            self.template_folders.append(os.path.abspath(custom))

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
                self._wrap(handler)
            return handler

        handlers.get_handler = get_handler  # the extension calls this same object

    def _wrap(self, handler: Any) -> None:
        collect, get_headings = handler.collect, handler.get_headings
        observer = self._observer

        def wrapped_collect(identifier: str, options: Any) -> Any:
            with observer.suspended():  # griffe loading modules: not this page's reads
                data = collect(identifier, options)
            if observer.watching and options != {}:
                self._collected.append(data)
                if self._lines:
                    self._show_source |= _option(options, "show_source")
                    self._merge_init |= _option(options, "merge_init_into_class")
            return data

        def wrapped_headings() -> Any:
            headings = get_headings()
            if observer.watching:
                for heading in headings:
                    ident = heading.get("id") if hasattr(heading, "get") else None
                    if ident:
                        self._headings.append((collect, ident))
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
        for collect, ident in self._headings:
            try:
                with self._observer.suspended():
                    objects.append(collect(ident.partition("(")[0], {}))
            except Exception:  # noqa: BLE001 - an id that names no object (CollectionError)
                continue
        # A block's object has a heading too: each object once.
        objects = list({id(obj): obj for obj in objects}.values())
        show_source, merge_init = self._show_source, self._merge_init
        self._collected, self._headings = [], []
        self._show_source = self._merge_init = False
        files: set[str] = set()
        where = self._where
        if not self._lines:
            for obj in objects:
                files.update(_source_files(obj, where)[2])
            return files, {}
        parts: dict[str, Ranges] = {}
        for obj in objects:
            for path, ranges in _shown_lines(obj, show_source, merge_init, where):
                if ranges is None:
                    files.add(path)
                else:
                    parts.setdefault(path, []).extend(ranges)
        shown: dict[str, list[tuple[int, int]]] = {}
        for path, ranges in parts.items():
            merged = merge_lines(ranges)
            if path not in files and merged:
                shown[path] = list(merged)
        return files, shown


def _option(options: Any, name: str) -> bool:
    """A handler option of a block (mkdocstrings-python's ``PythonOptions``, or a dict);
    unknown: True, which can only count more lines."""
    try:
        if isinstance(options, Mapping):
            return bool(options.get(name, True))
        return bool(getattr(options, name, True))
    except Exception:  # noqa: BLE001 - an options object of another kind
        return True


def _source_files(obj: Any, where: dict[Any, list[str]]) -> tuple[Any, bool, list[str]]:
    """(The object's final target, whether it has several paths (a namespace package's
    folders), the files that define it): an alias is dated by its final target's file.
    ``where``: the files found for each ``filepath`` so far."""
    try:
        target = obj.final_target if getattr(obj, "is_alias", False) else obj
        filepath = target.filepath
    except Exception:  # noqa: BLE001 - an alias that cannot be resolved, a cycle
        return None, False, []
    several = isinstance(filepath, list)
    key = tuple(filepath) if several else filepath
    files = where.get(key)
    if files is None:
        paths = filepath if several else [filepath]
        files = where[key] = [os.path.abspath(p) for p in paths
                              if p is not None and os.path.isfile(p)]
    return target, several, files


def _shown_lines(obj: Any, show_source: bool, merge_init: bool, where: dict[Any, list[str]],
                 ) -> list[tuple[str, Ranges | None]]:
    """(file, the lines of it the object shows; None: all of it), for an object rendered
    (an alias: its final target, where it is defined)."""
    target, several, files = _source_files(obj, where)
    if len(files) != 1 or several:
        return [(path, None) for path in files]  # none; a namespace package's folders
    path = files[0]
    try:
        doc = target.docstring
        owner = _docstring_owner(target, doc)
        is_function = getattr(target, "is_function", False)
        ranges = _own_lines(target, show_source, None if owner is not None else doc,
                            is_function)
        if ranges is None:
            return [(path, None)]
        out: list[tuple[str, Ranges | None]] = [(path, ranges)]
        if owner is not None:  # a docstring taken from another object (inherited)
            out.extend(_docstring_elsewhere(owner, doc, where))
        if is_function:
            # A function's overloads: their signatures too (a class's ``overloads`` is a
            # dict of its members', counted with those members).
            for overload in getattr(target, "overloads", None) or ():
                out.extend(_shown_lines(overload, True, False, where))
        elif merge_init and getattr(target, "is_class", False):
            init = target.all_members.get("__init__")
            if init is not None:
                out.extend(_shown_lines(init, show_source, False, where))
        return out
    except Exception:  # noqa: BLE001 - never fewer lines than shown: the whole file
        return [(path, None)]


def _own_lines(target: Any, show_source: bool, doc: Any, is_function: bool) -> Ranges | None:
    """The lines of its own file an object shows (None: not known); ``doc``: its
    docstring, if written there (one taken from another object is counted in its
    owner's file)."""
    doc_lines: Ranges = []
    if doc is not None:
        if doc.lineno is None or doc.endlineno is None:
            return None
        doc_lines = [(doc.lineno, doc.endlineno)]
    if not is_function and getattr(target, "is_module", False):
        return doc_lines  # its docstring only: a module's source is not shown
    start, end = target.lineno, target.endlineno
    if start is None or end is None:
        return None
    for decorator in getattr(target, "decorators", None) or ():
        if decorator.lineno is not None:
            start = min(start, decorator.lineno)
    is_class = not is_function and getattr(target, "is_class", False)
    if show_source or not (is_class or is_function):
        return [(start, end), *doc_lines]  # an attribute's value is shown, a type alias's
    if doc is not None and start <= doc.lineno <= end:
        return [(start, doc.endlineno)]  # signature, then docstring
    if is_class:
        firsts = [m.lineno for m in target.members.values()
                  if not getattr(m, "is_alias", False) and m.lineno is not None
                  and target.lineno < m.lineno <= end]
        return [(start, min(firsts) - 1 if firsts else end), *doc_lines]
    return [(start, end), *doc_lines]  # where a function's signature ends is not known


def _docstring_owner(target: Any, doc: Any) -> Any:
    """The object the docstring ``doc`` of ``target`` was written for, when it is not
    ``target`` (None: it is, or there is none)."""
    parent = getattr(doc, "parent", None) if doc is not None else None
    if parent is None or parent is target:
        return None
    return parent


def _docstring_elsewhere(owner: Any, doc: Any, where: dict[Any, list[str]],
                         ) -> list[tuple[str, Ranges | None]]:
    files = _source_files(owner, where)[2]
    if doc.lineno is None or doc.endlineno is None:
        return [(path, None) for path in files]
    return [(path, [(doc.lineno, doc.endlineno)]) for path in files]
