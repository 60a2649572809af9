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
import stat
from pathlib import Path

from mkdocs_sitemap_pro.core.regular import NotRegular, read_regular

__all__ = ["NotRegular", "Outside", "inside", "read_regular"]


class Outside(ValueError):
    """A path that leads outside the folder (absolute, ``..``, or through a symlink)."""


#: Resolved folders remembered by ``inside`` (then forgotten, all at once).
_FOLDERS_KEPT = 4_096
#: Deeper paths are resolved by ``os.path.realpath`` alone.
_DEEPEST_REMEMBERED = 64


def inside(root: Path, rel: str, folders: dict[str, str] | None = None) -> Path:
    """``root/rel`` with every symlink resolved; ``Outside`` unless it stays in ``root``
    (itself resolved). ``rel`` is a relative POSIX path; an absolute one, a ``..``
    segment or a NUL byte is refused without touching the file system. ``folders``
    remembers the folders resolved on the way, for the next call (``check`` asks once
    per listed URL, half a million times in a hostile sitemap)."""
    if rel.startswith("/") or "\x00" in rel or ".." in rel.split("/"):
        raise Outside(f"{rel} leads outside the folder")
    top = str(root)
    if folders is None or rel.count("/") > _DEEPEST_REMEMBERED:
        real = os.path.realpath(os.path.join(top, rel))
    else:
        real = _resolved(top, rel, folders)
    # A string test: ``root in Path(real).parents`` builds every parent.
    if real != top and not real.startswith(top if top.endswith(os.sep) else top + os.sep):
        raise Outside(f"{rel} leads outside the folder (through a symbolic link)")
    return Path(real)


def _resolved(top: str, rel: str, folders: dict[str, str]) -> str:
    """``os.path.realpath(top/rel)`` for a resolved ``top``, one ``lstat`` per name not
    under a folder in ``folders`` (which learns the folders on the way)."""
    names = rel.split("/")
    known = len(names) - 1  # names[:known] is the folder that holds the last name
    while known > 0 and "/".join(names[:known]) not in folders:
        known -= 1
    real = folders["/".join(names[:known])] if known else top
    for position in range(known, len(names)):
        name = names[position]
        if name not in ("", "."):
            path = os.path.join(real, name)
            try:
                linked = stat.S_ISLNK(os.lstat(path).st_mode)
            except (OSError, ValueError):
                linked = False  # as ``realpath`` does: the rest is taken as written
            real = os.path.realpath(path) if linked else path
        if position < len(names) - 1:
            if len(folders) >= _FOLDERS_KEPT:
                folders.clear()
            folders["/".join(names[: position + 1])] = real
    return real
