"""When did each source file last change on the branch being built? One pass over git.

``GitHistory.read`` answers that question for every file of a site at once, with a
constant number of git processes per build (``rev-parse``, ``ls-tree``, at most one
``cat-file`` for ``ignore_commits``, and one ``log``), never one per file. Two rules,
chosen by ``history``, each agreeing exactly with a per-file git command: ``first-parent``
(``first_parent.py``) and ``all`` (``all_parents.py``).

Neither walk takes a pathspec: under one, git runs a tree diff per commit for its own
simplification on top of the diff it prints, about doubling the cost when most commits
touch the docs; and under ``all`` that simplification would drop parents some file's
chain needs. Names outside the wanted set are simply not looked up.

``ignore_commits``: a change made by an ignored commit does not count. A file whose every
change is ignored is ``Unknown("ignored")``.

``HistoryRead`` is the same read for a build that learns of more files while it runs
(files a page included, known only once the page has rendered): ``add`` them to the
read already under way. Its walk follows every file HEAD tracks (one ``ls-tree`` of the
whole tree), so a file the walk has passed is answered from memory and one it has not
by reading on, in the same ``git log`` process, paused while nothing asked is open. Its
``key`` says what its answers depend on, so a rebuild can ask only what it must.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from mkdocs_sitemap_pro.core.git.answers import (
    DateKind,
    HistoryOptions,
    HistoryRule,
    LastChange,
    Unknown,
)
from mkdocs_sitemap_pro.core.git.memo import HistoryMemo, MemoKey
from mkdocs_sitemap_pro.core.git.process import NoGit
from mkdocs_sitemap_pro.core.git.reading import answer_rest, read_into
from mkdocs_sitemap_pro.core.git.requests import PathRequests
from mkdocs_sitemap_pro.core.git.repository import git_names

__all__ = ["GitHistory", "HistoryRead", "as_paths", "run_read"]

_NO_GIT = (
    "git is not installed (no `git` program on PATH), so no file can be dated "
    "from git history; install git on the machine that builds the site."
)


class GitHistory:
    """The last change of every file passed to ``read``, from one walk of git history."""

    def __init__(
        self,
        answers: dict[Path, LastChange],
        *,
        warnings: Sequence[str] = (),
        commits_read: int = 0,
        top: str | None = None,
        key: MemoKey | None = None,
    ) -> None:
        self._answers = answers
        self._normalized: dict[str, LastChange] | None = None
        self.warnings: tuple[str, ...] = tuple(dict.fromkeys(warnings))
        self.commits_read = commits_read
        self.top = top  # the repository's top level (None: no repository)
        self.key = key  # what every answer depends on (None: none to reuse, see ``run_read``)
        self._folders: dict[str, str] = {}  # folder -> its real path, for ``relative``
        self._relative: dict[Path, str | None] = {}

    @classmethod
    def read(
        cls,
        folder: Path,
        paths: Iterable[Path],
        *,
        history: HistoryRule = "first-parent",
        date: DateKind = "committer",
        ignore_commits: Sequence[str] = (),
        memo: HistoryMemo | None = None,
    ) -> GitHistory:
        """Read history once for ``paths`` (absolute source paths) in ``folder``'s repository.

        Never raises for git trouble: a missing git program, a folder outside any
        repository or a repository without commits gives one warning and every file
        ``Unknown`` with the reason. ``memo``: answers kept from earlier reads of the
        same HEAD (and kept for later ones).
        """
        options = HistoryOptions(history, date, tuple(ignore_commits))
        requests = PathRequests(as_paths(paths), closed=True)
        return run_read(Path(folder), requests, options, False, memo)

    def last_changed(self, path: Path) -> LastChange:
        """The answer for a path passed to ``read``; any other path is untracked."""
        change = self._answers.get(path)
        if change is None:
            if self._normalized is None:  # built once, only if a lookup ever misses
                self._normalized = {os.path.abspath(p): c for p, c in self._answers.items()}
            change = self._normalized.get(os.path.abspath(path), Unknown("untracked"))
        return change

    def answered(self, path: Path) -> bool:
        """Whether ``path`` (as passed to the read) has an answer here."""
        return path in self._answers

    def updated(self, newer: GitHistory) -> GitHistory:
        """These answers with those of ``newer`` over them (a later read under the
        same key, which asked some paths again)."""
        fresh = newer._answers
        merged = GitHistory({**self._answers, **fresh}, warnings=newer.warnings,
                            commits_read=newer.commits_read, top=newer.top, key=newer.key)
        kept = {p: n for p, n in self._relative.items() if p not in fresh}  # names too
        merged._relative = {**kept, **newer._relative}
        return merged

    def relative(self, path: Path) -> str | None:
        """A path as git names it, relative to the top level (None: outside, or no repository)."""
        if self.top is None:
            return None
        if path not in self._relative:
            name = git_names([path], self.top, self._folders)[0]
            self._relative[path] = None if name is None else os.fsdecode(name)
        return self._relative[path]


class HistoryRead:
    """One read of git history that more paths can join while it runs.

    ``run`` (in a worker thread) walks; ``add`` (from any thread) asks for more paths;
    ``close`` says no more will come, after which ``run`` returns every answer. A read
    that is never closed never ends: close it when the build fails, too.
    """

    def __init__(
        self,
        folder: Path,
        paths: Iterable[Path],
        *,
        history: HistoryRule = "first-parent",
        date: DateKind = "committer",
        ignore_commits: Sequence[str] = (),
        memo: HistoryMemo | None = None,
    ) -> None:
        self._folder = Path(folder)
        self._options = HistoryOptions(history, date, tuple(ignore_commits))
        self._requests = PathRequests(as_paths(paths))
        self._memo = memo
        self._key: MemoKey | None = None
        self._key_known = threading.Event()

    def add(self, paths: Iterable[Path]) -> None:
        """Ask for more paths (absolute); answered by the walk under way."""
        self._requests.add(as_paths(paths))

    def close(self) -> None:
        """No more paths will come."""
        self._requests.close()

    @property
    def closed(self) -> bool:
        """Whether ``close`` was called (later paths are not answered)."""
        return self._requests.closed

    def run(self) -> GitHistory:
        """Walk until every path asked is answered and the read is closed."""
        try:
            return run_read(self._folder, self._requests, self._options, True, self._memo,
                            self._found_key)
        finally:
            self._key_known.set()  # also when git failed before the repository was found

    def key(self) -> MemoKey | None:
        """The key this read answers under (None: no repository, or no git), once ``run``
        has found the repository (it does so before waiting for any path)."""
        self._key_known.wait()
        return self._key

    def _found_key(self, key: MemoKey | None) -> None:
        self._key = key
        self._key_known.set()


def as_paths(paths: Iterable[Path]) -> list[Path]:
    """Paths as ``Path`` objects (callers may pass strings)."""
    return [p if isinstance(p, Path) else Path(p) for p in paths]


def run_read(
    folder: Path,
    requests: PathRequests,
    options: HistoryOptions,
    open_ended: bool,
    memo: HistoryMemo | None = None,
    found_key: Callable[[MemoKey | None], None] | None = None,
) -> GitHistory:
    """The answers for every path requested until ``requests`` is closed.

    The history's ``key`` is None when a walk failed: its answers are not to be reused.
    """
    warnings: list[str] = []
    found: dict[Path, LastChange] = {}
    commits_read, top, key = 0, None, None
    try:
        commits_read, top, key = read_into(folder, requests, options, warnings, found, open_ended,
                                       memo, found_key or (lambda key: None))
    except NoGit:
        warnings.append(_NO_GIT)
        answer_rest(requests, found, Unknown("no-git"))
    return GitHistory(found, warnings=warnings, commits_read=commits_read, top=top, key=key)
