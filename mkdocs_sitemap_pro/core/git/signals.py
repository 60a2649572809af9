"""SIGINT and SIGTERM end an owner's git processes before they act as they did before.

git starts in its own process group (``process.py``), so a terminal's Ctrl-C or a
``kill`` of the build reaches only the build's process: without these handlers, a git
that hangs would be left running. Each handler ends every git of one ``GitProcesses``,
then does what the previous handler would: calls it (SIGINT's default raises
``KeyboardInterrupt``), or, when it was ``SIG_DFL``, puts it back and sends the signal
again so that the process dies of it as it would have. An ignored signal (``SIG_IGN``)
or one whose handler Python did not set is left alone. Python runs signal handlers in
the main thread only, and only the main thread may set them.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any, Union

from mkdocs_sitemap_pro.core.git.process import GitProcesses

__all__ = ["EndOnSignals"]

_Handler = Union[Callable[[int, Union[FrameType, None]], Any], int, signal.Handlers, None]


class EndOnSignals:
    """Handlers for SIGINT and SIGTERM that end ``processes`` first (install, uninstall).

    Also a context manager: ``with EndOnSignals(processes): ...``.
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self, processes: GitProcesses) -> None:
        self.processes = processes
        # signal -> (the handler before ours, ours), for the signals ours were set for
        self._installed: dict[int, tuple[_Handler, Callable[[int, FrameType | None], None]]] = {}

    @property
    def installed(self) -> bool:
        """Whether ours are set (for at least one signal)."""
        return bool(self._installed)

    def install(self) -> bool:
        """Set the handlers; False (and nothing set) when not called from the main thread.
        Installing again while installed changes nothing."""
        if threading.current_thread() is not threading.main_thread():
            return False
        if self._installed:
            return True
        for signum in self.SIGNALS:
            previous = signal.getsignal(signum)
            if previous is None or previous == signal.SIG_IGN:
                continue  # set outside Python (cannot be put back), or ignored: left alone
            ours = self._handler(previous)
            signal.signal(signum, ours)
            self._installed[signum] = (previous, ours)
        return True

    def uninstall(self) -> bool:
        """Put the previous handlers back, where ours are still the ones set (a handler
        set after ours stays); False (and nothing changed) when not in the main thread."""
        if threading.current_thread() is not threading.main_thread():
            return False
        for signum, (previous, ours) in self._installed.items():
            if signal.getsignal(signum) is ours:
                signal.signal(signum, previous)
        self._installed.clear()
        return True

    def __enter__(self) -> EndOnSignals:
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def _handler(self, previous: _Handler) -> Callable[[int, FrameType | None], None]:
        processes = self.processes

        def end_git_then_as_before(signum: int, frame: FrameType | None) -> None:
            if previous == signal.SIG_DFL:
                # The process dies of the signal next: nothing may start in between.
                processes.close()
                signal.signal(signum, signal.SIG_DFL)
                os.kill(os.getpid(), signum)
                return
            processes.end_all()
            if callable(previous):
                previous(signum, frame)

        return end_git_then_as_before
