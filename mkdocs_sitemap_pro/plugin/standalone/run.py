"""``mkdocs-sitemap-pro build``: the plugin's sitemap for a site another builder wrote.

Zensical reads mkdocs.yml but runs no MkDocs plugin. After it (or any builder that
writes MkDocs' URL layout), this reads the config and the built HTML, dates the pages
with the same one git pass and rules, and calls the plugin's own pipeline, so the files,
robots.txt and messages are the plugin's. What it cannot see is the rendering: a page's
dependencies are only those written in its source (``core.page.includes``).
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.utils import CountHandler, get_build_datetime

from mkdocs_sitemap_pro.core.dating import LastDeploy
from mkdocs_sitemap_pro.core.git import GitHistory
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.urls import normalise_loc
from mkdocs_sitemap_pro.core.words import printable
from mkdocs_sitemap_pro.core.writer import WriteReport
from mkdocs_sitemap_pro.plugin import pipeline
from mkdocs_sitemap_pro.plugin.build import Build, Converted
from mkdocs_sitemap_pro.plugin.serve import ServeMemos
from mkdocs_sitemap_pro.core.page.shown import Dependencies, Lines, Shown
from mkdocs_sitemap_pro.plugin.config import (
    SitemapProConfig,
    cache_file,
    check_cache_dir,
    project_folder,
)
from mkdocs_sitemap_pro.core.git.line_dates import BLAME_FILE, LineDateStore
from mkdocs_sitemap_pro.plugin.history import BuildHistory
from mkdocs_sitemap_pro.core.page.includes import Reach
from mkdocs_sitemap_pro.core.page.includes import (
    WrittenRules,
    rules_for,
    shown_lines,
    written_dependencies,
)
from mkdocs_sitemap_pro.plugin.integrations.i18n import LanguageOrder
from mkdocs_sitemap_pro.plugin.pages import PageCollector
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.plugin.standalone.api_objects import ApiObjects
from mkdocs_sitemap_pro.plugin.standalone.builder_sitemap import BuilderSitemap, Incomplete
from mkdocs_sitemap_pro.plugin.standalone.config import place_cache
from mkdocs_sitemap_pro.plugin.standalone.built_site import BuiltSite, read_built_site
from mkdocs_sitemap_pro.plugin.standalone.built_site import built_heading
from mkdocs_sitemap_pro.plugin.dependencies.copies import date_staged
from mkdocs_sitemap_pro.plugin.standalone.config import (
    ConfigError,
    Replaced,
    SiteConfig,
    load_site_config,
)
from mkdocs_sitemap_pro.core.page.html import listed_urls
from mkdocs_sitemap_pro.plugin.standalone.languages import (
    find_languages,
    mark_languages,
    own_language,
    read_language_folder,
    report_unknown,
)
from mkdocs_sitemap_pro.plugin.standalone.languages import i18n_layout, read_language
from mkdocs_sitemap_pro.plugin.standalone.versioned import (
    apply_mike,
    moved_folder,
    version_language,
)

__all__ = ["ConfigError", "Outcome", "Replaced", "WriteFailed", "build_sitemap", "console_log"]

class WriteFailed(Exception):
    """The sitemap could not be written; the previous files were left as they were."""


@dataclass(frozen=True)
class Outcome:
    """What one run wrote (None: no page belonged in a sitemap)."""

    written: WriteReport | None


class _Printable(logging.Formatter):
    """MkDocs' console format, every control character of a message as ``\\xNN``: a
    message quotes names and URLs read from files and git (a version's name, say)."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        return printable(super().formatMessage(record))


@contextmanager
def console_log(verbose: bool = False) -> Iterator[CountHandler]:
    """MkDocs' messages on stderr as ``mkdocs`` prints them (DEBUG too if ``verbose``);
    the handler counts the warnings.

    While it prints, nothing goes on to the root logger: a site's Markdown extension
    may have given that a handler (mdx_include calls ``logging.basicConfig()`` when
    imported), and every line would be printed twice.
    """
    logger = logging.getLogger("mkdocs")
    printer = logging.StreamHandler()
    printer.setFormatter(_Printable("%(levelname)-8s-  %(message)s"))
    counter = CountHandler()
    counter.setLevel(logging.WARNING)
    old_level, old_propagate = logger.level, logger.propagate
    logger.addHandler(printer)
    logger.addHandler(counter)
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logger.propagate = False
    try:
        yield counter
    finally:
        logger.removeHandler(printer)
        logger.removeHandler(counter)
        logger.setLevel(old_level)
        logger.propagate = old_propagate


def build_sitemap(config_file: str | None, site_dir: str | None = None,
                  replaced: Replaced | None = None) -> Outcome:
    """Write the sitemap and robots.txt line into the site that ``config_file`` describes.

    ``site_dir`` and ``replaced`` take the place of the file's own values. Raises ``ConfigError`` (naming the option) when it cannot run, and ``WriteFailed``
    when writing failed or would list less than the builder's own sitemap (the previous
    files are then left as they were).
    """
    site = load_site_config(config_file, site_dir, replaced)
    for message in site.warnings:
        log.warning(message)
    config, options = site.mkdocs, site.options
    if not options.enabled:
        log.info("the plugin's 'enabled' option is false: no sitemap was written")
        return Outcome(None)
    place_cache(site, replaced)  # an untracked config's folder may be deleted
    if replaced is None or "site_url" not in replaced.settings:
        apply_mike(site)  # under mike, the version's site_url, as the builder had it
    try:
        site_url = pipeline.site_url_of(config)
        check_cache_dir(config, options)
    except PluginError as error:
        raise ConfigError(str(error).removeprefix("sitemap-pro: ")) from None
    if not os.path.isdir(config.site_dir):
        raise ConfigError(
            f"site_dir {config.site_dir} does not exist: build the site first, or name "
            "the folder it was built into with --site-dir"
        )
    builder = BuilderSitemap.read(Path(config.site_dir))
    builder.located(site_url)  # another site's or version's tree: stop before any work
    build_time = get_build_datetime()
    history = _history(site) if options.lastmod == "git" else _NO_HISTORY
    main, earlier, order = _builds(site, history, build_time)
    try:
        written = pipeline.write_sitemap(options, main, earlier, languages=order,
                                         check_before_write=builder.check_before_write)
    except PluginError as error:
        raise WriteFailed(str(error)) from error
    except Incomplete as error:
        raise WriteFailed(f"sitemap-pro: {error}") from None
    builder.drop(main.files, written)
    return Outcome(written)


class _History(NamedTuple):
    """The git history read for a ``build`` (None: not by git), its rule options, and
    what the last deploy's pages rendered (``previous``)."""

    git: GitHistory | None
    rules: HistoryOptions | None
    last_deploy: LastDeploy | None


_NO_HISTORY = _History(None, None, None)


def _builds(site: SiteConfig, history: _History,
            build_time: dt.datetime,
            ) -> tuple[Build, list[Build], LanguageOrder | None]:
    """The default language's build, the other languages' builds, and their order:
    languages built one at a time (``languages``), static-i18n's (``languages.i18n_layout``), or
    the one build of a site in one language."""
    options = site.options
    languages = find_languages(site)
    if not languages and (layout := i18n_layout(site)) is not None:
        by_language = {language: _site_build(
            site, options, history, build_time, built=read_language(site, layout, language),
            moved=None if language == layout.order.default else moved_folder(site, language))
            for language in layout.order.languages}
        default = by_language.pop(layout.order.default or "", None)
        if default is not None:
            return default, list(by_language.values()), layout.order
    moved = [version_language(site, lang.site, os.path.basename(lang.site.mkdocs.site_dir))
             for lang in languages]  # under mike: in the version's folder
    skip = {os.path.basename(lang.site.mkdocs.site_dir) for lang in languages}
    main = _site_build(site, options, history, build_time, skip)
    report_unknown(site, skip, main.files)  # a language folder nothing explains
    earlier = [_site_build(lang.site, options, history, build_time, moved=each,
                           built=read_language_folder(lang.site, main.files))
               for lang, each in zip(languages, moved)]
    own = own_language(site)
    if not languages or own is None:
        return main, earlier, None
    return main, earlier, mark_languages(own, main.files, [
        (lang.language, each.files) for lang, each in zip(languages, earlier)])


def _site_build(site: SiteConfig, options: SitemapProConfig, history: _History,
                build_time: dt.datetime, skip: Collection[str] = (),
                moved: tuple[str, str] | None = None,
                built: BuiltSite | None = None) -> Build:
    """One builder's site (a language's, or the only one) as the pipeline takes a build:
    its pages, what their sources show (dated by ``options``) and the history.
    ``moved``: see ``PageCollector``; ``built``: its pages, when read already."""
    config = site.mkdocs
    built = built if built is not None else read_built_site(config, skip)
    _report_unbuilt(built)
    git, rules, last_deploy = history
    dependencies = _dependencies(site, built.files, git)
    if git is not None:  # a staged copy of the docs: dated by the tracked files
        dependencies = date_staged(git, built.files, dependencies, options.git_timeout)
    if dependencies is not None and git is not None and rules is not None:
        # Of files a page includes in part, the lines it shows (dependencies: lines).
        store = LineDateStore(cache_file(config, options, BLAME_FILE), log)
        dependencies = dependencies._replace(lines=store.dates(
            git, rules, dependencies.pages.values(), options.git_timeout))
    return Build(config, options, ServeMemos(), build_time=build_time,
                 collector=PageCollector(options.exclude, build_time, moved=moved,
                                         images=options.images),
                 built=Converted(built.files, git, dependencies, last_deploy,
                                 lambda file: built_heading(file.abs_dest_path)))


def _report_unbuilt(built: BuiltSite) -> None:
    """Sources without HTML are not on the site; if none has any, site_dir is wrong."""
    for src_uri in built.unbuilt:
        log.debug(f"page '{src_uri}' left out: no HTML for it in site_dir")
    if built.unbuilt and not built.files.documentation_pages():
        log.warning(
            f"none of the {len(built.unbuilt)} pages in docs_dir has HTML in site_dir: "
            "is it the folder the site was built into, with the same use_directory_urls?"
        )


def _dependencies(site: SiteConfig, files: Files,
                  git: GitHistory | None) -> Dependencies | None:
    """Per page, what dates it besides its source: the files its source includes, and
    for a listing page the posts it shows (dated first, then the page by the newest)."""
    if not site.options.dependencies:
        return None
    config = site.mkdocs
    project = project_folder(config)  # where the builder is taken to have run
    # A page's includes are opened only inside the repository (what lies outside dates
    # nothing); with no repository, none is.
    top = git.top if git is not None else None
    rules = rules_for(config.mdx_configs, config.markdown_extensions, site.plugins, project,
                      site.plugin_options, Path(config.docs_dir),
                      reach=Reach(folders=[top] if top is not None else []))
    shown: dict[str, frozenset[str]] = {}
    parts: dict[str, tuple[tuple[str, Lines], ...]] = {}
    by_url: dict[str, File] = {}
    unseen: set[str] = set()
    pages = files.documentation_pages()
    api = _api_objects(site, project, git)
    for file in pages:
        if file.abs_src_path and not file.generated_by:
            found = {str(path) for path in written_dependencies(Path(file.abs_src_path), rules)}
            if site.options.dependencies == "lines" and found:
                in_part = _in_part(file.abs_src_path, rules)
                found -= in_part.keys()
                parts[file.src_uri] = tuple(sorted(in_part.items()))
            if api is not None:  # mkdocstrings ``:::`` blocks: the source they render
                _api_shown(api, file.src_uri, file.abs_src_path,
                           site.options.dependencies == "lines", found, parts, unseen)
            shown[file.src_uri] = frozenset(found)
        if file.page is not None:
            by_url[normalise_loc(file.page.canonical_url or file.url)] = file
    result = _shown_by_page(pages, shown, parts, by_url)
    return Dependencies(result, site.options.dependencies_exclude,
                        api=frozenset(api.files) if api is not None else frozenset(),
                        unseen=frozenset(unseen))


def _api_shown(api: ApiObjects, src_uri: str, source: str, by_lines: bool, found: set[str],
               parts: dict[str, tuple[tuple[str, Lines], ...]], unseen: set[str]) -> None:
    """Add what a page's mkdocstrings blocks render to what it shows: the files shown
    whole to ``found``, the lines (``by_lines``) to ``parts``; a page with a block not
    followed goes to ``unseen`` (and is said at DEBUG)."""
    text = _text(source)
    whole, api_parts, api_missed = api.shown(text, lines=by_lines)
    if api_missed:
        unseen.add(src_uri)
        _report_missed(src_uri, api_missed)
    found |= whole
    api.files.update(whole, api_parts)
    if api_parts:
        merged = dict(parts.get(src_uri, ()))
        merged.update((path, tuple(lines)) for path, lines in api_parts.items()
                      if path not in found)
        parts[src_uri] = tuple(sorted(merged.items()))
    named, missed = api.other_handlers(text)
    found |= named
    api.files.update(named)
    if missed:
        unseen.add(src_uri)
        _report_unseen(src_uri, missed)


def _shown_by_page(pages: Sequence[File], shown: Mapping[str, frozenset[str]],
                   parts: Mapping[str, tuple[tuple[str, Lines], ...]],
                   by_url: Mapping[str, File]) -> dict[str, Shown]:
    """What each page that shows anything shows: the files found, the parts of files,
    and for a listing page the posts it links to (by their URLs, itself left out)."""
    result: dict[str, Shown] = {}
    for file in pages:
        posts = tuple(dict.fromkeys(
            post.src_uri
            for url in _listed(file)
            if (post := by_url.get(normalise_loc(url))) is not None and post is not file
        ))
        if posts or shown.get(file.src_uri) or parts.get(file.src_uri):
            result[file.src_uri] = Shown(shown.get(file.src_uri, frozenset()), posts,
                                         parts.get(file.src_uri, ()))
    return result

def _report_unseen(src_uri: str, blocks: list[tuple[str, str]]) -> None:
    """Say, at DEBUG, which blocks of a page ``build`` could not follow."""
    for handler, identifier in blocks:
        log.debug(f"page '{src_uri}': its '::: {identifier}' block (handler {handler}) is "
                  "not followed: build runs no mkdocstrings handler but python's, and "
                  "it names no file; the page is dated without what it renders")


def _report_missed(src_uri: str, missed: list[tuple[str, str]]) -> None:
    """One WARNING for a page's python blocks that cannot be followed (``--strict``
    fails): the page is dated without what they show."""
    by_reason: dict[str, list[str]] = {}
    for identifier, why in missed:  # blocks of one package share their reason
        by_reason.setdefault(why, []).append(f"'::: {identifier}'")
    named = "; ".join(f"{', '.join(names)}: {why}" for why, names in by_reason.items())
    log.warning(f"page '{src_uri}': mkdocstrings block{'s' if len(missed) > 1 else ''} "
                f"not followed, so the page is dated without what "
                f"{'they show' if len(missed) > 1 else 'it shows'}: {named}")


def _api_objects(site: SiteConfig, project: Path,
                 git: GitHistory | None) -> ApiObjects | None:
    """The resolver of mkdocstrings blocks, when the config lists mkdocstrings: packages
    looked for from the config file's folder, from the tracked configs a staged copy
    was made from, and in the repository (``api_objects.search_paths``)."""
    options = site.plugin_options.get("mkdocstrings")
    if options is None and "mkdocstrings" not in site.plugins:
        return None
    top = Path(git.top) if git is not None and git.top is not None else None
    roots = [project, *_originals(site, git)]
    return ApiObjects(options if isinstance(options, Mapping) else {}, project, roots, top)


def _originals(site: SiteConfig, git: GitHistory | None) -> list[Path]:
    """For a config git does not track (a staged copy: FastAPI's script writes
    ``site_zensical_src/<lang>/mkdocs.yml`` from ``docs/<lang>/mkdocs.yml``), the folders
    of the tracked configs of the same name, which its handler ``paths`` were written
    for; none for a tracked config."""
    config_file = site.mkdocs.config_file_path
    if git is None or git.top is None or not config_file or git.tracked(config_file):
        return []
    name = os.fsencode(os.path.basename(config_file))
    return [Path(git.top, os.fsdecode(tracked)).parent for tracked in sorted(git.map.changes)
            if tracked.rsplit(b"/", 1)[-1] == name]


def _text(source: str) -> str:
    try:
        return Path(source).read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return ""


def _in_part(source: str, rules: WrittenRules) -> dict[str, Lines]:
    """The files a page's text includes only in part, with the lines it shows."""
    try:
        text = Path(source).read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return {}
    return {path: lines for path, lines in shown_lines(text, source, rules).items()
            if lines is not None}


def _listed(file: File) -> list[str]:
    """The posts a page lists as excerpts (a blog's index, archive, category pages)."""
    try:
        text = Path(file.abs_dest_path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    assert file.page is not None
    return listed_urls(text, file.page.canonical_url or file.url)


def _history(site: SiteConfig) -> _History:
    """The history map of the site's repository, as the plugin has it (``cache_dir``),
    the rule options it was read by, and the last deploy's pages (``previous``)."""
    history = BuildHistory()
    history.start(site.mkdocs, site.options)
    try:
        return _History(history.dates(), history.options, history.last_deploy)
    finally:
        history.stop()
