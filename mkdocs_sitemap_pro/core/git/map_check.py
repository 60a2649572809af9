"""A history map read from a cache, confirmed by git before its dates are used.

The file in ``cache_dir`` says which commit last changed each file and that commit's
date. Anyone who can write the folder can write it, so before the build believes it,
``confirm_map`` asks git, in two processes (commit ids fed on standard input: no
command line grows with the map):

- one ``git log --no-walk --raw`` over the commits the map names gives each its date
  under the map's rule and the blob it wrote for each file it changed: a commit the
  repository lacks, a date other than git's, or a file the named commit did not change,
  and the map is not used;
- one ``git ls-tree -r`` of the map's HEAD: a file whose blob differs from the one its
  named commit wrote (the map points it to an older commit, before its last change), or
  from the one the map keeps, and the map is not used. (Asking git for each
  ``<commit>:<path>`` instead reads trees again per file: 30,000 names of a large
  repository took git longer than a walk.)

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

__all__ = ["confirm_map"]


def confirm_map(folder: Path, history: HistoryMap,
                processes: GitProcesses | None = None) -> str | None:
    """None if git confirms every date and file of ``history`` (kept for ``folder``'s
    repository), else why not (naming the first that it does not confirm).
    ``GitTimeout`` from ``processes`` passes on."""
    if history.key is None:
        return "the map has no key"
    dates: dict[str, Known] = {}
    named: list[tuple[bytes, str]] = []  # (file, the commit the map names)
    for name, change in history.changes.items():
        if isinstance(change, Known):
            dates[change.commit] = change
            named.append((name, change.commit))
    if not named:
        return None
    shown = _shown_commits(folder, dates, history.key.options.date, processes)
    if isinstance(shown, str):
        return shown
    now = _head_blobs(folder, history.key.head, processes)
    if now is None:
        return "git cannot list the files of HEAD"
    for name, commit in named:
        if (commit, name) not in shown:
            return f"{_shown(name)} did not change in commit {commit[:12]}, which it names"
        at_head, then = now.get(name), shown[commit, name]
        kept = history.objects.get(name)
        if at_head != then:
            return f"{_shown(name)} changed after commit {commit[:12]}, which it names"
        if kept is not None and at_head is not None and kept != at_head:
            return f"{_shown(name)} is not the file HEAD has"
    return None


def _shown_commits(folder: Path, dates: dict[str, Known], date: str,
                   processes: GitProcesses | None) -> dict[tuple[str, bytes], str | None] | str:
    """For each commit of ``dates`` (each checked to be dated as the map says) and each
    file it changed (against each parent, for a merge), the blob it wrote (None for a
    submodule); or why git does not confirm them."""
    kind = "%cd" if date == "committer" else "%ad"  # raw: epoch, zone
    status, out, err = run_git(
        ["log", "--no-walk=unsorted", "--stdin", "-m", "--raw", "--no-renames", "--no-abbrev",
         "-z", "--date=raw", f"--format=%x01%H {kind}", "--"],
        folder, stdin="".join(f"{sha}\n" for sha in dates).encode("ascii"),
        processes=processes)
    if status != 0:
        return f"git does not know its commits ({err.splitlines()[0] if err else status})"
    written: dict[tuple[str, bytes], str | None] = {}
    seen: set[str] = set()
    for chunk in out.split(b"\x01")[1:]:
        header, _, rest = chunk.partition(b"\0")
        sha, _, when = header.decode("ascii", "replace").partition(" ")
        known = dates.get(sha)
        if known is None or not _same(known, when):
            return f"commit {sha[:12]} is not dated as git dates it"
        seen.add(sha)
        tokens = rest.split(b"\0")
        for meta, path in zip(tokens[0::2], tokens[1::2]):
            fields = meta.lstrip(b"\n").split(b" ")  # :<mode> <mode> <blob> <blob> <status>
            if len(fields) == 5 and fields[0].startswith(b":"):
                written[sha, path] = (None if fields[1] == b"160000"
                                      else fields[3].decode("ascii", "replace"))
    if len(seen) != len(dates):
        return "git did not date every commit it names"
    return written


def _head_blobs(folder: Path, head: str,
                processes: GitProcesses | None) -> dict[bytes, str] | None:
    """Every file of ``head`` with its object id, from one ``ls-tree`` (a whole tree is
    read once, where asking for each ``<head>:<path>`` reads it again per file)."""
    status, out, _ = run_git(["ls-tree", "-r", "-z", "--full-tree", head], folder,
                             processes=processes)
    if status != 0:
        return None
    blobs: dict[bytes, str] = {}
    for entry in out.split(b"\0"):
        meta, tab, name = entry.partition(b"\t")
        parts = meta.split(b" ")
        if tab and len(parts) == 3 and parts[1] == b"blob":  # a submodule: as missing
            blobs[name] = parts[2].decode("ascii")
    return blobs


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
