"""Languages built one at a time: each language's own build, in a folder of site_dir.

FastAPI's deploy (and any site laid out like it) builds every language with a config of
its own and a site_url of its own, into a folder of the default language's site:
``docs/en/mkdocs.yml`` into ``site/``, ``docs/es/mkdocs.yml`` (which INHERITs the English
one) into ``site/es/``. ``build -f docs/en/mkdocs.yml`` finds the others by that layout,
with nothing to configure: a folder ``<site_dir>/<name>/`` is the build of language
``<name>`` when the config's own folder is named by a language tag (``en``) and a config
of the same file name exists at ``<name>/`` beside it (``docs/es/mkdocs.yml``). Each is
read as a site of its own (its config, its HTML in that folder, its sources, its dates)
by the same path as the default language. Its folder's name is its hreflang.

Translations are the pages at the same path below each language's docs_dir. The files
of each build then say what static-i18n's say (``locale_alternate_of``: the language
built; ``locale``: the language of the text; ``norm_src_uri``: the path translations
share), so ``integrations.i18n`` gives the alternates (symmetric, x-default: the
default language) and leaves out fallback copies (a page of another language with no
source of its own, at the path of one of the default language's sources) by its rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from mkdocs.structure.files import Files

from mkdocs_sitemap_pro.core.protocol import check_hreflang
from mkdocs_sitemap_pro.plugin.integrations.i18n import LanguageOrder
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.plugin.standalone.config import SiteConfig, load_site_config

__all__ = ["LanguageBuild", "find_languages", "mark_languages", "own_language"]


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
        other = path.parent.parent / folder.name / path.name
        if name is None or name == own or not other.is_file():
            continue
        if (docs_dir / folder.name).is_dir():
            log.debug(f"{folder} is a folder of this build's own docs, not language {name}")
            continue
        found.append(LanguageBuild(name, load_site_config(str(other), str(folder))))
        log.info(f"language {name}: the pages in {folder} are listed by {other}")
    return found


def mark_languages(own: str, files: Files, others: Sequence[tuple[str, Files]]) -> LanguageOrder:
    """Say each build's language on its files, as static-i18n does; the languages' order."""
    sources = set()
    for file in files.documentation_pages():
        _mark(file, own, own)
        if not file.generated_by:
            sources.add(file.src_uri)
    for language, built in others:
        for file in built.documentation_pages():
            # HTML with no source of its own, at a default language's page: a fallback.
            copied = bool(file.generated_by) and file.src_uri in sources
            _mark(file, language, own if copied else language)
    return LanguageOrder((own, *(language for language, _ in others)), own)


def _mark(file: object, built: str, text: str) -> None:
    setattr(file, "locale_alternate_of", built)
    setattr(file, "locale", text)
    setattr(file, "norm_src_uri", getattr(file, "src_uri"))


def _language(name: str) -> str | None:
    """``name`` if it is a language tag (``es``, ``pt-BR``, ``zh-hant``), else None."""
    try:
        return name if name != "x-default" and check_hreflang(name.replace("_", "-")) else None
    except ValueError:
        return None
