"""Running git: pinned settings, one command to completion, or a ``git log`` stream.

Every git process of the product starts here, with the settings that would change what
git prints pinned whatever the user's configuration says, in its own process group: ending
the group ends what a wrapper script started too, and a terminal's Ctrl-C does not reach
git before its owner decides. Its owner's ``GitProcesses`` gives it a deadline (a hanging
git raises ``GitTimeout`` instead of holding the build forever) and ends it on a signal.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

__all__ = ["LOG_FLAGS", "GitEnded", "GitProcesses", "GitTimeout", "NoGit", "run_git",
           "stream_git"]

# Bytes read from git at a time: a pipe holds 64 KiB. A larger request makes every read
# allocate (and give back to the system) a buffer that large, while git's commits
# arrive a few hundred bytes at a time: measured, 1 MiB doubled the reader's CPU time.
_CHUNK_BYTES = 1 << 16
# Seconds ``end_all`` waits for each killed git to be reaped: a process stuck in the kernel
# (a hard-mounted network filesystem) dies only when its call returns. Its owner reaps it.
_REAP_SECONDS = 1.0

# Settings that would change what git prints, pinned whatever the user's config says.
CONFIG: tuple[str, ...] = (
    "-c", "core.quotePath=false",
    "-c", "log.showRoot=true",
    "-c", "log.showSignature=false",
    "-c", "log.mailmap=false",
    "-c", "log.decorate=false",
    "-c", "log.follow=false",
    "-c", "diff.relative=false",
    "-c", "diff.renames=false",
    "-c", "i18n.logOutputEncoding=UTF-8",
    "-c", "color.ui=false",
)
LOG_FLAGS: tuple[str, ...] = (
    "--no-renames",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-show-signature",
    "--no-notes",
    "--no-decorate",
    "--no-abbrev-commit",
    "-z",
)


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


def _start(processes: GitProcesses | None, argv: list[str | bytes], **popen: Any) -> _Running:
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


def _stop(run: _Running, finished: bool) -> None:
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


def run_git(args: Sequence[str | bytes], cwd: str | os.PathLike[str], stdin: bytes | None = None,
            env: dict[str, str] | None = None, *,
            processes: GitProcesses | None = None) -> tuple[int, bytes, str]:
    """Run one git command to completion; return (exit status, stdout, stderr text).

    ``env``: variables set for this command on top of the process's environment.
    ``processes``: the owner's set (its deadline: ``GitTimeout``; ``GitEnded``).
    """
    run = _start(
        processes, ["git", "--no-pager", *CONFIG, *args],
        cwd=cwd, env=None if env is None else {**os.environ, **env},
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        out, err = run.proc.communicate(stdin)
    finally:
        _stop(run, finished=False)  # communicate reaped it, unless it raised
    run.outcome(complete=False)
    return run.proc.returncode, out, err.decode("utf-8", "replace").strip()


def stream_git(args: Sequence[str | bytes], cwd: str | os.PathLike[str],
               consume: Callable[[Iterator[list[bytes]]], bool], *,
               processes: GitProcesses | None = None) -> tuple[bool, int, str]:
    """Run git and feed its NUL-separated output to ``consume`` as it arrives.

    ``consume`` returns True when it needs no more, and git is then stopped at once (a
    walk over history ends as soon as every file is answered). Returns (stopped early,
    exit status, stderr text). ``processes``: as for ``run_git``; a kill gives a blocked
    ``consume`` the end of its stream, and what it made of a cut stream is not returned.
    """
    with tempfile.TemporaryFile() as errors:
        run = _start(
            processes, ["git", "--no-pager", *CONFIG, *args],
            cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors, bufsize=0,
        )
        assert run.proc.stdout is not None
        stopped = finished = False
        try:
            stopped = consume(_token_chunks(run.proc.stdout))
            finished = not stopped
        except Exception:
            if run.ended is None:  # else it choked on a stream cut by the kill: said below
                raise
        finally:
            _stop(run, finished)
        run.outcome(complete=stopped)
        errors.seek(0)
        detail = errors.read().decode("utf-8", "replace").strip()
    return stopped, run.proc.returncode, detail


def _token_chunks(stream: IO[bytes]) -> Iterator[list[bytes]]:
    """The NUL-separated tokens of a byte stream, a large chunk at a time."""
    tail = b""
    while True:
        data = stream.read(_CHUNK_BYTES)
        if not data:
            break
        tokens = (tail + data).split(b"\0")
        tail = tokens.pop()
        if tokens:
            yield tokens
    if tail:
        yield [tail]
