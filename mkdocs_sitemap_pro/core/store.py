"""The one way a cache file in ``cache_dir`` is read and written: versioned JSON.

Each file is one JSON object whose ``format`` and ``version`` keys name what it holds
(the envelope); the other keys are its body, which only its own cache encodes and
decodes (its values checked by ``core.cache_values``). A file is written whole or not
at all (``core.atomic.replace_file``). Anyone who can write ``cache_dir`` can write
these files, and an older version of the plugin may have left one, so anything the
store cannot read or a decoder cannot validate is as good as no cache: the caller is
given why, to say at DEBUG, never an error. Neither reading nor writing raises.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from mkdocs_sitemap_pro.core.atomic import replace_file
from mkdocs_sitemap_pro.core.regular import read_regular
from mkdocs_sitemap_pro.core.words import printable

__all__ = ["Format", "load", "save"]

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
