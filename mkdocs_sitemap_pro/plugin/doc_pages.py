"""The documentation pages of a finished build, listed once for all the steps that ask.

``Files.documentation_pages()`` walks every file and checks its inclusion each time it
is called (about 2.5 µs a file); after the build, the tracker, the collector and the
translations each ask for the same list. Used only once the file list is final (in
``on_post_build``: no plugin adds files after that), so the list is kept on the build's
own ``Files`` object while its length is unchanged: no state outlives the build.
"""

from __future__ import annotations

from collections.abc import Sequence

from mkdocs.structure.files import File, Files

__all__ = ["final_documentation_pages"]

_ATTRIBUTE = "_sitemap_pro_documentation_pages"


def final_documentation_pages(files: Files) -> Sequence[File]:
    """``files.documentation_pages()`` of a build's final file list (do not mutate it)."""
    kept: tuple[int, Sequence[File]] | None = getattr(files, _ATTRIBUTE, None)
    if kept is not None and kept[0] == len(files):
        return kept[1]
    pages = files.documentation_pages()
    setattr(files, _ATTRIBUTE, (len(files), pages))
    return pages
