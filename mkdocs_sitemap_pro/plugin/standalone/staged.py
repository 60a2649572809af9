"""``build`` on a staged copy of the docs: copies dated by their tracked twins, and by
the tracked files of the lines a copy adds (``plugin.copies``), and a WARNING when most
pages still have no source git tracks.

What is left untracked is said once per build, because a sitemap whose pages are mostly
undated is rarely what the user meant (FastAPI's script builds from a git-ignored copy).
"""

from __future__ import annotations

import os

from mkdocs.structure.files import Files

from mkdocs_sitemap_pro.core.git import GitHistory
from mkdocs_sitemap_pro.core.page.shown import Dependencies
from mkdocs_sitemap_pro.plugin.copies import date_copies, page_sources, with_added
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["date_staged"]


def date_staged(history: GitHistory, files: Files, dependencies: Dependencies | None,
                timeout: float) -> Dependencies | None:
    """Date untracked page sources and includes by their twins; then warn (once) if more
    than half of the pages are still untracked. Returns ``dependencies`` with the files
    of the lines copies add (unless ``dependencies: false``: pages by their source)."""
    sources = page_sources(files)
    copies = date_copies(history, sources,
                         dependencies.pages if dependencies is not None else {}, timeout)
    if dependencies is not None and (copies.added or copies.unexplained):
        dependencies = dependencies._replace(
            pages=with_added(dependencies.pages, files, copies.added),
            unexplained=copies.unexplained_pages(files))
    untracked = [path for path in sources if not history.tracked(path)]
    if history.top is not None and len(untracked) * 2 > len(sources):
        log.warning(
            f"{len(untracked):,} of {len(sources):,} pages are undated: their sources "
            f"(in {os.path.commonpath(untracked)}) are not tracked in the git repository "
            f"at {history.top} and are no copy of a file it tracks at HEAD (a copied or "
            "generated docs folder?); run the build from the tracked docs folder, or "
            "commit the sources"
        )
    return dependencies
