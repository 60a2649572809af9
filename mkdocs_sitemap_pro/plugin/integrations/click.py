"""mkdocs-click: a page with a ``::: mkdocs-click`` block is dated by the command's code
(under ``dependencies: lines``, by its lines: ``command_lines`` below).

The extension imports ``:module:`` and renders ``:command:`` and its subcommands; the
module is usually imported long before (the project's own package), so no read is seen.
After the page converted (the extension has imported everything by then), the page's
Markdown is scanned for the blocks as the extension scans them, and every command it
rendered (hidden ones only with ``:show_hidden:``) gives the file of its callback, and of
its own class when that is not click's. Nothing is imported here: a module the page names
that is not in ``sys.modules`` (the extension failed) dates nothing. Relies on nothing
private of mkdocs-click: its block syntax and click's public command API.

Under ``dependencies: lines``, the lines of each command a page renders.
"""

from __future__ import annotations

import ast
import inspect
import os
import re
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any, NamedTuple

from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.core.page.shown import merge_lines
from mkdocs_sitemap_pro.plugin.report import log

__all__ = [
    "in_use", "command_files", "rendered_commands", "is_click", "modules_loaded",
    "imported_since", "command_lines",
]

_EXTENSION = "mkdocs-click"
_MARK = "::: mkdocs-click"
# The extension's block syntax: a header line, then ``:key: value`` lines, indented.
_HEADER = re.compile(r"^::: mkdocs-click")
_OPTION = re.compile(r"^\s+:(?P<key>.+):(?:\s+(?P<value>.*\S))?")


def in_use(config: MkDocsConfig) -> bool:
    """Whether the mkdocs-click Markdown extension is configured."""
    return any(
        (ext if isinstance(ext, str) else "") in (_EXTENSION, "mkdocs_click")
        for ext in config.markdown_extensions
    )


def command_files(markdown: str) -> set[str]:
    """The source files of every command the page's ``::: mkdocs-click`` blocks render."""
    files: set[str] = set()
    for module_file, commands in rendered_commands(markdown):
        if module_file:
            files.add(module_file)
        for command in commands:
            for code in (getattr(command, "callback", None), type(command)):
                path = _source_file(code)
                if path is not None and not is_click(path):
                    files.add(path)
    return files


def modules_loaded() -> frozenset[str]:
    """The names of the modules imported so far (before a page converts)."""
    return frozenset(sys.modules)


def imported_since(before: frozenset[str]) -> set[str]:
    """The source files of the modules imported since ``before``: the extension imports
    ``:module:`` (and what it imports) while the page converts, and those reads are the
    import's, not something the page shows."""
    files: set[str] = set()
    for name in set(sys.modules) - before:
        path = getattr(sys.modules.get(name), "__file__", None)
        if isinstance(path, str):
            files.add(os.path.abspath(path))
    return files


def rendered_commands(markdown: str) -> list[tuple[str | None, list[Any]]]:
    """Per ``::: mkdocs-click`` block of the page: (the file of its ``:module:``, every
    command it renders, subcommands included)."""
    found: list[tuple[str | None, list[Any]]] = []
    if _MARK not in markdown:
        return found
    for options in _blocks(markdown):
        module = sys.modules.get(str(options.get("module", "")))
        command = getattr(module, str(options.get("command", "")), None)
        if module is None or command is None:
            continue
        module_file = getattr(module, "__file__", None)
        commands: list[Any] = []
        _walk(command, options.get("show_hidden") is True, commands, set())
        found.append((os.path.abspath(module_file) if module_file else None, commands))
    return found


def _blocks(markdown: str) -> Iterator[dict[str, Any]]:
    """The options of each block (``true``/``false`` values as booleans), as the
    extension reads them: a block ends at its first line that is not an option."""
    options: dict[str, Any] | None = None
    for line in markdown.split("\n"):
        if options is not None:
            match = _OPTION.search(line)
            if match is not None:
                value: Any = match.group("value") or ""
                if value.lower() in ("true", "false"):
                    value = value.lower() == "true"
                options[match.group("key")] = value
                continue
            yield options
            options = None
            continue  # the line that ends a block never starts one
        if _HEADER.search(line):
            options = {}
    if options is not None:
        yield options


def _walk(command: Any, show_hidden: bool, commands: list[Any], seen: set[int]) -> None:
    """Add ``command`` and the subcommands the extension renders under it."""
    if id(command) in seen or (getattr(command, "hidden", False) and not show_hidden):
        return  # a hidden command is left out with everything under it
    seen.add(id(command))
    commands.append(command)
    for sub in _subcommands(command):
        _walk(sub, show_hidden, commands, seen)


def _subcommands(command: Any) -> list[Any]:
    """A group's commands: its ``commands``, or what a lazy group lists and loads."""
    commands = getattr(command, "commands", None)
    if commands:
        return list(commands.values())
    if not hasattr(command, "list_commands"):
        return []
    import click  # the extension's own dependency, present whenever it is in use

    try:
        context = click.Context(command)
        found = [command.get_command(context, name) for name in command.list_commands(context)]
    except Exception:  # noqa: BLE001 - the user's lazy loader; the extension would have failed
        return []
    return [sub for sub in found if sub is not None]


def _source_file(code: Any) -> str | None:
    """The file that defines a callback (through its decorators' wrappers) or a class."""
    if code is None:
        return None
    try:
        path = inspect.getsourcefile(inspect.unwrap(code))
    except (TypeError, OSError, ValueError):
        return None
    return os.path.abspath(path) if path else None


def is_click(path: str) -> bool:
    """Whether a file is part of click itself (its decorators, its Group class)."""
    click = sys.modules.get("click")
    folder = os.path.dirname(getattr(click, "__file__", "") or "")
    return bool(folder) and path.startswith(os.path.join(folder, ""))


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
