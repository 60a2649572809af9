"""The one way a cache file in ``cache_dir`` is read and written: versioned JSON.

Each file is one JSON object whose ``format`` and ``version`` keys name what it holds
(the envelope); the other keys are its body, which only its own cache encodes and
decodes (its values checked by ``core.store``). A file is written whole or not
at all (``core.atomic.replace_file``). Anyone who can write ``cache_dir`` can write
these files, and an older version of the plugin may have left one, so anything the
store cannot read or a decoder cannot validate is as good as no cache: the caller is
given why, to say at DEBUG, never an error. Neither reading nor writing raises.

Values read back from a cache file are checked here as strictly as git's own answers, and a
file's stamp (mtime, size, inode) tells whether it is still the one a cache saw.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from mkdocs_sitemap_pro.core.atomic import replace_file
from mkdocs_sitemap_pro.core.regular import read_regular
from mkdocs_sitemap_pro.core.words import printable

__all__ = [
    "Format", "load", "save", "MAX_EPOCH", "MIN_EPOCH", "OBJECT_ID", "REASONS", "checked_date",
    "checked_epoch", "checked_offset", "commit_id", "object_id", "string", "strings", "Stamp",
    "file_stamp",
]

T = TypeVar("T")

#: What a decoder raises for a body it cannot use (a value of the wrong type, a missing
#: key, a date out of range...); ``RecursionError``: JSON nested deeper than Python's stack.
_REFUSED = (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError,
            OverflowError, RecursionError)


@dataclass(frozen=True)
class Format:
    """A cache file's envelope: its format's name and version. A file of another name
    or version (an older plugin's) is no cache."""

    name: str
    version: int


def load(path: Path, form: Format,
         decode: Callable[[dict[str, Any]], T]) -> tuple[T | None, str | None]:
    """What ``decode`` makes of the body of the file at ``path`` (the whole object, the
    envelope's keys included), and why there is none: ``(None, None)`` for a missing
    file, ``(None, why)`` for one that cannot be used, ``why`` naming the file."""
    try:
        # Only a regular file is opened: a FIFO in its place would block for ever.
        raw = read_regular(path, None)
        if raw is None:
            if path.is_dir():
                raise IsADirectoryError(f"{path} is a folder")
            return None, None
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        name, version = data.get("format"), data.get("version")
        if name != form.name or type(version) is not int or version != form.version:
            raise ValueError(f"format {name!r:.60} version {version!r:.20}, "
                             f"not {form.name!r} version {form.version}")
        return decode(data), None
    except FileNotFoundError:
        return None, None
    except _REFUSED as error:
        return None, printable(f"{path} cannot be used ({type(error).__name__}: {error})")


def save(path: Path, form: Format, body: dict[str, Any]) -> str | None:
    """Write ``body`` in ``form``'s envelope to ``path``, whole or not at all (keys
    sorted: the same body gives the same bytes). Why it could not be, naming the file,
    or None."""
    assert "format" not in body and "version" not in body, "the envelope's keys"
    data = {**body, "format": form.name, "version": form.version}
    text = json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n"
    try:
        replace_file(path, text.encode("utf-8"))
    except OSError as error:
        return printable(f"{path} could not be written ({error})")
    return None


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


Stamp = tuple[int, int, int]  # (mtime_ns, size, inode)


def file_stamp(path: str | os.PathLike[str]) -> Stamp | None:
    """The file's (mtime_ns, size, inode), or None if it cannot be stat'ed."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)
