"""A history map read from a cache, confirmed by git before its dates are used.

The file in ``cache_dir`` says which commit last changed each file and that commit's
date. Anyone who can write the folder can write it, so before the build believes it,
git is asked twice, each time one process fed on its standard input (no command line
grows with the map):

- ``confirm_dates``: one ``git log --no-walk`` gives each commit the map names its date
  under the map's rule: a commit the repository lacks, or a date other than git's, and
  the map is not used;
- ``confirm_contents``: one ``git cat-file --batch-check`` gives each file's blob at the
  commit the map names and at the map's HEAD: a file whose content differs (the map
  points it to an older commit, before its last change), or whose blob at HEAD is not
  the one the map keeps, and the map is not used.

What is left trusted: that no commit between the one named and HEAD changed the file
and changed it back (the date published is then that of the same content, earlier);
submodules (git has no blob for them to compare) and the reasons the map gives for the
files it does not date (those publish no date).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from mkdocs_sitemap_pro.core.git.answers import Known
from mkdocs_sitemap_pro.core.git.history_map import HistoryMap
from mkdocs_sitemap_pro.core.git.process import GitProcesses, run_git
from mkdocs_sitemap_pro.core.words import printable

__all__ = ["confirm_contents", "confirm_dates"]


def confirm_dates(folder: Path, history: HistoryMap,
                  processes: GitProcesses | None = None) -> str | None:
    """None if git gives every commit of ``history`` (kept for ``folder``'s repository)
    the date the map holds, else why not. ``GitTimeout`` from ``processes`` passes on."""
    if history.key is None:
        return "the map has no key"
    dates: dict[str, Known] = {}
    for change in history.changes.values():
        if isinstance(change, Known):
            dates[change.commit] = change
    if not dates:
        return None
    kind = "%cd" if history.key.options.date == "committer" else "%ad"  # raw: epoch, zone
    # Ids on standard input: no command line grows with the map (ids are checked hex).
    status, out, err = run_git(["log", "--no-walk=unsorted", "--stdin", "--date=raw",
                                f"--format=%H {kind}"],
                               folder, stdin="".join(f"{sha}\n" for sha in dates).encode(),
                               processes=processes)
    if status != 0:
        return f"git does not know its commits ({err.splitlines()[0] if err else status})"
    seen = 0
    for line in out.decode("ascii", "replace").splitlines():
        sha, _, date = line.partition(" ")
        known = dates.get(sha)
        if known is None or not _same(known, date):
            return f"commit {sha[:12]} is not dated as git dates it"
        seen += 1
    return None if seen == len(dates) else "git did not date every commit it names"


def confirm_contents(folder: Path, history: HistoryMap,
                     processes: GitProcesses | None = None) -> str | None:
    """None if every file ``history`` dates has, at the commit the map names, the blob
    it has at the map's HEAD (and the one the map keeps for it), else why not (naming
    the first file that does not). ``GitTimeout`` from ``processes`` passes on."""
    if history.key is None:
        return "the map has no key"
    head = history.key.head
    named: list[tuple[bytes, str]] = []  # (file, the commit the map names)
    for name, change in history.changes.items():
        if isinstance(change, Known):
            if b"\n" in name:  # one query a line: git could not be asked about it
                return f"{_shown(name)} cannot be checked (a line break in its name)"
            named.append((name, change.commit))
    if not named:
        return None
    query = b"".join(f"{head}:".encode("ascii") + name + b"\n" + f"{commit}:".encode("ascii")
                     + name + b"\n" for name, commit in named)
    status, out, err = run_git(["cat-file", "--batch-check=%(objectname) %(objecttype)"],
                               folder, stdin=query, processes=processes)
    lines = out.split(b"\n")
    if status != 0 or len(lines) < 2 * len(named):
        return f"git cannot read its files ({err.splitlines()[0] if err else status})"
    for i, (name, commit) in enumerate(named):
        now, then = _blob(lines[2 * i]), _blob(lines[2 * i + 1])
        kept = history.objects.get(name)
        if now != then:
            return f"{_shown(name)} changed after commit {commit[:12]}, which it names"
        if kept is not None and now is not None and kept != now:
            return f"{_shown(name)} is not the file HEAD has"
    return None


def _blob(line: bytes) -> str | None:
    """The object id a ``--batch-check`` line gives (None: missing, or a submodule's
    commit, which git prints as missing)."""
    oid, _, kind = line.decode("ascii", "replace").partition(" ")
    return oid if kind in ("blob", "tree", "commit") else None


def _shown(name: bytes) -> str:
    """A file's git name as a message shows it."""
    return printable(os.fsdecode(name))


def _same(change: Known, date: str) -> bool:
    """Whether the map's date is git's (``<epoch> <+hhmm>``): the same instant in the
    same zone."""
    epoch, _, zone = date.partition(" ")
    if not epoch.isdigit() or len(zone) != 5 or not zone[1:].isdigit():
        return False
    sign = -1 if zone[:1] == "-" else 1
    offset = timedelta(minutes=sign * (int(zone[1:3]) * 60 + int(zone[3:5])))
    return int(change.when.timestamp()) == int(epoch) and change.when.utcoffset() == offset
