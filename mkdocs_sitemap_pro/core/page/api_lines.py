"""Which lines of which source file a griffe object shows when mkdocstrings renders it:
one rule for the plugin (objects mkdocstrings collected) and ``build`` (objects griffe
loads from the config's handler options), so the two agree by construction.

The lines are griffe's (``lineno``, which for a decorated object is its first decorator's
line, ``endlineno``, its docstring's, its members'), never parsed from the source: a
function or class shows its signature, decorators included, and its docstring; a
function without a docstring all of it (where its signature ends is not known); a class
without one up to its first member; an attribute its whole statement (its value is
shown) and its docstring; a module its docstring. With ``show_source`` every object shows
all its lines; with ``merge_init_into_class`` a class shows the ``__init__`` the
installed handler merges (``core/page/api_lines.py``: its own, or an inherited one's
signature and, as that version shows it, docstring). A
docstring whose lines griffe does not know (griffe-typingdoc builds docstrings from
``Doc()`` annotations, without lines) counts as the object's own lines, signature through
its end: more lines than shown, never the whole file. An object whose own lines griffe
does not know (inspected, no ``lineno``) shows its whole file.

Objects are only duck-typed: griffe is never imported here.

Also which ``__init__`` mkdocstrings-python shows with ``merge_init_into_class``, by the
installed handler's version.
"""

from __future__ import annotations

import os
import re
from typing import Any, Literal

__all__ = [
    "Ranges", "add_shown", "source_files", "shown_lines", "InitRule", "NEWEST", "rule_for",
    "installed_version", "merged_init", "selects_init",
]


InitRule = Literal["own", "all", "selected"]
NEWEST: InitRule = "selected"
_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def rule_for(version: str | None) -> InitRule:
    """The rule of mkdocstrings-python ``version`` (None or unreadable: the newest)."""
    found = _VERSION.match(version or "")
    if found is None:
        return NEWEST
    release = tuple(int(part or 0) for part in found.groups())
    if release < (1, 7, 1):
        return "own"
    if release < (1, 13, 0):
        return "all"
    return "selected"


def installed_version() -> str | None:
    """The installed mkdocstrings-python's version (None: not installed)."""
    from importlib import metadata

    try:
        return metadata.version("mkdocstrings-python")
    except metadata.PackageNotFoundError:
        return None


def selects_init(inherited_members: object) -> bool:
    """Whether an ``inherited_members`` value selects an inherited ``__init__``."""
    if inherited_members is True:
        return True
    if isinstance(inherited_members, (list, tuple, set, frozenset)):
        return "__init__" in inherited_members
    return False


def merged_init(cls: Any, rule: InitRule, inherited_selected: bool) -> tuple[Any, bool]:
    """(The ``__init__`` whose signature the class shows (None: none), whether its
    docstring is shown too)."""
    own = cls.members.get("__init__")
    if rule == "own":
        return own, True
    init = cls.all_members.get("__init__")
    if init is None or rule == "all":
        return init, True
    return init, own is not None or inherited_selected

Ranges = list[tuple[int, int]]


def source_files(obj: Any, where: dict[Any, list[str]]) -> tuple[Any, bool, list[str]]:
    """(The object's final target, whether it has several paths (a namespace package's
    folders), the files that define it): an alias is dated by its final target's file.
    ``where``: the files found for each ``filepath`` so far."""
    try:
        target = obj.final_target if getattr(obj, "is_alias", False) else obj
        filepath = target.filepath
    except Exception:  # noqa: BLE001 - an alias that cannot be resolved, a cycle
        return None, False, []
    several = isinstance(filepath, list)
    key = tuple(filepath) if several else filepath
    files = where.get(key)
    if files is None:
        paths = filepath if several else [filepath]
        files = where[key] = [os.path.abspath(p) for p in paths
                              if p is not None and os.path.isfile(p)]
    return target, several, files


def add_shown(obj: Any, show_source: bool, merge_init: bool, where: dict[Any, list[str]],
              files: set[str], parts: dict[str, Ranges], *, init_rule: InitRule = NEWEST,
              inherited_init: bool = False) -> None:
    """Add what ``obj`` shows (``shown_lines``) to ``files`` (shown whole) and ``parts``
    (file -> the line ranges shown, unmerged)."""
    for path, ranges in shown_lines(obj, show_source, merge_init, where,
                                    init_rule=init_rule, inherited_init=inherited_init):
        if ranges is None:
            files.add(path)
        else:
            parts.setdefault(path, []).extend(ranges)


def shown_lines(obj: Any, show_source: bool, merge_init: bool, where: dict[Any, list[str]],
                *, init_rule: InitRule = NEWEST, inherited_init: bool = False,
                ) -> list[tuple[str, Ranges | None]]:
    """(file, the lines of it the object shows; None: all of it), for an object rendered
    (an alias: its final target, where it is defined). ``init_rule``: which ``__init__``
    the installed handler merges into a class; ``inherited_init``: the block's
    ``inherited_members`` selects ``__init__`` (see ``core/page/api_lines.py``)."""
    target, several, files = source_files(obj, where)
    if len(files) != 1 or several:
        return [(path, None) for path in files]  # none; a namespace package's folders
    path = files[0]
    try:
        doc = target.docstring
        owner = _docstring_owner(target, doc)
        is_function = getattr(target, "is_function", False)
        ranges = _own_lines(target, show_source, None if owner is not None else doc,
                            is_function)
        if ranges is None:
            return [(path, None)]
        out: list[tuple[str, Ranges | None]] = [(path, ranges)]
        if owner is not None:  # a docstring taken from another object (inherited)
            out.extend(_docstring_elsewhere(owner, doc, where))
        if is_function:
            # A function's overloads: their signatures too (a class's ``overloads`` is a
            # dict of its members', counted with those members).
            for overload in getattr(target, "overloads", None) or ():
                out.extend(shown_lines(overload, True, False, where))
        elif merge_init and getattr(target, "is_class", False):
            init, with_doc = merged_init(target, init_rule, inherited_init)
            if init is not None and with_doc:
                out.extend(shown_lines(init, show_source, False, where))
            elif init is not None:  # its signature (and source), not its docstring
                out.extend(_signature_lines(init, show_source, where))
        return out
    except Exception:  # noqa: BLE001 - never fewer lines than shown: the whole file
        return [(path, None)]


def _own_lines(target: Any, show_source: bool, doc: Any, is_function: bool) -> Ranges | None:
    """The lines of its own file an object shows (None: not known); ``doc``: its
    docstring, if written there (one taken from another object is counted in its
    owner's file)."""
    is_module = not is_function and getattr(target, "is_module", False)
    if doc is not None and (doc.lineno is None or doc.endlineno is None):
        # griffe-typingdoc: a docstring made from annotations, without lines; the
        # object's own lines (signature through its end) hold them.
        if is_module:
            return None
        show_source, doc = True, None
    doc_lines: Ranges = [] if doc is None else [(doc.lineno, doc.endlineno)]
    if is_module:
        return doc_lines  # its docstring only: a module's source is not shown
    span = _span(target)
    if span is None:
        return None
    return _shown_of_span(target, span, show_source, doc, doc_lines, is_function)


def _span(target: Any) -> tuple[int, int] | None:
    """An object's first line (its first decorator's, if any) and last line, as griffe
    knows them (None: it does not)."""
    start, end = target.lineno, target.endlineno
    if start is None or end is None:
        return None
    for decorator in getattr(target, "decorators", None) or ():
        if decorator.lineno is not None:
            start = min(start, decorator.lineno)
    return start, end


def _shown_of_span(target: Any, span: tuple[int, int], show_source: bool, doc: Any,
                   doc_lines: Ranges, is_function: bool) -> Ranges:
    """The lines of ``span`` (an object's, decorators included) it shows, with its
    docstring's ``doc_lines``: all of them with its source or for an attribute, else
    its signature and docstring."""
    start, end = span
    is_class = not is_function and getattr(target, "is_class", False)
    if show_source or not (is_class or is_function):
        return [(start, end), *doc_lines]  # an attribute's value is shown, a type alias's
    if doc is not None and start <= doc.lineno <= end:
        return [(start, doc.endlineno)]  # signature, then docstring
    if is_class:
        return [(start, _head_end(target, end)), *doc_lines]
    return [(start, end), *doc_lines]  # where a function's signature ends is not known


def _head_end(target: Any, end: int) -> int:
    """The last line of a class without a docstring that is shown: the one before its
    first member (not an alias), else its last line."""
    firsts = [m.lineno for m in target.members.values()
              if not getattr(m, "is_alias", False) and m.lineno is not None
              and target.lineno < m.lineno <= end]
    return min(firsts) - 1 if firsts else end


def _signature_lines(function: Any, show_source: bool, where: dict[Any, list[str]],
                     ) -> list[tuple[str, Ranges | None]]:
    """A function's decorators and signature: up to its docstring, where griffe knows
    it (else all of it); with ``show_source`` all of it."""
    target, several, files = source_files(function, where)
    if len(files) != 1 or several:
        return [(path, None) for path in files]
    lines = _own_lines(target, True, None, True)
    if lines is None:
        return [(files[0], None)]
    start, end = lines[0]
    doc = getattr(target, "docstring", None)
    if not show_source and doc is not None and doc.lineno is not None and start < doc.lineno <= end:
        end = doc.lineno - 1
    return [(files[0], [(start, end)])]


def _docstring_owner(target: Any, doc: Any) -> Any:
    """The object the docstring ``doc`` of ``target`` was written for, when it is not
    ``target`` (None: it is, or there is none)."""
    parent = getattr(doc, "parent", None) if doc is not None else None
    if parent is None or parent is target:
        return None
    return parent


def _docstring_elsewhere(owner: Any, doc: Any, where: dict[Any, list[str]],
                         ) -> list[tuple[str, Ranges | None]]:
    target, _, files = source_files(owner, where)
    if doc.lineno is None or doc.endlineno is None:  # the owner's own lines hold it
        lines = _own_lines(target, True, None, getattr(target, "is_function", False))
        return [(path, lines) for path in files]
    return [(path, [(doc.lineno, doc.endlineno)]) for path in files]
