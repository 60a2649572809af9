"""Per page of one build, the files it showed besides its source, and the posts it lists.

Puts together the observation of reads (``observer``), mkdocstrings' rendered
objects, Material's blog listings and, for pages ``--dirty`` did not render, what they
showed in the last build of this process (``carried``) or else the cache. Every file a
page showed is handed to ``ask`` (the history read under way) in batches while pages
render (one hand-over per ``BATCH`` new files, not per page: each wakes the git thread),
so git answers it in the same walk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from mkdocs_sitemap_pro.plugin.dependencies.cache import Cached, DependencyCache
from mkdocs_sitemap_pro.plugin.dependencies.carried import Carried
from mkdocs_sitemap_pro.plugin.dependencies.observer import Exclusions, Observer
from mkdocs_sitemap_pro.plugin.integrations import blog
from mkdocs_sitemap_pro.plugin.integrations.mkdocstrings import RenderedObjects
from mkdocs_sitemap_pro.plugin.integrations.snippets import auto_appended_files
from mkdocs_sitemap_pro.plugin.doc_pages import final_documentation_pages
from mkdocs_sitemap_pro.plugin.paths import path_of

__all__ = ["PageDependencies", "Tracker", "project_of"]

BATCH = 500  # new files handed to the git read at a time
_NONE: frozenset[str] = frozenset()

#: What one page showed besides its source: ``files`` (absolute paths, exclusions
#: applied) and ``posts`` (src_uris of the posts a listing page shows). One type with
#: the cache's entries, so an observation is kept and compared as it is.
PageDependencies = Cached


def project_of(config: MkDocsConfig) -> Path:
    """The folder of mkdocs.yml, where the dependency cache lives."""
    return Path(config.config_file_path or "mkdocs.yml").parent


class Tracker:
    """Observes every page of one build; ``finish`` gives what each showed."""

    def __init__(
        self,
        config: MkDocsConfig,
        ask: Callable[[Iterable[Path]], None],
        cache: DependencyCache | None = None,
        carried: Carried | None = None,
    ) -> None:
        self._config = config
        self._ask = ask
        self.observer = Observer()
        self._objects = RenderedObjects(config, self.observer)
        self._blog = blog.in_use(config)  # listing pages exist only with Material's blog
        self._exclusions = Exclusions(
            [*config.theme.dirs, config.site_dir, *self._objects.template_folders],
            [config.config_file_path or "", *auto_appended_files(config)],
        )
        self._cache = cache if cache is not None else DependencyCache(project_of(config))
        self._files: dict[str, frozenset[str]] = {}  # rendered pages: what each read
        self._rendered: dict[str, File] = {}
        self._posts: dict[str, tuple[str, ...]] = {}
        self._cached: dict[str, Cached] = {}
        # Under `mkdocs serve`: what pages showed in earlier builds (their files known to
        # git then), brought up to date by ``finish`` for the next build.
        self._carried = carried
        self._same = False  # the pages are the last build's: only rendered ones change
        self.missing: list[str] = []  # pages neither rendered nor in the cache
        self._asked: set[str] = set()
        self._batch: list[Path] = []

    def open(self) -> None:
        """A page's conversion starts (``on_pre_page``, first of all plugins)."""
        self.observer.open()

    def close(self, page: Page) -> None:
        """A page's conversion ends (``on_page_content``, last): keep what it read."""
        if not self.observer.watching:
            return
        reads = self.observer.close()
        rendered = self._objects.take()  # mkdocstrings' objects' source files
        if rendered:
            reads |= rendered
        picked = self._exclusions.pick(reads, page.file.abs_src_path)
        files = frozenset(picked) if picked else _NONE
        self._files[page.file.src_uri] = files
        self._rendered[page.file.src_uri] = page.file
        self._want(files)

    def _want(self, files: Iterable[str], flush: bool = False) -> None:
        """Hand new files to the git read, a batch at a time."""
        for f in files:
            if f not in self._asked:
                self._asked.add(f)
                self._batch.append(path_of(f))
        if self._batch and (flush or len(self._batch) >= BATCH):
            self._ask(self._batch)
            self._batch = []

    def listing(self, page: Page, context: dict[str, Any]) -> None:
        """After the blog plugin's ``on_page_context``: the posts a listing page shows."""
        if not self._blog:
            return
        posts = blog.listed_posts(page, context)
        if posts is not None:
            self._posts[page.file.src_uri] = tuple(posts)

    def recall(self, files: Files, same: bool = False, ask: bool = False) -> None:
        """Before templates render: the last observation of pages not rendered (``--dirty``).

        A page MkDocs did not render has a source no newer than its HTML, so what it
        showed in the last build of this process still holds; the git read already
        answered its files then (``ask``: they are asked again, HEAD having moved).
        Other pages are looked up in the cache. ``same``: the pages are those of the
        last build, whose result is then taken as a whole.
        """
        carried = self._carried
        self._same = same and carried is not None and carried.ids is not None and self._cache.saved
        for file in () if self._same else files.documentation_pages():
            src_uri, path = file.src_uri, file.abs_src_path
            if src_uri in self._files or file.generated_by or not path:
                continue
            shown = carried.by_page.get((src_uri, path, file.abs_dest_path)) if carried else None
            if shown is not None:
                self._cached[src_uri] = shown
                if ask:
                    self._want(shown.files)
                continue
            cached = self._cache.get(src_uri, path_of(path))
            if cached is None:
                self.missing.append(src_uri)
                continue
            self._cached[src_uri] = cached
            self._want(cached.files)
        self._want((), flush=True)

    def finish(self, files: Files) -> tuple[dict[str, PageDependencies], str | None]:
        """Every page's dependencies; the cache is rewritten (the reason if it could not be)."""
        self.observer.stop()
        if self._same:
            return self._finish_same()
        pages: dict[str, PageDependencies] = {}
        keep: dict[str, tuple[Path, Cached]] = {}
        rendered, listings = self._files, self._posts
        for file in final_documentation_pages(files):
            src_uri = file.src_uri
            if src_uri in rendered:
                entry = PageDependencies(rendered[src_uri], listings.get(src_uri, ()))
            elif (cached := self._cached.get(src_uri)) is not None:
                posts = listings.get(src_uri, cached.posts)
                entry = cached if posts == cached.posts else PageDependencies(cached.files, posts)
            elif src_uri in listings:
                entry = PageDependencies(posts=listings[src_uri])
            else:
                continue
            pages[src_uri] = entry
            if file.abs_src_path and not file.generated_by:
                keep[src_uri] = (path_of(file.abs_src_path), entry)
                if self._carried is not None:  # (a one-off build carries nothing)
                    self._carry(file, entry)
        if self._carried is not None:
            self._carried.pages, self._carried.missing = pages, tuple(self.missing)
        return pages, self._cache.save(keep, self._cached.keys())

    def _finish_same(self) -> tuple[dict[str, PageDependencies], str | None]:
        """``finish`` for the last build's pages: its result, with the rendered pages'."""
        assert self._carried is not None
        carried, listings = self._carried, self._posts
        pages = dict(carried.pages)
        changed: dict[str, tuple[Path, Cached]] = {}
        for src_uri, file in self._rendered.items():
            entry = PageDependencies(self._files[src_uri], listings.get(src_uri, ()))
            pages[src_uri] = entry
            if file.abs_src_path and not file.generated_by:
                changed[src_uri] = (path_of(file.abs_src_path), entry)
                self._carry(file, entry)
        for src_uri, posts in listings.items():  # listed by a page not converted: its posts
            known = pages.get(src_uri)
            if src_uri not in self._rendered and (known is None or known.posts != posts):
                pages[src_uri] = PageDependencies(known.files if known else frozenset(), posts)
        self.missing = [src_uri for src_uri in carried.missing if src_uri not in self._files]
        carried.pages, carried.missing = pages, tuple(self.missing)
        return pages, self._cache.save_changed(changed)

    def _carry(self, file: File, entry: PageDependencies) -> None:
        if self._carried is not None and file.abs_src_path:
            self._carried.by_page[(file.src_uri, file.abs_src_path, file.abs_dest_path)] = entry
