"""One build's git read and dependency observation, owned by the plugin instance.

The history is read in a worker thread beside MkDocs' rendering. With ``dependencies``
on, the read starts when the files are known (``on_files``) and stays open: every file a
page shows while it converts joins the same walk. ``finish`` closes it and gives what the
pipeline needs; ``close`` ends a read a failed build left open (it would wait for ever).

The instance lives as long as the plugin's (MkDocs keeps it across ``mkdocs serve``
rebuilds), and so does its ``HistoryMemo``: a rebuild while HEAD, the shallow state and
the options are unchanged runs one ``git rev-parse`` and no history walk.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from mkdocs_sitemap_pro.core.git import GitHistory, HistoryRead, read_ignore_revs_file
from mkdocs_sitemap_pro.core.git.memo import HistoryMemo
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.dependencies.cache import CACHE_FILE, DependencyCache
from mkdocs_sitemap_pro.plugin.dependencies.dates import Dependencies
from mkdocs_sitemap_pro.plugin.dependencies.tracker import Tracker, project_of
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.plugin.paths import path_of

__all__ = ["BuildReader"]


class BuildReader:
    """The git read (and the dependency tracker) of the build under way."""

    def __init__(self, options: SitemapProConfig) -> None:
        self._options = options  # replaced at each build: MkDocs reloads them
        self._worker: ThreadPoolExecutor | None = None
        self._history: Future[GitHistory] | None = None
        self._live: HistoryRead | None = None  # the read that pages' dependencies join
        self._tracker: Tracker | None = None
        self._asked: set[str] = set()
        self.memo = HistoryMemo()  # answers kept across the builds of one process
        self._cache: DependencyCache | None = None  # what pages showed, ditto

    @property
    def tracking(self) -> bool:
        return self._tracker is not None

    def reset(self, options: SitemapProConfig) -> None:
        """A new build starts, with the options loaded for it: forget the last one (a
        read left open is closed). MkDocs keeps a plugin with ``on_startup`` across
        builds of one process (``mkdocs serve``), reloading only its options."""
        self.close()
        self._options = options
        self._history = None
        self._tracker = None

    def start_live(self, config: MkDocsConfig, files: Files) -> None:
        """Start the read that the files pages show will join (``dependencies: true``)."""
        self._asked = set()
        self._live = HistoryRead(
            Path(config.docs_dir),
            self._sources(files),
            history=self._options.git_history,
            date=self._options.git_date,
            ignore_commits=self._ignored(),
            memo=self.memo,
        )
        self._history = self._submit(self._live.run)
        self._tracker = Tracker(config, self._live.add, self._dependency_cache(config))

    def start(self, config: MkDocsConfig, files: Files) -> None:
        """Start one read for every source page (``dependencies: false``)."""
        sources = [
            path_of(f.abs_src_path)
            for f in files.documentation_pages()
            if f.abs_src_path and not f.generated_by
        ]
        self._history = self._submit(
            GitHistory.read,
            Path(config.docs_dir),
            sources,
            history=self._options.git_history,
            date=self._options.git_date,
            ignore_commits=self._ignored(),
            memo=self.memo,
        )

    def all_pages_known(self, files: Files) -> None:
        """Pages other plugins added after ``on_files``, and what unrendered pages showed."""
        if self._live is not None and self._tracker is not None:
            self._live.add(self._sources(files))
            self._tracker.recall(files)

    def page_opens(self) -> None:
        if self._tracker is not None:
            self._tracker.open()

    def page_closes(self, page: Page) -> None:
        if self._tracker is not None:
            self._tracker.close(page)

    def page_lists(self, page: Page, context: Any) -> None:
        if self._tracker is not None:
            self._tracker.listing(page, context)

    def finish(self, files: Files) -> tuple[GitHistory | None, Dependencies | None]:
        """End the build's read: the history, and what every page showed."""
        dependencies = None
        if self._tracker is not None:
            pages, trouble = self._tracker.finish(files)
            if trouble:
                log.debug(f"the dependency cache could not be written: {trouble}")
            dependencies = Dependencies(
                pages, self._options.dependencies_exclude, tuple(self._tracker.missing)
            )
            self._tracker = None
        if self._live is not None:
            self._live.close()
            self._live = None
        history = self._history.result() if self._history is not None else None
        self._history = None
        return history, dependencies

    def close(self) -> None:
        """Stop observing and close an open read (a failed build, the end of MkDocs)."""
        if self._tracker is not None:
            self._tracker.observer.stop()
        if self._live is not None:
            self._live.close()
            self._live = None

    def forget(self) -> None:
        """Drop what is kept across builds (the next build reads history afresh)."""
        self.memo.clear()
        self._cache = None

    def _dependency_cache(self, config: MkDocsConfig) -> DependencyCache:
        """The project's dependency cache, kept while the project is the same."""
        project = project_of(config)
        if self._cache is None or self._cache.path != project / CACHE_FILE:
            self._cache = DependencyCache(project)
        else:
            self._cache.refresh()
        return self._cache

    def shutdown(self) -> None:
        """End the worker thread with MkDocs, and forget what it read."""
        self.close()
        self.forget()
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._worker = None

    def _submit(self, fn: Any, *args: Any, **kwargs: Any) -> Future[GitHistory]:
        if self._worker is None:
            self._worker = ThreadPoolExecutor(1, thread_name_prefix="sitemap-pro-git")
        return self._worker.submit(fn, *args, **kwargs)

    def _sources(self, files: Files) -> list[Path]:
        """The source files of the pages not asked of git yet."""
        asked = self._asked
        new = [
            path
            for f in files.documentation_pages()
            if (path := f.abs_src_path) and path not in asked and not f.generated_by
        ]
        asked.update(new)
        return [path_of(path) for path in new]

    def _ignored(self) -> list[str]:
        option = self._options.ignore_commits
        return read_ignore_revs_file(Path(option)) if isinstance(option, str) else option
