"""MkDocs or ProperDocs: make ``import mkdocs`` work under either.

The MkDocs layer imports ``mkdocs.*`` and works unchanged under ProperDocs (the
maintained fork of MkDocs 1.x), because the ``properdocs`` command maps ``mkdocs.*`` to
``properdocs.*`` before it loads plugins. Outside that command (our own command line, a
test) where only ProperDocs is installed, nothing has set up that mapping yet: switch it
on here. Where MkDocs itself is installed it is used, and ProperDocs is never touched
(mixing the two in one process would mix their classes).
"""

from __future__ import annotations

import importlib.util


def _ensure_mkdocs() -> None:
    """Import ProperDocs' ``mkdocs`` alias if no ``mkdocs`` package is importable."""
    if importlib.util.find_spec("mkdocs") is not None:
        return
    if importlib.util.find_spec("properdocs") is not None:
        import properdocs.replacement  # noqa: F401  # maps mkdocs.* to properdocs.*


_ensure_mkdocs()
