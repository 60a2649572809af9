"""A file's stamp: (mtime, size, inode) tells cheaply whether it is still the one seen."""

from __future__ import annotations

import os

__all__ = ["Stamp", "file_stamp"]

Stamp = tuple[int, int, int]  # (mtime_ns, size, inode)


def file_stamp(path: str | os.PathLike[str]) -> Stamp | None:
    """The file's (mtime_ns, size, inode), or None if it cannot be stat'ed."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)
