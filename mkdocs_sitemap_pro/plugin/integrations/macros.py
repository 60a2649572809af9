"""mkdocs-macros: a page is dated by every template its Markdown includes, imports or extends.

Jinja reads a template file once and keeps it, so watching reads would date only the
first page that includes a shared file. But a rendered template asks its environment for
every template it pulls in, each time it renders (``environment.get_template`` for a
constant name, ``select_template`` for a list; ``get_or_select_template`` for a name
computed at render time calls one of the two): those calls are wrapped on the
environment macros renders pages with, and each page gets the ``filename`` of every
template it asked for, cached or not, nested includes included, branches not taken
excluded. macros makes a new environment in each ``on_config``; it is wrapped at the
first page of each build. Relies on macros' public ``env`` property (1.x).
"""

from __future__ import annotations

import os
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.core.page.reads import Observer
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["IncludedTemplates"]

_PLUGIN = "macros"
_MARK = "_sitemap_pro_wrapped"


class IncludedTemplates:
    """The template files macros' Jinja environment gave the current page."""

    def __init__(self, config: MkDocsConfig, observer: Observer) -> None:
        self._observer = observer
        self._plugin = config.plugins.get(_PLUGIN)
        self._files: set[str] = set()

    def watch(self) -> None:
        """Before a page renders: make sure macros' current environment is wrapped."""
        if self._plugin is None:
            return
        try:
            env = self._plugin.env  # its property raises before macros' on_config
        except AttributeError:
            env = None
        if env is None or not hasattr(env, "get_template"):
            log.debug("mkdocs-macros has no Jinja environment ('env'): its includes "
                      "are dated by the reads seen, the first page's only")
            self._plugin = None
            return
        if not getattr(env, _MARK, False):
            self._wrap(env)

    @property
    def pending(self) -> bool:
        """Whether a template was given to the page since the last ``take``."""
        return bool(self._files)

    def take(self) -> set[str]:
        """The template files given since the last call (absolute paths)."""
        files, self._files = self._files, set()
        return files

    def _wrap(self, env: Any) -> None:
        def keeping(load: Any) -> Any:
            def wrapped(*args: Any, **kwargs: Any) -> Any:
                template = load(*args, **kwargs)
                filename = getattr(template, "filename", None)
                if filename and self._observer.watching:
                    self._files.add(os.path.abspath(filename))
                return template

            return wrapped

        env.get_template = keeping(env.get_template)
        env.select_template = keeping(env.select_template)
        setattr(env, _MARK, True)
