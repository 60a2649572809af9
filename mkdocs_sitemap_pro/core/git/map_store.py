"""A history map kept on disk between builds: ``history.json``, a ``core.store`` file.

A file the store cannot use or that does not hold what a map needs is as good as none
(the map is walked again): every value is checked as git would give it (ids, dates
with their zone and in git's range, indexes that match). Its dates are not trusted even
then: ``confirm_map`` confirms them with git before use. Paths are git's names (bytes)
decoded with the file system's encoding
and ``surrogateescape``, so any name git prints survives the round trip; dates keep
their commit's own zone.

A map read back is confirmed by git before its dates are used (``confirm_map``).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

from mkdocs_sitemap_pro.core import store
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions, Known, LastChange, Unknown
from mkdocs_sitemap_pro.core.git.history_map import HistoryMap, MapKey
from mkdocs_sitemap_pro.core.git.process import GitProcesses, run_git
from mkdocs_sitemap_pro.core.store import REASONS, checked_date, commit_id, string, strings
from mkdocs_sitemap_pro.core.words import printable

__all__ = ["FORMAT", "load_map", "save_map", "confirm_map"]

# 2: each file's object id beside its change; 3: symbolic links; 4: the store's envelope
FORMAT = store.Format("mkdocs-sitemap-pro history map", 4)


def save_map(path: Path, history: HistoryMap) -> str | None:
    """Write ``history`` (one with a key) to ``path``; why it could not be, or None."""
    assert history.key is not None, "a map without a key is not kept"
    top, head, boundary, options = history.key
    commits: dict[str, int] = {}
    table: list[list[str]] = []
    files: dict[str, list[int | str]] = {}
    objects = history.objects
    for name, change in history.changes.items():
        if isinstance(change, Known):
            index = commits.get(change.commit)
            if index is None:
                index = commits[change.commit] = len(table)
                table.append([change.commit, change.when.isoformat()])
            files[os.fsdecode(name)] = [index, objects.get(name, "")]
        else:
            files[os.fsdecode(name)] = [change.reason, objects.get(name, "")]
    return store.save(path, FORMAT, {
        "top": top,
        "head": head,
        "boundary": sorted(b.decode("ascii") for b in boundary),
        "rule": options.rule,
        "date": options.date,
        "ignore_commits": list(options.ignore_commits),
        "said": list(history.map_warnings),  # the stored key keeps its first name
        "commits": table,
        "files": files,
        "links": sorted(os.fsdecode(name) for name in history.links),
    })


def load_map(path: Path, refused: list[str] | None = None) -> HistoryMap | None:
    """The map kept at ``path``, or None when there is none that can be used (then
    ``refused``, if given, gets why: a missing file says nothing)."""
    kept, why = store.load(path, FORMAT, _decode)
    if why is not None and refused is not None:
        refused.append(why)
    return kept


def _decode(data: dict[str, Any]) -> HistoryMap:
    """The map ``data`` holds, each value checked as git would give it (see
    ``core.store``); ``ValueError`` (or ``TypeError``…) for anything else."""
    options = HistoryOptions(data["rule"], data["date"],
                             tuple(strings(data["ignore_commits"])))
    boundary = frozenset(commit_id(b).encode("ascii") for b in strings(data["boundary"]))
    top = string(data["top"])
    if not os.path.isabs(top):
        raise ValueError("the repository's folder is not an absolute path")
    key = MapKey(top, commit_id(data["head"]), boundary, options)
    when: list[Known] = []
    for sha, iso in data["commits"]:
        when.append(Known(checked_date(iso), commit_id(sha)))
    if len({known.commit for known in when}) != len(when):
        raise ValueError("a commit listed twice")
    count = len(when)
    changes: dict[bytes, LastChange] = {}
    objects: dict[bytes, str] = {}
    for name, (value, oid) in data["files"].items():
        key_name = os.fsencode(name)
        if type(value) is int:
            if not 0 <= value < count:
                raise IndexError("no such commit")
            changes[key_name] = when[value]
        elif value in REASONS:
            changes[key_name] = Unknown(value)
        else:
            raise ValueError("neither a commit nor a reason")
        if oid:
            objects[key_name] = commit_id(oid)
    links = frozenset(os.fsencode(name) for name in strings(data["links"]))
    if not links <= changes.keys():
        raise ValueError("a link that is not a file of the map")
    map_warnings = tuple(printable(text) for text in strings(data["said"]))
    return HistoryMap(key, changes, key.top, objects, links, map_warnings=map_warnings, made="kept")


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
