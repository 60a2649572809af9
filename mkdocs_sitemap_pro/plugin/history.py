"""The build's git history: one map, read in the background from ``on_config``.

The walk starts as soon as the options are known and runs in a thread beside MkDocs'
reading and converting of pages; ``dates`` waits for it before the first template
renders, so every page's date is a lookup. The map is kept in memory by the plugin
instance (``mkdocs serve`` rebuilds: no ``git log`` while HEAD is the same, only the new
commits after one) and, with ``cache``, in ``cache_dir`` for the next process.

Git gets ``git_timeout`` seconds (a quick query such as ``rev-parse`` at most 30 of
them): past them its processes are ended and pages are dated by ``lastmod_fallback``,
with a warning; a git waited for longer than 10 s is said at INFO as it happens. SIGINT and SIGTERM during the walk end git's
processes before doing what they would have done.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.core.git import (
    GitHistory,
    HistoryMap,
    Unknown,
    read_ignore_revs_file,
    read_map,
)
from mkdocs_sitemap_pro.core.dating import LastDeploy
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.git.platforms import shallow_advice
from mkdocs_sitemap_pro.core.git.repository import SHALLOW_CLONE
from mkdocs_sitemap_pro.core.git.map_store import confirm_map
from mkdocs_sitemap_pro.core.git.map_store import load_map, save_map
from mkdocs_sitemap_pro.core.git.platforms import Fetched, fetch_history
from mkdocs_sitemap_pro.core.git.process import GitEnded, GitProcesses, GitTimeout, NoGit
from mkdocs_sitemap_pro.plugin import deploys
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig, cache_file
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.core.words import counted

__all__ = ["BuildHistory"]

MAP_FILE = "history.json"  # in cache_dir


class _Steps(NamedTuple):
    """What the thread does besides the walk: fetch first, carry dates after."""

    fetch: bool  # fetch_history: auto
    previous: str | None  # where the last deploy's manifest is (previous)
    auto: bool  # previous: auto (a 404 there is a first deploy)
    filename: str  # the entry sitemap's name, which names the manifest
    serving: bool  # `mkdocs serve` deploys nothing: the last deploy only for a shallow clone


_HOW = {
    "kept": "the map kept for this HEAD (no walk)",
    "forward": "the kept map brought forward, {} read",
    "full": "walked, {} read",
    "none": "not read",
}


class BuildHistory:
    """The history map of the build under way, and the last one (kept for the next)."""

    def __init__(self) -> None:
        self._processes = GitProcesses()
        # Puts back the SIGINT and SIGTERM handlers from before the walk.
        self._signals_back: Callable[[], None] = lambda: None
        self._thread: threading.Thread | None = None
        self._result: HistoryMap | None = None
        self._dated: HistoryMap | None = None  # the result, with dates carried (previous)
        self._to_log: list[tuple[int, str]] = []  # (level, message) from the thread, to log
        self._known: HistoryMap | None = None  # the last good map, for the next build
        # The last deploy's manifest (``previous``), read once for the builds of one
        # HEAD (static-i18n builds a site once a language), by where it is.
        self._previous: tuple[tuple[str, str], deploys.Previous] | None = None
        self.last_deploy: LastDeploy | None = None  # its pages, for this build (after dates())
        self.options = HistoryOptions()  # the rule options of the walk under way

    def start(self, config: MkDocsConfig, options: SitemapProConfig, serving: bool = False) -> None:
        """Start the walk for the repository docs_dir lies in, by the plugin's options
        (``serving``: under `mkdocs serve`, which deploys nothing: no last deploy read)."""
        self.stop()
        ignored = options.ignore_commits
        problems: list[str] = []  # a bad line of the file, by its number
        if isinstance(ignored, str):
            try:
                ignored = read_ignore_revs_file(Path(ignored), problems)
            except OSError as error:
                problems.append(f"ignore_commits: {ignored} cannot be read "
                                f"({error.strerror or error}); no commit is ignored.")
                ignored = []
        rules = self.options = HistoryOptions(options.git_history, options.git_date,
                                              tuple(ignored))
        store = cache_file(config, options, MAP_FILE)
        self._processes = GitProcesses(options.git_timeout, notice=log.info)
        self._signals_back = self._processes.end_on_signals()
        self._result = self._dated = None
        self.last_deploy = None
        self._to_log = [(logging.WARNING, message) for message in problems]
        steps = _Steps(options.fetch_history == "auto",
                       deploys.previous_location(config, options), options.previous == "auto",
                       options.filename, serving)
        self._thread = threading.Thread(
            target=self._walk,
            args=(Path(config.docs_dir), rules, store, self._processes, steps),
            name="sitemap-pro-git", daemon=True,  # never keeps a stopped MkDocs alive
        )
        self._thread.start()

    def _walk(self, folder: Path, options: HistoryOptions, store: Path | None,
              processes: GitProcesses, steps: _Steps) -> None:
        known = self._known
        refused: list[str] = []
        kept = load_map(store, refused) if known is None and store is not None else None
        tried: set[str] = set()  # options set that did not help: not advised again
        try:
            if steps.fetch and not self._fetch(folder, processes):
                tried.add("fetch_history")
            if kept is not None:  # a file anyone could write: believed where git agrees
                known = _confirmed(folder, kept, store, processes, refused)
            for reason in refused:
                self._to_log.append((logging.DEBUG, f"{reason}; the history is walked"))
            result = read_map(folder, options, known=known, processes=processes)
        except GitEnded:  # the build is over (a failure, a signal, MkDocs' end)
            return
        except GitTimeout as error:
            result = _timed_out(error)
        if store is not None and result.key is not None and result.made != "kept":
            _keep_map(store, result)
        self._result = self._dated = result
        if steps.previous is not None and result.key is not None and (
                result.key.boundary or not steps.serving):
            self._previous_deploy(result, steps, processes, tried)
        if tried:
            self._dated = _advised(self._dated or result, frozenset(tried))

    def _previous_deploy(self, result: HistoryMap, steps: _Steps, processes: GitProcesses,
                         tried: set[str]) -> None:
        """``_with_previous``, or a WARNING when git does not date the commits in time:
        nothing is carried rather than wait."""
        try:
            self._with_previous(result, steps, processes, tried)
        except GitTimeout:  # the commits' dates: keep and carry nothing rather than wait
            self._to_log.append((logging.WARNING, "previous: git did not answer in time, "
                                 "so no date was kept from the last deploy"))

    def _with_previous(self, result: HistoryMap, steps: _Steps, processes: GitProcesses,
                       tried: set[str]) -> None:
        """The last deploy's manifest: its pages for the rule of later deploys, and in a
        shallow clone its dates for the files beyond the boundary."""
        assert steps.previous is not None and result.key is not None
        where = (steps.previous, result.key.head)
        again = self._previous is not None and self._previous[0] == where
        if self._previous is not None and again:
            previous = self._previous[1]  # another language of the same site and HEAD
        else:
            previous = deploys.read_previous(steps.previous, steps.filename, steps.auto)
            self._previous = (where, previous)
        if result.key.boundary:
            carried = deploys.carry_previous(result, previous, processes)
            self._dated = carried.history
            info, warning = carried.info, carried.warning
            if carried.info == "":
                tried.add("previous")
        else:  # said once for all the languages of a site
            info, warning = deploys.previous_messages(previous, result.key.options) if not again else ("", "")
        if info:
            self._to_log.append((logging.INFO, info))
        if warning:
            self._to_log.append((logging.WARNING, warning))
        self.last_deploy = deploys.last_deploy(previous, result, processes)

    def _fetch(self, folder: Path, processes: GitProcesses) -> bool:
        """``fetch_history: auto``: deepen a shallow clone, within ``git_timeout``; the
        walk then has ``git_timeout`` of its own. Whether the clone is whole now (or was)."""
        try:
            fetched = fetch_history(folder, processes)
        except GitEnded:
            raise
        except GitTimeout as error:
            fetched = Fetched(False, f"fetch_history: {error}, so the clone stays shallow")
        except NoGit:
            fetched = Fetched(False)
        if fetched.message:
            self._to_log.append((logging.INFO if fetched.done else logging.WARNING,
                                 fetched.message))
        processes.arm()
        return fetched.done or not fetched.message

    @property
    def started(self) -> bool:
        return self._thread is not None

    def dates(self) -> GitHistory:
        """Every file's last change: waits for the walk (within ``git_timeout``)."""
        thread = self._thread
        assert thread is not None, "start() comes first"
        while thread.is_alive():
            thread.join(0.25)  # in slices, so that a signal is handled at once
        self._finish()
        result, dated = self._result, self._dated
        if result is None or dated is None:  # the walk failed unexpectedly: say so, date nothing
            result = dated = HistoryMap(None, {}, default=Unknown("no-git"), made="none",
                                        warnings=("git history could not be read",))
        if result.key is not None:
            self._known = result
        log.debug("git history: " + _HOW[result.made].format(
            counted(result.commits_read, "new commit" if result.made == "forward" else "commit")))
        warnings = [message for level, message in self._to_log if level >= logging.WARNING]
        for level, message in self._to_log:
            if level < logging.WARNING:
                log.log(level, message)
        if warnings:  # said with git's own warnings: --strict fails on them
            dated = dated._replace(warnings=(*warnings, *dated.warnings))
        return GitHistory(dated)

    def _finish(self) -> None:
        """The walk is over: the signals are MkDocs' again (once; later calls do nothing)."""
        self._signals_back()

    def stop(self) -> None:
        """End a walk under way (a failed build, the end of MkDocs): no git left running."""
        self._processes.close()
        self._finish()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def forget(self) -> None:
        """The next build reads its map afresh (from ``cache_dir``, or by a walk)."""
        self._known = None


def _advised(history: HistoryMap, tried: frozenset[str]) -> HistoryMap:
    """``history`` whose shallow-clone warning no longer advises the options in
    ``tried`` (set, and they did not help)."""
    said, advice = shallow_advice(os.environ), shallow_advice(os.environ, tried)
    return history._replace(warnings=tuple(
        w.replace(said, advice) if SHALLOW_CLONE in w else w for w in history.warnings))


def _confirmed(folder: Path, kept: HistoryMap, store: Path | None, processes: GitProcesses,
               refused: list[str]) -> HistoryMap | None:
    """The kept history map if git confirms it (a file anyone could write), else None
    and why it cannot be used added to ``refused``."""
    try:
        why = confirm_map(folder, kept, processes)
    except GitTimeout as error:  # as good as no map: walked, within its own time
        why = f"git did not confirm it in time ({error})"
        processes.arm()
    if why is None:
        return kept
    refused.append(f"{store} cannot be used: {why}")
    return None


def _timed_out(error: GitTimeout) -> HistoryMap:
    """The history when git did not answer in time: nothing known, and a warning saying
    pages are dated by lastmod_fallback, with what to do."""
    advice = ("see whether git answers in that folder (git rev-parse HEAD)"
              if error.quick else "raise git_timeout if the repository needs longer")
    return HistoryMap(None, {}, default=Unknown("timeout"), made="none", warnings=(
        f"{error}, so git was stopped and pages are dated by lastmod_fallback; "
        f"{advice}",))


def _keep_map(store: Path, result: HistoryMap) -> None:
    """Save the history map for the next build; a failure is only said at DEBUG."""
    why = save_map(store, result)
    if why is not None:
        log.debug(f"the history map could not be kept: {why}")
