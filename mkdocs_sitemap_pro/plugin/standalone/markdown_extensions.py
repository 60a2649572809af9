"""The ``markdown_extensions`` setting as data: names and their options, none imported.

Every shape MkDocs and Zensical accept: a list of names and one-entry mappings
(``- toc: {permalink: true}``), or a mapping of name -> options, where Zensical also
takes the ``pymdownx`` and ``zensical`` namespaces as tables (zensical.toml's
``[project.markdown_extensions.pymdownx.snippets]``, ``pymdownx.blocks.*`` and
``zensical.extensions.*`` one level deeper). Names are read as Zensical reads them
(``material.extensions.*`` is ``zensical.extensions.*``); MkDocs' three built-in
extensions come first, as in MkDocs' own ``config.markdown_extensions``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from mkdocs_sitemap_pro.plugin.standalone.config_files import zensical_name

__all__ = ["Extensions", "named_entries", "read_extensions"]

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
