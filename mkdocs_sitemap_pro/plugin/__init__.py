"""The MkDocs layer: turns an MkDocs build into core inputs (pages, dates), then calls the core.

``plugin`` holds the hooks, ``build`` the one per-build object, ``config`` the options,
``build_history`` the git history map, ``dependencies`` what pages show, ``pages`` which
pages are listed (``core.dating`` dates them), ``pipeline`` the steps after the build,
``report`` every message, ``theme`` what the theme does with sitemaps, ``integrations``
one module per other plugin, ``standalone`` the ``build`` command after another builder.
"""

from mkdocs_sitemap_pro.plugin import compat  # noqa: F401  # first: MkDocs or ProperDocs
