"""What both walk rules share: one ``git log`` stream, stopped once every file is answered.

A rule (``first_parent``, ``all_parents``) says which ``git log`` to run and how to read
its records; this base runs it, records answers (a shallow boundary commit cannot date
a file) and gives every file left unanswered its reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

from mkdocs_sitemap_pro.core.git.answers import DateKind, Known, LastChange, Unknown
from mkdocs_sitemap_pro.core.git.process import stream_git
from mkdocs_sitemap_pro.core.git.repository import Repository

__all__ = ["Walk", "raw_date"]

_ZONES: dict[bytes, timezone] = {}


def raw_date(line: bytes) -> datetime:
    """The date of a raw ``committer``/``author`` line (``... <epoch> <+hhmm>``)."""
    _, epoch, zone = line.rsplit(b" ", 2)
    tz = _ZONES.get(zone)
    if tz is None:
        sign = -1 if zone[:1] == b"-" else 1
        minutes = int(zone[1:3]) * 60 + int(zone[3:5])
        tz = _ZONES[zone] = timezone(timedelta(minutes=sign * minutes))
    return datetime.fromtimestamp(int(epoch), tz)


class Walk:
    """One ``git log`` run, read as a stream and stopped once every file is answered."""

    def __init__(
        self, repo: Repository, want: set[bytes], date: DateKind, ignored: frozenset[bytes]
    ) -> None:
        self.top = repo.top
        self.head = repo.head
        self.boundary = repo.boundary
        self.want = want
        self.date = date
        self.ignored = ignored
        self.commits_read = 0
        self.failure: str | None = None
        self.answers: dict[bytes, LastChange] = {}
        self.touched_by_ignored: set[bytes] = set()
        self._dates: dict[bytes, datetime] = {}

    def args(self) -> list[str | bytes]:
        """The ``git log`` arguments after the global options."""
        raise NotImplementedError

    def consume(self, chunks: Iterator[list[bytes]]) -> bool:
        """Read records until every file is answered (True) or the stream ends (False)."""
        raise NotImplementedError

    def run(self) -> dict[bytes, LastChange]:
        """Walk, then give every file not answered by a commit its reason."""
        stopped, status, detail = stream_git(self.args(), self.top, self.consume)
        if not stopped and status != 0:
            self.failure = (
                f"git log failed in {self.top} (exit status {status}): "
                f"{detail or 'no message'}; files it did not reach are not dated."
            )
        for key in self.want:
            if key not in self.answers:
                if key in self.touched_by_ignored:
                    reason = "ignored"
                elif self.failure:
                    reason = "no-git"
                elif self.boundary:
                    reason = "shallow"
                else:
                    reason = "ignored"
                self.answers[key] = Unknown(reason)
        return self.answers

    def answer(self, key: bytes, sha: bytes, when: datetime) -> None:
        """Record ``sha`` as the file's last change (a shallow boundary cannot date it)."""
        if sha in self.boundary:
            self.answers[key] = Unknown("shallow")
        else:
            self.answers[key] = Known(when, sha.decode("ascii"))
