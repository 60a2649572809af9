"""The configuration ``mkdocs-sitemap-pro build`` reads, after another builder wrote the site.

zensical.toml or mkdocs.yml is read as data, as Zensical reads it:
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

Read as data, the way Zensical reads them (zensical.toml, mkdocs.yml, the
``markdown_extensions`` setting), with the cache's default place.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import yaml  # type: ignore[import-untyped]  # MkDocs' own dependency; no stubs
from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.core.git.process import GitProcesses, GitTimeout, NoGit, run_git
from mkdocs_sitemap_pro.core.words import named
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.report import log

__all__ = [
    "ConfigError", "Replaced", "SiteConfig", "load_site_config", "Extensions", "named_entries",
    "read_extensions", "DEFAULT_FILES", "Opaque", "UnreadableConfig", "read_config",
    "zensical_name", "ROOT_CACHE", "place_cache", "untracked_config_cache",
]


if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["DEFAULT_FILES", "Opaque", "UnreadableConfig", "read_config", "zensical_name"]

# Without -f, the first of these in the current folder, in Zensical's order.
DEFAULT_FILES = ("zensical.toml", "mkdocs.yml", "mkdocs.yaml")
_PYTHON_TAG = "tag:yaml.org,2002:python/"
_MAX_INHERIT = 32  # deeper than any real chain of INHERIT: a loop


class UnreadableConfig(Exception):
    """The file cannot be read as a configuration; the message says why."""


class Opaque(NamedTuple):
    """A value written with a tag this reader does not resolve (``!!python/name:``, say)."""

    tag: str  # "python/name", "python/object/apply", "!relative", ...
    value: object  # the name after the tag, or the node's plain value


def zensical_name(name: str) -> str:
    """A dotted Python name as Zensical reads it: Material's extensions are its own."""
    return name.replace("material.extensions", "zensical.extensions").replace(
        "materialx", "zensical.extensions")


def read_config(path: Path) -> dict[str, Any]:
    """The settings of ``path``: TOML if its name ends in ``.toml``, else YAML."""
    try:
        if path.suffix.lower() == ".toml":
            return _read_toml(path)
        return _read_yaml(path, path.parent, ())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, yaml.YAMLError) as trouble:
        raise UnreadableConfig(str(trouble)) from None


def _read_toml(path: Path) -> dict[str, Any]:
    """A zensical.toml's settings: its ``[project]`` table."""
    with open(path, "rb") as fd:
        data: dict[str, Any] = tomllib.load(fd)
    project = data.get("project", data)
    if not isinstance(project, dict):
        raise UnreadableConfig("[project] is not a table")
    return project


def _read_yaml(path: Path, config_dir: Path, chain: tuple[Path, ...]) -> dict[str, Any]:
    """A YAML file's settings, with its INHERIT chain merged in."""
    if path in chain or len(chain) > _MAX_INHERIT:
        raise UnreadableConfig(f"INHERIT goes round in a loop through {path}")
    with open(path, encoding="utf-8-sig") as fd:
        data = yaml.load(fd, Loader=_loader(config_dir))  # noqa: S506 - a SafeLoader
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UnreadableConfig(f"{path.name} does not hold a mapping of settings")
    parent_name = data.pop("INHERIT", None)
    if parent_name is None:
        return data
    parent = Path(os.path.normpath(path.parent / str(parent_name)))
    if not parent.is_file():
        raise UnreadableConfig(f"the INHERIT file '{parent_name}' does not exist at {parent}")
    merged = _merged(_read_yaml(parent, config_dir, (*chain, path)), data)
    assert isinstance(merged, dict)
    return merged


def _merged(parent: object, child: object) -> object:
    """``child`` deep-merged over ``parent``, as Zensical merges an INHERIT chain."""
    if isinstance(parent, dict) and isinstance(child, dict):
        out = dict(parent)
        for key, value in child.items():
            out[key] = _merged(out[key], value) if key in out else value
        return out
    return child  # a list too: the child's replaces the parent's


def _loader(config_dir: Path) -> type[yaml.SafeLoader]:
    """A safe YAML loader with the tags of MkDocs' configuration files, made per read
    (``$config_dir`` is the folder of the file named, not of one it inherits)."""

    class Loader(yaml.SafeLoader):  # type: ignore[misc]  # PyYAML has no stubs: SafeLoader is Any
        """MkDocs' and Zensical's tags, none of them resolved to Python."""

    def relative(loader: yaml.SafeLoader, node: yaml.Node) -> object:
        value = str(loader.construct_scalar(node) or "") if isinstance(node, yaml.ScalarNode) else ""
        prefix, _, rest = value.partition("/")
        if prefix == "$config_dir":
            return os.path.normpath(config_dir / rest)
        return Opaque("!relative", value)

    Loader.add_constructor("!ENV", _environment)
    Loader.add_constructor("!relative", relative)
    Loader.add_constructor(_PYTHON_TAG + "tuple", _python_tuple)
    Loader.add_multi_constructor(_PYTHON_TAG, _python)
    Loader.add_constructor(None, _unknown)  # PyYAML's key for any other tag
    return Loader


def _environment(loader: yaml.SafeLoader, node: yaml.Node) -> object:
    """``!ENV NAME`` or ``!ENV [NAME, OTHER, default]``: the first variable set, read as
    YAML reads a plain value (``true`` a bool, ``8`` an int), else the default (or None)."""
    default: object = None
    if isinstance(node, yaml.ScalarNode):
        names = [loader.construct_scalar(node)]
    elif isinstance(node, yaml.SequenceNode) and node.value:
        children = list(node.value)
        if len(children) > 1:
            default = loader.construct_object(children.pop())
        names = [loader.construct_scalar(child) for child in children]
    else:
        raise yaml.constructor.ConstructorError(None, None, f"!ENV takes a name or a list, not {node.id}",
                               node.start_mark)
    for name in names:
        value = os.environ.get(str(name))
        if value is not None:
            tag = loader.resolve(yaml.ScalarNode, value, (True, False))
            return loader.construct_object(yaml.ScalarNode(tag, value))
    return default


def _python(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Opaque:
    """``!!python/name:x.y`` and its kin: the name, never imported."""
    kind, _, name = suffix.partition(":")
    return Opaque(f"python/{kind}", zensical_name(name) if name else _plain(loader, node))


def _python_tuple(loader: yaml.SafeLoader, node: yaml.Node) -> tuple[object, ...]:
    """``!!python/tuple [...]``: plain data, so a tuple."""
    assert isinstance(node, yaml.SequenceNode)
    return tuple(loader.construct_sequence(node, deep=True))


def _unknown(loader: yaml.SafeLoader, node: yaml.Node) -> Opaque:
    """A tag neither MkDocs nor Zensical would read here: its value, kept opaque."""
    return Opaque(str(node.tag), _plain(loader, node))


def _plain(loader: yaml.SafeLoader, node: yaml.Node) -> object:
    """A node's value without its tag: a string, a list or a mapping."""
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    assert isinstance(node, yaml.ScalarNode)
    return loader.construct_scalar(node)


_BUILTINS = ("toc", "tables", "fenced_code")  # MkDocs' MarkdownExtensions builtins
# Zensical's namespaces written as tables, and the name under each that nests once more.
_NAMESPACES = {"pymdownx": "blocks", "zensical": "extensions"}
_WHERE = "Config value 'markdown_extensions'"


class Extensions(NamedTuple):
    """The extensions a site's Markdown is read with, and their options by name."""

    names: list[str]
    configs: dict[str, dict[str, object]]
    warnings: list[str]  # an entry that cannot be an extension, named


def read_extensions(value: object) -> Extensions:
    """The names (first place kept) and options (the last given) of ``value``."""
    found = Extensions(list(_BUILTINS), {}, [])
    if value is None:
        return found
    if isinstance(value, Mapping):
        pairs = list(_hoisted(value, found.warnings))
    elif isinstance(value, list):
        pairs = list(named_entries(value, found.warnings))
    else:
        found.warnings.append(f"{_WHERE}: a list or a mapping of extensions is expected, "
                              f"not {type(value).__name__}: ignored")
        return found
    for name, options in pairs:
        name = zensical_name(name)
        if name not in found.names:
            found.names.append(name)
        if not options:  # MkDocs and Zensical: no options
            found.configs.setdefault(name, {})
        elif isinstance(options, Mapping):
            found.configs[name] = dict(options)
        else:
            found.warnings.append(f"{_WHERE}: the options of '{name}' are not a mapping: "
                                  "ignored")
    return found


def named_entries(items: list[object], warnings: list[str]) -> list[tuple[str, object]]:
    """``- name`` and ``- name: {options}`` entries."""
    pairs: list[tuple[str, object]] = []
    for item in items:
        if isinstance(item, str):
            pairs.append((item, None))
        elif isinstance(item, Mapping) and len(item) == 1:
            ((name, options),) = item.items()
            pairs.append((str(name), options))
        else:
            warnings.append(f"{_WHERE}: the entry {item!r} is neither a name nor a mapping "
                            "of one name to its options: ignored")
    return pairs


def _hoisted(table: Mapping[object, object], warnings: list[str]) -> list[tuple[str, object]]:
    """A mapping of names, Zensical's namespace tables made into dotted names."""
    pairs: list[tuple[str, object]] = []
    for key, options in table.items():
        name = str(key)
        nested = _NAMESPACES.get(name)
        if nested is None:
            pairs.append((name, options))
        elif not isinstance(options, Mapping):
            warnings.append(f"{_WHERE}: '{name}' must be a table of extensions: ignored")
        else:
            for sub, sub_options in options.items():
                dotted = f"{name}.{sub}"
                if str(sub) == nested and isinstance(sub_options, Mapping):
                    pairs.extend((f"{dotted}.{leaf}", leaf_options)
                                 for leaf, leaf_options in sub_options.items())
                else:
                    pairs.append((dotted, sub_options))
    return pairs

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


ROOT_CACHE = ".cache/plugin/sitemap-pro"  # at the repository root, as the plugin's default


def place_cache(site: SiteConfig, replaced: Replaced | None) -> None:
    """Give ``site`` the repository root's cache folder when its config file is
    untracked and ``cache_dir`` was not set (in the file's entry or by ``replaced``)."""
    entry = site.plugin_options.get(PLUGIN)
    given = (isinstance(entry, Mapping) and "cache_dir" in entry) or (
        replaced is not None and "cache_dir" in replaced.options)
    if given or not site.options.cache or not site.mkdocs.config_file_path:
        return
    config_file = Path(site.mkdocs.config_file_path)
    folder = untracked_config_cache(config_file, site.options.git_timeout)
    if folder is not None:
        site.options.cache_dir = str(folder)
        log.debug(f"cache in {folder}: git does not track {config_file.name} (a staged "
                  "or generated config, whose folder a build script may delete)")


def untracked_config_cache(config_file: Path, timeout: float) -> Path | None:
    """The repository root's cache folder when ``config_file`` lies in a git work tree
    and git does not track it; None otherwise (the default beside the config stands)."""
    folder = config_file.parent
    processes = GitProcesses(timeout, notice=log.info)
    try:
        status, out, _ = run_git(["rev-parse", "--show-toplevel"], folder,
                                 processes=processes)
        if status != 0:
            return None  # no repository: nothing dates by git, the default is as good
        tracked, _, _ = run_git(["ls-files", "--error-unmatch", "--", config_file.name],
                                folder, processes=processes)
    except (GitTimeout, NoGit):
        return None
    finally:
        processes.close()
    top = out.decode("utf-8", "surrogateescape").strip()
    if tracked == 0 or not (os.path.isabs(top) and os.path.isdir(top)):
        return None  # tracked, or not git's answer (the history's warning says so)
    return Path(top) / ROOT_CACHE
