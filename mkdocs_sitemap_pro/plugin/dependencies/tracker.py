"""Per page of one build, the files it showed besides its source, and the posts it lists.

Puts together the observation of reads (``observer``, owned by the plugin instance),
what the integrations know a page shows whatever was read (mkdocstrings' rendered
objects, mkdocs-macros' templates, mkdocs-click's commands, a gen-files page's edit path),
Material's blog listings and, for pages ``--dirty`` did not render, what the dependency
cache says they showed. Nothing here asks git: every
file HEAD tracks is in the build's history map already.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from mkdocs_sitemap_pro.core.page.includes import WrittenRules, rules_for, shown_lines
from mkdocs_sitemap_pro.core.page.includes import Reach
from mkdocs_sitemap_pro.core.page.reads import Exclusions, Observer
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig, cache_file, project_folder
from mkdocs_sitemap_pro.core.page.shown import NOTHING, Shown, merge_lines
from mkdocs_sitemap_pro.plugin.dependencies.cache import CACHE_FILE, DependencyCache
from mkdocs_sitemap_pro.core.git.line_dates import BLAME_FILE, LineDateStore
from mkdocs_sitemap_pro.plugin.dependencies.rewriters import Rewriters
from mkdocs_sitemap_pro.plugin.integrations import blog
from mkdocs_sitemap_pro.plugin.integrations.mkdocstrings import RenderedObjects
from mkdocs_sitemap_pro.plugin.integrations.snippets import auto_appended_files
from mkdocs_sitemap_pro.plugin.report import log

if TYPE_CHECKING:
    from mkdocs_sitemap_pro.plugin.integrations.gen_files import EditPaths
    from mkdocs_sitemap_pro.plugin.integrations.macros import IncludedTemplates

__all__ = ["Tracker", "Tracking"]

_API_BLOCK = re.compile(r"^[ \t]*:::[ \t]*\S", re.MULTILINE)  # a mkdocstrings block

class Tracker:
    """Observes every page of one build; ``finish`` gives what each showed."""

    def __init__(self, config: MkDocsConfig, observer: Observer, cache: DependencyCache,
                 lines: bool = False, rewriters: Rewriters | None = None) -> None:
        self.observer = observer
        # The site's own code that rewrites pages (hooks, a plugin of the repository):
        # None where there is none (most sites).
        self._rewriters = rewriters if rewriters is not None and rewriters.watching else None
        self.code: dict[str, frozenset[str]] = {}  # src_uri -> the files of that code
        self._objects = RenderedObjects(config, observer, lines=lines)
        self._written_lines = lines  # dependencies: lines
        self.api_files: set[str] = set()  # source files of API objects rendered (INFO line)
        # dependencies: lines: what a page's own text includes in part (snippets' line
        # ranges and sections, include-markdown's markers, mdx_include's [ln:]), read
        # from its source by the same analysis ``build`` makes. pymdownx.snippets,
        # mdx_include and macros resolve base_path and include_dir from the working
        # folder (``-f`` does not change it), so these rules do too. Of the files a page's
        # text names, only those its rendering read are opened again (``_reading``).
        self._written: WrittenRules | None = None
        if lines:
            rules = rules_for(config.mdx_configs, config.markdown_extensions,
                              frozenset(config.plugins), Path.cwd(),
                              docs_dir=Path(config.docs_dir), reach=Reach())
            if rules.in_part:
                self._written = rules
        # Each integration only where its plugin is in use (imported only then): most
        # sites pay nothing.
        self._templates: IncludedTemplates | None = None
        self._edit_paths: EditPaths | None = None
        self._click: ModuleType | None = None  # integrations.click, where mkdocs-click is on
        if "macros" in config.plugins:
            from mkdocs_sitemap_pro.plugin.integrations.macros import IncludedTemplates

            self._templates = IncludedTemplates(config, observer)
        if "gen-files" in config.plugins:
            from mkdocs_sitemap_pro.plugin.integrations.gen_files import EditPaths

            self._edit_paths = EditPaths(config, str(project_folder(config)))
        if any("click" in str(name) for name in config.markdown_extensions):
            from mkdocs_sitemap_pro.plugin.integrations import click

            self._click = click if click.in_use(config) else None
        self.blog = blog.in_use(config)  # listing pages exist only with Material's blog
        self._exclusions = Exclusions(
            [*config.theme.dirs, config.site_dir, *self._objects.template_folders],
            [config.config_file_path or "", *auto_appended_files(config)],
        )
        self._cache = cache
        # What each page showed, as far as known: rendered pages from their conversion
        # on, listing pages' posts from their context on, other pages from ``from_cache``.
        self.shown: dict[str, Shown] = {}
        self._cached: set[str] = set()  # pages whose entry came from the cache
        self._edited: str | None = None  # the open page's edit path file (gen-files)
        self._modules: frozenset[str] | None = None  # modules loaded when the page opened
        self.missing: list[str] = []  # pages neither rendered nor in the cache

    def open(self, page: Page) -> None:
        """A page's conversion starts (``on_pre_page``, first of all plugins)."""
        self.observer.open()
        self._objects.watch()
        if self._rewriters is not None:
            self._rewriters.open()
        if self._templates is not None:
            self._templates.watch()
        if self._click is not None:
            self._modules = self._click.modules_loaded()
        self._edited = (self._edit_paths.source_of(page.file)
                        if self._edit_paths is not None and page.file.generated_by else None)

    def close(self, page: Page) -> None:
        """A page's conversion ends (``on_page_content``, last): keep what it read."""
        reads = self.observer.close()
        if reads is None:
            return
        parts: dict[str, list[tuple[int, int]]] = {}
        shown_whole: set[str] = set()  # what an integration knows the page shows whole
        edited, self._edited = self._edited, None
        if self._objects.pending:
            self._take_objects(reads, shown_whole, parts)
            # A gen-files page that renders API objects is dated by them, as the same
            # block on a written page is: its edit path is a link, not something shown.
            edited = None
        if self._templates is not None and self._templates.pending:
            templates = self._templates.take()  # macros' templates, cached by Jinja or not
            reads |= templates
            shown_whole |= templates
        if self._click is not None:  # mkdocs-click: the commands rendered, not the imports
            self._take_click(page, reads, shown_whole, parts)
        if edited is not None:  # a generated page showing no API object: its edit path
            reads.add(edited)
        self._keep(page, reads, parts, shown_whole)

    def _take_objects(self, reads: set[str], shown_whole: set[str],
                      parts: dict[str, list[tuple[int, int]]]) -> None:
        """Add the source files of the mkdocstrings objects the page rendered: the files
        shown whole to ``reads`` and ``shown_whole``, the lines griffe knows to ``parts``."""
        whole, lines = self._objects.take()  # mkdocstrings' objects' source files
        reads |= whole
        shown_whole |= whole
        self.api_files.update(whole, lines)
        for path, ranges in lines.items():
            parts.setdefault(path, []).extend(ranges)

    def _take_click(self, page: Page, reads: set[str], shown_whole: set[str],
                    parts: dict[str, list[tuple[int, int]]]) -> None:
        """Swap the modules mkdocs-click imported for the files (or lines) of the
        commands the page renders: an import is not something shown."""
        assert self._click is not None
        if self._modules is not None:
            reads -= self._click.imported_since(self._modules)
            self._modules = None
        if self._written_lines:
            from mkdocs_sitemap_pro.plugin.integrations.click import command_lines

            whole, lines = command_lines(page.markdown or "")
            reads |= whole
            shown_whole |= whole
            for path, ranges in lines.items():
                parts.setdefault(path, []).extend(ranges)
        else:
            reads |= self._click.command_files(page.markdown or "")

    def _keep(self, page: Page, reads: set[str], parts: dict[str, list[tuple[int, int]]],
              shown_whole: set[str]) -> None:
        """Record what the page shows, from what it read: the files its text includes in
        part, the code that rewrote it, less what the exclusions leave out."""
        source = page.file.abs_src_path
        # Most pages read their source and nothing else.
        shows = reads and (len(reads) > 1 or source not in reads)
        if shows and self._written is not None and source:
            self._written_parts(source, reads, parts, shown_whole)
        picked = self._exclusions.pick(reads, source) if shows else None
        if self._rewriters is not None and (code := self._rewriters.take()):
            # Code that rewrote the page: shown whole, wherever it lies (a hook in the
            # theme's custom_dir too).
            self.code[page.file.src_uri] = code
            picked = (picked or set()) | code
        if parts:
            in_part = self._exclusions.pick(set(parts), source) - (picked or set())
            self.shown[page.file.src_uri] = Shown(frozenset(picked or ()), (), tuple(
                (path, merge_lines(parts[path])) for path in sorted(in_part)))
            return
        self.shown[page.file.src_uri] = Shown(frozenset(picked)) if picked else NOTHING

    def _written_parts(self, source: str, reads: set[str],
                       parts: dict[str, list[tuple[int, int]]], whole: set[str]) -> None:
        """The files read that the page's text includes only in part leave ``reads`` for
        ``parts`` (the read was the include's), except those in ``whole``: a file an
        integration shows whole (a ``:::`` module whose lines griffe does not know) stays
        whole, whatever part of it a snippet shows too."""
        assert self._written is not None
        try:
            text = Path(source).read_text(encoding="utf-8-sig", errors="replace")
        except OSError:
            return
        for path, lines in shown_lines(text, source, self._reading(reads)).items():
            if lines is not None and path in reads and path not in whole:
                reads.discard(path)
                parts.setdefault(path, []).extend(lines)

    def _reading(self, files: set[str]) -> WrittenRules:
        """The page-text rules opening only ``files`` (what the rendering read): the
        tools refuse some files a page names (outside snippets' ``base_path``), and
        those are never opened here either."""
        assert self._written is not None
        return self._written._replace(reach=Reach(files=files))

    def listing(self, page: Page, context: dict[str, Any]) -> None:
        """After the blog plugin's ``on_page_context`` (``blog`` only): the posts a
        listing page shows."""
        posts = blog.listed_posts(page, context)
        if posts is not None:
            src_uri = page.file.src_uri
            self.shown[src_uri] = self.shown.get(src_uri, NOTHING)._replace(posts=tuple(posts))

    def from_cache(self, files: Files) -> None:
        """Before templates render: what pages not rendered (``--dirty``) showed when
        they last were, from the cache (valid while their source is unchanged)."""
        shown = self.shown
        for file in files:
            # Rendered in this build (every page, in most builds): known already. Asked
            # first: a set lookup, before the file's kind and inclusion are checked.
            if (file.src_uri in shown or not file.is_documentation_page()
                    # The ignore: MkDocs' InclusionLevel methods are untyped.
                    or not file.inclusion.is_included()):  # type: ignore[no-untyped-call]
                continue
            src_uri, path = file.src_uri, file.abs_src_path
            if file.generated_by or not path:
                continue
            cached = self._cache.get(src_uri, path)
            if cached is None:
                self.missing.append(src_uri)
            else:
                if cached.files and self._written is not None:
                    cached = self._lines_again(path, cached)
                self.shown[src_uri] = cached
                self._cached.add(src_uri)

    def _lines_again(self, source: str, cached: Shown) -> Shown:
        """A cached page's files shown whole that its text shows in part (the cache gives
        a file shown in part whole once it changed), with their lines as they are now.
        Not on a page with a ``:::`` block: mkdocstrings' lines of the same file may be
        in that part too, and are known only by rendering the page again."""
        assert self._written is not None
        try:
            text = Path(source).read_text(encoding="utf-8-sig", errors="replace")
        except OSError:
            return cached
        if _API_BLOCK.search(text):
            return cached
        files = set(cached.files)
        parts: dict[str, list[tuple[int, int]]] = {p: list(lines) for p, lines in cached.parts}
        for path, lines in shown_lines(text, source, self._reading(files)).items():
            if lines is not None and path in files:
                files.discard(path)
                parts.setdefault(path, []).extend(lines)
        if len(files) == len(cached.files):
            return cached
        return Shown(frozenset(files), cached.posts,
                     tuple((path, merge_lines(parts[path])) for path in sorted(parts)))

    def finish(self, pages: list[File]) -> tuple[dict[str, Shown], str | None]:
        """Every page's dependencies; the cache is rewritten (the reason if it could not be)."""
        self.observer.stop()
        shown: dict[str, Shown] = {}
        sources: dict[str, str] = {}  # src_uri -> its source, for the pages kept
        known = self.shown
        for file in pages:
            src_uri = file.src_uri
            entry = known.get(src_uri)
            if entry is None:
                continue
            shown[src_uri] = entry
            if file.abs_src_path and not file.generated_by:
                sources[src_uri] = file.abs_src_path
        return shown, self._cache.save(shown, sources, self._cached)


class Tracking:
    """A plugin instance's observer (told of reads by the process's one audit hook) and
    dependency cache (kept while it is the same file): a ``Tracker`` per build."""

    def __init__(self) -> None:
        self._observer: Observer | None = None
        self._cache: DependencyCache | None = None
        self._line_dates: LineDateStore | None = None
        # Made with the plugin, before hooks load: what they read as they load is seen.
        self._rewriters = Rewriters()

    def tracker(self, config: MkDocsConfig, options: SitemapProConfig) -> Tracker:
        if self._observer is None:
            self._observer = Observer()
        path = cache_file(config, options, CACHE_FILE)
        depth = "lines" if options.dependencies == "lines" else "files"
        if self._cache is None or self._cache.path != path or self._cache.depth != depth:
            self._cache = DependencyCache(project_folder(config), path, depth)
        else:
            self._cache.refresh()
        self._rewriters.watch(config.plugins)
        return Tracker(config, self._observer, self._cache, options.dependencies == "lines",
                       self._rewriters)

    def line_dates(self, config: MkDocsConfig, options: SitemapProConfig) -> LineDateStore:
        """The line dates of files shown in part, kept while it is the same file."""
        path = cache_file(config, options, BLAME_FILE)
        if self._line_dates is None or self._line_dates.path != path:
            self._line_dates = LineDateStore(path, log)
        return self._line_dates

    def config_loaded(self) -> None:
        """``on_config``: the site's code is loaded; what it read as it loaded is known."""
        self._rewriters.loaded()

    def build_over(self) -> None:
        """A build ended: code loaded before the next (``mkdocs serve``) is watched."""
        self._rewriters.listen()

    def forget(self) -> None:
        """The next build reads the dependency and line-date caches afresh."""
        self._cache = None
        self._line_dates = None
