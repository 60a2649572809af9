"""mkdocs-static-i18n: one sitemap for every language, with hreflang alternates.

static-i18n builds the default language in the ordinary build, then every other
language in a build of its own, started from its ``on_post_build`` (priority -100) with
the same config and the same instance of this plugin: each nested build fires
``on_config`` … ``on_post_build`` again. So the plugin keeps each language's finished
build when the next one starts (``nested_build`` says when) and writes once, from the
outer build's ``on_post_build`` at a lower priority, when every language is on disk.

Translations of one page share static-i18n's ``norm_src_uri`` (``guide.md`` for
``fr/guide.md`` and ``guide.fr.md``). A page static-i18n builds in a language from the
default language's file, because no translation exists (``file.locale`` differs from
the language built), is a fallback copy, not a translation: it is left out of the
sitemap and of every alternate set. Nothing of static-i18n is imported.

static-i18n has no public way to tell any of this: what this module reads of it, it
reads here and nowhere else. Its plugin instance's ``building`` (a nested build is
running), ``build_languages``, ``all_languages`` and ``default_language``; and the
attributes it sets on each MkDocs ``File`` of a language build: ``locale_alternate_of``
(the language built), ``locale`` (the language of the source) and ``norm_src_uri`` (the
language-neutral path). ``mark_file`` sets the same three on the files ``build`` makes
after another builder. Checked against mkdocs-static-i18n 1.3.1.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry

if TYPE_CHECKING:  # the collector asks this module which language built a page
    from mkdocs_sitemap_pro.plugin.pages import Collection

__all__ = [
    "FALLBACK_REASON",
    "LanguageBuilds",
    "LanguageOrder",
    "LanguagePage",
    "Listed",
    "built_language",
    "leave_out_fallbacks",
    "hreflang",
    "mark_file",
    "nested_build",
    "page_languages",
    "with_alternates",
]

_PLUGIN = "i18n"
FALLBACK_REASON = "a fallback copy of the default language's page (no translation exists)"

B = TypeVar("B")


def _plugin(config: MkDocsConfig) -> Any | None:
    """static-i18n's plugin instance, if it is in use (it registers as ``i18n``)."""
    plugin = config.plugins.get(_PLUGIN)
    if plugin is None or not hasattr(plugin, "build_languages"):
        return None
    return plugin


def nested_build(config: MkDocsConfig) -> bool:
    """Whether static-i18n is building another language inside the first build."""
    plugin = _plugin(config)
    return plugin is not None and bool(getattr(plugin, "building", False))


def hreflang(locale: str) -> str:
    """static-i18n's locale as an hreflang language tag (``pt_BR`` -> ``pt-BR``)."""
    return locale.replace("_", "-")


class LanguagePage(NamedTuple):
    """A built page's place among the translations."""

    language: str  # the locale this build built
    group: str  # the language-neutral source path its translations share
    fallback: bool  # built from the default language's file: no translation exists


def page_languages(pages: Iterable[File]) -> dict[str, LanguagePage]:
    """Each of one language build's documentation ``pages``, by src_uri ({} without
    static-i18n)."""
    found = {}
    for file in pages:
        built = getattr(file, "locale_alternate_of", None)
        if built is None:
            continue
        locale = getattr(file, "locale", built)
        group = getattr(file, "norm_src_uri", None) or file.src_uri
        found[file.src_uri] = LanguagePage(built, group, locale != built)
    return found


def built_language(file: File) -> str | None:
    """The language static-i18n built ``file`` in (None: not a file of its builds)."""
    built = getattr(file, "locale_alternate_of", None)
    return built if isinstance(built, str) else None


def mark_file(file: File, built: str, locale: str | None, group: str) -> None:
    """Say of ``file`` what static-i18n says of the files of its language builds: built
    in language ``built``, from a source in ``locale``, a translation of ``group``."""
    setattr(file, "locale_alternate_of", built)
    setattr(file, "locale", locale)
    setattr(file, "norm_src_uri", group)


def language_of(pages: Iterable[File]) -> str | None:
    """The language a build built, read from its documentation pages."""
    for page in page_languages(pages).values():
        return page.language
    return None


class LanguageBuilds(Generic[B]):
    """The finished builds of the languages static-i18n built so far, one per language.

    The default language may be built twice (when it is not first in ``languages``): the
    later build replaces the earlier one.
    """

    def __init__(self) -> None:
        self._builds: dict[str, B] = {}

    def keep(self, build: B, pages: Iterable[File]) -> None:
        """Keep a finished language build (``pages``: its documentation pages, which
        name its language)."""
        self._builds[language_of(pages) or ""] = build

    def clear(self) -> None:
        """Forget every kept build: a new ``mkdocs build`` (or serve rebuild) starts."""
        self._builds.clear()

    def earlier(self, last_pages: Iterable[File]) -> list[B]:
        """The kept builds other than the language of ``last_pages`` (the last build's
        documentation pages), in build order."""
        if not self._builds:  # no static-i18n, or its first language: no page to look at
            return []
        last = language_of(last_pages) or ""
        return [build for language, build in self._builds.items() if language != last]


class LanguageOrder(NamedTuple):
    """The languages of a site in their order, and the default one (x-default)."""

    languages: tuple[str, ...]
    default: str | None


class Listed(NamedTuple):
    """One sitemap entry of a language build, and the source page it lists."""

    src_uri: str
    entry: SitemapEntry


def with_alternates(
    config: MkDocsConfig, builds: Sequence[tuple[Files, Sequence[Listed]]],
    languages: LanguageOrder | None = None,
) -> list[SitemapEntry]:
    """Every listed entry of every language build, with its hreflang alternates.

    An entry whose page exists in several languages lists each of them, itself included,
    then ``x-default`` for the default language's version (when that is listed); the sets
    are the same for every member of a group, so they are symmetric. Entries of pages that
    exist in one language, and sites without static-i18n, are returned unchanged.
    ``languages``: the order of languages built one at a time (their files say the same
    as static-i18n's: ``standalone.languages``); None: static-i18n's, if it is in use.
    """
    if languages is None:
        plugin = _plugin(config)
        if plugin is None:
            return [listed.entry for _, items in builds for listed in items]
        languages = LanguageOrder(tuple(plugin.all_languages), plugin.default_language)
    order = {locale: n for n, locale in enumerate(languages.languages)}
    default = languages.default
    groups: dict[str, dict[str, str]] = {}
    placed: list[tuple[str | None, SitemapEntry]] = []
    for files, items in builds:
        of_page = page_languages(files.documentation_pages())
        for listed in items:
            page = of_page.get(listed.src_uri)
            if page is None or page.fallback:
                placed.append((None, listed.entry))
                continue
            groups.setdefault(page.group, {})[page.language] = listed.entry.loc
            placed.append((page.group, listed.entry))
    alternates = {
        group: _alternate_set(urls, order, default)
        for group, urls in groups.items()
        if len(urls) > 1
    }
    return [
        entry._replace(alternates=alternates[group]) if group in alternates else entry
        for group, entry in placed
    ]


def _alternate_set(
    urls: dict[str, str], order: dict[str, int], default: str | None
) -> tuple[Alternate, ...]:
    """The alternates of one group: each language in configured order, then x-default."""
    ranked = sorted(urls, key=lambda locale: (order.get(locale, len(order)), locale))
    links = [Alternate(hreflang(locale), urls[locale]) for locale in ranked]
    if default in urls:
        links.append(Alternate("x-default", urls[default]))
    return tuple(links)


def fallback_pages(pages: Iterable[File]) -> Iterable[str]:
    """The src_uris of the fallback copies among one language build's ``pages``."""
    return [src for src, page in page_languages(pages).items() if page.fallback]


def leave_out_fallbacks(found: Collection, pages: Iterable[File]) -> None:
    """Move one language build's fallback copies (among its documentation ``pages``) from
    the listed pages to the left-out."""
    fallbacks = set(fallback_pages(pages))
    if not fallbacks:
        return
    for page in found.pages:
        if page.src_uri in fallbacks:
            found.left_out[page.src_uri] = FALLBACK_REASON
    found.pages = [page for page in found.pages if page.src_uri not in fallbacks]
