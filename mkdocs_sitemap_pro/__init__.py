"""mkdocs-sitemap-pro: a correct sitemap for MkDocs sites.

Three layers, imports one way: ``cli`` -> ``plugin`` (the MkDocs layer) -> ``core``
(the protocol and git, knowing nothing of MkDocs). This module is the public Python API
and imports only the core, so using it needs no MkDocs build.
"""

from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry
from mkdocs_sitemap_pro.core.reader import SitemapFile, read_sitemap
from mkdocs_sitemap_pro.core.writer import WriteReport, write_sitemaps


def __getattr__(name: str) -> str:
    # ``__version__`` is looked up in the installed metadata only when asked for: a
    # build, which imports this package, never asks.
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("mkdocs-sitemap-pro")
    except PackageNotFoundError:  # running from a source tree that was never installed
        value = "0+unknown"
    globals()["__version__"] = value
    return value

__all__ = [
    "Alternate", "SitemapEntry", "SitemapFile", "WriteReport", "__version__",
    "read_sitemap", "write_sitemaps",
]
