"""The configuration ``mkdocs-sitemap-pro build`` reads, after another builder wrote the site.

zensical.toml or mkdocs.yml is read as data, as Zensical reads it (``config_files``):
nothing it names (theme, plugins, Markdown extensions, ``!!python/name:`` tags) is
imported, since the builder that wrote the site (Zensical) may use what MkDocs does not
have and this tool need not have installed. Only the settings that decide URLs and pages
are taken (site_url, docs_dir, site_dir, use_directory_urls, the three inclusion
patterns), checked by MkDocs' own configuration classes; ``markdown_extensions`` is read
as names and options (``markdown_extensions``) and set on the config afterwards. The
plugin's options come from the ``sitemap-pro`` entry under ``plugins`` (YAML) or
``[project.plugins.sitemap-pro]`` (TOML), which Zensical ignores, and are checked by the
same ``SitemapProConfig`` as under MkDocs. A caller may put settings and options of its
own in place of the file's (``Replaced``: ``versions --rebuild`` gives an old commit's
config the URL of the version's folder).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.core.words import named
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.standalone.config_files import (
    DEFAULT_FILES,
    UnreadableConfig,
    read_config,
)
from mkdocs_sitemap_pro.plugin.standalone.markdown_extensions import named_entries, read_extensions

__all__ = ["ConfigError", "Replaced", "SiteConfig", "load_site_config"]

PLUGIN = "sitemap-pro"
# What MkDocs' URL rules and page inclusion depend on, and the extensions (read as data).
_KEPT = (
    "site_url",
    "docs_dir",
    "site_dir",
    "use_directory_urls",
    "exclude_docs",
    "draft_docs",
    "not_in_nav",
    "markdown_extensions",
)


class ConfigError(Exception):
    """A configuration that cannot work; the message names the file or the option."""


@dataclass(frozen=True)
class SiteConfig:
    """The checked settings of one site: MkDocs' part, the plugin's, the plugin names."""

    mkdocs: MkDocsConfig
    options: SitemapProConfig
    plugins: frozenset[str]  # names under plugins:, as written
    warnings: tuple[str, ...] = ()  # as MkDocs words them (an unknown option, say)
    # Each plugin entry's options as written (None where it has none), read as data:
    # mkdocstrings' handlers, mike's settings. Never loaded or checked here.
    plugin_options: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Replaced:
    """Values that replace the file's: URL settings (of ``_KEPT``) and plugin options."""

    settings: Mapping[str, object] = field(default_factory=dict)
    options: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = set(self.settings) - set(_KEPT)
        if unknown:
            raise ValueError(f"only URL settings can be replaced, not {sorted(unknown)}")


def load_site_config(config_file: str | None, site_dir: str | None = None,
                     replaced: Replaced | None = None) -> SiteConfig:
    """Read and check zensical.toml or mkdocs.yml (``config_file``, else the first of
    ./zensical.toml, ./mkdocs.yml, ./mkdocs.yaml, as Zensical looks for them).

    ``site_dir`` (relative to the current folder) replaces the file's own, and so do the
    values of ``replaced``. Raises ``ConfigError`` naming the option for anything that
    cannot work.
    """
    replaced = replaced or Replaced()
    path = _config_path(config_file)
    try:
        raw = read_config(path)
    except UnreadableConfig as trouble:
        raise ConfigError(f"could not read {path}: {trouble}") from None
    settings: dict[str, Any] = {key: raw[key] for key in _KEPT if key in raw}
    settings.update(replaced.settings)
    # Read as data below: MkDocs' own check would import every extension.
    extensions = settings.pop("markdown_extensions", None)
    settings["plugins"] = []  # the builder's plugins are not ours to load
    settings["site_name"] = str(raw.get("site_name") or "site")  # required, and unused here
    if site_dir is not None:
        if "\0" in site_dir:  # no folder can be named so (the OS refuses it)
            raise ConfigError(f"--site-dir {named(site_dir)}: a folder's name holds no NUL byte")
        settings["site_dir"] = os.path.abspath(site_dir)
    config = MkDocsConfig(config_file_path=str(path))
    config.load_dict(settings)
    with _theme_loaded_quietly():
        errors, warnings = config.validate()
    if errors:
        name, reason = errors[0]
        raise ConfigError(f"Config value '{name}': {reason}")
    if "\0" in str(config["site_dir"]):  # docs_dir's own check refuses it already
        raise ConfigError(f"Config value 'site_dir': {named(str(config['site_dir']))} holds "
                          "a NUL byte, which no folder's name can")
    read = read_extensions(extensions)
    config["markdown_extensions"] = read.names
    config["mdx_configs"] = read.configs
    _keep_theme_facts(config, raw.get("theme"), path.parent)
    entries = _plugin_entries(raw.get("plugins"))
    options, option_warnings = _plugin_options(entries.get(PLUGIN), path, replaced.options)
    messages = [f"Config value '{name}': {text}" for name, text in warnings] + read.warnings
    messages += [f"Config value 'plugins': Plugin '{PLUGIN}' option '{key}': {text}" for key, text in option_warnings]
    return SiteConfig(config, options, frozenset(entries), tuple(messages), entries)


@contextmanager
def _theme_loaded_quietly() -> Iterator[None]:
    """Checking the config makes MkDocs' default theme (``_keep_theme_facts`` says why),
    and MkDocs says so at DEBUG ("Loaded theme configuration for 'mkdocs'"): no theme of
    the site, so ``-v`` does not print it. Its warnings and errors still go through."""
    logger = logging.getLogger("mkdocs.theme")

    def above_debug(record: logging.LogRecord) -> bool:
        return record.levelno > logging.DEBUG

    logger.addFilter(above_debug)
    try:
        yield
    finally:
        logger.removeFilter(above_debug)


def _config_path(config_file: str | None) -> Path:
    """The config file to read, which must exist."""
    if config_file:
        if os.path.isfile(config_file):
            return Path(os.path.abspath(config_file))
        raise ConfigError(f"the config file {config_file} does not exist")
    for name in DEFAULT_FILES:
        if os.path.isfile(name):
            return Path(os.path.abspath(name))
    raise ConfigError(f"none of {', '.join(DEFAULT_FILES)} is in {os.getcwd()}: run the "
                      "command in the project's folder, or name its config file with -f")


def _plugin_entries(value: object) -> dict[str, object]:
    """Each plugin under ``plugins:`` (a list or a mapping): its name -> its options."""
    if isinstance(value, Mapping):
        return {str(name): options for name, options in value.items()}
    # A malformed entry is left out here; the builder that reads the file reports it.
    return dict(named_entries(value, [])) if isinstance(value, list) else {}


def _plugin_options(entry: object, path: Path, replaced: Mapping[str, object]
                    ) -> tuple[SitemapProConfig, list[tuple[str, str]]]:
    """sitemap-pro's options, checked as MkDocs checks them (errors name the option)."""
    if entry is None:
        entry = {}
    if not isinstance(entry, Mapping):
        raise ConfigError(f"Plugin '{PLUGIN}': its options must be a mapping")
    options = SitemapProConfig(config_file_path=str(path))
    options.load_dict({**entry, **replaced})
    errors, warnings = options.validate()
    if errors:
        key, error = errors[0]
        raise ConfigError(f"Plugin '{PLUGIN}' option '{key}': {error}")
    return options, list(warnings)


def _keep_theme_facts(config: MkDocsConfig, theme: object, folder: Path) -> None:
    """Keep the theme's name, features and ``custom_dir`` (Material's instant navigation
    reads the sitemap; a check reads the templates of custom_dir).

    The theme itself is never loaded: the builder's theme need not be installed here,
    so MkDocs' default theme object carries these facts. ``custom_dir`` (relative to the
    config file's folder, as both builders take it) becomes an absolute path, kept as
    ``config.theme["custom_dir"]`` and first in ``config.theme.dirs``.
    """
    name = theme if isinstance(theme, str) else None
    features: object = []
    custom_dir: object = None
    if isinstance(theme, Mapping):
        name = theme.get("name")
        features = theme.get("features") or []
        custom_dir = theme.get("custom_dir")
    if isinstance(name, str):
        config.theme.name = name
        config.theme["features"] = features
    if isinstance(custom_dir, str) and custom_dir:
        absolute = os.path.normpath(folder / custom_dir)
        config.theme["custom_dir"] = absolute
        config.theme.dirs.insert(0, absolute)
