"""mkdocs-static-i18n's layout, read as data: a site ``mkdocs build`` wrote with it.

``build`` sees only mkdocs.yml, docs_dir and the HTML. When the config has an ``i18n``
entry, its ``languages`` (``locale``, ``default``, ``build``) and ``docs_structure``
(``folder``: ``docs/fr/guide.md``; ``suffix``, static-i18n's default:
``docs/guide.fr.md``; unset with a folder named after the default locale, ``docs/en/``:
folder, as zensical-i18n keeps its older projects) say where each source was built, as static-i18n builds it: the
default language at the site's root, every other language in ``<locale>/``, and, under
``fallback_to_default`` (its default), a default-language page with no translation
copied into each other language (a fallback copy, not a translation). Each language is
then one build, its files saying what static-i18n's say (``locale_alternate_of``,
``locale``, ``norm_src_uri``), so ``integrations.i18n`` gives the alternates and leaves
the fallback copies out, as under MkDocs. Nothing of static-i18n is imported.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from typing import Any, NamedTuple

from mkdocs.structure.files import File, Files, get_files
from mkdocs.structure.pages import Page

from mkdocs_sitemap_pro.plugin.integrations.i18n import LanguageOrder, mark_file
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.plugin.standalone.built_site import BuiltSite
from mkdocs_sitemap_pro.plugin.standalone.config import ConfigError, SiteConfig

__all__ = ["I18nLayout", "i18n_layout", "read_language"]

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
