"""Files that fail like a full disk, swapped in where the core opens its files.

The file is real: it takes the first ``limit`` bytes, then raises ENOSPC, so a test sees
a half-written temporary file exactly as a full disk leaves it.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import pytest

from mkdocs_sitemap_pro.core import atomic


class FailingFile:
    """A real file that fails with ENOSPC once ``limit`` bytes have been written."""

    def __init__(self, handle: BinaryIO, limit: int) -> None:
        self._handle = handle
        self._left = limit

    def write(self, data: bytes) -> int:
        if len(data) > self._left:
            self._handle.write(bytes(data[: self._left]))
            self._left = 0
            raise OSError(errno.ENOSPC, "No space left on device")
        self._left -= len(data)
        return self._handle.write(data)

    def __getattr__(self, name: str) -> object:
        return getattr(self._handle, name)

    def __enter__(self) -> FailingFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()


def fail_writes(
    monkeypatch: pytest.MonkeyPatch, failing: Callable[[str], bool], limit: int = 200
) -> list[str]:
    """Make every file the core opens whose name ``failing`` accepts fail after ``limit``
    bytes; return the list of names opened (filled in as the test runs)."""
    opened: list[str] = []
    real_open = atomic.open_new

    def open_new(path: Path) -> BinaryIO:
        opened.append(path.name)
        handle = real_open(path)
        if failing(path.name):
            return FailingFile(handle, limit)  # type: ignore[return-value]
        return handle

    monkeypatch.setattr(atomic, "open_new", open_new)
    return opened
