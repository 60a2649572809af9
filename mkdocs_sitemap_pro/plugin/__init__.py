"""The MkDocs layer: turns an MkDocs build into core inputs (pages, dates), then calls the core.

``plugin`` holds the hooks, ``config`` the options, ``history`` the git history map,
``dependencies`` what pages show, ``pages`` which pages are listed, ``dating`` their lastmod, ``pipeline`` the steps after the build, ``report`` every
message, ``theme`` what the theme does with sitemaps, ``integrations`` one module per
other plugin.
"""

from mkdocs_sitemap_pro.plugin import compat  # noqa: F401  # first: MkDocs or ProperDocs
