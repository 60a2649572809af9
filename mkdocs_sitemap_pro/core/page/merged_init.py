"""Which ``__init__`` mkdocstrings-python shows in a class with ``merge_init_into_class``,
by the installed handler's version (read from its ``class`` template of each release):

- before 1.7.1, the class's own ``__init__`` only (``class.members``): a class that
  inherits its ``__init__`` shows none of it;
- 1.7.1 to 1.12, ``class.all_members``: an inherited ``__init__`` too, signature,
  docstring and source;
- from 1.13 on (2.x too), the signature and source of ``all_members``' ``__init__``, but
  its docstring only when it is the class's own or ``inherited_members`` selects it
  (``true``, or a list naming ``__init__``).

A version that cannot be read counts as the newest rule. Objects are duck-typed (griffe's
``members``, ``all_members``): griffe is never imported here.
"""

from __future__ import annotations

import re
from typing import Any, Literal

__all__ = ["InitRule", "NEWEST", "rule_for", "installed_version", "merged_init",
           "selects_init"]

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
