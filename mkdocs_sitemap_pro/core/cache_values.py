"""Values read back from a cache file, checked as strictly as git's own answers.

A file in ``cache_dir`` is written by this plugin, but anyone who can write the folder
can write it too, and a crashed or older version may have left it half right. Each
reader takes its values through these checks: a value that fails raises ``ValueError``
and the reader treats the whole file as no cache. They cost a regular expression or an
integer comparison each: a warm build reads every file's entry.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

__all__ = [
    "MAX_EPOCH",
    "MIN_EPOCH",
    "OBJECT_ID",
    "REASONS",
    "checked_date",
    "checked_epoch",
    "checked_offset",
    "commit_id",
    "object_id",
    "string",
    "strings",
]

OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # a full SHA-1 or SHA-256 id, as git prints it

#: The dates a cache may hold: git's own range as a datetime can hold it in any zone
#: (1970 to the end of 9998; a day's margin each side for the zone).
MIN_EPOCH = 0
MAX_EPOCH = int(datetime(9998, 12, 31, tzinfo=timezone.utc).timestamp())
_MAX_MINUTES = 24 * 60 - 1  # a zone is less than a day from UTC
_EPOCH = datetime(1970, 1, 1)

#: Why git cannot date a file (``core.git.answers.Unknown``), as a cache may hold it.
REASONS = frozenset({"untracked", "shallow", "ignored", "no-git", "not-a-repo",
                     "no-commits", "timeout"})


def commit_id(value: object) -> str:
    """A full commit (or object) id in git's lower-case hex; ``ValueError`` if not one."""
    if type(value) is not str or not OBJECT_ID.fullmatch(value):
        raise ValueError("not an object id")
    return value


object_id = commit_id  # a blob's id has the same form


def checked_date(iso: object) -> datetime:
    """An ISO date with its zone, within git's range; ``ValueError`` for a naive one,
    another shape, or a date that a zone would carry out of a datetime's range."""
    if type(iso) is not str:
        raise ValueError("not a date")
    when = datetime.fromisoformat(iso)
    offset = when.utcoffset()
    if offset is None:
        raise ValueError("a date without a zone")
    if offset.seconds % 60 or offset.microseconds:
        raise ValueError("a zone of other than whole minutes")
    since = when.replace(tzinfo=None) - _EPOCH - offset  # no overflow near the ends
    checked_epoch(since.days * 86_400 + since.seconds)
    return when


def checked_epoch(epoch: object) -> int:
    """A commit time in seconds since 1970 (UTC), within git's range."""
    if type(epoch) is not int or not MIN_EPOCH <= epoch <= MAX_EPOCH:
        raise ValueError("a time out of range")
    return epoch


def checked_offset(minutes: object) -> int:
    """A zone's minutes east of UTC (less than a day either way)."""
    if type(minutes) is not int or not -_MAX_MINUTES <= minutes <= _MAX_MINUTES:
        raise ValueError("a zone out of range")
    return minutes


def string(value: object) -> str:
    """A string; ``TypeError`` if ``value`` is not one."""
    if not isinstance(value, str):
        raise TypeError("not a string")
    return value


def strings(values: object) -> list[str]:
    """A list of strings; ``TypeError`` if ``values`` is not one."""
    if not isinstance(values, list):
        raise TypeError("not a list")
    return [string(v) for v in values]


def flat_ints(flat: object, size: int) -> list[int]:
    """Tuples of ``size`` integers as a cache file holds them, one flat list (read at C
    speed on every build): the list, checked; ValueError if it is not one."""
    if not isinstance(flat, list) or len(flat) % size or not set(map(type, flat)) <= {int}:
        raise ValueError(f"not groups of {size} integers")
    return flat
