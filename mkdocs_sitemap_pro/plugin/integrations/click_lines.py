"""mkdocs-click under ``dependencies: lines``: the lines of each command a page renders.

mkdocs-click shows a command's name, help (its docstring, or ``help=``), usage, epilog
and options (their declarations, help, types, defaults): all written in the callback's
decorators, signature and docstring, never in its body. So a command counts those lines
(from its first decorator through its docstring; without one, through its signature),
the module-level statements its decorators name (``type=click.Choice(LEVELS)``, a
``@common_options`` decorator) and the classes of the command, its parameters and their
types when they are not click's own. Nothing else of the module: an internal function
edited re-dates no page.

The lines are checked against what the command renders: every option's name and the
first words of every help text must be in them. A command whose text is not found there
(help built at run time, options added by a decorator imported from elsewhere), whose
callback is not found in its file as imported (the file changed since, under ``serve``)
or that has no callback is dated by its whole file, said at DEBUG.
"""

from __future__ import annotations

import ast
import inspect
import os
from types import ModuleType
from typing import Any, NamedTuple

from mkdocs_sitemap_pro.core.page.shown import merge_lines
from mkdocs_sitemap_pro.plugin.integrations.click import is_click, rendered_commands
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["command_lines"]

Ranges = list[tuple[int, int]]
_SNIPPET = 20  # characters of a help text's first line looked for in the lines counted


class _Source(NamedTuple):
    """One parsed source file."""

    lines: list[str]
    tree: ast.Module
    defs: dict[str, tuple[int, int]]  # module-level name -> the lines of its statement


def command_lines(markdown: str) -> tuple[set[str], dict[str, Ranges]]:
    """(Files counted whole, {file: the merged line ranges counted}) of every command the
    page's ``::: mkdocs-click`` blocks render."""
    whole: set[str] = set()
    parts: dict[str, Ranges] = {}
    sources: dict[str, _Source | None] = {}
    for module_file, commands in rendered_commands(markdown):
        for command in commands:
            found: dict[str, Ranges] = {}
            why = _command(command, sources, found, whole)
            if why is None:
                for path, ranges in found.items():
                    parts.setdefault(path, []).extend(ranges)
                continue
            fallback = _file_of(getattr(command, "callback", None)) or module_file
            log.debug(f"mkdocs-click command {getattr(command, 'name', None)!r}: {why}: "
                      f"dated by all of {fallback or 'its module (not found)'}")
            if fallback:
                whole.add(fallback)
    shown = {path: list(merge_lines(ranges)) for path, ranges in parts.items()
             if path not in whole and ranges}
    return whole, shown


def _command(command: Any, sources: dict[str, _Source | None], found: dict[str, Ranges],
             whole: set[str]) -> str | None:
    """Add to ``found`` the lines one command shows; None, or why they are not known."""
    callback = getattr(command, "callback", None)
    if callback is None:
        return "no callback"
    func = inspect.unwrap(callback)
    code = getattr(func, "__code__", None)
    path = _file_of(func)
    source = _parsed(path, sources) if path else None
    if code is None or path is None or source is None:
        return "its callback's source is not found"
    node = _function(source.tree, code.co_firstlineno, func.__name__)
    if node is None:
        return "its callback is not where it was when imported"
    # One list: the lines of classes defined in the same file join it, and are checked too.
    ranges = [_own_lines(node), *_decorator_lines(node, func, source)]
    found[path] = ranges
    params = list(getattr(command, "params", None) or ())
    for cls in {type(command), *(type(p) for p in params),
                *(type(getattr(p, "type", None)) for p in params)}:
        _class_lines(cls, found, whole)
    return _not_shown(command, params, ranges, source)


def _decorator_lines(node: ast.FunctionDef | ast.AsyncFunctionDef, func: Any,
                     source: _Source) -> Ranges:
    """The lines of the module-level statements the callback's decorators name (not
    modules such as ``click``, nor commands: those count where they are rendered)."""
    ranges: Ranges = []
    names = getattr(func, "__globals__", {})
    for decorator in node.decorator_list:
        for name in {n.id for n in ast.walk(decorator) if isinstance(n, ast.Name)}:
            value = names.get(name)
            if isinstance(value, ModuleType) or hasattr(value, "callback"):
                continue  # ``click``; a command (counted where it is rendered)
            if name in source.defs:
                ranges.append(source.defs[name])
    return ranges


def _not_shown(command: Any, params: list[Any], ranges: Ranges, source: _Source) -> str | None:
    """None if the lines counted hold what the command renders, else what they miss."""
    text = "\n".join(line for start, end in ranges for line in source.lines[start - 1:end])
    for snippet in _snippets(command, params):
        if snippet not in text:
            return f"{snippet!r} is not in its decorators, signature or docstring"
    return None


def _own_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int]:
    """First decorator through the docstring (without one: through the signature)."""
    start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    first = node.body[0]
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return start, first.end_lineno or first.lineno
    return start, max(node.lineno, first.lineno - 1)


def _function(tree: ast.Module, first: int, name: str,
              ) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The definition of ``name`` whose first line (first decorator's) is ``first``."""
    for node in ast.walk(tree):
        if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
                and min([node.lineno, *(d.lineno for d in node.decorator_list)]) == first):
            return node
    return None


def _class_lines(cls: Any, found: dict[str, Ranges], whole: set[str]) -> None:
    """A class of the command, a parameter or a type, where it is not click's own: its
    lines (all of them: its methods render the help)."""
    path = _file_of(cls)
    if path is None or is_click(path) or cls.__module__ == "builtins":
        return
    try:
        lines, start = inspect.getsourcelines(cls)
    except (OSError, TypeError):
        whole.add(path)
        return
    found.setdefault(path, []).append((max(start, 1), max(start, 1) + len(lines) - 1))


def _snippets(command: Any, params: list[Any]) -> list[str]:
    """What the command renders that its lines must hold: option names, the start of
    each help text."""
    out: list[str] = []
    texts = [getattr(command, key, None) for key in ("help", "short_help", "epilog")]
    for param in params:
        texts.append(getattr(param, "help", None))
        out.extend(str(opt) for opt in (*getattr(param, "opts", ()),
                                         *getattr(param, "secondary_opts", ())))
    for text in texts:
        if isinstance(text, str):
            first = next((ln.strip() for ln in inspect.cleandoc(text).splitlines()
                          if ln.strip() and ln.strip() != "\b"), "")
            if first:
                out.append(first[:_SNIPPET])
    return out


def _file_of(code: Any) -> str | None:
    """The file that defines a function or class."""
    if code is None:
        return None
    try:
        path = inspect.getsourcefile(code)
    except (TypeError, OSError, ValueError):
        return None
    return os.path.abspath(path) if path else None


def _parsed(path: str, sources: dict[str, _Source | None]) -> _Source | None:
    """``path`` read and parsed once per page (None: not readable, not Python)."""
    if path not in sources:
        try:
            with open(path, encoding="utf-8-sig") as handle:
                text = handle.read()
            tree = ast.parse(text)
        except (OSError, SyntaxError, ValueError):
            sources[path] = None
        else:
            sources[path] = _Source(text.splitlines(), tree, _definitions(tree))
    return sources[path]


def _definitions(tree: ast.Module) -> dict[str, tuple[int, int]]:
    """Each name a module-level statement binds, with that statement's lines."""
    defs: dict[str, tuple[int, int]] = {}
    for node in tree.body:
        span = (node.lineno, node.end_lineno or node.lineno)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            decorated = [d.lineno for d in node.decorator_list]
            defs[node.name] = (min([node.lineno, *decorated]), span[1])
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        defs[name.id] = span
    return defs
