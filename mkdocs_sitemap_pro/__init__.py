"""mkdocs-sitemap-pro: a correct sitemap for MkDocs sites.

The package splits into a pure core and a thin MkDocs layer:

- ``entry``: the plain value a sitemap URL is made of (``SitemapEntry``).
- ``protocol``: the sitemaps.org rules for single values (changefreq, priority, lastmod).
- ``urls``: RFC 3986 normalisation of a page URL into a sitemap ``<loc>``.
- ``generator``: entries -> sitemap files, split at the limits, with an index and gzip.
- ``git_history``: one pass over git history -> when each source file last changed.
- ``robots``: the one ``Sitemap:`` line in robots.txt.
- ``config`` / ``plugin``: the MkDocs options and hooks that tie the above together.
"""

from mkdocs_sitemap_pro.entry import Alternate, SitemapEntry

__all__ = ["Alternate", "SitemapEntry"]
