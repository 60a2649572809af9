"""Builds as ``mkdocs serve`` runs them: one startup, many builds, one shutdown.

``mkdocs.commands.serve`` calls ``on_startup`` once, then ``build(config, serve_url=...,
dirty=...)`` for the first build and again for every rebuild, each with a freshly loaded
config (MkDocs keeps the plugin instance and reloads only its options), and
``on_shutdown`` when the server stops. ``Serving`` does the same, without the HTTP
server, so a test can change files between rebuilds.

MkDocs keeps that one instance in its ``plugins`` option, shared by every config loaded
in the process: two sessions of one process share their plugins. A session made with
``own_plugins`` loads its configs with a store of its own, so it has instances of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig

from tests.support.dates import day
from tests.support.git import git_env
from tests.support.sites import Built, Site, _cwd, _environ, _ListHandler

SERVE_URL = "http://127.0.0.1:8000/"


def snippet_site(site: Site, pages: int = 5) -> Site:
    """Pages ``p0``..``p<n-1>``, each including ``parts/p<i>.md`` through pymdownx.snippets,
    committed on day 1; ``parts/p1.md`` changed on day 3 (so ``p1/`` is dated by it)."""
    site.repo.write(".gitignore", "site/\nserved*/\n.cache/\n")
    site.config["markdown_extensions"] = ["pymdownx.snippets"]
    site.write_config()
    for i in range(pages):
        site.page(f"p{i}.md", f'# P{i}\n\n--8<-- "parts/p{i}.md"\n')
        site.repo.write(f"parts/p{i}.md", f"part {i}\n")
    site.commit("pages", day(1))
    site.repo.write("parts/p1.md", "part 1, changed\n")
    site.commit("part 1", day(3))
    return site


class Serving:
    """A ``mkdocs serve`` session of a site; ``rebuild`` is one save-and-rebuild."""

    def __init__(self, site: Site, *, dirty: bool = False, env: dict[str, str] | None = None,
                 site_dir: str = "served", own_plugins: bool = False) -> None:
        self.site = site
        self.dirty = dirty
        self.env = env
        self.site_dir = site.root / site_dir
        self._plugins: dict[str, Any] | None = {} if own_plugins else None
        self.plugin: Any = None
        self._config: Any = None

    def __enter__(self) -> "Serving":
        with _environ(git_env(self.env)), _cwd(self.site.root):
            self._config = self._load()
            self._config.plugins.on_startup(command="serve", dirty=self.dirty)
        self.plugin = self._config.plugins["sitemap-pro"]
        return self

    def rebuild(self) -> Built:
        """One build as ``mkdocs serve`` runs it (the first one too)."""
        built = Built(self.site_dir)
        handler = _ListHandler(built.records)
        logger = logging.getLogger("mkdocs")
        old_level = logger.level
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
        try:
            with _environ(git_env(self.env)), _cwd(self.site.root):
                config = self._config if self._config is not None else self._load()
                self._config = None  # the first build uses the startup config, as serve does
                assert config.plugins["sitemap-pro"] is self.plugin, "MkDocs kept the plugin"
                build(config, serve_url=SERVE_URL, dirty=self.dirty)
        except BaseException as error:  # noqa: BLE001 - the test inspects it
            built.error = error
        finally:
            logger.removeHandler(handler)
            logger.setLevel(old_level)
        return built

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        with _environ(git_env(self.env)), _cwd(self.site.root):
            self.plugin_shutdown()

    def plugin_shutdown(self) -> None:
        config = self._load()
        config.plugins.on_shutdown()

    def _load(self) -> Any:
        with _plugin_store(self._plugins):
            config = load_config(str(self.site.root / "mkdocs.yml"), site_dir=str(self.site_dir))
        config.site_url = SERVE_URL
        return config


@contextmanager
def _plugin_store(store: dict[str, Any] | None) -> Iterator[None]:
    """Load configs with ``store`` as MkDocs' store of kept plugin instances (None: its own)."""
    if store is None:
        yield
        return
    option = dict(MkDocsConfig._schema)["plugins"]
    saved, option.plugin_cache = option.plugin_cache, store  # type: ignore[attr-defined]
    try:
        yield
    finally:
        option.plugin_cache = saved  # type: ignore[attr-defined]

