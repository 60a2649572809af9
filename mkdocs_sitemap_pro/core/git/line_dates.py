"""The dates of the lines of files shown in part (``dependencies: lines``), for one build.

Once every page is converted and the history map is known (``on_env``), the files some
page shows in part are dated line by line within ``git_timeout``: under ``first-parent``
all at once by one walk (``core.git.line_walk``), a renamed file and every file under
``all`` by a ``git blame`` each (``core.git.line_walk``), several at a time. The answer
depends only on the file's last change and the history options, so it is kept (in
memory for ``mkdocs serve``, in ``blame.json`` in ``cache_dir``) by both, and an
unchanged file is never dated again. A file whose text on disk is not HEAD's
(uncommitted edits: its line numbers are not HEAD's; found by hashing it, once while it
keeps its stamp), that git cannot date, or that runs out of time is dated whole, said
at DEBUG: never older than the truth.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from mkdocs_sitemap_pro.core import store
from mkdocs_sitemap_pro.core.store import (
    checked_epoch, checked_offset, commit_id, flat_ints, object_id)
from mkdocs_sitemap_pro.core.git import GitHistory, Known
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.git.line_walk import OLDER, BlameFailed, LineDates, Span, blame
from mkdocs_sitemap_pro.core.git.line_walk import walk_lines
from mkdocs_sitemap_pro.core.git.process import GitProcesses, GitTimeout, NoGit
from mkdocs_sitemap_pro.core.git.repository import resolve_ignored
from mkdocs_sitemap_pro.core.page.shown import Lines, Shown
from mkdocs_sitemap_pro.core.store import Stamp, file_stamp

__all__ = ["BLAME_FILE", "FORMAT", "BuildLines", "LineDateStore"]

BLAME_FILE = "blame.json"  # in cache_dir
# 1 had no gaps, 2 no OLDER runs (each line was dated), 3 rows of four, no heads, 4 no
# format name, 5 the store's envelope
FORMAT = store.Format("mkdocs-sitemap-pro line dates", 5)
_QUOTED = re.compile(rb'[\x00-\x1f"\\\x7f]')  # names git's diff headers would quote
_WORKERS = min(4, os.cpu_count() or 1)  # git blame is CPU-bound: one per core, a few at most


class _Wanted(NamedTuple):
    """A file shown in part: its key in the store, last change, length, and its parts
    (each page's lines of it)."""

    key: str
    commit: str
    length: int
    parts: frozenset[Lines]


#: Of a file, each part's newest change as ``LineDates.newest`` gives it: (sure, when).
Answers = dict[Lines, tuple[bool, dt.datetime | None]]


class BuildLines:
    """The line dates of one build's files shown in part (a ``core.page.shown.LineLookup``):
    each part's answer, found once when the store checked it holds the file."""

    def __init__(self, answers: Mapping[bytes, Answers]) -> None:
        self._answers = answers  # git name -> its parts' answers (absent: dated whole)

    def newest(self, name: bytes, change: Known, lines: Lines) -> dt.datetime | None:
        sure, when = self._answers.get(name, {}).get(lines, (False, None))
        if not sure:
            return change.when
        # A line's commit can carry a later date than the file's last change (a rebase
        # keeps author dates): the file's date bounds every part of it.
        return None if when is None else min(when, change.when)


class Log(Protocol):
    """Where the store says what it did (the plugin's logger)."""

    def debug(self, msg: str) -> None: ...

    def info(self, msg: str) -> None: ...


class LineDateStore:
    """The line dates a plugin instance has made: by file and options, the last change
    each was made at (a newer one replaces it, so the store holds one answer per file)."""

    def __init__(self, path: Path | None, log: Log) -> None:
        self.path = path  # None: in memory only (cache: false)
        self._log = log
        self._entries: dict[str, tuple[str, LineDates]] = {}  # key -> (commit, dates)
        # git name -> (stamp, blob id, lines) of a file found to be HEAD's on disk: while
        # it keeps that stamp it is not read and hashed again.
        self._heads: dict[str, tuple[Stamp, str, int]] = {}
        self._heads_added = False
        self._loaded = False

    def _load(self) -> None:
        self._loaded = True
        if self.path is None:
            return
        kept, why = store.load(self.path, FORMAT, _decode)
        if why is not None:
            self._log.debug(f"{why}: lines are dated again")
        if kept is not None:
            self._entries, self._heads = kept

    def dates(self, history: GitHistory, options: HistoryOptions, pages: Iterable[Shown],
              timeout: float) -> BuildLines:
        """Date the lines not kept yet of the files ``pages`` show in part; keep them."""
        if history.top is None:  # no history was read (no repository, or git timed out)
            return BuildLines({})
        if not self._loaded:
            self._load()
        wanted = self._wanted(history, options, pages)
        answers = {name: held for name, want in wanted.items()
                   if (held := self._answers(want)) is not None}
        missing = [name for name in wanted if name not in answers]
        if missing and history.top is not None and history.key is not None:
            self._date_missing(history.top, history.key.boundary, wanted, missing, answers,
                               options, timeout)
        if self._heads_added and answers:  # files found HEAD's this time, and dated
            self._save()
        return BuildLines(answers)

    def _wanted(self, history: GitHistory, options: HistoryOptions,
                pages: Iterable[Shown]) -> dict[bytes, _Wanted]:
        """What to date of each file ``pages`` show in part, by git name: every page's
        lines of it, at its last commit. A file with uncommitted edits is left out
        (dated as a whole file)."""
        lines: dict[bytes, set[Lines]] = {}  # git name -> each page's lines
        found: dict[bytes, tuple[str, str, int]] = {}  # git name -> (key, commit, length)
        for shown in pages:
            for path, shown_lines in shown.parts:
                name = history.name(path)
                if name is None:
                    continue
                if name not in lines:
                    change = history.last_changed(path)
                    length = self._head_lines(path, name, history.objects.get(name)) if (
                        isinstance(change, Known)) else None
                    if isinstance(change, Known) and length is not None:
                        found[name] = (_key(name, options), change.commit, length)
                    elif isinstance(change, Known):
                        self._log.debug(f"{path} has uncommitted edits: dated as a whole file")
                lines.setdefault(name, set()).add(shown_lines)
        return {name: _Wanted(key, commit, length, frozenset(lines[name]))
                for name, (key, commit, length) in found.items()}

    def _date_missing(self, top: str, boundary: frozenset[bytes],
                      wanted: Mapping[bytes, _Wanted], missing: list[bytes],
                      answers: dict[bytes, Answers], options: HistoryOptions,
                      timeout: float) -> None:
        """Date the lines of the ``missing`` files (not kept from earlier builds), keep
        them, and add their answers to ``answers``."""
        made = self._make(top, {name: wanted[name] for name in missing}, options,
                          boundary, timeout)
        self._log.debug(f"line dates: {made} of {len(missing)} files shown in part dated, "
                  f"{len(wanted) - len(missing)} kept from earlier builds")
        if made:
            self._save()
        for name in missing:
            if (held := self._answers(wanted[name])) is not None:
                answers[name] = held

    def _head_lines(self, path: str, name: bytes, oid: str | None) -> int | None:
        """``_lines_if_head``, remembered by the file's stamp (one ``stat`` and no read
        while it keeps it, as ``dependencies.json`` trusts a page's source)."""
        if oid is None:
            return None
        key = os.fsdecode(name)
        stamp = file_stamp(path)
        known = self._heads.get(key)
        if stamp is not None and known is not None and known[:2] == (stamp, oid):
            return known[2]
        length = _lines_if_head(path, oid)
        if length is not None and stamp is not None and file_stamp(path) == stamp:
            self._heads[key] = (stamp, oid, length)  # unchanged while it was read
            self._heads_added = True
        return length

    def _answers(self, want: _Wanted) -> Answers | None:
        """Each part's newest change, if the store has the file's lines at its last
        change dated as far as each part's newest change (None: it has not)."""
        entry = self._entries.get(want.key)
        if entry is None or entry[0] != want.commit or entry[1].length != want.length:
            return None
        answers: Answers = {}
        for part in want.parts:
            covers, sure, when = entry[1].answer(part)
            if not covers:
                return None
            answers[part] = (sure, when)
        return answers

    def _make(self, top: str, wanted: Mapping[bytes, _Wanted], options: HistoryOptions,
              boundary: frozenset[bytes], timeout: float) -> int:
        """Date the wanted lines within ``timeout``: one walk under ``first-parent``
        (``core.git.line_walk``), ``git blame`` for the files it leaves (renamed ones, or
        every file under ``all``), several at a time. How many files were dated."""
        made: list[bytes] = []
        processes = GitProcesses(timeout, notice=self._log.info)
        try:
            problems: list[str] = []
            ignored = resolve_ignored(top, options.ignore_commits, problems, processes=processes)
            left = list(wanted)
            if options.rule == "first-parent":
                walked = self._walk(top, wanted, options, ignored, boundary, processes)
                for name, dates in walked.items():
                    if dates is not None:
                        self._entries[wanted[name].key] = (wanted[name].commit, dates)
                        made.append(name)
                left = [name for name in wanted if walked.get(name) is None]

            def one(name: bytes) -> None:
                try:
                    dates = blame(top, name, options, ignored, boundary, processes=processes)
                except BlameFailed as error:
                    self._log.debug(f"git blame {os.fsdecode(name)} failed ({error}): "
                              "dated as a whole file")
                    return
                self._entries[wanted[name].key] = (wanted[name].commit, dates)
                made.append(name)

            if left:
                with ThreadPoolExecutor(min(_WORKERS, len(left))) as pool:
                    list(pool.map(one, left))
        except (GitTimeout, NoGit) as error:
            self._log.debug(f"git did not finish dating lines ({error}): the files left are "
                      "dated whole")
        finally:
            processes.close()
        return len(made)

    def _save(self) -> None:
        self._heads_added = False
        if self.path is None:
            return
        files = {key: [commit, list(chain.from_iterable(dates.runs)),
                       list(chain.from_iterable(dates.gaps))]
                 for key, (commit, dates) in sorted(self._entries.items())}
        heads = {name: [*stamp, oid, length]
                 for name, (stamp, oid, length) in sorted(self._heads.items())}
        why = store.save(self.path, FORMAT, {"files": files, "heads": heads})
        if why is not None:
            self._log.debug(f"the line dates could not be kept: {why}")

    def _walk(self, top: str, wanted: Mapping[bytes, _Wanted], options: HistoryOptions,
              ignored: frozenset[bytes], boundary: frozenset[bytes],
              processes: GitProcesses) -> Mapping[bytes, LineDates | None]:
        """``line_walk`` over the files it can follow (git's quoting spares their names)."""
        plain = {name: (want.length, want.parts) for name, want in wanted.items()
                 if not _QUOTED.search(name)}
        if not plain:
            return {}
        try:
            return walk_lines(top, plain, options.date, ignored, boundary, processes=processes)
        except RuntimeError as error:
            self._log.debug(f"the line walk failed ({error}): the files are blamed one by one")
            return {}


def _decode(data: dict[str, Any]) -> tuple[dict[str, tuple[str, LineDates]],
                                           dict[str, tuple[Stamp, str, int]]]:
    """``blame.json``'s body: its files' line dates and the files found HEAD's."""
    return read_entries(data["files"]), read_heads(data["heads"])


def _key(name: bytes, options: HistoryOptions) -> str:
    """A file and the options its blame is made under (one entry each)."""
    return "\n".join([os.fsdecode(name), options.rule, options.date, *options.ignore_commits])


def _lines_if_head(path: str, oid: str | None) -> int | None:
    """How many lines the file has, if it is HEAD's on disk (the same blob id: its lines
    are HEAD's); None if it is not."""
    if oid is None:
        return None
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    digest = hashlib.new("sha1" if len(oid) == 40 else "sha256")
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    if digest.hexdigest() != oid:
        return None
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


# ``blame.json`` read back: each value checked as git's answer would be, so that a file
# anyone could write cannot break a build or date lines beyond git's range. ``ValueError``
# (or ``TypeError``) for anything else: the caller then keeps nothing of the file.


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
