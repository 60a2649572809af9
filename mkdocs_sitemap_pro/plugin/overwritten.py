"""Pages whose HTML another page of the same build overwrote: not listed.

Two pages can build to one file: mkdocs-static-i18n builds a site's non-localised
``README.md`` and the default language's ``en/index.md`` both to ``index.html``
(OWASP's Top 10 site). MkDocs writes its pages in file order, so the last of them is the
one on disk, and the sitemap entry for that URL must be its own (its date, its hreflang
alternates), whatever the dates of the others. Knows MkDocs' files, nothing of git or XML.
"""

from __future__ import annotations

from collections.abc import Sequence

from mkdocs.structure.files import File

from mkdocs_sitemap_pro.plugin.pages import Collection

__all__ = ["leave_out_overwritten", "overwritten_pages"]


def overwritten_pages(pages: Sequence[File]) -> dict[str, str]:
    """Each page (of a build's documentation ``pages``, in file order) whose HTML a later
    page overwrote: src_uri -> why."""
    last = {file.dest_uri: file.src_uri for file in pages}  # the page written last wins
    if len(last) == len(pages):
        return {}  # the usual site: every page has a file of its own
    return {
        file.src_uri: (
            f"overwritten by '{last[file.dest_uri]}' (both build to {file.dest_uri}, "
            "and MkDocs writes that page last)"
        )
        for file in pages
        if last[file.dest_uri] != file.src_uri
    }


def leave_out_overwritten(found: Collection, pages: Sequence[File]) -> None:
    """Move the pages another page overwrote from the listed pages to the left-out."""
    gone = overwritten_pages(pages)
    if not gone:
        return
    for page in found.pages:
        if page.src_uri in gone:
            found.left_out[page.src_uri] = gone[page.src_uri]
    found.pages = [page for page in found.pages if page.src_uri not in gone]
