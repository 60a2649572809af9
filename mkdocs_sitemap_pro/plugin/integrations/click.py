"""mkdocs-click: a page with a ``::: mkdocs-click`` block is dated by the command's code
(under ``dependencies: lines``, by its lines: ``click_lines``).

The extension imports ``:module:`` and renders ``:command:`` and its subcommands; the
module is usually imported long before (the project's own package), so no read is seen.
After the page converted (the extension has imported everything by then), the page's
Markdown is scanned for the blocks as the extension scans them, and every command it
rendered (hidden ones only with ``:show_hidden:``) gives the file of its callback, and of
its own class when that is not click's. Nothing is imported here: a module the page names
that is not in ``sys.modules`` (the extension failed) dates nothing. Relies on nothing
private of mkdocs-click: its block syntax and click's public command API.
"""

from __future__ import annotations

import inspect
import os
import re
import sys
from collections.abc import Iterator
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

__all__ = ["in_use", "command_files", "rendered_commands", "is_click", "modules_loaded",
           "imported_since"]

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
