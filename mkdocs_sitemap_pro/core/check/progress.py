"""Telling how far a long check has got: a line now and then, and none for a quick one.

A sitemap of 50 MB takes tens of seconds to read and judge; a check that prints nothing
meanwhile looks hung. ``Ticker`` passes a line to its ``say`` at most every ``every``
seconds, the first only once the check has run that long, so a small tree prints nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["Ticker"]


class Ticker:
    """Says how far a step has got, at most every ``every`` seconds (from its creation)."""

    def __init__(self, say: Callable[[str], None], every: float) -> None:
        self.say, self.every = say, every
        self.due = time.monotonic() + every

    def tick(self, message: Callable[[], str]) -> None:
        """Say ``message()`` if the last line (or the start) is ``every`` seconds old."""
        now = time.monotonic()
        if now >= self.due:
            self.due = now + self.every
            self.say(message())
