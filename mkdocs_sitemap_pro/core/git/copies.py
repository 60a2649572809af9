"""Copied sources dated by what they copy: a byte twin, a copy with a notice added, the files
the lines a copy adds come from.

Copied sources: an untracked file dated by the tracked file it is a byte copy of.

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

Also staged copies with a notice added, and the tracked files the lines a copy adds come
from (a banner, a notice).
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from difflib import SequenceMatcher
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.answers import Known
from mkdocs_sitemap_pro.core.git.history_map import GitHistory
from mkdocs_sitemap_pro.core.git.process import GitProcesses, run_git

__all__ = ["adopt_twins", "likeness", "adopt_derived", "Added", "added_sources"]

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


def adopt_derived(history: GitHistory, paths: Iterable[str],
                  processes: GitProcesses | None = None) -> dict[str, bytes]:
    """Date each git-ignored file of ``paths`` by the tracked file it adds lines to (see
    above); returns (and tells ``history``) path -> that file's git name. Raises
    ``GitTimeout`` from ``processes``."""
    untracked, top = history.untracked(paths), history.top
    if not untracked or top is None:
        return {}
    stdin = "".join(f"{path}\n" for path in untracked).encode("utf-8", "surrogateescape")
    status, out, _ = run_git(["check-ignore", "--stdin"], top, stdin,
                             processes=processes)
    ignored = set(os.fsdecode(out).splitlines()) if status == 0 else set()
    by_name: dict[bytes, list[bytes]] = {}
    for name in history.objects:
        by_name.setdefault(name.rsplit(b"/", 1)[-1], []).append(name)
    found: dict[str, bytes] = {}
    for path in (p for p in untracked if p in ignored):
        names = by_name.get(os.fsencode(os.path.basename(path)))
        if not names:
            continue
        copy = _lines(path)
        for name in sorted(names, key=likeness(path, history)):
            own = _lines(os.path.join(top, os.fsdecode(name)))
            if own and _holds(copy, own):
                found[path] = name
                break
    history.adopt(found)
    return found


def _lines(path: str) -> list[str]:
    """A file's non-blank lines, stripped of trailing space ([] when unreadable), split
    where a text file's lines end (as iterating it would)."""
    return _lines_upto(path, split=_at_newlines)


def _at_newlines(text: str) -> list[str]:
    return text.split("\n")


def _holds(copy: list[str], own: list[str]) -> bool:
    """Whether every line of ``own`` is in ``copy``, in the same order."""
    lines = iter(copy)
    return all(any(line == other for other in lines) for line in own)


_TRIED = 5  # the files holding most of a run's lines that are aligned with it
_LARGEST = 1 << 20  # bytes: a tracked file larger than this is no banner


class Added(NamedTuple):
    """Of staged copies with lines added: the tracked files those lines come from (path ->
    git names), and the copies with added lines no tracked file holds (sorted)."""

    sources: dict[str, frozenset[bytes]]
    unexplained: list[str]


def added_sources(history: GitHistory, bases: Mapping[str, bytes]) -> Added:
    """For each copy of ``bases`` (path -> the tracked file it adds lines to), the tracked
    files its added lines come from (see above)."""
    top = history.top
    if top is None:
        return Added({}, [])
    runs = {path: found for path, name in bases.items()
            if (found := _added(_lines_upto(path), _lines_upto(os.path.join(top, os.fsdecode(name)))))}
    if not runs:
        return Added({}, [])
    tracked = _Tracked(history, top, {line for found in runs.values() for run in found
                                      for line in run},
                       {os.path.splitext(path)[1] for path in runs})
    sources: dict[str, frozenset[bytes]] = {}
    unexplained: list[str] = []
    for path, found in sorted(runs.items()):
        names: set[bytes] = set()
        whole = True
        for run in found:
            covered, left = tracked.cover(run, path)
            names |= covered
            whole = whole and not left
        if names:
            sources[path] = frozenset(names)
        if not whole:
            unexplained.append(path)
    return Added(sources, unexplained)


class _Tracked:
    """The tracked files of some suffixes holding any of the added lines, indexed by line."""

    def __init__(self, history: GitHistory, top: str, wanted: set[str],
                 suffixes: set[str]) -> None:
        self.history = history
        self.lines: dict[bytes, list[str]] = {}
        self.holding: dict[str, set[bytes]] = {}  # added line -> tracked files holding it
        for name in history.objects:
            if os.path.splitext(os.fsdecode(name))[1] not in suffixes:
                continue
            lines = _lines_upto(os.path.join(top, os.fsdecode(name)), _LARGEST)
            held = wanted.intersection(lines)
            if len(held) > 1 or (held and len(lines) == 1):  # else it can cover nothing
                self.lines[name] = lines
                for line in held:
                    self.holding.setdefault(line, set()).add(name)

    def cover(self, run: tuple[str, ...], path: str) -> tuple[frozenset[bytes], bool]:
        """The tracked files covering ``run`` (added to the copy at ``path``), and whether
        a line of it is left that none covers."""
        left = set(range(len(run)))
        names: set[bytes] = set()
        rank = likeness(path, self.history)
        while left:
            held = Counter(name for line in {run[i] for i in left}
                           for name in self.holding.get(line, ()))
            tried = sorted((name for name, count in held.items()
                            if count > 1 or len(self.lines[name]) == 1),
                           key=lambda name: (-held[name], rank(name)))[:_TRIED]
            best: tuple[bytes, set[int]] | None = None
            for name in tried:
                covered = _covers(self.lines[name], run) & left
                if covered and (best is None or len(covered) > len(best[1])):
                    best = (name, covered)
                    if covered == left:
                        break
            if best is None:
                break
            names.add(best[0])
            left -= best[1]
        return frozenset(names), bool(left)


def _covers(own: list[str], run: tuple[str, ...]) -> set[int]:
    """The lines of ``run`` that the tracked file's lines ``own`` account for: those equal
    to its lines in order, and a line between two of them that differs from the line of
    ``own`` there (a placeholder filled in); none when fewer than two lines are equal,
    unless ``own`` is one line, or when more differ than are equal."""
    matcher = SequenceMatcher(None, own, run, autojunk=False)
    codes = matcher.get_opcodes()
    equal = {j for tag, _, _, j1, j2 in codes if tag == "equal" for j in range(j1, j2)}
    filled = {j for k, (tag, i1, i2, j1, j2) in enumerate(codes)
              if tag == "replace" and i2 - i1 == j2 - j1 and 0 < k < len(codes) - 1
              and codes[k - 1][0] == codes[k + 1][0] == "equal" for j in range(j1, j2)}
    if len(equal) < min(2, len(own)) or len(filled) >= len(equal):
        return set()
    return equal | filled


def _added(copy: list[str], base: list[str]) -> list[tuple[str, ...]]:
    """The runs of lines ``copy`` has beyond ``base`` (aligned line by line)."""
    if not copy or copy == base:
        return []
    codes = SequenceMatcher(None, base, copy, autojunk=False).get_opcodes()
    return [tuple(copy[j1:j2]) for tag, _, _, j1, j2 in codes
            if tag in ("insert", "replace") and j2 > j1]


def _lines_upto(path: str, largest: int | None = None,
                split: Callable[[str], list[str]] = str.splitlines) -> list[str]:
    """A file's non-blank lines, stripped of trailing space, as ``adopt_derived`` compares
    them ([] when unreadable, or larger than ``largest`` bytes)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            text = file.read(largest + 1 if largest is not None else -1)
    except OSError:
        return []
    if largest is not None and len(text) > largest:
        return []
    return [line for line in map(str.rstrip, split(text)) if line]
