"""Entries -> sitemap files (see ``write`` for the pipeline, one module per step)."""

from mkdocs_sitemap_pro.core.writer.items import Dropped
from mkdocs_sitemap_pro.core.writer.options import WriteOptions
from mkdocs_sitemap_pro.core.writer.write import WriteReport, write_sitemaps

__all__ = ["Dropped", "WriteOptions", "WriteReport", "write_sitemaps"]
