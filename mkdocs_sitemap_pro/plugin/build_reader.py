"""One build's git read and dependency observation, owned by the plugin instance.

The history is read beside MkDocs' rendering, in a child process (``core/git/child.py``:
parsing git's output in a thread here would take the GIL from the pages), whose answer a
worker thread waits for. With ``dependencies`` on, the read starts when the files are
known (``on_files``) and stays open while pages convert: every file a page shows joins
the same walk. Once every page is converted (``on_env``) nothing more can join, and the
read is closed, so that git answers while templates render; ``finish`` gives what the
pipeline needs; ``close`` ends a read a failed build left open (it would wait for ever).

The instance lives as long as the plugin's (MkDocs keeps it across ``mkdocs serve``
rebuilds), and so do its child process and the ``HistoryMemo`` there: a rebuild while
HEAD, the shallow state and the options are unchanged runs one ``git rev-parse`` and no
history walk. Under ``mkdocs serve`` it also keeps the last build's answers (``known``)
and what each page showed: a page MkDocs does not render again (its source is not newer
than its HTML) is then neither asked of git nor looked up in the cache, unless the
read's key (HEAD, ...) moved, in which case ``finish`` asks for everything before
closing the read.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from mkdocs_sitemap_pro.core.git import GitHistory, read_ignore_revs_file
from mkdocs_sitemap_pro.core.git.child import ChildRead, HistoryProcess
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.dependencies.cache import CACHE_FILE, DependencyCache
from mkdocs_sitemap_pro.plugin.dependencies.dates import Dependencies
from mkdocs_sitemap_pro.plugin.dependencies.carried import Carried
from mkdocs_sitemap_pro.plugin.dependencies.tracker import PageDependencies, Tracker, project_of
from mkdocs_sitemap_pro.plugin.pages import Identity
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.plugin.paths import path_of

__all__ = ["BuildReader"]


class BuildReader:
    """The git read (and the dependency tracker) of the build under way."""

    def __init__(self, options: SitemapProConfig) -> None:
        self._options = options  # replaced at each build: MkDocs reloads them
        self._worker: ThreadPoolExecutor | None = None
        self._history: Future[GitHistory] | None = None
        self._live: ChildRead | None = None  # the read that pages' dependencies join
        self._tracker: Tracker | None = None
        self._asked: set[str] = set()
        self.process = HistoryProcess()  # reads history; keeps answers across builds
        self._cache: DependencyCache | None = None  # what pages showed, ditto
        self._keep = False  # keep what this build learns for the next (`mkdocs serve`)
        self._known: GitHistory | None = None  # the last build's answers, under their key
        self._carried = Carried()  # what pages showed then (kept up to date by the tracker)
        self._converted: list[File] = []  # pages converted in this build
        self._asked_every = False  # the key moved: every source was asked in this build
        self._ids: list[Identity] | None = None  # this build's pages, when kept for the next
        self._last_ids: list[Identity] | None = None  # the last build's, whose answers are known

    @property
    def tracking(self) -> bool:
        return self._tracker is not None

    @property
    def taking_paths(self) -> bool:
        """Whether the read under way still takes paths (closed once every page is known)."""
        return self._live is not None and not self._live.closed

    def reset(self, options: SitemapProConfig, keep: bool = False) -> None:
        """A new build starts, with the options loaded for it: forget the last one (a
        read left open is closed). MkDocs keeps a plugin with ``on_startup`` across
        builds of one process (``mkdocs serve``), reloading only its options; ``keep``:
        keep what this build learns for the next one (serve)."""
        self.close()
        self._options = options
        self._history = None
        self._tracker = None
        self._converted = []
        self._ids = None
        self._asked_every = False
        self._keep = keep
        if not keep:
            self.drop_pages()
            self._known = self._last_ids = None

    def start_live(self, config: MkDocsConfig, files: Files) -> None:
        """Start the read that the files pages show will join (``dependencies: true``).

        With the last build's answers at hand, it asks for nothing yet: the pages this
        build renders, and new pages, are asked once known (``all_pages_known``)."""
        self._asked = set()
        self._start(config, self._sources(files) if self._known is None else [])
        assert self._live is not None
        carried = self._carried if self._keep else None
        self._tracker = Tracker(config, self._live.add, self._dependency_cache(config), carried)

    def start(self, config: MkDocsConfig, files: Files, ids: list[Identity] | None = None) -> None:
        """Start the read for the source pages (``dependencies: false``), once all are
        known (``ids``: their identities, under ``mkdocs serve``)."""
        self._asked = set()
        # With no earlier answers, finish asks nothing more: git may answer while the
        # pages render.
        self._start(config, self._sources(files, same=self._same_pages(ids)),
                    complete=self._known is None)

    def _start(self, config: MkDocsConfig, sources: list[Path], complete: bool = False) -> None:
        """Start the read (``complete``: of every path it will be asked, closed at once)."""
        self._live = self.process.read(
            Path(config.docs_dir),
            sources,
            history=self._options.git_history,
            date=self._options.git_date,
            ignore_commits=self._ignored(),
        )
        if complete:
            self._live.close()
        self._history = self._submit(self._live.run)

    def all_pages_known(self, files: Files, ids: list[Identity] | None = None) -> None:
        """Pages other plugins added after ``on_files``, and what unrendered pages showed
        (``ids``: the pages' identities, under ``mkdocs serve``)."""
        if self._live is not None and self._tracker is not None:
            same = self._same_pages(ids)
            # HEAD moved: ask for everything while pages render. (The read found its key
            # at on_files, so this seldom waits: a ``git rev-parse`` against MkDocs'
            # reading of every page.)
            moved = self._asked_every = self._known is not None and self._moved()
            self._live.add(self._sources(files, every=moved, same=same and not moved))
            self._tracker.recall(files, same and not moved and ids == self._carried.ids, moved)
            # Every page is converted: no file is shown from here on (``listing`` names
            # posts, which are pages), and ``finish`` asks nothing more of a read that
            # asked everything when the key moved. Closing now lets git answer while
            # the templates render, so the build does not wait for it at the end.
            self._live.close()

    def _moved(self) -> bool:
        """Whether the read's key is not the last build's (HEAD moved, say)."""
        assert self._live is not None and self._known is not None
        return self._live.key() != self._known.key

    def _same_pages(self, ids: list[Identity] | None) -> bool:
        """Whether this build has the pages of the last one (whose answers are known)."""
        self._ids = ids if self._keep else None
        return ids is not None and self._known is not None and ids == self._last_ids

    def page_opens(self) -> None:
        if self._tracker is not None:
            self._tracker.open()

    def page_closes(self, page: Page) -> None:
        self._converted.append(page.file)
        if self._tracker is not None:
            self._tracker.close(page)

    def page_lists(self, page: Page, context: Any) -> None:
        if self._tracker is not None:
            self._tracker.listing(page, context)

    def finish(self, files: Files) -> tuple[GitHistory | None, Dependencies | None]:
        """End the build's read: the history, and what every page showed."""
        dependencies = None
        pages: dict[str, PageDependencies] = {}
        if self._tracker is not None:
            pages, trouble = self._tracker.finish(files)
            if trouble:
                log.debug(f"the dependency cache could not be written: {trouble}")
            dependencies = Dependencies(
                pages, self._options.dependencies_exclude, tuple(self._tracker.missing)
            )
            self._tracker = None
        known, same = self._known, False
        if self._live is not None:
            same = known is not None and not self._moved()
            if known is not None and not same and not self._asked_every:
                # HEAD moved: what was carried is asked now
                self._live.add(self._sources(files, every=True))
                self._live.add(path_of(f) for entry in pages.values() for f in entry.files)
            self._live.close()
        history = self._history.result() if self._history is not None else None
        if self._live is not None and self._live.fallback:
            log.debug(f"git history was read in the build's process: {self._live.fallback}")
        elif self._live is not None:
            log.debug(f"git history was read by the git reader process "
                      f"({self.process.child_cpu:.2f} s of CPU so far, with git's)")
        self._live = self._history = None
        if history is not None and known is not None and same:
            history = known.updated(history)
        if self._keep:
            self._known, self._last_ids = history, self._ids
            self._carried.ids = self._ids if dependencies is not None else None
            if dependencies is None:  # pages rendered unobserved: nothing carried holds
                self.drop_pages()
        return history, dependencies

    def drop_pages(self) -> None:
        """Forget what pages showed (a failed build may have written pages it never said)."""
        self._carried.clear()

    def close(self) -> None:
        """Stop observing and close an open read (a failed build, the end of MkDocs)."""
        if self._tracker is not None:
            self._tracker.observer.stop()
        if self._live is not None:
            self._live.close()
            self._live = None

    def forget(self) -> None:
        """Drop what is kept across builds (the next build reads history afresh)."""
        self.process.forget()
        self._cache = None
        self._known = self._last_ids = None
        self.drop_pages()

    def _dependency_cache(self, config: MkDocsConfig) -> DependencyCache:
        """The project's dependency cache, kept while the project is the same."""
        project = project_of(config)
        if self._cache is None or self._cache.path != project / CACHE_FILE:
            self._cache = DependencyCache(project)
        else:
            self._cache.refresh()
        return self._cache

    def shutdown(self) -> None:
        """End the worker thread with MkDocs, and forget what it read (writing the
        dependency cache first, if a rebuild left it behind)."""
        self.close()
        trouble = self._cache.flush() if self._cache is not None else None
        if trouble:
            log.debug(f"the dependency cache could not be written: {trouble}")
        self.forget()
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._worker = None
        self.process.shutdown()

    def _submit(self, fn: Any, *args: Any, **kwargs: Any) -> Future[GitHistory]:
        if self._worker is None:
            self._worker = ThreadPoolExecutor(1, thread_name_prefix="sitemap-pro-git")
        return self._worker.submit(fn, *args, **kwargs)

    def _sources(self, files: Files, every: bool = False, same: bool = False) -> list[Path]:
        """The source files of the pages not asked of git yet. With the last build's
        answers under the same key, a page not converted in this build is not asked
        again (``every``: it is, the key having moved); ``same``: the pages are the last
        build's, so only those converted are asked."""
        asked = self._asked
        known = None if every else self._known
        if same and known is not None:
            pages: Sequence[File] = self._converted
            known = None
        else:
            pages = files.documentation_pages()
        converted = {f.src_uri for f in self._converted} if known is not None else ()
        new = []
        for f in pages:
            path = f.abs_src_path
            if not path or path in asked or f.generated_by:
                continue
            if known is not None and f.src_uri not in converted and known.answered(path_of(path)):
                continue
            asked.add(path)
            new.append(path_of(path))
        return new

    def _ignored(self) -> list[str]:
        option = self._options.ignore_commits
        return read_ignore_revs_file(Path(option)) if isinstance(option, str) else option
