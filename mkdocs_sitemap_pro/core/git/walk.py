"""What both walk rules share: one ``git log`` stream, stopped once every file is answered.

A rule (``first_parent``, ``all_parents``) says which ``git log`` to run and how to read
its records; this base runs it, records answers (a shallow boundary commit cannot date
a file) and gives every file left unanswered its reason.

``base`` brings an earlier walk forward: the answers of every file at an older HEAD,
under the same options. Where a file's chain reaches that commit, its answer there is
the answer the walk would find by reading on (the chain from a commit depends on nothing
else), so the walk takes it and reads no further for that file: after one new commit,
a walk reads one commit. A file whose chain never reaches the base is walked as usual.
"""

from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta, timezone
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.answers import DateKind, Known, LastChange, Unknown
from mkdocs_sitemap_pro.core.git.process import GitProcesses, stream_git
from mkdocs_sitemap_pro.core.git.repository import Repository

__all__ = ["Base", "Walk", "raw_date"]

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
