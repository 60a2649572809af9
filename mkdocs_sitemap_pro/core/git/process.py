"""Running git: pinned settings, a deadline, and no process left behind.

Every git process of the product starts here (``run_git``: one command to completion;
``stream_git``: a ``git log`` read as it arrives), with the settings that would change
what git prints pinned whatever the user's configuration says. Each belongs to its
owner's ``GitProcesses``: past the owner's deadline it is killed and the call raises
``GitTimeout`` (a hanging git does not hold the build forever); ``close`` (a shutdown, a
failed build, SIGINT or SIGTERM) kills every live one and the calls raise ``GitEnded``.

Each call's wait is proportionate to it (``_Wait``): a query that reads a few objects
(``rev-parse``, ``ls-tree``, ``cat-file``, ``log --no-walk``…) gets at most
``QUICK_SECONDS`` of its owner's deadline, as one that takes milliseconds in a working
repository and hangs only when git does; a walk or a blame gets the owner's whole
deadline. A call still waited for after ``NOTICE_SECONDS`` is said once through the
owner's ``notice`` (naming the command and what bounds it), so that a hanging git is
never silence. A call with no owner (``versions``' reads and commits) gets one of
``DEFAULT_TIMEOUT`` seconds: no git call waits without a deadline.

git starts in a session of its own, so that killing its process group ends what a
wrapper script started too, and so that a terminal's Ctrl-C reaches git only through
its owner (``end_on_signals``).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import IO, Any

__all__ = ["CONFIG", "LOG_FLAGS", "GitEnded", "GitProcesses", "GitTimeout", "NoGit",
           "run_git", "stream_git"]

# Bytes read from git at a time: a pipe holds 64 KiB. A larger request makes every read
# allocate (and give back to the system) a buffer that large, while git's commits
# arrive a few hundred bytes at a time.
_CHUNK_BYTES = 1 << 16

# Seconds a git that closed its output is given to exit before it is killed.
_EXIT_SECONDS = 1.0

# Settings that would change what git prints, pinned whatever the user's config says,
# and caps on what git keeps in memory.
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
    # Memory, not output: git's defaults keep up to 96 MiB of unpacked delta bases and map
    # the whole pack, so a long walk would hold more memory than the build's own Python;
    # capped, it holds a fraction of that, for no more CPU (bench/scale.py).
    "-c", "core.deltaBaseCacheLimit=16m",
    "-c", "core.packedGitWindowSize=1m",
    "-c", "core.packedGitLimit=8m",
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


# Seconds a quick query may take at most (within the owner's deadline), and seconds of
# waiting after which the owner is told what git is waited for.
QUICK_SECONDS = 30.0
NOTICE_SECONDS = 10.0
# Seconds git may run when its caller sets no deadline: the plugin's git_timeout default.
DEFAULT_TIMEOUT = 300

# Subcommands that read a few objects, never the history: bounded by QUICK_SECONDS.
_QUICK = frozenset({"rev-parse", "ls-tree", "ls-files", "cat-file", "check-ignore",
                    "check-ref-format", "hash-object", "remote", "config", "symbolic-ref",
                    "show-ref", "for-each-ref"})


class NoGit(Exception):
    """The git program could not be started."""

    def __init__(self, message: str = "git is not installed (no `git` program on PATH)"
                 ) -> None:
        super().__init__(message)


class GitTimeout(Exception):
    """git did not finish within its owner's ``timeout`` seconds (or was not started,
    the deadline being past). ``quick``: the call was a query bounded by
    ``QUICK_SECONDS``, which a working git answers in milliseconds."""

    def __init__(self, message: str, quick: bool = False) -> None:
        super().__init__(message)
        self.quick = quick


class GitEnded(GitTimeout):
    """git was ended, or not started, because its owner closed. A ``GitTimeout``, so
    that whoever gives up on a deadline gives up on this too."""

    def __init__(self) -> None:
        super().__init__("git was ended by its owner")


class GitProcesses:
    """The git processes of one owner (a build's walk, its blames): one deadline for all
    of them, and all ended at once by ``close``. Thread-safe: git runs in worker threads
    while the main thread may close the set (from a signal handler, too).

    ``timeout``: the seconds git may run from now (or from the last ``arm()``); None: no
    deadline (nor a quick query's). ``option``: what sets ``timeout``, as messages name
    it. ``notice``: told once per call waited for longer than ``NOTICE_SECONDS`` (from
    the thread that waits).
    """

    def __init__(self, timeout: float | None = None, *, option: str = "git_timeout",
                 notice: Callable[[str], None] | None = None) -> None:
        if timeout is not None and not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
        self.timeout = timeout
        self.option = option
        self.notice = notice
        self.closed = False
        self._deadline: float | None = None
        # Reentrant: a signal handler may close the set in a thread holding the lock.
        self._lock = threading.RLock()
        self._live: set[subprocess.Popen[bytes]] = set()
        self.arm()

    def arm(self) -> None:
        """Restart the clock: git may run ``timeout`` seconds from now."""
        if self.timeout is not None:
            self._deadline = time.monotonic() + self.timeout

    def close(self) -> None:
        """Kill every live git process now, and refuse any later one (``GitEnded``)."""
        with self._lock:
            self.closed = True
            for proc in self._live:
                if proc.poll() is None:  # not reaped: its group is still git's
                    _kill_group(proc)

    def end_on_signals(self) -> Callable[[], None]:
        """Make SIGINT and SIGTERM close the set first, then act as they did before;
        return what puts the earlier handlers back.

        A handler the signal had is called after; the default one is put back and the
        signal sent again, so that the process dies of it as it would have. An ignored
        signal, or one whose handler Python did not set, is left alone. Only the main
        thread may set handlers: from another, nothing is set.
        """
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        ours: dict[int, tuple[Any, Callable[[int, FrameType | None], None]]] = {}
        for signum in (signal.SIGINT, signal.SIGTERM):
            before = signal.getsignal(signum)
            if before is None or before == signal.SIG_IGN:
                continue

            def close_then_as_before(signum: int, frame: FrameType | None,
                                     before: Any = before) -> None:
                self.close()
                if callable(before):
                    before(signum, frame)
                else:  # the default: the process dies of the signal
                    signal.signal(signum, signal.SIG_DFL)
                    os.kill(os.getpid(), signum)

            signal.signal(signum, close_then_as_before)
            ours[signum] = (before, close_then_as_before)

        def put_back() -> None:
            """The earlier handlers, where ours are still set (a later one stays)."""
            if threading.current_thread() is threading.main_thread():
                for signum, (before, handler) in ours.items():
                    if signal.getsignal(signum) is handler:
                        signal.signal(signum, before)
                ours.clear()

        return put_back

    def _left(self) -> float | None:
        """Seconds to the deadline (None: none)."""
        return None if self._deadline is None else self._deadline - time.monotonic()

    def _late(self) -> GitTimeout:
        """The deadline's exception, saying the timeout."""
        seconds = self.timeout or 0.0
        shown = f"{seconds:.0f}" if seconds >= 10 else f"{seconds:.1f}"
        return GitTimeout(f"git did not answer within {shown} s")

    def _wait(self, args: Sequence[str | bytes]) -> _Wait:
        """The wait of a call starting now with ``args``."""
        return _Wait(self, args)

    def _start(self, args: Sequence[str | bytes], env: dict[str, str] | None = None,
               **popen: Any) -> subprocess.Popen[bytes]:
        with self._lock:  # under the lock: close() either sees the process or refuses it
            if self.closed:
                raise GitEnded()
            left = self._left()
            if left is not None and left <= 0:
                raise self._late()
            try:
                proc = subprocess.Popen(["git", "--no-pager", *CONFIG, *args],
                                        start_new_session=True, env=_env(env), **popen)
            except FileNotFoundError as exc:
                raise NoGit from exc
            self._live.add(proc)
            return proc

    def _reap(self, proc: subprocess.Popen[bytes], finished: bool = False) -> None:
        """Close git's pipes and wait for it: killed first, unless it exited or
        ``finished`` its output (then it has a moment to exit, as git closes its output
        just before it does)."""
        if not finished and proc.poll() is None:
            _kill_group(proc)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        try:
            proc.wait(timeout=_EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            proc.wait()
        with self._lock:
            self._live.discard(proc)


def _seconds(value: float) -> str:
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}"


class _Wait:
    """One call's deadline (its owner's, or sooner for a quick query) and its notice."""

    def __init__(self, owner: GitProcesses, args: Sequence[str | bytes]) -> None:
        self.owner = owner
        words = [a.decode("utf-8", "replace") if isinstance(a, bytes) else a for a in args]
        self.command = "git " + (words[0] if words else "")
        self.started = time.monotonic()
        self.deadline = owner._deadline
        quick = words[:1] == ["log"] and any(w.startswith("--no-walk") for w in words)
        self.quick = False
        if owner.timeout is not None and (quick or words[:1] and words[0] in _QUICK):
            cap = self.started + QUICK_SECONDS
            if self.deadline is None or cap < self.deadline:
                self.deadline, self.quick = cap, True
        self.told = owner.notice is None

    def late(self) -> GitTimeout:
        """The exception of this call's deadline."""
        if self.quick:
            return GitTimeout(f"{self.command} did not answer within {_seconds(QUICK_SECONDS)} s "
                              f"(a query that takes milliseconds: {self.owner.option} "
                              f"bounds it to {_seconds(QUICK_SECONDS)} s at most)", quick=True)
        return self.owner._late()

    def step(self) -> float | None:
        """Seconds to wait before the next look (the notice or the deadline; None:
        until git ends); ``GitTimeout`` once the deadline is past."""
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline:
            raise self.late()
        ends = [t for t in (self.deadline, None if self.told else self.started + NOTICE_SECONDS)
                if t is not None]
        return max(0.0, min(ends) - now) if ends else None

    def waited(self) -> None:
        """A step ended with git still running: the notice if it is due, ``GitTimeout``
        if the deadline is past."""
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline:
            raise self.late()
        if not self.told and now >= self.started + NOTICE_SECONDS and self.owner.notice:
            self.told = True
            if self.deadline is None:
                bound = f"{self.owner.option} does not bound it"
            elif self.quick:
                bound = (f"it is stopped in {_seconds(self.deadline - now)} s "
                         f"({self.owner.option}, at most {_seconds(QUICK_SECONDS)} s "
                         "for a query this short)")
            else:
                bound = (f"it is stopped in {_seconds(self.deadline - now)} s "
                         f"({self.owner.option}: {_seconds(self.owner.timeout or 0)} s)")
            self.owner.notice(f"waiting for git: `{self.command}` has not answered in "
                              f"{_seconds(now - self.started)} s; {bound}")

    def communicate(self, proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
        """``proc.communicate`` within this wait (``GitTimeout``: the caller kills git).
        Its input is a file, never written here: a retried ``communicate`` would stop
        writing the rest, and git would wait for it until killed."""
        while True:
            try:
                return proc.communicate(timeout=self.step())
            except subprocess.TimeoutExpired:
                self.waited()


def _env(extra: dict[str, str] | None) -> dict[str, str]:
    """git's environment: this process's, ``extra`` on top, and ``GIT_FLUSH=0``. Into a
    pipe, git log otherwise writes each commit as it goes, a few hundred bytes a write,
    and its reader wakes for each; buffered, both spend less CPU. Nothing here talks to
    git line by line: input is written whole, output read to the end or until the walk
    has what it needs."""
    return {**os.environ, **(extra or {}), "GIT_FLUSH": "0"}


def run_git(args: Sequence[str | bytes], cwd: str | os.PathLike[str], stdin: bytes | None = None,
            env: dict[str, str] | None = None, *,
            processes: GitProcesses | None = None) -> tuple[int, bytes, str]:
    """Run one git command to completion; return (exit status, stdout, stderr text).

    ``env``: variables set for this command on top of the process's environment.
    ``processes``: the owner (its deadline: ``GitTimeout``; its ``close``: ``GitEnded``);
    none: ``DEFAULT_TIMEOUT`` seconds.
    """
    owner = processes or GitProcesses(DEFAULT_TIMEOUT)
    wait = owner._wait(args)
    with _input_file(stdin) as given:
        proc = owner._start(args, cwd=cwd, env=env, stdin=given, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
        try:
            out, err = wait.communicate(proc)
        finally:
            owner._reap(proc)
    if owner.closed and proc.returncode == -signal.SIGKILL:
        raise GitEnded()
    return proc.returncode, out, err.decode("utf-8", "replace").strip()


@contextlib.contextmanager
def _input_file(data: bytes | None) -> Iterator[IO[bytes] | int]:
    """git's standard input: a temporary file holding ``data``, or nothing."""
    if data is None:
        yield subprocess.DEVNULL
        return
    with tempfile.TemporaryFile() as given:
        given.write(data)
        given.seek(0)
        yield given


def stream_git(args: Sequence[str | bytes], cwd: str | os.PathLike[str],
               consume: Callable[[Iterator[list[bytes]]], bool], *,
               processes: GitProcesses | None = None) -> tuple[bool, int, str]:
    """Run git and feed its NUL-separated output to ``consume`` as it arrives.

    ``consume`` returns True when it needs no more, and git is then stopped at once (a
    walk over history ends as soon as every file is answered). Returns (stopped early,
    exit status, stderr text). ``processes``: as for ``run_git``; its exceptions reach
    ``consume`` from the stream, and pass through it.
    """
    owner = processes or GitProcesses(DEFAULT_TIMEOUT)
    wait = owner._wait(args)
    with tempfile.TemporaryFile() as errors:
        proc = owner._start(args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=errors, bufsize=0)
        stopped = finished = False
        try:
            stopped = consume(_token_chunks(proc, owner, wait))
            finished = not stopped
        finally:
            owner._reap(proc, finished)
        errors.seek(0)
        detail = errors.read().decode("utf-8", "replace").strip()
    return stopped, proc.returncode, detail


def _token_chunks(proc: subprocess.Popen[bytes], owner: GitProcesses,
                  wait: _Wait) -> Iterator[list[bytes]]:
    """The NUL-separated tokens of git's output, a large chunk at a time, until the
    call's deadline (then git is killed: ``GitTimeout``) or its owner's ``close``
    (``GitEnded``)."""
    stream = proc.stdout
    assert stream is not None
    tail = b""
    while True:
        try:
            step = wait.step()
            while step is not None and not select.select([stream], [], [], step)[0]:
                wait.waited()
                step = wait.step()
        except GitTimeout:
            _kill_group(proc)
            raise
        data = stream.read(_CHUNK_BYTES)
        if not data:
            break
        tokens = (tail + data).split(b"\0")
        tail = tokens.pop()
        if tokens:
            yield tokens
    if owner.closed:  # cut by the kill: what was read is not the whole
        raise GitEnded()
    if tail:
        yield [tail]


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process group git leads (it started its own session)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:  # the group is gone already
        pass
