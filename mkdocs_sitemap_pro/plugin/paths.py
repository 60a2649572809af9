"""One ``Path`` object per file path string, made once per process.

A build turns the same thousands of source paths into ``Path`` objects in several
places (the git read, the dependency tracker, the page collector, the dating), and
``Path()`` parsing is a measurable part of a ``mkdocs serve`` rebuild. Paths are
immutable, so sharing them is safe; the cache is bounded.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

__all__ = ["path_of"]


@lru_cache(maxsize=1 << 16)
def path_of(text: str) -> Path:
    """``Path(text)``, the same object for the same string."""
    return Path(text)
