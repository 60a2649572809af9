"""Languages built one at a time: each language's own build, in a folder of site_dir.

FastAPI's deploy (and any site laid out like it) builds every language on its own, with
a site_url of its own, into a folder of the default language's site: the English docs
into ``site/``, the Spanish ones into ``site/es/``, often in separate CI jobs, the site
merged by a deploy job that has the repository and the merged site only. ``build -f
docs/en/mkdocs.yml`` finds the others by that layout, with nothing to configure: when
the config's own folder is named by a language tag (``en``), a folder
``<site_dir>/<name>/`` is the build of language ``<name>`` if beside the config's folder

- a config of the same file name exists at ``<name>/`` (``docs/es/mkdocs.yml``, which
  usually INHERITs the English one): it is read as that language's config;
- or, with no such config (FastAPI's current layout, whose script stages each language
  with a generated config), a docs folder at the same place relative to ``<name>/`` as
  the config's docs_dir relative to its folder (``docs/es/docs/`` for ``docs/en/docs/``):
  the default language's config, read again with that docs_dir.

Each is read as a site of its own (its config, its HTML in that folder, its sources, its
dates) by the same path as the default language, at the URL of its folder (the default
language's site_url with ``<name>/``, unless its own config names another). Its folder's
name is its hreflang.

Translations are the pages at the same URL in each language. A page in a language's
folder with no source of its own, at the URL of a default-language page, shows that
page's text (FastAPI publishes the English text with a "not translated" notice): it is
read with that source, so it is dated by the text it shows, and listed like any page
unless its canonical link points elsewhere. The files of each build then say what
static-i18n's say (``locale_alternate_of`` and ``locale``: the language built;
``norm_src_uri``: the default language's path at that URL), so ``integrations.i18n``
gives the alternates (symmetric, x-default: the default language).

A folder named like a language whose pages no source explains is said in a WARNING
(``report_unknown``): its pages would otherwise be listed undated, without alternates,
and nothing would say why.

Also mkdocs-static-i18n's layout, read as data.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from mkdocs.structure.files import File, Files, get_files
from mkdocs.structure.pages import Page

from mkdocs_sitemap_pro.core.protocol import check_hreflang
from mkdocs_sitemap_pro.plugin.integrations.i18n import LanguageOrder, mark_file
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.plugin.standalone.built_site import BuiltSite, read_built_site
from mkdocs_sitemap_pro.plugin.standalone.config import (
    ConfigError,
    Replaced,
    SiteConfig,
    load_site_config,
)

__all__ = [
    "LanguageBuild", "find_languages", "mark_languages", "own_language", "read_language_folder",
    "report_unknown", "I18nLayout", "i18n_layout", "read_language",
]

# A name that surely names a language (``es``, ``pt-BR``, ``zh-hant``), where a guess
# is made from a folder alone; the looser hreflang syntax would also take ``blog``.
_LANGUAGE_FOLDER = re.compile(r"[a-z]{2}(?:[-_][A-Za-z0-9]{2,8})*")
_MIKE = "mike"


class LanguageBuild(NamedTuple):
    """Another language's build inside site_dir: its language and its settings."""

    language: str
    site: SiteConfig  # its config, with site_dir set to the folder it was copied into


def own_language(site: SiteConfig) -> str | None:
    """The language of the config's own folder (``docs/en/mkdocs.yml``: ``en``), or None."""
    path = site.mkdocs.config_file_path
    return _language(Path(path).parent.name) if path else None


def find_languages(site: SiteConfig) -> list[LanguageBuild]:
    """The other languages' builds in site_dir, each with its config (see above)."""
    own = own_language(site)
    config = site.mkdocs
    if own is None or not config.config_file_path:
        return []
    path = Path(config.config_file_path)
    site_dir, docs_dir = Path(config.site_dir), Path(config.docs_dir)
    found = []
    for folder in sorted(p for p in site_dir.iterdir() if p.is_dir()):
        name = _language(folder.name)
        if name is None or name == own:
            continue
        if (docs_dir / folder.name).is_dir():
            log.debug(f"{folder} is a folder of this build's own docs, not language {name}")
            continue
        language = _language_site(site, path, folder)
        if language is not None:
            found.append(LanguageBuild(name, language))
    return found


def _language_site(site: SiteConfig, path: Path, folder: Path) -> SiteConfig | None:
    """The settings of the language built into ``folder``: its own config beside
    ``path``'s folder, or ``path`` read with its docs beside (see above); None."""
    other = path.parent.parent / folder.name / path.name
    if other.is_file():
        language = load_site_config(str(other), str(folder))
        log.info(f"language {folder.name}: the pages in {folder} are listed by {other}")
        own_url = language.mkdocs.site_url
        if _MIKE in site.mkdocs.plugins or own_url not in (None, "", site.mkdocs.site_url):
            return language  # under mike, ``versioned`` gives it the version's folder
    else:
        if not _LANGUAGE_FOLDER.fullmatch(folder.name):
            return None
        docs = _sibling_docs(path, Path(site.mkdocs.docs_dir), folder.name)
        if docs is None:
            return None
        language = load_site_config(str(path), str(folder),
                                    Replaced(settings={"docs_dir": str(docs)}))
        log.info(f"language {folder.name}: the pages in {folder} are listed by {path} "
                 f"with the sources in {docs}")
    # Inherited, or the default language's config read again: the URL of its folder,
    # below the site's (under mike, below the config's own: ``versioned`` then moves it
    # into the version's folder, as the builder's canonical links are read).
    mike = _MIKE in site.mkdocs.plugins
    base = language.mkdocs.site_url if mike else site.mkdocs.site_url
    if base:
        language.mkdocs.site_url = f"{base.rstrip('/')}/{folder.name}/"
    return language


def _sibling_docs(path: Path, docs_dir: Path, name: str) -> Path | None:
    """``docs/<name>/docs`` for the config ``docs/en/mkdocs.yml`` whose docs_dir is
    ``docs/en/docs``: the same place relative to the language's folder; None if it is
    not a folder (or docs_dir is not inside the config's folder)."""
    try:
        inside = docs_dir.resolve().relative_to(path.parent.resolve())
    except ValueError:
        return None
    docs = path.parent.parent / name / inside
    return docs if inside.parts and docs.is_dir() else None


def read_language_folder(language: SiteConfig, default: Files) -> BuiltSite:
    """The pages in a language's folder, each with its source: its own, or, for HTML with
    no source of its own at the URL of one of the default language's pages (``default``),
    that page's source, whose text the builder published there (FastAPI stages the
    English text with a "not translated" notice): dated by what it shows, and listed
    unless its canonical link says it is not a page of its own."""
    config = language.mkdocs
    built = read_built_site(config)
    sources = {file.dest_uri: file for file in default.documentation_pages()
               if not file.generated_by}
    for file in list(built.generated):
        source = sources.get(file.dest_uri)
        if source is None:
            continue
        text = File(source.src_uri, source.src_dir, config.site_dir, config.use_directory_urls,
                    dest_uri=file.dest_uri, inclusion=source.inclusion)
        built.files.remove(file)
        built.generated.remove(file)
        built.files.append(text)
        Page(None, text, config)
        log.debug(f"language {os.path.basename(config.site_dir)}: page '{file.dest_uri}' has "
                  f"no source of its own: it shows the text of {source.abs_src_path}")
    return built


def mark_languages(own: str, files: Files, others: Sequence[tuple[str, Files]]) -> LanguageOrder:
    """Say each build's language on its files, as static-i18n does; the languages' order.

    Translations share a URL: a page of another language is grouped with the default
    language's page of the same ``dest_uri`` (``reference/index.html``), whatever either
    source is called."""
    groups = {file.dest_uri: file.src_uri for file in files.documentation_pages()}
    for file in files.documentation_pages():
        mark_file(file, own, own, file.src_uri)
    for language, built in others:
        for file in built.documentation_pages():
            mark_file(file, language, language, groups.get(file.dest_uri, file.src_uri))
    return LanguageOrder((own, *(language for language, _ in others)), own)


def report_unknown(site: SiteConfig, found: Collection[str], files: Files) -> None:
    """A WARNING for each folder of site_dir named like a language (not the config's own,
    nor one ``find_languages`` found) whose pages no source explains (``files``: the
    default language's build, where they are generated pages): none is dated by a
    source or has alternates, and the run says so, so --strict fails. Only when the
    config's own folder names its language (``docs/en/``): else nothing says the site's
    folders are languages."""
    own = own_language(site)
    if own is None or not _LANGUAGE_FOLDER.fullmatch(own):
        return
    counts = Counter(
        file.dest_uri.partition("/")[0] for file in files.documentation_pages()
        if file.generated_by and "/" in file.dest_uri)
    config = site.mkdocs
    for name, count in sorted(counts.items()):
        if name == own or name in found or not _LANGUAGE_FOLDER.fullmatch(name):
            continue
        if any(not file.generated_by and file.dest_uri.startswith(f"{name}/")
               for file in files.documentation_pages()):
            continue  # a section of the site's own docs, with pages of their own
        folder = os.path.join(config.site_dir, name)
        log.warning(
            f"{folder}: {count} page{'s' if count != 1 else ''} with no known source, in "
            f"a folder named like language '{name}', so none is dated by its source or "
            f"has alternates. {_where_sought(site, name)}")


def _where_sought(site: SiteConfig, name: str) -> str:
    """Where ``build`` looked for the sources of language ``name`` (for the WARNING)."""
    config = Path(site.mkdocs.config_file_path or ".")
    other = config.parent.parent / name
    try:
        inside = Path(site.mkdocs.docs_dir).resolve().relative_to(config.parent.resolve())
        sought = f"{other / config.name} or {other / inside}/"
    except ValueError:
        sought = str(other / config.name)
    return (f"Neither {sought} exists: run build in a checkout of the repository that "
            "has that language's config or docs")


def _language(name: str) -> str | None:
    """``name`` if it is a language tag (``es``, ``pt-BR``, ``zh-hant``), else None."""
    try:
        return name if name != "x-default" and check_hreflang(name.replace("_", "-")) else None
    except ValueError:
        return None


_ENTRY = "i18n"


class I18nLayout(NamedTuple):
    """The languages of the ``i18n`` entry: those built, in order, and how sources are named."""

    order: LanguageOrder  # built languages, configured order; the default one
    folder: bool  # docs_structure: folder (else suffix)
    fallback: bool  # fallback_to_default
    locales: frozenset[str]  # every configured locale, built or not


def i18n_layout(site: SiteConfig) -> I18nLayout | None:
    """The ``i18n`` entry's layout, or None without one (or with one disabled, or when no
    other language was built into site_dir)."""
    options = _entry_options(site)
    if options is None:
        return None
    languages = _languages(options)
    default = next((each["locale"] for each in languages if each.get("default")),
                   languages[0]["locale"] if languages else None)
    built = tuple(each["locale"] for each in languages
                  if each.get("build", True) is not False and each["locale"] != "null")
    structure = _docs_structure(site, options, default)
    others = [locale for locale in built if locale != default]
    if others and _built_without_i18n(site, others):
        return None
    return I18nLayout(LanguageOrder(built, default), structure == "folder",
                      options.get("fallback_to_default", True) is not False,
                      frozenset(each["locale"] for each in languages))


def _entry_options(site: SiteConfig) -> Mapping[str, Any] | None:
    """The ``i18n`` entry's options, or None when the config has no entry or a
    disabled one."""
    options = site.plugin_options.get(_ENTRY)
    if _ENTRY not in site.plugins and options is None:
        return None
    if not isinstance(options, Mapping) or options.get("enabled", True) is False:
        return None
    return options


def _languages(options: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The entry's ``languages``; a ``ConfigError`` unless each item names a locale."""
    languages = options.get("languages")
    if not isinstance(languages, list) or not all(
            isinstance(each, Mapping) and isinstance(each.get("locale"), str)
            for each in languages):
        raise ConfigError(f"Plugin '{_ENTRY}' option 'languages': each item needs a 'locale'")
    return languages


def _docs_structure(site: SiteConfig, options: Mapping[str, Any], default: str | None) -> str:
    """The entry's ``docs_structure``, folder or suffix (unset: folder when docs_dir has
    a folder named after the default locale); a ``ConfigError`` if anything else."""
    structure = options.get("docs_structure")
    if structure is None:  # zensical-i18n's rule: a folder named after the default locale
        folder = os.path.isdir(os.path.join(site.mkdocs.docs_dir, str(default)))
        structure = "folder" if folder else "suffix"
    if structure not in ("folder", "suffix"):
        raise ConfigError(f"Plugin '{_ENTRY}' option 'docs_structure': must be folder or suffix")
    return str(structure)


def _built_without_i18n(site: SiteConfig, others: list[str]) -> bool:
    """Whether no other language has its folder in site_dir (said at INFO): plain
    `zensical build` ignores the entry, and the site is read as one."""
    site_dir = site.mkdocs.site_dir
    if any(os.path.isdir(os.path.join(site_dir, each)) for each in others):
        return False
    # Plain `zensical build` ignores the entry: one site, its folders as written.
    log.info(f"the '{_ENTRY}' entry's languages ({', '.join(others)}) have no folder in "
             f"{site_dir}: it was built without the i18n plugin, and is read as one site")
    return True

def read_language(site: SiteConfig, layout: I18nLayout, language: str) -> BuiltSite:
    """The pages static-i18n built for ``language``, each with its source (see above)."""
    config = site.mkdocs
    default = layout.order.default
    sources: dict[str, dict[str, File]] = {}  # locale -> language-neutral path -> source
    for file in get_files(config).documentation_pages():
        locale, rest = _split(file.src_uri, layout)
        sources.setdefault(locale or default or "", {})[rest] = file
    own = sources.get(language, {})
    chosen = dict(own)
    if layout.fallback and language != default:
        for rest, file in sources.get(default or "", {}).items():
            chosen.setdefault(rest, file)
    prefix = "" if language == default else f"{language}/"
    site_dir = config.site_dir
    built = BuiltSite(Files([]))
    for rest, source in sorted(chosen.items()):
        dest = prefix + File(rest, None, site_dir, config.use_directory_urls).dest_uri
        if not os.path.isfile(os.path.join(site_dir, dest)):
            built.unbuilt.append(source.src_uri)
            continue
        file = File(source.src_uri, config.docs_dir, site_dir, config.use_directory_urls,
                    dest_uri=dest, inclusion=source.inclusion)
        mark_file(file, language, language if rest in own else default, rest)
        built.files.append(file)
        Page(None, file, config)
    log.debug(f"language {language}: {len(built.files)} pages of static-i18n's "
              f"{'folder' if layout.folder else 'suffix'} layout")
    return built


def _split(src_uri: str, layout: I18nLayout) -> tuple[str | None, str]:
    """A source's locale (None: the default language's, unmarked) and the path its
    translations share: ``fr/guide.md`` or ``guide.fr.md`` -> (``fr``, ``guide.md``)."""
    if layout.folder:
        head, _, rest = src_uri.partition("/")
        return (head, rest) if rest and head in layout.locales else (None, src_uri)
    folder, name = posixpath.split(src_uri)
    stem, ext = posixpath.splitext(name)
    base, dot, locale = stem.rpartition(".")
    if dot and base and locale in layout.locales:
        return locale, posixpath.join(folder, base + ext)
    return None, src_uri
