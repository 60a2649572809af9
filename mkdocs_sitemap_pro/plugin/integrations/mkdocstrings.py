"""mkdocstrings: a page with ``::: identifier`` is dated by the files of what it rendered.

mkdocstrings loads each module once (reading every module of its package) and keeps it,
so watching reads would date the first page that loads a package by all of it and the
next ones by none. Instead, each handler's ``collect`` runs with observation suspended,
and the page asks the handler for what it rendered: the collected objects and every
heading mkdocstrings wrote (members included), each looked up again with ``collect(id,
{})`` (which only looks up, never loads) and dated by the file of its final target (an
alias re-exported from ``pkg/__init__.py`` by ``pkg/_impl.py``, where it is defined).
Reads while rendering (a docstring's own ``--8<--`` line) are still observed.
"""

from __future__ import annotations

import os
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.core.reads import Observer
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["RenderedObjects"]

_PLUGIN = "mkdocstrings"
_MARK = "_sitemap_pro_wrapped"


class RenderedObjects:
    """What mkdocstrings rendered on the current page, as source files."""

    def __init__(self, config: MkDocsConfig, observer: Observer) -> None:
        self._observer = observer
        self._collected: list[Any] = []
        self._headings: list[tuple[Any, str]] = []  # (original collect, heading id)
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

    def take(self) -> set[str]:
        """The source files of everything rendered since the last call."""
        objects = self._collected
        for collect, ident in self._headings:
            try:
                with self._observer.suspended():
                    objects.append(collect(ident.partition("(")[0], {}))
            except Exception:  # noqa: BLE001 - an id that names no object (CollectionError)
                continue
        self._collected, self._headings = [], []
        files: set[str] = set()
        for obj in objects:
            files.update(_source_files(obj))
        return files


def _source_files(obj: Any) -> list[str]:
    """The file that defines an object; an alias is dated by its final target's file."""
    try:
        target = obj.final_target if getattr(obj, "is_alias", False) else obj
        where = target.filepath
    except Exception:  # noqa: BLE001 - an alias that cannot be resolved, a cycle
        return []
    paths = where if isinstance(where, list) else [where]
    return [os.path.abspath(p) for p in paths if p is not None and os.path.isfile(p)]
