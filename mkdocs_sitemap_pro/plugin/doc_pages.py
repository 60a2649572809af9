"""The documentation pages of a finished build, listed once for all the steps that ask.

``Files.documentation_pages()`` walks every file and checks its inclusion each time it
is called (about 2.5 µs a file); after the build, the tracker, the collector and the
translations each ask for the same list. Used only once the file list is final (in
``on_post_build``: no plugin adds files after that), so the list is kept for the
``Files`` object last asked about, while its length is unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

from mkdocs.structure.files import File, Files

__all__ = ["final_documentation_pages"]

_last: tuple[Files, int, Sequence[File]] | None = None


def final_documentation_pages(files: Files) -> Sequence[File]:
    """``files.documentation_pages()`` of a build's final file list (do not mutate it)."""
    global _last
    if _last is not None and _last[0] is files and _last[1] == len(files):
        return _last[2]
    pages = files.documentation_pages()
    _last = (files, len(files), pages)
    return pages
