"""Of a file shown in part, the date of each of its lines: one ``git blame`` at HEAD.

A page that shows some lines of a file (an API object's signature and docstring, a
snippet's line range) is dated by the newest change to those lines, under the same rule
as whole files: ``git blame --first-parent`` under ``first-parent`` (a line brought in by
a merge is the merge's), plain ``git blame`` under ``all``; the committer or author date
(``git_date``); ``ignore_commits`` passed as ``--ignore-rev``, so a line an ignored commit
changed is the previous commit's, and a line it added has no date. A line last changed
by a shallow clone's boundary commit cannot be dated: its file is then dated whole.

``LineDates`` keeps the answer as runs of lines with one date, small enough to keep in
``cache_dir`` (``core.git.line_dates``): the blame of a file at HEAD depends
only on the file's last change and the options, so it is made once per change.
"""

from __future__ import annotations

import bisect
import sys
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.git.process import GitProcesses, run_git

__all__ = ["IGNORED", "OLDER", "SHALLOW", "UNKNOWN", "BlameFailed", "LineDates", "Lines", "Span",
           "blame", "merge_lines"]

#: Lines of a file, as 1-based inclusive (first, last) pairs, sorted and not overlapping.
Lines = tuple[tuple[int, int], ...]


def merge_lines(ranges: Iterable[tuple[int, int]]) -> Lines:
    """``ranges`` (1-based, inclusive, any order) as ``Lines``: sorted, touching or
    overlapping ones joined, empty or reversed ones dropped."""
    merged: list[tuple[int, int]] = []
    for first, last in sorted(r for r in ranges if 1 <= r[0] <= r[1]):
        if merged and first <= merged[-1][1] + 1:
            if last > merged[-1][1]:
                merged[-1] = (merged[-1][0], last)
        else:
            merged.append((first, last))
    return tuple(merged)


IGNORED = -1  # a run's epoch: its lines were added by an ignored commit (no date)
SHALLOW = -2  # a run's epoch: its lines' change is beyond a shallow clone's history
UNKNOWN = -3  # a run's epoch: its lines were not looked for (no part wanted them)
# A run's epoch: its lines were followed, but ``line_walk`` stopped before their change,
# once each part had its newest: they changed before every dated line of the file.
OLDER = -4


_END = sys.maxsize  # beyond any line or epoch: ``(n, _END)`` sorts after every run at line n


class Span(NamedTuple):
    """Lines ``first`` to ``last`` of a file at HEAD (1-based, inclusive) and their last
    change: ``epoch`` (or one of the markers above) in a zone ``minutes`` east of UTC. A
    gap's ``first`` and ``last`` are the lines either side of the deletion."""

    first: int
    last: int
    epoch: int
    minutes: int


class BlameFailed(Exception):
    """git blame could not answer (its message says why): the file is dated whole."""


class LineDates(NamedTuple):
    """A file's lines at HEAD in runs (``Span``), in order and covering every line; an
    ``epoch`` may be ``IGNORED``, ``SHALLOW``, ``UNKNOWN`` or ``OLDER``. ``gaps``: lines
    deleted between two lines that are still there (``Span`` of the line before and the
    line after); a part that holds both lines shows the deletion."""

    runs: tuple[Span, ...]
    gaps: tuple[Span, ...] = ()

    def covers(self, lines: Iterable[tuple[int, int]]) -> bool:
        """Whether these dates decide the newest change to ``lines``: no line of them
        went unlooked-for (``UNKNOWN``), and lines the walk stopped short of (``OLDER``)
        come with a dated one, which is newer than they are."""
        best, older, unknown, _, _ = self._scan(lines)
        return not unknown and (best is not None or not older)

    @property
    def length(self) -> int:
        """How many lines the file has at HEAD."""
        return self.runs[-1].last if self.runs else 0

    def newest(self, lines: Iterable[tuple[int, int]]) -> tuple[bool, datetime | None]:
        """The newest change to ``lines`` (1-based inclusive ranges): (sure, when).

        Not sure (the caller dates the file whole) when a line lies beyond the file, was
        last changed beyond a shallow boundary, or is undecided (``covers``); ``when`` is
        None when every line shown was added by an ignored commit.
        """
        return self.answer(lines)[1:]

    def answer(self, lines: Iterable[tuple[int, int]]) -> tuple[bool, bool, datetime | None]:
        """``covers`` and ``newest`` of ``lines`` at once, (covers, sure, when): one look
        at the runs, for a build that asks both of every part it shows."""
        best, older, unknown, shallow, beyond = self._scan(lines)
        covers = not unknown and (best is not None or not older)
        if unknown or shallow or beyond:
            return covers, False, None
        if best is None:
            return covers, not older, None
        return covers, True, datetime.fromtimestamp(
            best.epoch, timezone(timedelta(minutes=best.minutes)))

    def _scan(self, lines: Iterable[tuple[int, int]]
              ) -> tuple[Span | None, bool, bool, bool, bool]:
        """Of the runs that hold one of ``lines`` and the gaps between two of them: the
        first with the newest real date (a commit's, not a marker) or None, whether one
        is ``OLDER``, ``UNKNOWN``, ``SHALLOW``, and whether a line lies beyond the file.
        A plain loop over slices found by bisection: it runs for every part of every
        page."""
        runs, gaps, length = self.runs, self.gaps, self.length
        right = bisect.bisect_right
        best: Span | None = None
        older = unknown = shallow = beyond = False
        for first, last in lines:
            if first < 1 or last > length:
                beyond = True
            # Runs are in order: those from the one holding ``first`` to the last that
            # starts by ``last`` (tuples compare in C: (n, _END) follows every run at n).
            start = right(runs, (first, _END)) - 1
            met = runs[start if start > 0 else 0:right(runs, (last, _END))]
            if gaps:
                met += tuple(gap for gap in gaps if first <= gap.first and gap.last <= last)
            for run in met:
                epoch = run.epoch
                if epoch >= 0:
                    if (best is None or epoch > best.epoch) and run.last >= first:
                        best = run
                elif run.last < first:
                    continue
                elif epoch == OLDER:
                    older = True
                elif epoch == UNKNOWN:
                    unknown = True
                elif epoch == SHALLOW:
                    shallow = True
        return best, older, unknown, shallow, beyond


def blame(top: str, name: bytes, options: HistoryOptions, ignored: frozenset[bytes],
          boundary: frozenset[bytes], *, processes: GitProcesses | None = None) -> LineDates:
    """Each line's last change of the file git calls ``name`` at HEAD, by ``options``;
    ``ignored``: the full ids of ``ignore_commits``; ``boundary``: a shallow clone's.

    Raises ``BlameFailed`` when git cannot blame it; ``GitTimeout`` passes through.
    """
    args: list[str | bytes] = ["blame", "--porcelain", "--no-progress", "--ignore-revs-file="]
    if options.rule == "first-parent":
        args.append("--first-parent")
    for sha in sorted(ignored):
        args += ["--ignore-rev", sha]
    args += ["HEAD", "--", name]
    status, out, err = run_git(args, top, processes=processes)
    if status != 0:
        raise BlameFailed(err or f"git blame exited with status {status}")
    return _parse(out, options.date, ignored, boundary)


def _parse(out: bytes, date: str, ignored: frozenset[bytes],
           boundary: frozenset[bytes]) -> LineDates:
    """Runs of ``git blame --porcelain`` output: a header ``<sha> <orig> <final> [n]``
    for every line, the commit's details the first time it appears."""
    time_key, zone_key = (b"committer-time", b"committer-tz") if date == "committer" else (
        b"author-time", b"author-tz")
    epochs: dict[bytes, int] = {}
    zones: dict[bytes, int] = {}
    order: list[bytes] = []  # each line's commit, in order
    sha = b""
    expect_header = True
    for line in out.split(b"\n"):
        if line[:1] == b"\t":  # the line's text: a header comes next
            expect_header = True
            continue
        if expect_header:
            if not line:
                continue
            sha = line.split(b" ", 1)[0]
            order.append(sha)
            expect_header = False
            continue
        key, _, value = line.partition(b" ")
        if key == time_key:
            epochs[sha] = int(value)
        elif key == zone_key:
            sign = -1 if value[:1] == b"-" else 1
            zones[sha] = sign * (int(value[1:3]) * 60 + int(value[3:5]))
    runs: list[Span] = []
    for number, commit in enumerate(order, start=1):
        if commit in boundary:
            epoch, zone = SHALLOW, 0
        elif commit in ignored:
            epoch, zone = IGNORED, 0
        else:
            epoch, zone = epochs.get(commit, SHALLOW), zones.get(commit, 0)
        previous = runs[-1] if runs else None
        if (previous is not None and (previous.epoch, previous.minutes) == (epoch, zone)
                and previous.last == number - 1):
            runs[-1] = previous._replace(last=number)
        else:
            runs.append(Span(number, number, epoch, zone))
    return LineDates(tuple(runs))
