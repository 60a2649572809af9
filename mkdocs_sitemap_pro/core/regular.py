"""Reading a file only when it is a regular one.

A FIFO where a file is expected (a cache file, a key file, a manifest, a page a sitemap
lists) would block ``open`` for ever, and a device (``/dev/zero``) never ends. The file is
looked at first, opened with ``O_NONBLOCK`` in case one is swapped in after the look, and
looked at again once open. Kept apart from the checker, which uses it too, so that a
build loads no checker to read its cache.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["NotRegular", "read_regular"]

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class NotRegular(OSError):
    """A path that names something other than a regular file or a folder (a FIFO, a device)."""


def read_regular(path: Path, limit: int | None) -> bytes | None:
    """The first ``limit + 1`` bytes (all, if None) of the regular file at ``path``; None
    if there is none (or it is a folder); ``NotRegular`` for anything else; ``OSError``."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISDIR(mode):
        return None
    if not stat.S_ISREG(mode):
        raise NotRegular(f"{path} is not a regular file")
    descriptor = os.open(path, _FLAGS)
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise NotRegular(f"{path} is not a regular file")
        return handle.read() if limit is None else handle.read(limit + 1)
