"""mkdocstrings ``::: identifier`` blocks of a page's Markdown, resolved with griffe from
the config's handler options: the source files (and lines) the page shows, for ``build``
(which runs after Zensical, without MkDocs or mkdocstrings).

Options: ``plugins: [mkdocstrings: {default_handler, handlers: {python: {paths, options}}}]``
(``paths`` relative to the config file's folder, globs expanded, default ``["."]``),
then each block's
indented YAML ``options:`` over them. Blocks inside fenced code are not blocks. As in
mkdocstrings-python, each package is loaded once per build, pages in MkDocs' order, by
the first block that names it: with that block's options' griffe ``extensions`` (the
handler's, unless the block gives its own) and ``preload_modules``.

What is rendered follows mkdocstrings-python 2.x (``rendering.do_filter_objects`` and the
``children`` template): the block's object, then, for a module or class, its members
(``inherited_members``: also inherited ones) kept by ``members`` (at the block's object
only: a list keeps those names, ``false``/``[]`` none, ``true`` all) or else by
``filters`` (default ``["!^_[^_]"]``, ``"public"``: griffe's ``is_public``); an imported
member only when it is public or ``members``/``filters: public`` says so; submodules only
with ``show_submodules``; recursively. Each object shows the lines of
``core/page/api_lines.py`` (``show_source`` defaults to True, as in mkdocstrings-python).

A block of another handler (``handler: shell``, ``crystal``, ``c``..., or the
``default_handler``) is not run: its identifier, if it names a file from the config
file's folder (as mkdocstrings-shell takes it), dates the page whole; else the page is
dated without it, and said (``other_handlers``).

Packages are searched for where the site's repository holds them, before anything
installed, so that the tool installed alone finds them (``search_paths``): ``paths``
from the config file's folder and from the folders of the tracked configs a staged copy
was made from, the repository's top level and its ``src/``; then ``sys.path``. griffe
reads source without importing it, and follows re-exports (``from .main import App``)
to the module that defines the object. A block that cannot be followed (not an object
path, its package not found, its object not in it) is named in ``Rendered.missed``,
for one WARNING per page.
"""

from __future__ import annotations

import glob
import os
import re
import sys
from functools import partial
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import yaml  # type: ignore[import-untyped]

from mkdocs_sitemap_pro.core.page.api_lines import Ranges, add_shown, source_files
from mkdocs_sitemap_pro.core.page.api_lines import installed_version, rule_for, selects_init
from mkdocs_sitemap_pro.core.page.shown import merge_lines
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["ApiObjects", "Rendered", "blocks", "search_paths"]

_BLOCK = re.compile(r"^(\s*):::\s*(\S+)\s*$")
_FENCE = re.compile(r"^\s*(```+|~~~+)")
_DEFAULT_FILTERS = ["!^_[^_]"]


def blocks(text: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(identifier, the block's YAML: ``handler``, ``options``) of each ``:::`` block of
    ``text`` outside fenced code."""
    lines = text.splitlines()
    fence = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        opened = _FENCE.match(line)
        if fence:
            if opened and opened.group(1).startswith(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
            continue
        found = _BLOCK.match(line)
        if not found:
            continue
        indent = len(found.group(1))
        body: list[str] = []
        while i < len(lines) and (not lines[i].strip()
                                  or len(lines[i]) - len(lines[i].lstrip()) > indent):
            body.append(lines[i])
            i += 1
        try:
            config = yaml.safe_load("\n".join(b[indent:] for b in body)) if body else {}
        except yaml.YAMLError:
            config = {}
        yield found.group(2), config if isinstance(config, Mapping) else {}


class Rendered(NamedTuple):
    """What a page's python blocks show: files whole, {file: lines} in part, and the
    blocks not followed as (identifier, cut to be named, why), for the page's WARNING."""

    files: set[str]
    parts: dict[str, Ranges]
    missed: list[tuple[str, str]]


def search_paths(paths: object, roots: Sequence[Path], top: Path | None) -> list[str]:
    """Where packages are looked for, in order: the handler's ``paths`` (globs, default
    ``["."]``) from each of ``roots`` (the config file's folder, then those of the
    configs a staged copy was made from), then the repository's top level and its
    ``src/``: the package a site documents is in its repository, installed or not."""
    given = paths if isinstance(paths, list) and paths else ["."]
    found: list[str] = []
    for root in roots:
        for path in given:
            try:
                found.extend(str(Path(each).resolve())
                             for each in sorted(glob.glob(str(root / str(path)))))
            except (OSError, ValueError):  # a name the system refuses: nothing there
                continue
    if top is not None:
        found.extend(str(folder) for folder in (top, top / "src") if folder.is_dir())
    return list(dict.fromkeys(found))


class ApiObjects:
    """Per page, the source files and lines its ``:::`` blocks show; modules loaded once.

    ``project``: the config file's folder; ``roots``: the folders ``paths`` are relative
    to (the config file's first); ``top``: the repository's top level (None: none)."""

    def __init__(self, plugin_options: Mapping[str, Any], project: Path,
                 roots: Sequence[Path] = (), top: Path | None = None) -> None:
        handlers = plugin_options.get("handlers") or {}
        python = handlers.get("python") if isinstance(handlers, Mapping) else None
        python = python if isinstance(python, Mapping) else {}
        self._default_handler = str(plugin_options.get("default_handler") or "python")
        self._paths = search_paths(python.get("paths"), roots or [project], top)
        options = python.get("options")
        self._options: Mapping[str, Any] = options if isinstance(options, Mapping) else {}
        self._project = project
        self._griffe: Any = None  # the griffe module, once imported
        # griffe's modules and lines, shared by every load as in mkdocstrings-python's
        # handler: a package is loaded once, by the first block naming it, with that
        # block's ``extensions`` (and ``preload_modules``).
        self._collections: tuple[Any, Any] | None = None
        self._unloadable: set[str] = set()  # griffe extensions said not to load
        self._where: dict[Any, list[str]] = {}
        # Which ``__init__`` a class merges: the rule of the installed handler (Zensical
        # renders with it), else the newest.
        self._init_rule = rule_for(installed_version())
        self.files: set[str] = set()  # every source file shown, of every page

    def shown(self, text: str, *, lines: bool) -> Rendered:
        """The files shown whole and {file: lines} shown in part by ``text``'s blocks,
        and the blocks that could not be followed."""
        files: set[str] = set()
        parts: dict[str, Ranges] = {}
        missed: list[tuple[str, str]] = []
        for identifier, config in blocks(text):
            if str(config.get("handler") or self._default_handler) != "python":
                continue
            local = config.get("options")
            options = {**self._options, **(local if isinstance(local, Mapping) else {})}
            why = self._one(identifier, options, lines, files, parts)
            if why:
                missed.append((_short(identifier), why))
        shown = {path: list(merge_lines(ranges)) for path, ranges in parts.items()
                 if path not in files and ranges}
        return Rendered(files, shown, missed)

    def other_handlers(self, text: str) -> tuple[set[str], list[tuple[str, str]]]:
        """Of ``text``'s blocks of a handler other than python: the files their
        identifiers name (from the config file's folder), and (handler, identifier) of
        those that name none (the page is dated without them)."""
        files: set[str] = set()
        unseen: list[tuple[str, str]] = []
        for identifier, config in blocks(text):
            handler = str(config.get("handler") or self._default_handler)
            if handler == "python":
                continue
            try:
                path = self._project / identifier
                named = path.is_file()
            except (OSError, ValueError):  # a name too long for the system, a NUL
                named = False
            if named:
                files.add(str(path.resolve()))
            else:
                unseen.append((handler, _short(identifier)))
        return files, unseen

    def _one(self, identifier: str, options: Mapping[str, Any], lines: bool,
             files: set[str], parts: dict[str, Ranges]) -> str:
        """Add what the block of ``identifier`` shows; '' or why it cannot be followed."""
        obj, why = self._load(identifier, options)
        if obj is None:
            return why
        why = self._outside(obj)
        if why:
            return why
        show_source = bool(options.get("show_source", True))
        merge_init = bool(options.get("merge_init_into_class", False))
        inherited_init = selects_init(options.get("inherited_members", False))
        for item in _rendered(obj, options, root=True):
            if not lines:
                files.update(source_files(item, self._where)[2])
                continue
            add_shown(item, show_source, merge_init, self._where, files, parts,
                      init_rule=self._init_rule, inherited_init=inherited_init)
        return ""

    def _load(self, identifier: str, options: Mapping[str, Any]) -> tuple[Any, str]:
        """The griffe object ``identifier`` names, or None and why not; its package
        loaded, if not yet, with the extensions of ``options``."""
        if not all(part.isidentifier() for part in identifier.split(".")):
            return None, "it is not a Python object path (package.module.Object)"
        package = identifier.split(".")[0]
        if len(os.fsencode(package)) > 250:
            return None, "its package's name is longer than a file name can be"
        griffe = self._import_griffe()
        if griffe is None:
            return None, ("griffe cannot be imported whole: reinstall this tool, which "
                          "requires it (where griffe 1 was upgraded to 2 in place, "
                          "'pip install --force-reinstall griffelib' mends it)")
        if self._collections is None:
            self._collections = griffe.ModulesCollection(), griffe.LinesCollection()
        modules, lines = self._collections
        if package not in modules:
            # Then sys.path, as mkdocstrings-python does (an installed package's files
            # are outside the repository: they date nothing).
            search = [*self._paths, *(p for p in sys.path if p and p not in self._paths)]
            loader = griffe.GriffeLoader(
                search_paths=search, extensions=self._extensions(griffe, options),
                modules_collection=modules, lines_collection=lines)
            for name in [*_names(options.get("preload_modules")), package]:
                if name not in modules:
                    _quietly(partial(loader.load, name, try_relative_path=False))
        if package not in modules:
            return None, (f"its package '{_short(package)}' is not found in "
                          f"{_listed(self._paths)} nor installed beside this tool: set "
                          "the python handler's 'paths' (relative to the config file) "
                          "to the folder that holds it")
        try:
            return modules[identifier], ""
        except Exception:  # noqa: BLE001 - an object griffe does not see there
            return None, (f"griffe finds no '{_short(identifier)}' in package "
                          f"'{package}' (made at run time?)")

    def _import_griffe(self) -> Any:
        """The griffe module (None: it cannot be imported whole, a broken install: pip
        upgrading griffe 1 to 2 removes files griffe 2's ``griffelib`` had written)."""
        if self._griffe is None:
            try:
                import griffe

                whole = all(hasattr(griffe, name) for name in (
                    "GriffeLoader", "ModulesCollection", "LinesCollection",
                    "load_extensions"))
                self._griffe = griffe if whole else False
            except ImportError:
                self._griffe = False
        return self._griffe or None

    def _outside(self, obj: Any) -> str:
        """Why a re-exported object cannot be followed to its definition ('' when it
        can, or when it is defined outside the repository's packages, which date
        nothing: ``fastapi.Request`` from starlette)."""
        if not getattr(obj, "is_alias", False):
            return ""
        try:
            obj.final_target  # noqa: B018 - resolving it is the question
        except Exception as error:  # noqa: BLE001 - griffe's AliasResolutionError, a cycle
            # The link of the chain that failed (fastapi.Request -> fastapi.requests.
            # Request -> starlette.requests.Request: starlette's, not installed).
            failed = getattr(error, "alias", None) or obj
            path = str(getattr(failed, "target_path", "") or "")
            if not path or not self._in_repository(path.split(".")[0]):
                return ""
            return (f"it re-exports '{_short(path)}', which griffe cannot resolve in the "
                    "repository's sources")
        return ""

    def _in_repository(self, package: str) -> bool:
        """Whether a search path of the site (not sys.path) holds ``package``."""
        return any(os.path.exists(os.path.join(folder, package + suffix))
                   for folder in self._paths for suffix in ("", ".py"))

    def _extensions(self, griffe: Any, options: Mapping[str, Any]) -> Any:
        """griffe's extensions named by ``options``, as mkdocstrings-python loads them: a
        name, ``module:Class``, ``{name: options}``, or a ``.py`` path (relative to the
        config file's folder). One that does not load is left out, with a warning."""
        loadable = []
        for extension in _names(options.get("extensions")):
            name, settings = (next(iter(extension.items())) if isinstance(extension, Mapping)
                              and extension else (extension, None))
            name = str(name)
            if name.endswith(".py") or ".py:" in name or "/" in name or "\\" in name:
                name = os.path.abspath(self._project / name)
            each = name if settings is None else {name: settings}
            try:
                griffe.load_extensions(each)
            except Exception as error:  # noqa: BLE001 - not installed, or broken
                if name not in self._unloadable:
                    self._unloadable.add(name)
                    log.warning(f"mkdocstrings: the griffe extension '{name}' could not be "
                                f"loaded ({error}): pages whose objects it changes may be "
                                "dated by other lines than they show; install it beside "
                                "this tool")
                continue
            loadable.append(each)
        return griffe.load_extensions(*loadable)


def _short(text: str) -> str:
    """``text`` cut for a message (a 6,000-character identifier is named by its start)."""
    return text if len(text) <= 80 else f"{text[:60]}... ({len(text):,} characters)"


def _listed(paths: Sequence[str]) -> str:
    """The search paths, for a message (the first four: a staged config may have many
    originals)."""
    more = f" and {len(paths) - 4:,} more folders" if len(paths) > 4 else ""
    return (", ".join(paths[:4]) + more) or "no folder"


def _names(value: Any) -> list[Any]:
    """A list option's items (nothing for anything else)."""
    return list(value) if isinstance(value, list) else []


def _quietly(load: Callable[[], object]) -> None:
    """A load whose failure (a module not found) leaves its blocks unresolved."""
    try:
        load()
    except Exception:  # noqa: BLE001 - then the blocks' modules are dated whole
        pass


def _rendered(obj: Any, options: Mapping[str, Any], *, root: bool) -> Iterator[Any]:
    """``obj`` and the members mkdocstrings-python renders with it (see the docstring)."""
    yield obj
    try:
        target = obj.final_target if getattr(obj, "is_alias", False) else obj
        if not (target.is_module or target.is_class):
            return
        chosen = options.get("members") if root else None
        filters = options.get("filters", _DEFAULT_FILTERS)
        members = _chosen(_inherited(target, options), chosen, filters)
    except Exception:  # noqa: BLE001 - an alias that does not resolve: the object alone
        return
    for member in members:
        if _shown(member, options, chosen, filters):
            yield from _rendered(member, options, root=False)


def _inherited(target: Any, options: Mapping[str, Any]) -> list[Any]:
    """The members of ``target`` with the inherited ones ``inherited_members`` asks for:
    all of them (``true``), those named (a list), or none."""
    inherited = options.get("inherited_members", False)
    source = target.all_members if inherited else target.members
    members = list(source.values())
    if isinstance(inherited, list):
        return [m for m in members if not m.inherited or m.name in inherited]
    if inherited is not True:
        return [m for m in members if not m.inherited]
    return members


def _chosen(members: list[Any], chosen: Any, filters: Any) -> list[Any]:
    """``members`` kept by the ``members`` option (a root object's only) or, without it,
    by ``filters``, as mkdocstrings-python chooses them."""
    if chosen is True:
        return members
    if chosen is False or chosen == []:
        return [m for m in members if m.inherited]
    if isinstance(chosen, list):
        return [m for m in members if m.name in chosen]
    if filters == "public":
        return [m for m in members if m.is_public]
    if filters:
        return [m for m in members if _keep(m.name, filters)]
    return members


def _shown(member: Any, options: Mapping[str, Any], chosen: Any, filters: Any) -> bool:
    """Whether ``member`` is rendered: not an import that is not re-exported, not a
    submodule unless ``show_submodules``, not an alias that does not resolve."""
    try:
        if (chosen is None and filters != "public" and member.is_alias
                and not member.is_public):
            return False  # imported, not re-exported: not rendered
        return not (member.is_module and not options.get("show_submodules", False))
    except Exception:  # noqa: BLE001 - an alias that does not resolve: not rendered
        return False


def _keep(name: str, filters: list[str]) -> bool:
    """mkdocstrings-python's filter rule: the last pattern matching decides; none
    matching keeps the name unless every pattern is an inclusion."""
    keep = None
    kinds = set()
    for pattern in filters:
        exclude = pattern.startswith("!")
        kinds.add(exclude)
        if re.search(pattern[1:] if exclude else pattern, name):
            keep = not exclude
    return kinds != {False} if keep is None else keep
