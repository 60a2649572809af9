"""The dates of the lines of files shown in part (``dependencies: lines``), for one build.

Once every page is converted and the history map is known (``on_env``), each file some
page shows in part is blamed once (``core.git.blame``), several at a time, within
``git_timeout``. A blame depends only on the file's last change and the history options,
so it is kept (in memory for ``mkdocs serve``, in ``blame.json`` in ``cache_dir``) by
both, and an unchanged file is never blamed again. A file whose text on disk is not
HEAD's (uncommitted edits: its line numbers are not HEAD's), that git cannot blame, or
that runs out of time is dated whole, said at DEBUG: never older than the truth.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mkdocs_sitemap_pro.core.atomic import replace_file
from mkdocs_sitemap_pro.core.git import GitHistory, Known
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.git.blame import BlameFailed, LineDates, blame
from mkdocs_sitemap_pro.core.git.process import GitProcesses, GitTimeout, NoGit
from mkdocs_sitemap_pro.core.git.repository import resolve_ignored
from mkdocs_sitemap_pro.core.shown import Lines, Shown
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["BLAME_FILE", "BlameStore", "BuildLines"]

BLAME_FILE = "blame.json"  # in cache_dir
_VERSION = 1
_WORKERS = min(4, os.cpu_count() or 1)  # git blame is CPU-bound: one per core, a few at most


class BuildLines:
    """The line dates of one build's files shown in part (a ``core.shown.LineLookup``)."""

    def __init__(self, dates: Mapping[bytes, LineDates]) -> None:
        self._dates = dates  # git name -> its lines' dates (absent: dated whole)

    def newest(self, name: bytes, change: Known, lines: Lines) -> dt.datetime | None:
        dates = self._dates.get(name)
        if dates is None:
            return change.when
        sure, when = dates.newest(lines)
        if not sure:
            return change.when
        # A line's commit can carry a later date than the file's last change (a rebase
        # keeps author dates): the file's date bounds every part of it.
        return None if when is None else min(when, change.when)


class BlameStore:
    """The blames a plugin instance has made: by file and options, the last change each
    was made at (a newer one replaces it, so the store holds one blame per file)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path  # None: in memory only (cache: false)
        self._entries: dict[str, tuple[str, LineDates]] = {}  # key -> (commit, dates)
        self._loaded = False

    def _load(self) -> None:
        self._loaded = True
        if self.path is None:
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if not isinstance(data, dict) or data.get("version") != _VERSION:
            return
        for key, (commit, runs) in (data.get("files") or {}).items():
            try:
                self._entries[key] = (str(commit), LineDates(tuple(
                    (int(a), int(b), int(c), int(d)) for a, b, c, d in runs)))
            except (TypeError, ValueError):
                continue

    def dates(self, history: GitHistory, options: HistoryOptions, pages: Iterable[Shown],
              timeout: float) -> BuildLines:
        """Blame what is not kept yet of the files ``pages`` show in part; keep it."""
        if not self._loaded:
            self._load()
        wanted: dict[bytes, tuple[str, str]] = {}  # git name -> (its key, its last change)
        for shown in pages:
            for path, _ in shown.parts:
                name = history.name(path)
                change = history.last_changed(path) if name is not None else None
                if name is None or name in wanted or not isinstance(change, Known):
                    continue
                if _on_disk_is_head(path, history.objects.get(name)):
                    wanted[name] = (_key(name, options), change.commit)
                else:
                    log.debug(f"{path} has uncommitted edits: dated as a whole file")
        missing = [name for name, (key, commit) in wanted.items()
                   if self._entries.get(key, ("",))[0] != commit]
        if missing and history.top is not None and history.key is not None:
            made = self._blame(history.top, missing, wanted, options, history.key.boundary,
                               timeout)
            log.debug(f"git blame: {made} of {len(missing)} files shown in part blamed, "
                      f"{len(wanted) - len(missing)} kept from earlier builds")
            if made:
                self._save()
        found: dict[bytes, LineDates] = {}
        for name, (key, commit) in wanted.items():
            entry = self._entries.get(key)
            if entry is not None and entry[0] == commit:
                found[name] = entry[1]
        return BuildLines(found)

    def _blame(self, top: str, names: list[bytes], keys: Mapping[bytes, tuple[str, str]],
               options: HistoryOptions, boundary: frozenset[bytes], timeout: float) -> int:
        """Blame ``names`` in parallel within ``timeout``; how many were blamed."""
        made: list[bytes] = []
        processes = GitProcesses(timeout)
        processes.arm()
        try:
            said: list[str] = []
            ignored = resolve_ignored(top, options.ignore_commits, said, processes=processes)

            def one(name: bytes) -> None:
                key, commit = keys[name]
                try:
                    dates = blame(top, name, options, ignored, boundary, processes=processes)
                except BlameFailed as error:
                    log.debug(f"git blame {os.fsdecode(name)} failed ({error}): "
                              "dated as a whole file")
                    return
                self._entries[key] = (commit, dates)
                made.append(name)

            with ThreadPoolExecutor(min(_WORKERS, len(names))) as pool:
                list(pool.map(one, names))
        except (GitTimeout, NoGit) as error:
            log.debug(f"git blame did not finish ({error}): the files not blamed are "
                      "dated whole")
        finally:
            processes.disarm()
            processes.close()
        return len(made)

    def _save(self) -> None:
        if self.path is None:
            return
        files = {key: [commit, [list(run) for run in dates.runs]]
                 for key, (commit, dates) in sorted(self._entries.items())}
        text = json.dumps({"files": files, "version": _VERSION}, separators=(",", ":"))
        try:
            replace_file(self.path, (text + "\n").encode("utf-8"))
        except OSError as error:
            log.debug(f"the blame cache could not be written to {self.path}: {error}")


def _key(name: bytes, options: HistoryOptions) -> str:
    """A file and the options its blame is made under (one entry each)."""
    return "\n".join([os.fsdecode(name), options.rule, options.date, *options.ignore_commits])


def _on_disk_is_head(path: str, oid: str | None) -> bool:
    """Whether the file on disk is HEAD's (the same blob id), so its lines are HEAD's."""
    if oid is None:
        return False
    try:
        data = Path(path).read_bytes()
    except OSError:
        return False
    digest = hashlib.new("sha1" if len(oid) == 40 else "sha256")
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest() == oid
