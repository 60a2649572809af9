"""mkdocs-sitemap-pro: a correct sitemap for MkDocs sites.

Three layers, imports one way: ``cli`` -> ``plugin`` (the MkDocs layer) -> ``core``
(the protocol and git, knowing nothing of MkDocs). This module is the public Python API
and imports only the core, so using it needs no MkDocs build.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry
    from mkdocs_sitemap_pro.core.reader import SitemapFile, read_sitemap
    from mkdocs_sitemap_pro.core.writer import WriteOptions, WriteReport, write_sitemaps

# Loaded when first asked for, not by everything that imports a module of this package:
# the reader brings lxml, which a build that only writes needs not import.
_FROM = {
    "Alternate": "mkdocs_sitemap_pro.core.entry",
    "SitemapEntry": "mkdocs_sitemap_pro.core.entry",
    "SitemapFile": "mkdocs_sitemap_pro.core.reader",
    "read_sitemap": "mkdocs_sitemap_pro.core.reader",
    "WriteOptions": "mkdocs_sitemap_pro.core.writer",
    "WriteReport": "mkdocs_sitemap_pro.core.writer",
    "write_sitemaps": "mkdocs_sitemap_pro.core.writer",
}


def __getattr__(name: str) -> Any:
    # ``__version__``: a look into the installed metadata, also when first asked for.
    if name in _FROM:
        value: Any = getattr(import_module(_FROM[name]), name)
    elif name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("mkdocs-sitemap-pro")
        except PackageNotFoundError:  # a source tree that was never installed
            value = "0+unknown"
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value

__all__ = [
    "Alternate", "SitemapEntry", "SitemapFile", "WriteOptions", "WriteReport", "__version__",
    "read_sitemap", "write_sitemaps",
]
