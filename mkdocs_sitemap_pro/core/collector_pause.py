"""Python's cyclic garbage collector held off while the sitemap is written.

Writing makes tens of thousands of short-lived containers (entries, rows, pieces of
text) and no reference cycles. At the end of a large build, when MkDocs holds every page
in memory, those allocations bring on a full collection that walks the whole heap: in
``bench/instructions.py`` (2,000 pages) one more than the build makes without the plugin,
about 60 ms. Held off, the collector runs once writing ends, on what is left then.
"""

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside; the collector's state as it was after."""
    if not gc.isenabled():  # someone turned it off: theirs to turn on
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
