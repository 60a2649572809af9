"""mkdocs.yml as ``mkdocs-sitemap-pro build`` reads it, after another builder wrote the site.

Only the settings that decide URLs and pages are taken (site_url, docs_dir, site_dir,
use_directory_urls, the three inclusion patterns, markdown_extensions), read and checked
by MkDocs' own configuration classes; the rest is left alone, since the builder that
wrote the site (Zensical) may use plugins and themes MkDocs does not have. The plugin's
options come from the ``sitemap-pro`` entry under ``plugins:`` and are checked by the
same ``SitemapProConfig`` as under MkDocs. A caller may put settings and options of its
own in place of the file's (``Replaced``: ``versions --rebuild`` gives an old commit's
mkdocs.yml the URL of the version's folder).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.utils.yaml import get_yaml_loader, yaml_load

from mkdocs_sitemap_pro.plugin.config import SitemapProConfig

__all__ = ["ConfigError", "Replaced", "SiteConfig", "load_site_config"]

PLUGIN = "sitemap-pro"
_DEFAULT_FILES = ("mkdocs.yml", "mkdocs.yaml")
# What MkDocs' URL rules and page inclusion depend on; nothing else is read.
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
    """Read and check mkdocs.yml (``config_file``, else ./mkdocs.yml or ./mkdocs.yaml).

    ``site_dir`` (relative to the current folder) replaces the file's own, and so do the
    values of ``replaced``. Raises ``ConfigError`` naming the option for anything that
    cannot work.
    """
    replaced = replaced or Replaced()
    path = _config_path(config_file)
    config = MkDocsConfig(config_file_path=str(path))
    try:
        with open(path, "rb") as fd:
            raw = yaml_load(fd, loader=get_yaml_loader(config=config))
    except Exception as trouble:  # noqa: BLE001 - OSError, YAML errors, a failed !!python/name
        raise ConfigError(f"could not read {path}: {trouble}") from None
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{path} does not hold a mapping of settings")
    kept: dict[str, Any] = {key: raw[key] for key in _KEPT if key in raw}
    kept.update(replaced.settings)
    kept["plugins"] = []  # the builder's plugins are not ours to load
    kept["site_name"] = str(raw.get("site_name") or "site")  # required, and unused here
    if site_dir is not None:
        kept["site_dir"] = os.path.abspath(site_dir)
    config.load_dict(kept)
    errors, warnings = config.validate()
    if errors:
        name, reason = errors[0]
        raise ConfigError(f"Config value '{name}': {reason}")
    _keep_theme_facts(config, raw.get("theme"))
    entries = _plugin_entries(raw.get("plugins"))
    options, option_warnings = _plugin_options(entries.get(PLUGIN), path, replaced.options)
    said = [f"Config value '{name}': {text}" for name, text in warnings]
    said += [f"Config value 'plugins': Plugin '{PLUGIN}' option '{key}': {text}" for key, text in option_warnings]
    return SiteConfig(config, options, frozenset(entries), tuple(said), entries)


def _config_path(config_file: str | None) -> Path:
    """The config file to read, which must exist."""
    candidates = [config_file] if config_file else list(_DEFAULT_FILES)
    for name in candidates:
        if os.path.isfile(name):
            return Path(os.path.abspath(name))
    raise ConfigError(f"the config file {candidates[0]} does not exist (use -f to name it)")


def _plugin_entries(value: object) -> dict[str, object]:
    """Each plugin under ``plugins:`` (a list or a mapping): its name -> its options."""
    entries: list[tuple[str, object]] = []
    if isinstance(value, Mapping):
        entries = [(str(name), options) for name, options in value.items()]
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, str):
                entries.append((item, None))
            elif isinstance(item, Mapping) and len(item) == 1:
                ((name, options),) = item.items()
                entries.append((str(name), options))
    return dict(entries)


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


def _keep_theme_facts(config: MkDocsConfig, theme: object) -> None:
    """Keep the theme's name and features (Material's instant navigation reads the sitemap).

    The theme itself is never loaded: the builder's theme need not be installed here,
    so MkDocs' default theme object carries these two facts.
    """
    name = theme if isinstance(theme, str) else None
    features: object = []
    if isinstance(theme, Mapping):
        name = theme.get("name")
        features = theme.get("features") or []
    if isinstance(name, str):
        config.theme.name = name
        config.theme["features"] = features
