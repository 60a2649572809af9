"""The site's own code that rewrites a page, and the modules that code imports.

A ``hooks:`` module, or a plugin installed from the repository itself, can write into a
page what no file the page reads says: a table built from a data module imported at
start-up, long before any page converts, where the observation of reads never looks. A
page such code changed shows that code: it is dated by the code's file and by every
module of the site's own that the code imports, at start-up or later. Those are found
by reading the ``import`` statements of the code's module, then of each module they
reach; the modules named are looked up in ``sys.modules`` (nothing is imported or
searched for), and only files not installed count (not in the standard library nor in
site-packages). So do the files that code read as it was loaded (a module-level
``json.load``): from the plugin's creation (before MkDocs loads ``hooks:``) to
``on_config``, each file opened for reading, but by the import system, is kept by every
file of the site's own code on the stack. Git then keeps those it tracks.

Only handlers of ``on_page_markdown`` and ``on_page_content`` whose code is not
installed are watched: each is wrapped in the plugin collection's list of that event
(``mkdocs_internals``), and the open page is counted as rewritten by it only when it
returned a text that differs from the one it was given (the strings MkDocs hands over:
nothing is read). A site without such code pays nothing; a page none of it changed is
not dated by it. Not seen: changes made in place (``page.meta``), by ``on_page_context``
or ``on_post_page`` (after the page's date is set), modules imported by name
(``importlib.import_module``), and what a plugin of the site listed in ``plugins:``
before this one read as it was loaded.
"""

from __future__ import annotations

import ast
import copy
import os
import site
import sys
import sysconfig
from collections.abc import Callable, Iterator
from types import FrameType, ModuleType
from typing import Any

from mkdocs_sitemap_pro.core.page.reads import watch_reads
from mkdocs_sitemap_pro.plugin.mkdocs_internals import event_handlers, replace_handler

__all__ = ["EVENTS", "Rewriters"]

#: The events whose handlers return a page's new text before its date is set.
EVENTS = ("page_markdown", "page_content")

_OURS = __name__.partition(".")[0]  # this package's handlers rewrite nothing
# This package's folder: what it reads while a site loads is not the site's code's.
_OUR_FOLDER = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))), "")
_PYCACHE = f"{os.sep}__pycache__{os.sep}"
_UNKNOWN = object()


class Rewriters:
    """The site's own handlers of one plugin collection, watched; which of them rewrote
    the open page, as the files of their code (one per plugin instance, like the
    observer: the wrappers outlive a build under ``mkdocs serve``)."""

    def __init__(self) -> None:
        self._installed = _installed_folders()
        # The modules of the handlers that rewrote the open page, by their file.
        self._pending: dict[str, object] = {}
        self._files: dict[str, frozenset[str]] = {}  # a code file -> it and its imports
        self.watching = False  # whether any handler is watched
        # Files the site's own code read while it was loaded (a hook's module-level
        # ``json.load``), by that code's file: kept for the process, since a module is
        # loaded once. Recorded from now until a build's config is loaded.
        self._loaded_reads: dict[str, set[str]] = {}
        self._own_files: dict[str, str | None] = {}  # a frame's file -> its real path, if own
        self.loading = True
        watch_reads(self, lambda rewriters: rewriters.loading, Rewriters._read_while_loading)

    def loaded(self) -> None:
        """A build's config is loaded (``on_config``): its hooks and plugins are too."""
        self.loading = False

    def listen(self) -> None:
        """A build is over: code loaded before the next one (``mkdocs serve``: a hook
        added to mkdocs.yml) is watched as it loads."""
        self.loading = True

    def watch(self, plugins: Any) -> None:
        """Wrap the site's own handlers of ``EVENTS`` in ``plugins`` (MkDocs'
        ``PluginCollection``); what was learnt of their imports is forgotten."""
        self._files = {}
        self.watching = False
        for event in EVENTS:
            for at, handler in enumerate(event_handlers(plugins, event)):
                if isinstance(handler, _Watched):
                    self.watching = self.watching or handler.rewriters is self
                    continue
                module = self._module_of(handler)
                if module is None:
                    continue
                replace_handler(plugins, event, at, _Watched(handler, module, self))
                self.watching = True

    def open(self) -> None:
        """A page's conversion starts: no handler has rewritten it yet."""
        self._pending.clear()

    def take(self) -> frozenset[str]:
        """The files of the code that rewrote the page since ``open``, with the files of
        the modules it imports (absolute paths; empty: nothing rewrote it)."""
        if not self._pending:
            return frozenset()
        roots, self._pending = self._pending, {}
        each = [self._files_of(root, module) for root, module in roots.items()]
        # One handler (most pages): its set, shared by every page it rewrote.
        return each[0] if len(each) == 1 else frozenset().union(*each)

    def _files_of(self, root: str, module: object) -> frozenset[str]:
        """``root``, its imports' files, and what each of them read as it was loaded,
        found once a build."""
        known = self._files.get(root)
        if known is None:
            code = set(self._imports(root, module))
            read = set().union(*(self._loaded_reads.get(path, ()) for path in code))
            known = self._files[root] = frozenset(code | {
                path for path in read
                if _PYCACHE not in path and not os.path.realpath(path).startswith(
                    self._installed) and os.path.isfile(path)})
        return known

    def _module_of(self, handler: Callable[..., Any]) -> tuple[str, object] | None:
        """The file and module that define ``handler``, if they are the site's own."""
        function = getattr(handler, "__func__", handler)
        name = getattr(function, "__module__", None) or ""
        if name.partition(".")[0] == _OURS:
            return None
        module = sys.modules.get(name)
        path = self._own(module)
        return None if path is None else (path, module)

    def _read_while_loading(self, path: object, caller: FrameType) -> None:
        """A file read while code loads: kept by each own code file on the stack."""
        frame: FrameType | None = caller
        text = ""
        while frame is not None:
            code = self._own_frame(frame.f_code.co_filename)
            if code is not None:
                if not text:
                    text = os.path.abspath(os.fsdecode(os.fspath(path)))  # type: ignore[call-overload]
                self._loaded_reads.setdefault(code, set()).add(text)
            frame = frame.f_back

    def _own_frame(self, filename: str) -> str | None:
        """A frame's file (``co_filename``), real, if it is own code (not ours either)."""
        known = self._own_files.get(filename, _UNKNOWN)
        if known is _UNKNOWN:
            real = os.path.realpath(filename) if filename.endswith(".py") else ""
            known = self._own_files[filename] = (
                real if real and not real.startswith((*self._installed, _OUR_FOLDER))
                else None)
        return known  # type: ignore[return-value]

    def _own(self, module: object) -> str | None:
        """A module's source file, if it is one and is not installed."""
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py") or not os.path.isfile(path):
            return None
        real = os.path.realpath(path)
        return None if real.startswith(self._installed) else real

    def _imports(self, root: str, module: object) -> Iterator[str]:
        """``root`` (``module``'s file) and the files of the site's own modules it
        imports, directly or through others."""
        seen = {root}
        todo = [(root, module)]
        while todo:
            path, module = todo.pop()
            yield path
            package = getattr(module, "__package__", None) or ""
            for names in _imported_names(path, package):
                imported = next(filter(_is_module, map(sys.modules.get, names)), None)
                found = self._own(imported)
                if found is not None and found not in seen:
                    seen.add(found)
                    todo.append((found, imported))


class _Watched:
    """A handler of the site's own code, that tells ``rewriters`` when it rewrote."""

    __slots__ = ("code", "handler", "module", "rewriters")

    def __init__(self, handler: Callable[..., Any], module: tuple[str, object],
                 rewriters: Rewriters) -> None:
        self.handler, self.rewriters = handler, rewriters
        self.code, self.module = module

    def __getattr__(self, name: str) -> Any:
        # What MkDocs and other plugins ask of a handler (``mkdocs_priority``,
        # ``__self__``) is the handler's; a slot not set yet (a copy being made) is not.
        if name in _Watched.__slots__:
            raise AttributeError(name)
        return getattr(self.handler, name)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Watched:
        # A copied config's handler is still watched, by the same plugin.
        return _Watched(copy.deepcopy(self.handler, memo), (self.code, self.module),
                        self.rewriters)

    def __call__(self, item: Any, /, **kwargs: Any) -> Any:
        result = self.handler(item, **kwargs)
        # The same string back (most calls) compares by identity, for free.
        if result is not None and result is not item and result != item:
            self.rewriters._pending[self.code] = self.module
        return result


def _is_module(value: object) -> bool:
    return isinstance(value, ModuleType)


def _installed_folders() -> tuple[str, ...]:
    """The folders of installed code: the standard library and every site-packages."""
    paths = sysconfig.get_paths()
    folders = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")
               if key in paths}
    folders.update(site.getsitepackages())
    if site.ENABLE_USER_SITE and site.USER_SITE:
        folders.add(site.USER_SITE)
    return tuple(sorted(os.path.join(os.path.realpath(f), "") for f in folders))


def _imported_names(path: str, package: str) -> set[tuple[str, ...]]:
    """The modules the file's ``import`` statements name, each as the names it may have,
    the likeliest first: ``import a.b``: ``a.b``; ``from a import b``: ``a.b`` (a
    submodule), else ``a``. Parent packages run on the way are not named: a package's
    ``__init__`` counts where something is imported from it."""
    try:
        with open(path, "rb") as file:
            tree = ast.parse(file.read(), path)
    except (OSError, SyntaxError, ValueError):
        return set()
    names: set[tuple[str, ...]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((alias.name,) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module or "", node.level, package)
            if base is None:
                continue
            names.update((f"{base}.{alias.name}", base) if base else (alias.name,)
                         for alias in node.names if alias.name != "*")
            if any(alias.name == "*" for alias in node.names) and base:
                names.add((base,))
    return names


def _absolute(module: str, level: int, package: str) -> str | None:
    """The absolute name of ``from <level dots><module> import``, None if it leaves
    the package."""
    if not level:
        return module
    parts = package.split(".") if package else []
    if level - 1 >= len(parts):
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)
