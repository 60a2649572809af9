"""Paths asked of a history read while it runs: handed over between threads in batches.

The build adds paths as pages render (files a page included); the walk, in its own
thread, takes them when it has answered everything asked so far, and waits here for
more until the build closes the requests.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path

__all__ = ["PathRequests"]


class PathRequests:
    """A queue of paths from any thread, closed once no more will come."""

    def __init__(self, paths: Iterable[Path] = (), *, closed: bool = False) -> None:
        self._cond = threading.Condition()
        self._queue: list[Path] = list(paths)
        self._closed = closed

    def add(self, paths: Iterable[Path]) -> None:
        """Ask for more paths (ignored once closed: the read has given its answer)."""
        with self._cond:
            if self._closed:
                return
            before = len(self._queue)
            self._queue.extend(paths)
            if len(self._queue) != before:
                self._cond.notify_all()

    def close(self) -> None:
        """No more paths will come; a walk waiting for some finishes."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        with self._cond:
            return self._closed

    def take(self) -> list[Path] | None:
        """The paths added since the last take; blocks until some come. None: closed, none left."""
        with self._cond:
            while not self._queue and not self._closed:
                self._cond.wait()
            if self._queue:
                batch, self._queue = self._queue, []
                return batch
            return None
