"""``blame.json`` read back (``dependencies.line_dates``): each value checked as git's
answer would be, so that a file anyone could write cannot break a build or date lines
beyond git's range. ``ValueError`` (or ``TypeError``) for anything else: the caller
then keeps nothing of the file."""

from __future__ import annotations

from mkdocs_sitemap_pro.core.cache_values import (
    checked_epoch,
    checked_offset,
    commit_id,
    object_id,
)
from mkdocs_sitemap_pro.core.git.blame import OLDER, LineDates, Span
from mkdocs_sitemap_pro.core.stamps import Stamp
from mkdocs_sitemap_pro.plugin.dependencies.cache import flat_ints

__all__ = ["read_entries", "read_heads"]


def read_entries(files: object) -> dict[str, tuple[str, LineDates]]:
    """``blame.json``'s files, each checked as git's answer would be (``_quads``)."""
    if not isinstance(files, dict):
        raise TypeError("not a table of files")
    entries: dict[str, tuple[str, LineDates]] = {}
    for key, (commit, runs, gaps) in files.items():
        dates = LineDates(_quads(runs), _quads(gaps))
        first = 1
        for run in dates.runs:  # in order, every line once: the counts match
            if run.first != first or run.last < run.first:
                raise ValueError("runs that do not cover the file's lines in order")
            first = run.last + 1
        for gap in dates.gaps:
            if not 1 <= gap.first < gap.last <= dates.length:
                raise ValueError("a gap outside the file")
        entries[key] = (commit_id(commit), dates)
    return entries


def read_heads(heads: object) -> dict[str, tuple[Stamp, str, int]]:
    """``blame.json``'s files found HEAD's on disk: stamp, blob id, lines."""
    if not isinstance(heads, dict):
        raise TypeError("not a table of files")
    found: dict[str, tuple[Stamp, str, int]] = {}
    for name, (mtime, size, inode, oid, length) in heads.items():
        if not all(type(n) is int and n >= 0 for n in (mtime, size, inode, length)):
            raise ValueError("not a file's stamp")
        found[name] = ((mtime, size, inode), object_id(oid), length)
    return found


def _quads(flat: object) -> tuple[Span, ...]:
    """``blame.json``'s runs (or gaps), four integers each in one flat list, as spans:
    lines from 1, an epoch in git's range (or a marker), a zone less than a day."""
    items = iter(flat_ints(flat, 4))
    quads = tuple(map(Span, items, items, items, items))
    for first, last, epoch, minutes in quads:
        if first < 1 or last < first or epoch < OLDER:
            raise ValueError("not lines and a date")
        if epoch >= 0:
            checked_epoch(epoch)
        checked_offset(minutes)
    return quads
