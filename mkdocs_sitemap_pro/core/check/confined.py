"""Reading files of a local site folder, and nothing outside it.

A sitemap is untrusted input: a ``<loc>`` of ``…//etc/passwd`` or ``…/%2Froot/x``, a
``..`` segment, or a symlink in the folder would otherwise make ``check`` stat, open
and parse files anywhere on the machine, and tell which exist. Every path is resolved
(symlinks followed) and refused unless it stays inside the folder; only regular files
are opened (a FIFO would block ``open`` forever), and with ``O_NONBLOCK`` in case one is
swapped in after the look.
"""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs_sitemap_pro.core.regular import NotRegular, read_regular

__all__ = ["NotRegular", "Outside", "inside", "read_regular"]


class Outside(ValueError):
    """A path that leads outside the folder (absolute, ``..``, or through a symlink)."""


def inside(root: Path, rel: str) -> Path:
    """``root/rel`` with every symlink resolved; ``Outside`` unless it stays in ``root``
    (itself resolved). ``rel`` is a relative POSIX path; an absolute one, a ``..``
    segment or a NUL byte is refused without touching the file system."""
    if rel.startswith("/") or "\x00" in rel or ".." in rel.split("/"):
        raise Outside(f"{rel} leads outside the folder")
    real = Path(os.path.realpath(root.joinpath(rel)))
    if real != root and root not in real.parents:
        raise Outside(f"{rel} leads outside the folder (through a symbolic link)")
    return real
