"""Per page of one build, the files it showed besides its source, and the posts it lists.

Puts together the observation of reads (``observer``, owned by the plugin instance),
mkdocstrings' rendered objects, Material's blog listings and, for pages ``--dirty`` did
not render, what the dependency cache says they showed. Nothing here asks git: every
file HEAD tracks is in the build's history map already.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from mkdocs_sitemap_pro.plugin.dependencies.cache import Cached, DependencyCache
from mkdocs_sitemap_pro.core.reads import Exclusions, Observer
from mkdocs_sitemap_pro.plugin.integrations import blog
from mkdocs_sitemap_pro.plugin.integrations.mkdocstrings import RenderedObjects
from mkdocs_sitemap_pro.plugin.integrations.snippets import auto_appended_files

__all__ = ["PageDependencies", "Tracker"]

_NONE: frozenset[str] = frozenset()

#: What one page showed besides its source: ``files`` (absolute paths, exclusions
#: applied) and ``posts`` (src_uris of the posts a listing page shows). One type with
#: the cache's entries, so an observation is kept and compared as it is.
PageDependencies = Cached


class Tracker:
    """Observes every page of one build; ``finish`` gives what each showed."""

    def __init__(self, config: MkDocsConfig, observer: Observer, cache: DependencyCache) -> None:
        self.observer = observer
        self._objects = RenderedObjects(config, observer)
        self._blog = blog.in_use(config)  # listing pages exist only with Material's blog
        self._exclusions = Exclusions(
            [*config.theme.dirs, config.site_dir, *self._objects.template_folders],
            [config.config_file_path or "", *auto_appended_files(config)],
        )
        self._cache = cache
        self._files: dict[str, frozenset[str]] = {}  # rendered pages: what each read
        self._posts: dict[str, tuple[str, ...]] = {}
        self._cached: dict[str, Cached] = {}
        self.missing: list[str] = []  # pages neither rendered nor in the cache

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
        self._files[page.file.src_uri] = frozenset(picked) if picked else _NONE

    def listing(self, page: Page, context: dict[str, Any]) -> None:
        """After the blog plugin's ``on_page_context``: the posts a listing page shows."""
        if not self._blog:
            return
        posts = blog.listed_posts(page, context)
        if posts is not None:
            self._posts[page.file.src_uri] = tuple(posts)

    def recall(self, files: Files) -> None:
        """Before templates render: what pages not rendered (``--dirty``) showed when
        they last were, from the cache (valid while their source is unchanged)."""
        for file in files.documentation_pages():
            src_uri, path = file.src_uri, file.abs_src_path
            if src_uri in self._files or file.generated_by or not path:
                continue
            cached = self._cache.get(src_uri, path)
            if cached is None:
                self.missing.append(src_uri)
            else:
                self._cached[src_uri] = cached

    def finish(self, pages: list[File]) -> tuple[dict[str, PageDependencies], str | None]:
        """Every page's dependencies; the cache is rewritten (the reason if it could not be)."""
        self.observer.stop()
        shown: dict[str, PageDependencies] = {}
        keep: dict[str, tuple[str, Cached]] = {}
        rendered, listings = self._files, self._posts
        for file in pages:
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
            shown[src_uri] = entry
            if file.abs_src_path and not file.generated_by:
                keep[src_uri] = (file.abs_src_path, entry)
        return shown, self._cache.save(keep, self._cached.keys())
