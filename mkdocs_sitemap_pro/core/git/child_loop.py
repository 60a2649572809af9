"""The git reader process's side of ``child.py``: one read at a time, until its input ends.

Started by ``HistoryProcess`` as ``python -c`` (``child._CHILD_MAIN``); it imports no
more than the git core, runs each read with ``history.run_read`` (the code a read in
the build's process runs) and keeps a ``HistoryMemo`` across reads, as ``mkdocs serve``
wants. Its only output is the messages (``messages.py``); anything else goes to stderr.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs_sitemap_pro.core.git.answers import HistoryOptions, LastChange
from mkdocs_sitemap_pro.core.git.history import run_read
from mkdocs_sitemap_pro.core.git.memo import HistoryMemo
from mkdocs_sitemap_pro.core.git.messages import read_message, write_message
from mkdocs_sitemap_pro.core.git.requests import PathRequests

__all__ = ["serve"]


def serve() -> None:
    """The child's loop: one read at a time, until its input ends."""
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write among the messages
    memo = HistoryMemo()
    lock = threading.Lock()

    def send(message: tuple[Any, ...]) -> None:
        with lock:
            write_message(sink, message)

    walk: threading.Thread | None = None
    requests = PathRequests(closed=True)
    order: list[Path] = []
    try:
        while (message := read_message(source)) is not None:
            kind = message[0]
            if kind == "read":
                if walk is not None:
                    walk.join()  # the last read was closed: it ends by itself
                _, folder, names, options = message
                order = [Path(n) for n in names]  # every path asked, answered in this order
                requests = PathRequests(order)
                walk = threading.Thread(target=_answer,
                                        args=(Path(folder), requests, order, options, memo, send))
                walk.start()
            elif kind == "add":
                batch = [Path(n) for n in message[1]]
                order.extend(batch)  # before the walk can see the batch, or the close after it
                requests.add(batch)
            elif kind == "close":
                requests.close()
            elif kind == "forget":  # a read under way keeps the memo it started with
                memo = HistoryMemo()
    finally:
        requests.close()
        if walk is not None:
            walk.join()


def _answer(folder: Path, requests: PathRequests, order: list[Path], options: HistoryOptions,
            memo: HistoryMemo, send: Callable[[tuple[Any, ...]], None]) -> None:
    """Run one read in the child and send its answer (or why it failed)."""
    try:
        hits = memo.hits
        history = run_read(folder, requests, options, True, memo,
                           lambda key: send(("key", key)))
        same: dict[LastChange, LastChange] = {}
        answers = [same.setdefault(a, a) for a in map(history.last_changed, order)]
        send(("done", answers, history.warnings, history.commits_read, history.top, history.key,
              memo.hits - hits, sum(os.times()[:4])))  # the CPU time with git's own
    except BaseException:  # the parent reads again itself: it must not wait for ever
        requests.close()
        send(("failed", traceback.format_exc(limit=-1).strip()))
