"""Running git: pinned settings, one command to completion, or a ``git log`` stream.

Every git process of the product starts here, with the settings that would change what
git prints pinned whatever the user's configuration says, in its own process group
(``processes``): its owner's ``GitProcesses`` gives it a deadline (a hanging git raises
``GitTimeout`` instead of holding the build forever) and ends it on a signal.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import IO

from mkdocs_sitemap_pro.core.git.processes import (
    GitEnded,
    GitProcesses,
    GitTimeout,
    NoGit,
    start_git,
    stop_git,
)

__all__ = ["LOG_FLAGS", "GitEnded", "GitProcesses", "GitTimeout", "NoGit", "run_git",
           "stream_git"]

# Bytes read from git at a time: a pipe holds 64 KiB. A larger request makes every read
# allocate (and give back to the system) a buffer that large, while git's commits
# arrive a few hundred bytes at a time: measured, 1 MiB doubled the reader's CPU time.
_CHUNK_BYTES = 1 << 16

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
    # the whole pack, so a walk of 20,000 commits peaked at 158 MB (3x the build's own
    # Python); with these caps at 39 MB, for no more CPU (measured, bench/scale.py).
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


def run_git(args: Sequence[str | bytes], cwd: str | os.PathLike[str], stdin: bytes | None = None,
            env: dict[str, str] | None = None, *,
            processes: GitProcesses | None = None) -> tuple[int, bytes, str]:
    """Run one git command to completion; return (exit status, stdout, stderr text).

    ``env``: variables set for this command on top of the process's environment.
    ``processes``: the owner's set (its deadline: ``GitTimeout``; ``GitEnded``).
    """
    run = start_git(
        processes, ["git", "--no-pager", *CONFIG, *args],
        cwd=cwd, env=None if env is None else {**os.environ, **env},
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        out, err = run.proc.communicate(stdin)
    finally:
        stop_git(run, finished=False)  # communicate reaped it, unless it raised
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
        run = start_git(
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
            stop_git(run, finished)
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
