"""Copied sources: an untracked file dated by the tracked file it is a byte copy of.

Build scripts copy the docs folder somewhere git ignores (FastAPI's
``site_zensical_src/en/content``) and build from there. Git knows none of the copies,
but a copy holds the same bytes as a file HEAD tracks, so it has the same object id:
``git hash-object --stdin-paths`` (one process for every untracked file) gives the
copies' ids (through the repository's filters, as ``git add`` would), the history map's
``objects`` (from its ``ls-tree``) the tracked files'.

Of several tracked files with the same content, the twin is the one sharing the longest
path suffix with the copy (``tutorial/a.md`` for ``.../content/tutorial/a.md``), then the
most folder names with the copy's path from the top level (``es`` for a Spanish copy in
``site_zensical_src/es/content/``: an untranslated page is dated by its own language's
file, ``docs/es/docs/...``, not by the English one it equals), then the one git dates
newest, then the first by name: the same answer on every build.

An empty file is no copy of anything: every empty file has the same id (the empty
blob), and so does a file that lies about its size (``/proc/cpuinfo`` has a size of 0,
so git hashes nothing of it). The empty blob never makes a twin.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Mapping

from mkdocs_sitemap_pro.core.git.answers import Known
from mkdocs_sitemap_pro.core.git.history import GitHistory
from mkdocs_sitemap_pro.core.git.process import GitProcesses, run_git

__all__ = ["adopt_twins", "likeness"]

# The empty blob's id in a SHA-1 and in a SHA-256 repository ("blob 0\0" hashed).
_EMPTY_BLOBS = frozenset(hashlib.new(name, b"blob 0\0").hexdigest() for name in ("sha1", "sha256"))


def adopt_twins(history: GitHistory, paths: Iterable[str],
                processes: GitProcesses | None = None) -> dict[str, bytes]:
    """Date each untracked file of ``paths`` by its tracked twin, if it has one.

    Returns (and tells ``history``) path -> the twin's git name. Runs no git process
    when every path is tracked. Raises ``GitTimeout`` from ``processes``.
    """
    untracked, top = history.untracked(paths), history.top
    if not untracked or top is None:
        return {}
    stdin = "".join(f"{path}\n" for path in untracked).encode("utf-8", "surrogateescape")
    status, out, _ = run_git(["hash-object", "--stdin-paths"], top,
                             stdin, processes=processes)
    ids = out.decode("ascii", "replace").split()
    if status != 0 or len(ids) != len(untracked):
        return {}
    wanted = set(ids) - _EMPTY_BLOBS  # an empty file is a copy of no file
    by_id: dict[str, list[bytes]] = {}
    for name, object_id in history.objects.items():
        if object_id in wanted:
            by_id.setdefault(object_id, []).append(name)
    twins: dict[str, bytes] = {}
    for path, object_id in zip(untracked, ids):
        names = by_id.get(object_id)
        if names:
            twins[path] = _best(path, names, history)
    history.adopt(twins)
    return twins


def _best(path: str, names: list[bytes], history: GitHistory) -> bytes:
    """Of tracked files with a copy's content, the one it was most likely copied from."""
    return min(names, key=likeness(path, history))


def likeness(path: str, history: GitHistory) -> Callable[[bytes], tuple[int, int, float, bytes]]:
    """The sort key of tracked names by how likely ``path`` is a copy of each (lowest
    first): the longest shared path suffix, the most shared folder names, the newest."""
    parts = (history.relative(path) or path).replace(os.sep, "/").split("/")

    def rank(name: bytes) -> tuple[int, int, float, bytes]:
        other = os.fsdecode(name).split("/")
        shared = _shared_suffix(parts, other)
        folders = len(set(parts[:-shared or None]) & set(other[:-shared or None]))
        change = history.change(name)
        when = change.when.timestamp() if isinstance(change, Known) else float("-inf")
        return (-shared, -folders, -when, name)

    return rank


def _shared_suffix(a: list[str], b: list[str]) -> int:
    """How many trailing path components two paths share."""
    count = 0
    for x, y in zip(reversed(a), reversed(b)):
        if x != y:
            break
        count += 1
    return count
