"""Deepen a shallow clone before the walk: ``fetch_history: auto``.

One blobless fetch (``git fetch --filter=blob:none --unshallow``) brings every commit and
tree but no file content, which is all the walk reads (it never looks inside a file), so
it costs a fraction of a full clone. A full clone is never fetched into. When the clone
has no remote or the fetch fails, the caller warns and dates pages as before; a server
that does not filter sends the contents too, which is slower but as right. Git then
records the clone as a partial clone of that remote (``remote.<name>.promisor``,
``partialclonefilter``): the INFO line says so, since it outlasts the build.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.process import GitProcesses, run_git
from mkdocs_sitemap_pro.core.urls import redact_credentials

__all__ = ["Fetched", "fetch_history"]


class Fetched(NamedTuple):
    """What the fetch did: ``message`` is an INFO line when ``done``, else a WARNING
    (empty when there was nothing to do: not a shallow clone, or no repository)."""

    done: bool
    message: str = ""


def fetch_history(folder: Path, processes: GitProcesses | None = None) -> Fetched:
    """Fetch the whole history into the shallow clone ``folder`` lies in, from its
    remote (``origin`` if it has one); ``GitTimeout`` from ``processes`` passes through."""
    status, out, _ = run_git(["rev-parse", "--is-shallow-repository"], folder,
                             processes=processes)
    if status != 0 or out.strip() != b"true":
        return Fetched(False)
    _, out, _ = run_git(["remote"], folder, processes=processes)
    remotes = out.decode("utf-8", "replace").split()
    if not remotes:
        return Fetched(False, (
            "fetch_history: the clone is shallow and has no remote to fetch its history "
            "from, so files older than its oldest commit stay undated"))
    remote = "origin" if "origin" in remotes else remotes[0]
    start = time.monotonic()
    status, _, err = run_git(["fetch", "--quiet", "--no-tags", "--filter=blob:none",
                              "--unshallow", "--", remote], folder, processes=processes)
    seconds = time.monotonic() - start
    if status != 0:
        detail = redact_credentials(err.strip().splitlines()[-1]) if err.strip() else (
            f"exit status {status}")
        return Fetched(False, (
            f"fetch_history: `git fetch --unshallow {remote}` failed ({detail}), so files "
            "older than the clone's oldest commit stay undated"))
    return Fetched(True, (
        f"fetch_history: fetched the whole history from {remote} in {seconds:.1f} s "
        f"(commits and trees, no file contents): the clone is now a partial clone "
        f"(blob:none), which fetches an old file's content from {remote} when a git "
        "command needs it"))
