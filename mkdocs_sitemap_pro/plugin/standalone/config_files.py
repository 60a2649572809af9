"""zensical.toml and mkdocs.yml read as data, the way Zensical reads them, importing nothing.

``zensical.toml``: its ``[project]`` table (the whole file if it has none). ``mkdocs.yml``:
YAML with ``!ENV`` (a variable, or the first set of several, else the last item as the
default) and ``INHERIT`` (the parent file, relative to the child, deep-merged under it:
mappings key by key, anything else, lists too, the child's), as MkDocs and Zensical
(0.1 on) merge it. Tags that would import or run Python (``!!python/name:...``) and tags
this reader does not know become ``Opaque`` values: never resolved, so the site's
extensions, theme and plugins need not be installed. ``!relative $config_dir/...`` is the
path it names; ``!relative`` otherwise is opaque (it means the page being rendered).
Zensical's renaming of Material's extension namespace is ``zensical_name``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, NamedTuple

import yaml  # type: ignore[import-untyped]  # MkDocs' own dependency; no stubs

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

