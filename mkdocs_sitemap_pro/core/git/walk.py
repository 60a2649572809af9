"""What both walk rules share: one ``git log`` stream, stopped once every file is answered.

A rule (``first_parent``, ``all_parents``) says which ``git log`` to run and how to read
its records; this base runs it, records answers (a shallow boundary commit cannot date
a file) and gives every file left unanswered its reason.

``want`` is every file the walk follows (and remembers the answer of); ``asked`` the
ones somebody is waiting for. When every asked file is answered, the walk asks ``more``
for names that became known since (it blocks there, git paused on its full pipe, until
some arrive or the reader says there will be none): names already passed are answered
from memory, the others by reading on, in the same git process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
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
        self,
        repo: Repository,
        want: set[bytes],
        date: DateKind,
        ignored: frozenset[bytes],
        *,
        asked: set[bytes] | None = None,
        more: Callable[[], list[bytes] | None] | None = None,
    ) -> None:
        self.top = repo.top
        self.head = repo.head
        self.boundary = repo.boundary
        self.want = want
        self.date = date
        self.ignored = ignored
        self.commits_read = 0
        self.failure: str | None = None
        self.decided: set[bytes] = set()  # answers final for any later read of this HEAD
        self.answers: dict[bytes, LastChange] = {}
        self.touched_by_ignored: set[bytes] = set()
        self._dates: dict[bytes, datetime] = {}
        self.asked: set[bytes] = set(want) if asked is None else asked & want
        self._more = more
        self._dropped: set[bytes] = set()  # followed to their end without an answer

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
        # A walk that read history to its end decided every file; one stopped early,
        # only those it answered (the others were not reached).
        complete = not stopped and status == 0
        self.decided = set(self.want) if complete else set(self.answers)
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

    def satisfied(self) -> bool:
        """Whether the walk may stop: every asked file answered, and no more to come.

        Blocks in ``more`` while nothing asked is open, so a reader still rendering pages
        can add names to this same walk.
        """
        while not self.asked:
            if self._more is None:
                return True
            names = self._more()
            if names is None:
                return True
            self.asked.update(
                n for n in names
                if n in self.want and n not in self.answers and n not in self._dropped
            )
        return False

    def drop(self, keys: set[bytes]) -> None:
        """Files whose chain ended without a commit to answer them (they get a reason)."""
        self._dropped.update(keys)
        self.asked.difference_update(keys)

    def answer(self, key: bytes, sha: bytes, when: datetime) -> None:
        """Record ``sha`` as the file's last change (a shallow boundary cannot date it)."""
        self.asked.discard(key)
        if sha in self.boundary:
            self.answers[key] = Unknown("shallow")
        else:
            self.answers[key] = Known(when, sha.decode("ascii"))
