"""Which tests run a real build, git or another process: the ``build`` marker's rule and
the guard that holds every other test to it.

The rule reads code, it runs none: a test is ``build`` when its function, its fixtures or
its parameters reach, through the names their code loads (globals, attributes of a module,
imports inside a function, methods of a class, a closure's cells), something that starts a
process or runs a build: :data:`PROCESS_MODULES` and :data:`PROCESS_CALLS`. It follows the
code of ``tests`` and of the package, never of other libraries. It over-approximates (a
name loaded on a branch not taken counts), so ``-m "not build"`` may leave out a quick
test; what it cannot see (a method found only at run time, a module named by a string)
the guard catches: a test not marked ``build`` that starts a process fails, naming it.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
import types
from collections.abc import Iterator
from typing import Any

#: Modules whose use starts a process or runs a build: anything loaded from them makes
#: a test ``build``. ``mkdocs_sitemap_pro.core.git.process`` is the one way the package
#: runs git; griffe runs git itself to date the packages it loads.
PROCESS_MODULES = (
    "griffe",
    "subprocess",
    "multiprocessing",
    "concurrent.futures.process",
    "pty",
    "mkdocs.commands",
    "mkdocs.__main__",
    "mkdocs_sitemap_pro.core.git.process",
)

#: The ids of the functions of ``os`` that start a process.
PROCESS_CALLS = frozenset(
    id(getattr(os, name))
    for name in dir(os)
    if name.startswith(("exec", "spawn", "posix_spawn", "fork"))
    or name in {"system", "popen"}
)

#: The audit events that start a process (https://docs.python.org/3/library/audit_events.html).
PROCESS_EVENTS = frozenset(
    {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
     "os.forkpty", "pty.spawn"}
)

#: The code followed: this project's (its tests and its package).
_FOLLOWED = ("tests", "mkdocs_sitemap_pro")


def _in(name: str | None, prefixes: tuple[str, ...]) -> bool:
    """Whether the module ``name`` is one of ``prefixes`` or inside one."""
    return name is not None and any(name == p or name.startswith(p + ".") for p in prefixes)


class _Import(str):
    """A module a function imports that is not imported yet: known by its name."""


def _module_of(obj: Any) -> str | None:
    """The module ``obj`` is, or comes from (a class's, a function's, an instance's)."""
    if isinstance(obj, _Import):
        return str(obj)
    if isinstance(obj, types.ModuleType):
        return obj.__name__
    module = getattr(obj, "__module__", None)
    return module if isinstance(module, str) else None


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _loaded(func: types.FunctionType) -> Iterator[Any]:
    """What ``func``'s code (nested functions included) may load: its closure's cells, and
    for each name the code holds (``co_names``: globals, attributes, imported modules) the
    global of that name, the module of that name, and that attribute of a module loaded."""
    glob = func.__globals__
    for cell in func.__closure__ or ():
        try:
            yield cell.cell_contents
        except ValueError:  # an empty cell
            pass
    for code in _codes(func.__code__):
        modules: list[types.ModuleType] = []
        for name in code.co_names:
            value = glob.get(name)
            if value is None:
                module = sys.modules.get(name)
                if module is None and _in(name, _FOLLOWED):
                    try:
                        module = importlib.import_module(name)
                    except ImportError:
                        module = None
                # A module imported inside a function may not be imported yet.
                value = module if module is not None else _Import(name)
            if isinstance(value, types.ModuleType):
                modules.append(value)
            yield value
        # Attribute names, on each module the code loads: ours followed (``history.load``),
        # others' only where they start a process (``os.system``, not ``sys.modules``).
        for module in modules:
            ours = _in(module.__name__, _FOLLOWED)
            for name in code.co_names:
                value = getattr(module, name, None)
                if value is not None and (ours or _starts_a_process(value)):
                    yield value


def _neighbours(obj: Any) -> Iterator[Any]:
    """What using ``obj`` may run, one step away."""
    if isinstance(obj, (str, bytes, int, float)):
        return
    if isinstance(obj, (types.MethodType, staticmethod, classmethod)):
        yield obj.__func__
    elif isinstance(obj, property):
        yield from (f for f in (obj.fget, obj.fset, obj.fdel) if f is not None)
    elif isinstance(obj, functools.partial):
        yield obj.func
        yield from obj.args
        yield from obj.keywords.values()
    elif isinstance(obj, types.FunctionType):
        if _in(obj.__module__, _FOLLOWED):
            yield from _loaded(obj)
        # What a decorator wraps: functools.wraps' and Hypothesis' inner test.
        for inner in (getattr(obj, "__wrapped__", None),
                      getattr(getattr(obj, "hypothesis", None), "inner_test", None)):
            if inner is not None:
                yield inner
    elif isinstance(obj, type):
        if _in(obj.__module__, _FOLLOWED):
            for klass in obj.__mro__:
                if _in(klass.__module__, _FOLLOWED):
                    yield klass
                    yield from vars(klass).values()
    elif isinstance(obj, (list, tuple, set, frozenset)):
        yield from obj
    elif isinstance(obj, dict):
        yield from obj.values()
    elif not isinstance(obj, types.ModuleType) and _in(type(obj).__module__, _FOLLOWED):
        yield type(obj)  # an instance of ours: its methods may run
        yield from getattr(obj, "__dict__", {}).values()


def _starts_a_process(obj: Any) -> bool:
    return id(obj) in PROCESS_CALLS or _in(_module_of(obj), PROCESS_MODULES)


def reaching(roots: list[Any]) -> set[int]:
    """The ids of the objects, among those reachable from ``roots``, from which a process
    or a build is reachable: the graph is walked once, then marked back from each
    object that starts one, so a session's tests cost one walk of the code they share."""
    callers: dict[int, list[Any]] = {}
    seen: set[int] = set()
    starters: list[Any] = []
    keep: list[Any] = []  # the objects behind the ids stay alive until the end
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        keep.append(obj)
        if _starts_a_process(obj):
            starters.append(obj)
            continue
        for nxt in _neighbours(obj):
            callers.setdefault(id(nxt), []).append(obj)
            if id(nxt) not in seen:
                stack.append(nxt)
    marked = {id(obj) for obj in starters}
    todo = list(starters)
    while todo:
        for caller in callers.get(id(todo.pop()), ()):
            if id(caller) not in marked:
                marked.add(id(caller))
                todo.append(caller)
    return marked


def roots_of(item: Any) -> list[Any]:
    """The code a test item runs: its function (a test method brings its class), its
    fixtures' functions and its parameters."""
    roots: list[Any] = [getattr(item, "obj", None)]
    cls = getattr(item, "cls", None)
    if cls is not None:
        roots.append(cls)
    for defs in item._fixtureinfo.name2fixturedefs.values():  # pytest has no public way yet
        roots.extend(fixturedef.func for fixturedef in defs)
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        roots.extend(callspec.params.values())
    return [r for r in roots if r is not None]


class ProcessGuard:
    """An audit hook, installed once a session, that fails a test not marked ``build``
    when it starts a process: the rule missed something, and says where."""

    def __init__(self) -> None:
        self.active: str | None = None  # the node id of the test being held to it
        self.caught: list[str] = []
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        if self.active is not None and event in PROCESS_EVENTS:
            self.caught.append(f"{event} {args[:2]!r}")
            raise RuntimeError(
                f"{self.active} is not marked build but started a process ({event}): "
                "tests/support/build_marker.py's rule missed what it runs"
            )
