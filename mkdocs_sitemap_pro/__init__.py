"""mkdocs-sitemap-pro: a correct sitemap for MkDocs sites.

Three layers, imports one way: ``cli`` -> ``plugin`` (the MkDocs layer) -> ``core``
(the protocol and git, knowing nothing of MkDocs). This module is the public Python API
and imports only the core, so using it needs no MkDocs build.
"""

from typing import TYPE_CHECKING, Any

from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry
from mkdocs_sitemap_pro.core.writer import WriteReport, write_sitemaps

if TYPE_CHECKING:
    from mkdocs_sitemap_pro.core.reader import SitemapFile, read_sitemap


def __getattr__(name: str) -> Any:
    # Loaded when first asked for, not by every build that imports this package: the
    # reader (it brings lxml) and ``__version__`` (a look into the installed metadata).
    if name in ("SitemapFile", "read_sitemap"):
        from mkdocs_sitemap_pro.core import reader

        value: Any = getattr(reader, name)
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
    "Alternate", "SitemapEntry", "SitemapFile", "WriteReport", "__version__",
    "read_sitemap", "write_sitemaps",
]
