"""The MkDocs layer: turns an MkDocs build into core inputs (pages, dates), then calls the
core.

The main path: ``plugin`` holds the hooks -> ``build`` the one per-build object (``config``
its options, ``pages`` which pages are listed and what each says, ``dependencies`` what each
shows, ``history`` the git history map, ``deploys`` dates carried between deploys) -> the
core's ``dating`` each page's lastmod -> ``pipeline`` the steps after the build (``output``:
the site's hooks, the date on the page, the theme, the feed, the key file, validation) ->
the core's writer. ``report`` says every message, ``serve`` keeps what ``mkdocs serve``
reuses, ``mkdocs_internals`` reaches what MkDocs does not document, ``integrations`` is one
module per other plugin, ``standalone`` the ``build`` command after another builder.

Imported first: make ``import mkdocs`` work under either MkDocs or ProperDocs. The MkDocs
layer works unchanged under ProperDocs (the maintained fork of MkDocs 1.x), because the
``properdocs`` command maps ``mkdocs.*`` to ``properdocs.*`` before it loads plugins.
Outside that command (our own command line, a test) where only ProperDocs is installed,
nothing has set up that mapping yet: it is switched on here. Where MkDocs itself is
installed it is used, and ProperDocs is never touched (mixing the two in one process would
mix their classes).
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
