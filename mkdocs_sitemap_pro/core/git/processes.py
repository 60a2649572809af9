"""Who owns the git processes: a deadline, and ending them all at once.

``GitProcesses`` is the set of git processes one owner (a plugin instance, one build)
has running. Each is started in its own process group, so ending the group ends what a
wrapper script started too, and a terminal's Ctrl-C does not reach git before its owner
decides. Past the deadline every process is killed and the call waiting on it raises
``GitTimeout``; ``end_all`` (a signal, a failed build, MkDocs' end) raises ``GitEnded``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from typing import Any

__all__ = ["GitEnded", "GitProcesses", "GitTimeout", "NoGit", "start_git", "stop_git"]

# Seconds ``end_all`` waits for each killed git to be reaped: a process stuck in the kernel
# (a hard-mounted network filesystem) dies only when its call returns. Its owner reaps it.
_REAP_SECONDS = 1.0


class NoGit(Exception):
    """The git program could not be started."""


class GitTimeout(Exception):
    """git did not finish before the deadline of its ``GitProcesses``; ``waited``: the
    seconds from ``arm()`` to the kill (the timeout, for a start refused after it)."""

    says = "git did not answer within {} s"

    def __init__(self, waited: float) -> None:
        super().__init__(self.says.format(f"{waited:.0f}" if waited >= 10 else f"{waited:.1f}"))
        self.waited = waited


class GitEnded(GitTimeout):
    """git was ended by its owner (``end_all``, ``close``, a signal) before it finished,
    or not started since its ``GitProcesses`` is closed; ``waited``: the seconds it ran.
    A ``GitTimeout``, so that whoever gives up on a deadline gives up on this too."""

    says = "git was ended by its owner after {} s"


class _Running:
    """One git process, the thread that owns it, and why and when it was ended."""

    __slots__ = ("ended", "owner", "proc", "started", "thread", "waited")

    def __init__(self, proc: subprocess.Popen[bytes], owner: GitProcesses | None) -> None:
        self.proc, self.owner, self.thread = proc, owner, threading.get_ident()
        self.started = time.monotonic()
        self.ended: type[GitTimeout] | None = None
        self.waited = 0.0

    def end(self, reason: type[GitTimeout], since: float) -> bool:
        """SIGKILL the process's whole group, once, unless it was reaped; say if it did."""
        if self.ended is not None or self.proc.returncode is not None:
            return False
        self.ended, self.waited = reason, time.monotonic() - since
        _kill_group(self.proc)
        return True

    def reap(self) -> None:
        """Wait a moment for the killed process, unless this thread owns it (a signal
        handler interrupted it): the owner reaps it once the handler is done."""
        if self.thread != threading.get_ident():
            try:
                self.proc.wait(timeout=_REAP_SECONDS)
            except subprocess.TimeoutExpired:
                pass

    def outcome(self, complete: bool) -> None:
        """Raise why the process was ended, unless it ended by itself or said enough."""
        if self.ended is not None and not complete and self.proc.returncode == -signal.SIGKILL:
            raise self.ended(self.waited)


class GitProcesses:
    """The git processes one owner (a plugin instance, one build) has running, so that
    they end together on a deadline, a signal or shutdown. Thread-safe: git starts in a
    worker thread while the main thread may call ``end_all`` from a signal handler.

    ``timeout``: the seconds git may run from ``arm()`` (None: no deadline). Then a timer
    kills every live process, whose ``run_git``/``stream_git`` raise ``GitTimeout``, as
    does a later start."""

    def __init__(self, timeout: float | None = None) -> None:
        if timeout is not None and not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
        self.timeout = timeout
        # Reentrant: a signal handler runs end_all in the main thread, maybe inside start().
        self._lock = threading.RLock()
        self._running: dict[int, _Running] = {}
        self._armed_at: float | None = None
        self._expired = self._timed_out = self._closed = False
        self._timer: threading.Timer | None = None
        self._waited = 0.0

    @property
    def timed_out(self) -> bool:
        """Whether the deadline of the last ``arm()`` ended (or refused) a git process."""
        return self._timed_out

    @property
    def waited(self) -> float:
        """Seconds from the last ``arm()`` to the deadline's kill (0: none; see GitTimeout)."""
        return self._waited

    def arm(self) -> None:
        """Start the clock: git may run ``timeout`` seconds from now (None: no-op).
        Arming again restarts the clock and forgets an earlier timeout."""
        with self._lock:
            self._cancel_timer()
            self._timed_out, self._waited = False, 0.0
            if self.timeout is None:
                return
            armed_at = self._armed_at = time.monotonic()
            self._timer = threading.Timer(self.timeout, self._expire, args=(armed_at,))
            self._timer.name, self._timer.daemon = "git-deadline", True
            self._timer.start()

    def disarm(self) -> None:
        """No deadline any more (the walk is over); ``timed_out`` and ``waited`` stay."""
        with self._lock:
            self._cancel_timer()

    def end_all(self) -> None:
        """End every live git process now (SIGKILL to its group, then reap it); their
        callers raise ``GitEnded``. Idempotent; git started afterwards runs as usual."""
        with self._lock:
            ended = [run for run in list(self._running.values()) if run.end(GitEnded, run.started)]
        for run in ended:
            run.reap()

    def close(self) -> None:
        """``end_all``, and refuse every later start with ``GitEnded`` (shutdown; final)."""
        with self._lock:
            self._closed = True
            self._cancel_timer()
        self.end_all()

    def start(self, argv: list[str | bytes], **popen: Any) -> _Running:
        """Start a git process owned by this set (``run_git`` and ``stream_git`` do)."""
        with self._lock:
            if self._closed:
                raise GitEnded(0.0)
            now, armed_at = time.monotonic(), self._armed_at
            if armed_at is not None and (self._expired or now >= armed_at + (self.timeout or 0)):
                if not self._timed_out:  # refused, nothing killed: it waited the timeout
                    self._timed_out, self._waited = True, self.timeout or 0.0
                raise GitTimeout(self._waited)
            # Started under the lock: end_all either sees the process or runs after it.
            run = _Running(_popen(argv, **popen), self)
            self._running[id(run)] = run
            return run

    def forget(self, run: _Running) -> None:
        """The process is reaped: it is no longer this set's to end."""
        with self._lock:
            self._running.pop(id(run), None)

    def _expire(self, armed_at: float) -> None:
        """The deadline (the timer's thread): kill every live process."""
        with self._lock:
            if armed_at != self._armed_at:  # the timer of an earlier arm() that lost the race
                return
            self._expired, self._timer = True, None
            ended = [run for run in list(self._running.values()) if run.end(GitTimeout, armed_at)]
            if ended:
                self._timed_out, self._waited = True, ended[0].waited
        for run in ended:
            run.reap()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._armed_at, self._expired = None, None, False


def start_git(processes: GitProcesses | None, argv: list[str | bytes], **popen: Any) -> _Running:
    """Start one git process, owned by ``processes`` if given (its deadline applies)."""
    return processes.start(argv, **popen) if processes else _Running(_popen(argv, **popen), None)


def _popen(argv: list[str | bytes], **popen: Any) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(argv, start_new_session=True, **popen)
    except FileNotFoundError as exc:
        raise NoGit from exc


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process group the process leads (it started its own session)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:  # the group is gone already
        pass


def stop_git(run: _Running, finished: bool) -> None:
    """Close git's pipes and reap it: killed first unless it ``finished`` its output (then
    it is given a moment to exit, as git closes its output just before it does)."""
    proc = run.proc
    if not finished and proc.poll() is None:
        _kill_group(proc)
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()
    try:
        proc.wait(timeout=_REAP_SECONDS if finished else None)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        proc.wait()
    if run.owner is not None:
        run.owner.forget(run)
