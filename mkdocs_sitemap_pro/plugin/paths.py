"""Files by path: one ``Path`` object per path string, and a file's stamp.

A build turns the same thousands of source paths into ``Path`` objects in several
places (the git read, the dependency tracker, the page collector, the dating), and
``Path()`` parsing is a measurable part of a ``mkdocs serve`` rebuild. Paths are
immutable, so sharing them is safe; the cache is bounded. A stamp (mtime, size, inode)
tells cheaply whether a file is still the one seen before.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

__all__ = ["Stamp", "file_stamp", "path_of"]

Stamp = tuple[int, int, int]  # (mtime_ns, size, inode)


@lru_cache(maxsize=1 << 16)
def path_of(text: str) -> Path:
    """``Path(text)``, the same object for the same string."""
    return Path(text)


def file_stamp(path: str | os.PathLike[str]) -> Stamp | None:
    """The file's (mtime_ns, size, inode), or None if it cannot be stat'ed."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)
