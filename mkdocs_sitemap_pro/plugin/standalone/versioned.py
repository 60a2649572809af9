"""mike under another builder: the version's site_url, as Zensical gives it.

``mike deploy`` (or a CI step that sets ``MIKE_DOCS_VERSION`` itself) builds each version
with that variable set. Zensical then does what mike's MkDocs plugin does: site_url
becomes ``urljoin(site_url, canonical_version or version)``, unless the ``mike`` entry
under ``plugins`` says ``enabled: false``. ``build`` reads the same settings and makes the
config it dates by say what a build under mike says, so the plugin's own rules apply
unchanged (``integrations.mike``: the version's folder, pages canonical in another
version left out, no robots.txt in the folder): site_url rewritten, and mike's entry,
as written, in the plugin list, where ``version_build`` reads ``canonical_version``.
Nothing of mike is imported.

Languages built one at a time under mike (``languages``) sit in the version's folder
(``1.0/es/``), whatever site_url their own config gives: each is given the default
language's version site_url with its folder name, and the same mike entry. Zensical,
building the language's own config under the variable, wrote its canonical links below
``urljoin(its site_url, version)`` (``es/1.0/``): those are read as links to the
version's folder, where the pages are.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urljoin

from mkdocs.config.base import LegacyConfig
from mkdocs.plugins import BasePlugin

from mkdocs_sitemap_pro.core.deploy.versions import root_url
from mkdocs_sitemap_pro.plugin.integrations.mike import VERSION_VARIABLE
from mkdocs_sitemap_pro.plugin.standalone.config import ConfigError, SiteConfig

__all__ = ["MikeEntry", "apply_mike", "moved_folder", "version_language"]

_MIKE = "mike"


# The ignore: MkDocs' BasePlugin.__init_subclass__, run for a subclass, is untyped.
class MikeEntry(BasePlugin[LegacyConfig]):  # type: ignore[no-untyped-call]
    """mike's plugin entry as data: its options (as written), no event of its own."""

    def __init__(self, options: Mapping[str, object]) -> None:
        super().__init__()
        # As written, not a LegacyConfig: mike's schema is not loaded (the ignore).
        self.config = dict(options)  # type: ignore[assignment]


def apply_mike(site: SiteConfig) -> None:
    """Give ``site`` the site_url and mike entry a build under mike has (see above)."""
    version = os.environ.get(VERSION_VARIABLE)
    config = site.mkdocs
    if _MIKE not in site.plugin_options and not (version and config.site_url):
        return
    options = site.plugin_options.get(_MIKE) or {}
    if not isinstance(options, Mapping):
        raise ConfigError(f"Plugin '{_MIKE}': its options must be a mapping")
    if options.get("enabled", True) is False:
        return  # Zensical leaves site_url alone for a disabled entry, as mike does
    canonical = options.get("canonical_version")
    if canonical is not None and not isinstance(canonical, str):
        raise ConfigError(f"Plugin '{_MIKE}' option 'canonical_version': must be a string")
    config.plugins[_MIKE] = MikeEntry(options)
    if version and config.site_url:
        config.site_url = urljoin(config.site_url, canonical or version)


def version_language(main: SiteConfig, language: SiteConfig,
                     folder: str) -> tuple[str, str] | None:
    """Under mike, give ``language`` (built into ``folder`` of the version's site_dir) the
    version's URL and mike entry, as the default language ``main`` has them (see above).

    Returns (the site_url the builder gave the language's pages, the one they are
    deployed at) when those differ, else None."""
    entry = main.mkdocs.plugins.get(_MIKE)
    version = os.environ.get(VERSION_VARIABLE)
    if not isinstance(entry, MikeEntry) or not main.mkdocs.site_url:
        return None
    own = language.mkdocs.site_url
    language.mkdocs.plugins[_MIKE] = entry
    language.mkdocs.site_url = urljoin(main.mkdocs.site_url.rstrip("/") + "/", f"{folder}/")
    if not own or not version or entry.config.get("enabled", True) is False:
        return None
    built = urljoin(own, str(entry.config.get("canonical_version") or version)).rstrip("/") + "/"
    return (built, language.mkdocs.site_url) if built != language.mkdocs.site_url else None


def moved_folder(main: SiteConfig, folder: str) -> tuple[str, str] | None:
    """Under mike, a language one build wrote into ``folder`` (zensical-i18n's, whose
    site_url is the root's with ``<folder>/``): (the URL Zensical based its canonical
    links on, ``urljoin(root + folder, version)``, the URL the pages are deployed at,
    the version's ``<folder>/``); None outside mike, or when they are the same."""
    entry = main.mkdocs.plugins.get(_MIKE)
    version = os.environ.get(VERSION_VARIABLE)
    site_url = main.mkdocs.site_url
    if not isinstance(entry, MikeEntry) or not version or not site_url:
        return None
    name = str(entry.config.get("canonical_version") or version)
    root = root_url(site_url, name).url
    built = urljoin(f"{root}{folder}/", name).rstrip("/") + "/"
    deployed = f"{site_url.rstrip('/')}/{folder}/"
    return (built, deployed) if built != deployed else None
