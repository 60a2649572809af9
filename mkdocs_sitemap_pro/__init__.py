"""mkdocs-sitemap-pro: a correct sitemap for MkDocs sites.

Three layers, imports one way: ``cli`` -> ``plugin`` (the MkDocs layer) -> ``core``
(the protocol and git, knowing nothing of MkDocs). This module is the public Python API
and imports only the core, so using it needs no MkDocs build.
"""

from importlib.metadata import PackageNotFoundError, version

from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry
from mkdocs_sitemap_pro.core.reader import SitemapFile, read_sitemap
from mkdocs_sitemap_pro.core.writer import WriteReport, write_sitemaps

try:
    __version__ = version("mkdocs-sitemap-pro")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "Alternate", "SitemapEntry", "SitemapFile", "WriteReport", "__version__",
    "read_sitemap", "write_sitemaps",
]
