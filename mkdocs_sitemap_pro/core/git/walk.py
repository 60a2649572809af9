"""What both walk rules share: one ``git log`` stream, stopped once every file is answered.

A rule (``FirstParentWalk``, ``AllParentsWalk``) says which ``git log`` to run and how to read
its records; this base runs it, records answers (a shallow boundary commit cannot date
a file) and gives every file left unanswered its reason.

``base`` brings an earlier walk forward: the answers of every file at an older HEAD,
under the same options. Where a file's chain reaches that commit, its answer there is
the answer the walk would find by reading on (the chain from a commit depends on nothing
else), so the walk takes it and reads no further for that file: after one new commit,
a walk reads one commit. A file whose chain never reaches the base is walked as usual.

The two rules are here too: ``first-parent`` (the commit that brought a change into the
branch) and ``all`` (the last commit on any merged branch).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta, timezone
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.answers import DateKind, Known, LastChange, Unknown
from mkdocs_sitemap_pro.core.git.process import LOG_FLAGS, GitProcesses, stream_git
from mkdocs_sitemap_pro.core.git.repository import Repository

__all__ = ["Base", "Walk", "raw_date", "FirstParentWalk", "AllParentsWalk"]

_SHALLOW = Unknown("shallow")


def raw_date(line: bytes, zones: dict[bytes, timezone]) -> datetime:
    """The date of a raw ``committer``/``author`` line (``... <epoch> <+hhmm>``);
    ``zones`` keeps each zone made (a walk meets few, thousands of times)."""
    _, epoch, zone = line.rsplit(b" ", 2)
    tz = zones.get(zone)
    if tz is None:
        sign = -1 if zone[:1] == b"-" else 1
        minutes = int(zone[1:3]) * 60 + int(zone[3:5])
        tz = zones[zone] = timezone(timedelta(minutes=sign * minutes))
    return datetime.fromtimestamp(int(epoch), tz)


class Base(NamedTuple):
    """An earlier walk's answers at commit ``head`` (same options), to bring forward."""

    head: bytes
    answers: Mapping[bytes, LastChange]


class Walk:
    """One ``git log`` run, read as a stream and stopped once every file is answered."""

    def __init__(
        self,
        repo: Repository,
        want: set[bytes],
        date: DateKind,
        ignored: frozenset[bytes],
        base: Base | None = None,
    ) -> None:
        self.top = repo.top
        self.head = repo.head
        self.boundary = repo.boundary
        self.want = want
        self.date = date
        self.ignored = ignored
        self.base = base
        self.commits_read = 0  # records read, the base's not counted
        self.reached_base = False
        self.failure: str | None = None
        self.answers: dict[bytes, LastChange] = {}
        self.touched_by_ignored: set[bytes] = set()
        self._dates: dict[bytes, datetime] = {}
        # One answer per commit, shared by the files it answers (a commit often answers
        # thousands: one id and one tuple each would be held through the build).
        self._known: dict[bytes, Known] = {}
        self.zones: dict[bytes, timezone] = {}

    def args(self) -> list[str | bytes]:
        """The ``git log`` arguments after the global options."""
        raise NotImplementedError

    def consume(self, chunks: Iterator[list[bytes]]) -> bool:
        """Read records until every file is answered (True) or the stream ends (False)."""
        raise NotImplementedError

    def run(self, processes: GitProcesses | None = None) -> dict[bytes, LastChange]:
        """Walk, then give every file not answered by a commit its reason.

        ``GitTimeout`` from ``processes`` passes through: nothing is answered then.
        """
        if not self.want:
            return self.answers
        stopped, status, detail = stream_git(self.args(), self.top, self.consume,
                                             processes=processes)
        if not stopped and status != 0:
            self.failure = (
                f"git log failed in {self.top} (exit status {status}): "
                f"{detail or 'no message'}; files it did not reach are not dated."
            )
        # Keyed by the tree's names, not by git log's copies of them: one copy of each
        # name is held through the build. In name order: the same history gives the
        # same map, and the same file where it is kept (``map_store``).
        found, self.answers = self.answers, {}
        for key in sorted(self.want):
            answer = found.get(key)
            if answer is None:
                if key in self.touched_by_ignored:
                    reason = "ignored"
                elif self.failure:
                    reason = "no-git"
                elif self.boundary:
                    reason = "shallow"
                else:
                    reason = "ignored"
                answer = Unknown(reason)
            self.answers[key] = answer
        return self.answers

    def from_base(self, files: set[bytes]) -> set[bytes]:
        """Answer from the base the files whose chain reached it; the others stay."""
        assert self.base is not None
        self.reached_base = True
        known = self.base.answers
        taken = {f for f in files if f in known}
        for key in taken:
            self.answers[key] = known[key]
        return files - taken

    def answer(self, key: bytes, sha: bytes, when: datetime) -> None:
        """Record ``sha`` as the file's last change (a shallow boundary cannot date it)."""
        if sha in self.boundary:
            self.answers[key] = _SHALLOW
            return
        known = self._known.get(sha)
        if known is None:
            known = self._known[sha] = Known(when, sha.decode("ascii"))
        self.answers[key] = known


class FirstParentWalk(Walk):
    """``git log --first-parent``: the first commit listing a file answers it."""

    def args(self) -> list[str | bytes]:
        placeholder = "%cI" if self.date == "committer" else "%aI"
        args: list[str | bytes] = [
            "log", "--first-parent", "-m", "--name-only",
            *LOG_FLAGS, f"--format=%x00%H {placeholder}", self.head,
        ]
        return args

    def consume(self, chunks: Iterator[list[bytes]]) -> bool:
        # Records are: "" (from %x00), "<sha> <date>", then names, the first one
        # prefixed with "\n"; names are never empty, so "" always starts a record.
        pending = set(self.want)
        ignored = self.ignored
        base = self.base.head if self.base is not None else None
        state = 0  # 0: a header comes next, 1: the first name, 2: more names
        sha = iso = b""
        skip = False
        commits = 0
        try:
            for tokens in chunks:
                for tok in tokens:
                    if not tok:
                        state = 0
                        continue
                    if state == 0:
                        sha, _, iso = tok.partition(b" ")
                        if sha == base:
                            pending = self.from_base(pending)
                            if not pending:
                                return True
                            base = None
                        commits += 1
                        skip = sha in ignored
                        state = 1
                        continue
                    if state == 1:
                        tok = tok[1:]
                        state = 2
                    if tok in pending:
                        if skip:
                            self.touched_by_ignored.add(tok)
                            continue
                        pending.discard(tok)
                        self.answer(tok, sha, self._when(sha, iso))
                        if not pending:
                            return True
            return False
        finally:
            self.commits_read = commits

    def _when(self, sha: bytes, iso: bytes) -> datetime:
        when = self._dates.get(sha)
        if when is None:
            when = self._dates[sha] = datetime.fromisoformat(iso.decode("ascii"))
        return when


class AllParentsWalk(Walk):
    """``git log`` with default simplification, simulated for every file at once.

    ``pending`` maps a commit to the files whose chain has reached it. ``--date-order``
    shows every child before its parents, so when a commit's record arrives, every file
    that will ever reach it is already there.
    """

    def args(self) -> list[str | bytes]:
        return ["log", "-m", "--name-status", *LOG_FLAGS, "--pretty=raw",
                "--date-order", self.head]

    def consume(self, chunks: Iterator[list[bytes]]) -> bool:
        # Each section: a raw header token ("commit <sha>[ (from <parent>)]\n...");
        # with a diff it ends in "\n\n<status>" and is followed by name, status, name,
        # ..., "" ; without a diff it ends in "\n" and the next token is a header.
        head = self.head.encode("ascii")
        self.pending: dict[bytes, set[bytes]] = {head: set(self.want)}
        self.open = len(self.want)
        self.commits_read = 0
        date_prefix = b"committer " if self.date == "committer" else b"author "
        state = 0  # 0: header, 1: name, 2: status or end of section
        commit = _Commit(b"", None, [], b"")
        names: list[bytes] | None = None
        base = self.base.head if self.base is not None else None
        for tokens in chunks:
            for tok in tokens:
                if state == 1:
                    if names is not None:
                        names.append(tok)
                    state = 2
                    continue
                if state == 2:
                    state = 1 if tok else 0
                    continue
                # A header.
                has_diff = not tok.endswith(b"\n")
                first = tok[7:tok.find(b"\n")].split(b" ")  # after "commit "
                if first[0] != commit.sha:
                    following = self._next_commit(commit, first[0], tok, date_prefix, base)
                    if following is None:
                        return True
                    commit = following
                names = commit.section(first) if commit.files is not None and has_diff else None
                state = 1 if has_diff else 0
        if commit.files is not None:
            self._step(commit.sha, commit.files, commit.parents, commit.sections,
                       commit.when_line)
        return not self.open

    def _next_commit(self, done: _Commit, sha: bytes, tok: bytes, date_prefix: bytes,
                     base: bytes | None) -> _Commit | None:
        """Answer or move on the files that reached ``done``, then start reading commit
        ``sha`` (``tok``: its first header); None once every file is answered."""
        if done.files is not None:
            self._step(done.sha, done.files, done.parents, done.sections, done.when_line)
            if not self.open:
                return None
        files = self.pending.pop(sha, None)
        if sha == base and files is not None:
            files = self._at_base(files)
            if not self.open:
                return None
        else:
            self.commits_read += 1
        if files is None:
            return _Commit(sha, None, [], b"")
        parents, when_line = _raw_header(tok, date_prefix)
        return _Commit(sha, files, [] if sha in self.boundary else parents, when_line)

    def _at_base(self, files: set[bytes]) -> set[bytes] | None:
        """The files that reached the base and that its answers leave open (None: none)."""
        before = len(files)
        left = self.from_base(files) or None
        self.open -= before - (len(left) if left else 0)
        return left

    def _give(self, parent: bytes, files: set[bytes]) -> None:
        """Move files on to a parent, merging the smaller set into the larger."""
        there = self.pending.get(parent)
        if there is None:
            self.pending[parent] = files
        elif len(there) >= len(files):
            there.update(files)
        else:
            files.update(there)
            self.pending[parent] = files

    def _step(
        self,
        sha: bytes,
        files: set[bytes],
        parents: list[bytes],
        sections: dict[bytes, list[bytes]],
        when_line: bytes,
    ) -> None:
        """Answer or move on every file that has reached commit ``sha``."""
        if not files:
            return
        if sha in self.ignored:
            self._pass_ignored(files, parents, sections)
            return
        remaining = (self._changed_by_one(files, parents, sections) if len(parents) <= 1
                     else self._changed_by_merge(files, parents, sections))
        if remaining:
            self._answer_here(sha, remaining, when_line)

    def _pass_ignored(self, files: set[bytes], parents: list[bytes],
                      sections: dict[bytes, list[bytes]]) -> None:
        """An ignored commit: note the files it touched and pass them all on to its first
        parent (at a root they are closed unanswered)."""
        for diff in sections.values():
            self.touched_by_ignored.update(n for n in diff if n in files)
        if parents:
            self._give(parents[0], files)
        else:
            self.open -= len(files)

    def _changed_by_one(self, files: set[bytes], parents: list[bytes],
                        sections: dict[bytes, list[bytes]]) -> set[bytes]:
        """A commit with one parent (or none): the files it changes, the answer here; the
        others move on to its parent."""
        diff = next(iter(sections.values()), [])
        changed = {n for n in diff if n in files}
        files.difference_update(changed)
        if files:
            if parents:
                self._give(parents[0], files)
            else:  # absent from a root: only after an ignored commit added it
                self.open -= len(files)
        return changed

    def _changed_by_merge(self, files: set[bytes], parents: list[bytes],
                          sections: dict[bytes, list[bytes]]) -> set[bytes]:
        """A merge: each file moves on to the first parent it is unchanged in (TREESAME
        to); those changed against every parent are the answer here."""
        remaining = files
        for parent in parents:
            parent_diff = sections.get(parent)
            if not parent_diff:
                self._give(parent, remaining)
                return set()
            stay = {n for n in parent_diff if n in remaining}
            if len(stay) == len(remaining):
                continue
            remaining.difference_update(stay)
            self._give(parent, remaining)
            remaining = stay
            if not remaining:
                return remaining
        return remaining

    def _answer_here(self, sha: bytes, files: set[bytes], when_line: bytes) -> None:
        """Answer ``files`` with commit ``sha``, dated by its ``when_line`` (read once)."""
        when = self._dates.get(sha)
        if when is None:
            when = self._dates[sha] = raw_date(when_line, self.zones)
        for key in files:
            self.answer(key, sha, when)
        self.open -= len(files)


class _Commit:
    """The commit whose sections are being read: the files that reached it (None: none
    did, its sections are skipped), its parents, its date line, each parent's diff."""

    __slots__ = ("files", "parents", "sections", "sha", "when_line")

    def __init__(self, sha: bytes, files: set[bytes] | None, parents: list[bytes],
                 when_line: bytes) -> None:
        self.sha, self.files, self.parents, self.when_line = sha, files, parents, when_line
        self.sections: dict[bytes, list[bytes]] = {}

    def section(self, first: list[bytes]) -> list[bytes]:
        """The names of the diff a section header's first line (split at spaces) opens:
        against the parent its ``(from <parent>)`` names, or the only one."""
        source = first[2][:-1] if len(first) > 2 else b""
        return self.sections.setdefault(source, [])


def _raw_header(token: bytes, date_prefix: bytes) -> tuple[list[bytes], bytes]:
    """The parents and the wanted date line of a ``--pretty=raw`` header."""
    end = token.find(b"\n\n")
    parents: list[bytes] = []
    when_line = b""
    for line in (token[:end] if end >= 0 else token).split(b"\n"):
        if line.startswith(b"parent "):
            parents.append(line[7:])
        elif line.startswith(date_prefix):
            when_line = line
    return parents, when_line
