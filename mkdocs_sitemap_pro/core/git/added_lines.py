"""Lines a staged copy adds to the tracked file it copies: the tracked files they come
from, which date the page too.

FastAPI's deploy script stages each translated page as the tracked translation with the
language's ``translation-banner.md`` inserted after its title (its ``ENGLISH_VERSION_URL``
filled in with the page's English address), and each untranslated page as the English
file with ``docs/missing-translation.md`` inserted. ``derived`` dates such a copy by the
file it adds lines to; the banner or notice it shows is another tracked file, whose
change must re-date the page.

The rule: the copy's non-blank lines are aligned with its base's; each run of added
lines is covered by tracked files of the copy's kind (its suffix, read from the work
tree) that hold those lines in the same order: a whole one-line file, or at least two of
a file's lines, where lines between two of them may differ from the file's (a
placeholder filled in), fewer than those equal. Of the files holding most of a run's lines, the one a copy is
most likely made from (``twins.likeness``) is taken first. A copy with an added line no
tracked file covers is returned too: the caller says which page shows lines nothing dates.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from difflib import SequenceMatcher
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.history import GitHistory
from mkdocs_sitemap_pro.core.git.twins import likeness

__all__ = ["Added", "added_sources"]

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
            if (found := _added(_lines(path), _lines(os.path.join(top, os.fsdecode(name)))))}
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
            lines = _lines(os.path.join(top, os.fsdecode(name)), _LARGEST)
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


def _lines(path: str, largest: int | None = None) -> list[str]:
    """A file's non-blank lines, stripped of trailing space, as ``derived`` compares
    them ([] when unreadable, or larger than ``largest`` bytes)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            text = file.read(largest + 1 if largest is not None else -1)
    except OSError:
        return []
    if largest is not None and len(text) > largest:
        return []
    return [line for line in map(str.rstrip, text.splitlines()) if line]
