"""A history map kept on disk between builds: ``history.json``, a ``core.store`` file.

A file the store cannot use or that does not hold what a map needs is as good as none
(the map is walked again): every value is checked as git would give it (ids, dates with their zone and in git's range, indexes that match).
Its dates are not trusted even then: ``map_check`` confirms them with git before use. Paths are git's names (bytes) decoded with the file system's encoding
and ``surrogateescape``, so any name git prints survives the round trip; dates keep
their commit's own zone.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mkdocs_sitemap_pro.core import store
from mkdocs_sitemap_pro.core.cache_values import (
    REASONS,
    checked_date,
    commit_id,
    string,
    strings,
)
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions, Known, LastChange, Unknown
from mkdocs_sitemap_pro.core.git.history_map import HistoryMap, MapKey
from mkdocs_sitemap_pro.core.words import printable

__all__ = ["FORMAT", "load_map", "save_map"]

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
    ``core.cache_values``); ``ValueError`` (or ``TypeError``…) for anything else."""
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

