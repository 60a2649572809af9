"""The history read in a child interpreter, so that parsing ``git log`` never holds the
interpreter that renders the pages.

A worker thread parsing git's output competes with MkDocs for the GIL: on the 2,000-page
bench site, the build's main thread made about 9,000 voluntary context switches with the
read in a thread, and 1 without it. Here the same read (``history.run_read``) runs in a
child Python process (``child_loop.py``) that lives as long as its ``HistoryProcess``
(the plugin instance's), and so does its ``HistoryMemo``: ``mkdocs serve`` rebuilds keep
it. The build's process only writes the paths it asks for, and a thread that waits for
the child reads the answer once.

If the child cannot be started, or ends without answering, the read runs in this
process instead (``ChildRead`` is a ``HistoryRead`` that keeps every path asked), with the
same answers; ``fallback`` says why, for the caller's DEBUG log.

Messages (``messages.py``): ``("read", folder, paths, options)``, ``("add", paths)``,
``("close",)``, ``("forget",)`` one way; ``("key", key)``, ``("done", answers, warnings,
commits read, top level, key, memo hit, cpu)`` and ``("failed", text)`` back. Paths go as
strings and answers come back in the order the paths were asked, equal answers as one
object: a pickled ``Path`` takes ten times as long to load as its string, on the thread
that renders.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any

from mkdocs_sitemap_pro.core.git.answers import DateKind, HistoryRule
from mkdocs_sitemap_pro.core.git.history import GitHistory, HistoryRead, as_paths
from mkdocs_sitemap_pro.core.git.memo import HistoryMemo
from mkdocs_sitemap_pro.core.git.messages import read_message, write_message

__all__ = ["ChildRead", "HistoryProcess"]

_PACKAGE_ROOT = str(Path(__file__).absolute().parents[3])  # the folder holding the package
# The child imports this very copy: from its folder when the usual path (site-packages,
# the same for the same interpreter) does not hold it, as for a source tree.
_CHILD_MAIN = (
    "import sys\n"
    "if sys.argv[1] not in sys.path: sys.path.insert(0, sys.argv[1])\n"
    "from mkdocs_sitemap_pro.core.git.child_loop import serve\n"
    "serve()\n"
    "import os; os._exit(0)\n"  # nothing to tidy: the build waits for this exit
)
_PIPE_BYTES = 1 << 20  # a site's first paths fit without waiting for the child to start
_F_SETPIPE_SZ = 1031  # Linux's fcntl command (the constant is in ``fcntl`` from 3.10 on Linux)
_ENDED = 5.0  # seconds a child is given to end after its input is closed


class HistoryProcess:
    """The child process that reads history: started by the first ``read``, ended by
    ``shutdown``. One read at a time (the plugin's single git worker)."""

    def __init__(self, python: str | None = None) -> None:
        self._python = python or sys.executable
        self._proc: subprocess.Popen[bytes] | None = None
        self._errors: IO[bytes] | None = None
        self._lock = threading.Lock()  # one message written at a time
        # Why the child is not used (reads run here): a frozen application's executable
        # is the application, not a Python that runs ``-c``.
        self.failure: str | None = (
            "this Python is a frozen application" if getattr(sys, "frozen", False) else None)
        self.memo = HistoryMemo()  # for reads that run in this process
        self._child_hits = 0
        self.child_cpu = 0.0  # CPU seconds of the child and its git, as of its last answer

    @property
    def hits(self) -> int:
        """Reads answered without a walk, in the child and here (for tests and DEBUG)."""
        return self._child_hits + self.memo.hits

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def read(
        self,
        folder: Path,
        paths: Iterable[Path],
        *,
        history: HistoryRule = "first-parent",
        date: DateKind = "committer",
        ignore_commits: Sequence[str] = (),
    ) -> ChildRead:
        """Start a read that more paths can join (as ``HistoryRead``)."""
        return ChildRead(self, folder, paths, history=history, date=date,
                         ignore_commits=ignore_commits)

    def forget(self) -> None:
        """Drop the answers kept for later reads, here and in the child."""
        self.memo.clear()
        self._send(("forget",))

    def shutdown(self) -> None:
        """End the child (it ends by itself, too, when this process does)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            assert proc.stdin is not None
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(_ENDED)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, self._errors):
            if stream is not None:
                stream.close()
        self._errors = None

    def _send(self, message: tuple[Any, ...]) -> bool:
        """Write one message to the child, starting it if need be; False: no child."""
        with self._lock:
            if self._proc is None and self.failure is None and message[0] == "read":
                self._start()
            proc = self._proc
            if proc is None:
                return False
            try:
                assert proc.stdin is not None
                write_message(proc.stdin, message)
                return True
            except OSError as exc:
                self._lost(f"the git reader process could not be written to ({exc})")
                return False

    def _start(self) -> None:
        self._errors = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(
                [self._python, "-c", _CHILD_MAIN, _PACKAGE_ROOT],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._errors,
            )
        except OSError as exc:
            self.failure = f"the git reader process could not be started ({exc})"
            return
        assert self._proc.stdin is not None
        try:
            import fcntl

            fcntl.fcntl(self._proc.stdin.fileno(), getattr(fcntl, "F_SETPIPE_SZ", _F_SETPIPE_SZ),
                        _PIPE_BYTES)
        except (ImportError, OSError):
            pass  # a smaller pipe: the first write waits for the child to read

    def _receive(self, read: ChildRead) -> GitHistory | None:
        """The child's answer to the read under way (None: the child is gone)."""
        proc = self._proc
        if proc is None or proc.stdout is None:
            return None
        try:
            while (message := read_message(proc.stdout)) is not None:
                if message[0] == "key":
                    read._found_key(message[1])
                elif message[0] == "done":
                    answers, warnings, commits_read, top, key, hit, self.child_cpu = message[1:]
                    self._child_hits += hit
                    return GitHistory(dict(zip(read._order, answers)), warnings=warnings,
                                      commits_read=commits_read, top=top, key=key)
                else:  # "failed": the read raised in the child
                    self._lost(f"the git reader process failed: {message[1]}")
                    return None
        except (OSError, EOFError, pickle.UnpicklingError) as exc:
            self._lost(f"the git reader process could not be read ({exc})")
            return None
        self._lost("the git reader process ended")
        return None

    def _lost(self, why: str) -> None:
        """The child is not to be used again: say why, with what it printed."""
        if self._errors is not None:
            try:
                self._errors.seek(0)
                said = self._errors.read().decode("utf-8", "replace").strip()
            except (OSError, ValueError):
                said = ""
            if said:
                why = f"{why}: {said.splitlines()[-1]}"
        self.failure = why
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()


class ChildRead(HistoryRead):
    """A ``HistoryRead`` that the child answers: ``add`` and ``close`` go to the child too,
    and ``run`` waits for its answer. With no child, ``run`` walks here, as a
    ``HistoryRead``'s does: its requests hold every path asked."""

    def __init__(
        self,
        process: HistoryProcess,
        folder: Path,
        paths: Iterable[Path],
        *,
        history: HistoryRule = "first-parent",
        date: DateKind = "committer",
        ignore_commits: Sequence[str] = (),
    ) -> None:
        asked = as_paths(paths)
        super().__init__(folder, asked, history=history, date=date,
                         ignore_commits=ignore_commits, memo=process.memo)
        self._process = process
        self._order = asked  # every path asked, in the order the child answers them
        self.fallback: str | None = None  # why the read ran in this process (None: it did not)
        self._sent = process._send(
            ("read", str(self._folder), [os.fspath(p) for p in asked], self._options))

    def add(self, paths: Iterable[Path]) -> None:
        batch = as_paths(paths)
        if not batch or self.closed:  # a closed read has its answer
            return
        super().add(batch)
        self._order.extend(batch)
        if self._sent:
            self._sent = self._process._send(("add", [os.fspath(p) for p in batch]))

    def close(self) -> None:
        if self.closed:  # closed early (every path known), and again at the end
            return
        super().close()
        if self._sent:
            self._sent = self._process._send(("close",))

    def run(self) -> GitHistory:
        """Wait for the child's answer (in a thread that does nothing else); or, with no
        child, walk here."""
        if self._sent:
            try:
                history = self._process._receive(self)
            finally:
                self._key_known.set()
            if history is not None:
                return history
            self._sent = False
        self.fallback = self._process.failure or "no git reader process"
        return super().run()
