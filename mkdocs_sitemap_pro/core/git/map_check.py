"""A history map read from a cache, confirmed by git before its dates are used.

The file in ``cache_dir`` says which commit last changed each file and that commit's
date. Anyone who can write the folder can write it, so before the build believes it,
git is asked (one ``git log --no-walk`` fed every commit the map names, on its standard
input) for each commit's date under the map's rule: a commit the repository lacks, or a
date other than git's, and the map is not used. Which commit last changed which file is
what the cache is trusted for (as ``cache_dir`` is the user's own folder); the dates it
publishes are always git's.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from mkdocs_sitemap_pro.core.git.answers import Known
from mkdocs_sitemap_pro.core.git.history_map import HistoryMap
from mkdocs_sitemap_pro.core.git.process import GitProcesses, run_git

__all__ = ["confirm_dates"]


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


def _same(change: Known, date: str) -> bool:
    """Whether the map's date is git's (``<epoch> <+hhmm>``): the same instant in the
    same zone."""
    epoch, _, zone = date.partition(" ")
    if not epoch.isdigit() or len(zone) != 5 or not zone[1:].isdigit():
        return False
    sign = -1 if zone[:1] == "-" else 1
    offset = timedelta(minutes=sign * (int(zone[1:3]) * 60 + int(zone[3:5])))
    return int(change.when.timestamp()) == int(epoch) and change.when.utcoffset() == offset
