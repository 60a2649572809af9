"""How git dates the lines of files shown in part: many files in one walk, or one file by ``git
blame``.

The dates of the lines of many files in one walk: ``git log --first-parent -p -U0``.

What ``git blame --first-parent`` says of each line, for every file shown in part at
once, from one ``git log`` over history instead of one ``git blame`` (one walk of the
whole first-parent chain) per file: one walk, however many files. Walking back from
HEAD, each file's lines are followed through each commit's hunks (``@@ -a,b +c,d @@``, no context) to their place in the parent: a line inside a
hunk's new side was changed there; a line outside moves by the hunks before it. Unlike
blame, a deletion between two lines still there is seen too (``LineDates.gaps``): a
part holding both lines changed then.

A page needs only the newest change to the part it shows, not every line's: a file's
walk stops once each of its parts (one page's lines of it) has met its first change,
and the whole walk once every file's has (git is stopped). Once three in four of the
files a walk asked for are done, it is stopped and started again from the next commit
for the files left, each named: most files are done early, and git would diff them on.
Lines still followed at the end changed before every line dated (``OLDER``): a part
holding one of those and a dated line is decided too (``LineDates.covers``). So a
walk stops at the oldest of the changes the pages need, not at the start of history as
dating every line would.

``ignore_commits``: an ignored commit's changed lines are followed to the lines they
replaced, one for one (``a+k`` for the k-th line of the hunk, as far as the old side
goes); lines it added beyond those have no date. A shallow boundary commit dates no
line (``SHALLOW``). A file that the walk finds created with lines still wanted, other
than by the root commit, may have been renamed there: one ``git diff-tree -M`` per such
commit says; for a renamed file the walk gives None, and the caller blames it (blame
follows renames). ``git_history: all`` is blame's alone.

Also a file's line dates by ``git blame`` (``blame``), and one commit's patch read for its
headers (``file_patches``).
"""

from __future__ import annotations

import bisect
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime, timedelta, timezone
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.answers import DateKind, HistoryOptions
from mkdocs_sitemap_pro.core.git.process import GitProcesses, run_git, stream_git

__all__ = [
    "walk_lines", "Hunk", "file_patches", "IGNORED", "OLDER", "SHALLOW", "UNKNOWN",
    "BlameFailed", "LineDates", "Lines", "Span", "blame", "merge_lines",
]


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
# A run's epoch: its lines were followed, but the walk stopped before their change,
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


# The lines of a commit's patch that say which file and which lines: a file's header, its
# name after the change, its creation, a hunk (``-U0``: no context lines).
_HEADER = re.compile(
    rb"^(?:(?P<diff>diff --git )|--- [^\n]*\n\+\+\+ b/(?P<name>[^\n]*)$|(?P<new>new file mode)"
    rb"|@@ -(?P<a>\d+)(?:,(?P<b>\d+))? \+(?P<c>\d+)(?:,(?P<d>\d+))? @@)", re.MULTILINE)

Hunk = tuple[int, int, int, int]  # a, b, c, d of ``@@ -a,b +c,d @@``


def file_patches(body: bytes) -> Iterator[tuple[bytes, bool, list[Hunk]]]:
    """Each file's patch in a commit: (its name, whether the commit created it, hunks).
    Only the headers are read: the changed lines' text is passed over by the expression."""
    name: bytes | None = None
    hunks: list[Hunk] = []
    created = False
    for match in _HEADER.finditer(body):
        if match.group("diff"):
            if name is not None:
                yield name, created, hunks
            name, hunks, created = None, [], False
        elif match.group("name") is not None:
            name = match.group("name").rstrip(b"\t")
        elif match.group("new"):
            created = True
        else:
            a, b, c, d = match.group("a", "b", "c", "d")
            hunks.append((int(a), 1 if b is None else int(b), int(c), 1 if d is None else int(d)))
    if name is not None:
        yield name, created, hunks


class _File:
    """One file's lines still followed: segments ``[place now, length, line at HEAD]``,
    and its parts that have not met a change yet."""

    def __init__(self, length: int, parts: Iterable[Lines]) -> None:
        # Only the parts' lines are followed: a line no part shows dates nothing, and a
        # deletion counts only between two lines of one part.
        self.open_parts = sorted({part for part in parts if part})
        self.segments: list[tuple[int, int, int]] = [
            (first, min(last, length) - first + 1, first)
            for first, last in merge_lines(r for part in self.open_parts for r in part)
            if first <= min(last, length)]
        self.length = length
        self.runs: list[Span] = []  # dated lines, by HEAD line
        self.gaps: list[Span] = []
        self.created_by: bytes | None = None  # the non-root commit that created it

    @property
    def done(self) -> bool:
        """No line is still followed, or every part has met its newest change."""
        return not self.segments or not self.open_parts

    def settle(self, runs_before: int, gaps_before: int, ignored: bool) -> None:
        """After a commit: close the parts that its dated lines (the runs and gaps from
        these indexes on) decide, or, an ignored commit, that it left no line to follow."""
        runs = [run for run in self.runs[runs_before:] if run.epoch >= 0]
        gaps = [gap for gap in self.gaps[gaps_before:] if gap.epoch >= 0]
        if runs or gaps:
            self.open_parts = [part for part in self.open_parts
                               if not _meets(part, runs, gaps)]
        if ignored:
            self.open_parts = [part for part in self.open_parts if self._followed(part)]

    def _followed(self, part: Lines) -> bool:
        """Whether a line of ``part`` is still followed."""
        return any(h <= last and first < h + n
                   for _, n, h in self.segments for first, last in part)

    def head_line(self, place: int) -> int | None:
        """The HEAD line now at ``place``, if it is still followed."""
        at = bisect.bisect_right(self.segments, (place, 1 << 62, 0)) - 1
        if at >= 0:
            start, n, h = self.segments[at]
            if place < start + n:
                return h + place - start
        return None

    def apply(self, hunks: list[Hunk], epoch: int, zone: int, ignored: bool) -> None:
        """The commit's hunks: date the lines it changed, move the others to the parent."""
        if not hunks:  # a change of mode alone
            return
        if not ignored:
            self._date_gaps(hunks, epoch, zone)
        at = self._first_moved(hunks)
        out = self.segments[:at]
        hi, delta = 0, 0  # the next hunk; lines added minus removed by the hunks before
        for start, n, h in self.segments[at:]:
            p, end = start, start + n - 1
            while p <= end:
                while hi < len(hunks) and _end(hunks[hi]) < p:
                    delta += hunks[hi][3] - hunks[hi][1]
                    hi += 1
                if hi == len(hunks):
                    out.append((p - delta, end - p + 1, h + p - start))
                    break
                hunk = hunks[hi]
                c, d = hunk[2], hunk[3]
                if d == 0 or p < c:  # before this hunk's new lines
                    stop = min(end, c if d == 0 else c - 1)
                    out.append((p - delta, stop - p + 1, h + p - start))
                    p = stop + 1
                    continue
                stop = min(end, c + d - 1)  # p..stop are lines this commit wrote
                self._written(hunk, p, stop, h - start, out, epoch, zone, ignored)
                p = stop + 1
        out.sort()
        self.segments = out

    def _date_gaps(self, hunks: list[Hunk], epoch: int, zone: int) -> None:
        """Date the places where the commit deleted lines between two followed lines."""
        for _, b, c, d in hunks:
            if d == 0 and b > 0:  # lines deleted after line c
                before, after = self.head_line(c), self.head_line(c + 1)
                if before is not None and after is not None:
                    self.gaps.append(Span(before, after, epoch, zone))

    def _first_moved(self, hunks: list[Hunk]) -> int:
        """The index of the first segment the hunks can move: those wholly before the
        first hunk stay where they are."""
        first = hunks[0][2] + (0 if hunks[0][3] else 1)
        at = bisect.bisect_left(self.segments, (first, 0, 0))
        if at and self.segments[at - 1][0] + self.segments[at - 1][1] > first:
            at -= 1  # it reaches into the hunk
        return at

    def _written(self, hunk: Hunk, p: int, stop: int, shift: int,
                 out: list[tuple[int, int, int]], epoch: int, zone: int, ignored: bool) -> None:
        """Lines ``p..stop`` the commit wrote (``shift``: HEAD line minus place): dated
        by it, or, an ignored commit, those that replaced a line followed on in ``out``
        and the others dated ``IGNORED``."""
        if not ignored:
            self.runs.append(Span(p + shift, stop + shift, epoch, zone))
            return
        a, b, c, _ = hunk
        kept = min(stop, c + b - 1)  # those that replaced a line: followed on
        if p <= kept:
            out.append((a + p - c, kept - p + 1, p + shift))
        if kept < stop:
            self.runs.append(Span(max(p, kept + 1) + shift, stop + shift, IGNORED, 0))

    def created(self, epoch: int, zone: int) -> None:
        """The commit that created the file (or a shallow boundary): its lines are its."""
        for _, n, h in self.segments:
            self.runs.append(Span(h, h + n - 1, epoch, zone))
        self.segments = []

    def dates(self) -> LineDates:
        """The answer: every HEAD line's run; lines still followed ``OLDER``, lines not
        followed ``UNKNOWN``."""
        dated = sorted(self.runs + [Span(h, h + n - 1, OLDER, 0) for _, n, h in self.segments])
        filled: list[Span] = []
        line = 1  # the first line no run holds yet
        for run in dated:
            if run.first > line:
                filled.append(Span(line, run.first - 1, UNKNOWN, 0))
            filled.append(run)
            line = run.last + 1
        if line <= self.length:
            filled.append(Span(line, self.length, UNKNOWN, 0))
        runs: list[Span] = []
        for run in filled:
            previous = runs[-1] if runs else None
            if (previous is not None and (previous.epoch, previous.minutes) == (run.epoch, run.minutes)
                    and previous.last == run.first - 1):
                runs[-1] = previous._replace(last=run.last)
            else:
                runs.append(run)
        return LineDates(tuple(runs), tuple(sorted(set(self.gaps))))


def _meets(part: Lines, runs: list[Span], gaps: list[Span]) -> bool:
    """Whether a dated run holds a line of ``part``, or a gap lies inside one of its
    ranges (as ``LineDates.newest`` reads them)."""
    return any(run.first <= last and first <= run.last for run in runs for first, last in part) \
        or any(first <= gap.first and gap.last <= last for gap in gaps for first, last in part)


def _end(hunk: Hunk) -> int:
    """The last line now that the hunk's new side holds, or precedes (a deletion)."""
    return hunk[2] + hunk[3] - 1 if hunk[3] else hunk[2]


def walk_lines(top: str, files: Mapping[bytes, tuple[int, Iterable[Lines]]],
               date: DateKind, ignored: frozenset[bytes], boundary: frozenset[bytes], *,
               processes: GitProcesses | None = None) -> dict[bytes, LineDates | None]:
    """Of each file git calls ``name`` -> (its lines at HEAD, its parts: each page's
    lines of it), the dates of its lines under ``first-parent``, as far as its parts
    need them (None: blame it, it may have been renamed).

    Raises ``RuntimeError`` with git's message when the walk fails; ``GitTimeout``
    passes through.
    """
    followed = {name: _File(length, parts) for name, (length, parts) in files.items()}
    placeholder = "%ct %cI" if date == "committer" else "%at %aI"
    open_files = {name for name, file in followed.items() if not file.done}
    start: bytes | None = b"HEAD"
    while start is not None and open_files:
        start = _walk_from(start, top, followed, open_files, placeholder, ignored, boundary,
                           processes)
    renamed = _renamed(top, {f.created_by for f in followed.values() if f.created_by},
                       processes)
    return {name: None if name in renamed else file.dates() for name, file in followed.items()}


def _walk_from(start: bytes, top: str, followed: dict[bytes, _File], open_files: set[bytes],
               placeholder: str, ignored: frozenset[bytes], boundary: frozenset[bytes],
               processes: GitProcesses | None) -> bytes | None:
    """One ``git log`` from ``start`` over the files still open; where to walk on from
    (None: done). Once three in four of the files it was asked for are done, it stops
    and says the next commit: a new walk over the few left spares git diffing the others."""
    asked = len(open_files)
    args: list[str | bytes] = [
        "log", "--first-parent", "-m", "-p", "-U0", "--no-renames", "--no-color",
        "--no-ext-diff", "--no-textconv", "--format=%x00%H %P%x01" + placeholder,
        # The first walk asks for folders (see ``_pathspecs``); a later one for the few
        # files left, each by itself: a folder would diff the files done with too.
        start, "--", *(_pathspecs(open_files) if start == b"HEAD" else
                       [b":(literal)" + name for name in sorted(open_files)]),
    ]
    after: list[bytes | None] = [None]  # the first parent of the last commit read

    def consume(chunks: Iterator[list[bytes]]) -> bool:
        for tokens in chunks:
            for record in tokens:
                if not record:
                    continue
                if _commit(record, followed, open_files, ignored, boundary):
                    return True
                if len(open_files) * 4 <= asked:
                    parents = record.partition(b"\x01")[0].split()[1:]
                    after[0] = parents[0] if parents else None
                    return True
        return not open_files

    stopped, status, detail = stream_git(args, top, consume, processes=processes)
    if not stopped and status != 0:
        raise RuntimeError(f"git log -p failed (exit status {status}): {detail or 'no message'}")
    return after[0] if stopped and open_files else None


def _pathspecs(names: Iterable[bytes]) -> list[bytes]:
    """What the walk asks git for: a folder that holds several of the files (git
    matches one folder's pathspec at less cost than one for each of its files, which
    outweighs diffing the folder's other files too, passed over), each other file by
    itself."""
    by_folder: dict[bytes, list[bytes]] = {}
    for name in names:
        by_folder.setdefault(name.rpartition(b"/")[0], []).append(name)
    specs: list[bytes] = []
    for folder, inside in sorted(by_folder.items()):
        if folder and len(inside) > 1:
            specs.append(b":(literal)" + folder)
        else:
            specs.extend(b":(literal)" + name for name in sorted(inside))
    return specs


def _renamed(top: str, commits: set[bytes], processes: GitProcesses | None) -> set[bytes]:
    """The files that these commits made by renaming another (one ``diff-tree`` each)."""
    found: set[bytes] = set()
    for sha in sorted(commits):
        status, out, err = run_git(
            ["diff-tree", "-r", "-M", "-z", "--name-status", "--diff-filter=R",
             sha + b"^1", sha], top, processes=processes)
        if status != 0:
            raise RuntimeError(f"git diff-tree failed: {err or status}")
        fields = out.split(b"\0")
        found.update(fields[n + 2] for n in range(0, len(fields) - 2, 3)
                     if fields[n].startswith(b"R"))
    return found


def _commit(record: bytes, followed: dict[bytes, _File], open_files: set[bytes],
            ignored: frozenset[bytes], boundary: frozenset[bytes]) -> bool:
    """One commit's record: apply its hunks to each file; True when no file is open."""
    head, _, body = record.partition(b"\n")
    ids, _, when = head.partition(b"\x01")
    sha, *parents = ids.split()
    epoch_text, _, iso = when.partition(b" ")
    epoch = int(epoch_text)
    offset = datetime.fromisoformat(iso.decode("ascii")).utcoffset()
    zone = int(offset.total_seconds() // 60) if offset is not None else 0
    shallow, skip = sha in boundary, sha in ignored
    if shallow:
        epoch, zone = SHALLOW, 0
    for name, created, hunks in file_patches(body):
        if name not in open_files:
            continue
        file = followed[name]
        runs, gaps = len(file.runs), len(file.gaps)
        if created:
            if parents and not shallow:
                file.created_by = sha  # or renamed there: blame follows renames
            file.created(IGNORED if skip else epoch, zone)
        else:
            file.apply(hunks, epoch, zone, skip)
            file.settle(runs, gaps, skip)
        if file.done:
            open_files.discard(name)
    if shallow:  # history ends here for every file: nothing older is known
        for name in open_files:
            followed[name].created(SHALLOW, 0)
        open_files.clear()
    return not open_files
