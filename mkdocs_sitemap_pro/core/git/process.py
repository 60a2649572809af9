"""Running git: pinned settings, one command to completion, or a ``git log`` stream.

Every git process of the product starts here, with the settings that would change what
git prints pinned whatever the user's configuration says.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import IO

__all__ = ["LOG_FLAGS", "NoGit", "run_git", "stream_git"]

# Bytes read from git at a time: a pipe holds 64 KiB. A larger request makes every read
# allocate (and give back to the system) a buffer that large, while git's commits
# arrive a few hundred bytes at a time: measured, 1 MiB doubled the reader's CPU time.
_CHUNK_BYTES = 1 << 16

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


def run_git(args: Sequence[str | bytes], cwd: str | os.PathLike[str], stdin: bytes | None = None,
            env: dict[str, str] | None = None) -> tuple[int, bytes, str]:
    """Run one git command to completion; return (exit status, stdout, stderr text).

    ``env``: variables set for this command on top of the process's environment.
    """
    try:
        proc = subprocess.run(
            ["git", "--no-pager", *CONFIG, *args],
            cwd=cwd,
            env=None if env is None else {**os.environ, **env},
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
        )
    except FileNotFoundError as exc:
        raise NoGit from exc
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace").strip()


def stream_git(
    args: Sequence[str | bytes],
    cwd: str | os.PathLike[str],
    consume: Callable[[Iterator[list[bytes]]], bool],
) -> tuple[bool, int, str]:
    """Run git and feed its NUL-separated output to ``consume`` as it arrives.

    ``consume`` returns True when it needs no more, and git is then stopped at once (a
    walk over history ends as soon as every file is answered). Returns (stopped early,
    exit status, stderr text).
    """
    with tempfile.TemporaryFile() as errors:
        try:
            proc = subprocess.Popen(
                ["git", "--no-pager", *CONFIG, *args],
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=errors,
                bufsize=0,
            )
        except FileNotFoundError as exc:
            raise NoGit from exc
        assert proc.stdout is not None
        stopped = False
        try:
            stopped = consume(_token_chunks(proc.stdout))
        finally:
            if stopped or proc.poll() is None:
                proc.kill()
            proc.stdout.close()
            proc.wait()
        errors.seek(0)
        detail = errors.read().decode("utf-8", "replace").strip()
    return stopped, proc.returncode, detail


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
