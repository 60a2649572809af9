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
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from mkdocs_sitemap_pro.core.git.all_parents import AllParentsWalk
from mkdocs_sitemap_pro.core.git.answers import (
    DateKind,
    HistoryOptions,
    HistoryRule,
    LastChange,
    Unknown,
)
from mkdocs_sitemap_pro.core.git.first_parent import FirstParentWalk
from mkdocs_sitemap_pro.core.git.process import NoGit
from mkdocs_sitemap_pro.core.git.repository import (
    find_repository,
    git_names,
    match_tracked,
    resolve_ignored,
    tracked_files,
)

__all__ = ["GitHistory"]

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
    ) -> None:
        self._answers = answers
        self._normalized: dict[str, LastChange] | None = None
        self.warnings: tuple[str, ...] = tuple(dict.fromkeys(warnings))
        self.commits_read = commits_read

    @classmethod
    def read(
        cls,
        folder: Path,
        paths: Iterable[Path],
        *,
        history: HistoryRule = "first-parent",
        date: DateKind = "committer",
        ignore_commits: Sequence[str] = (),
    ) -> GitHistory:
        """Read history once for ``paths`` (absolute source paths) in ``folder``'s repository.

        Never raises for git trouble: a missing git program, a folder outside any
        repository or a repository without commits gives one warning and every file
        ``Unknown`` with the reason.
        """
        options = HistoryOptions(history, date, tuple(ignore_commits))
        wanted = list(dict.fromkeys(p if isinstance(p, Path) else Path(p) for p in paths))
        warnings: list[str] = []
        try:
            found, commits_read = _read(Path(folder), wanted, options, warnings)
        except NoGit:
            warnings.append(_NO_GIT)
            found, commits_read = [Unknown("no-git")] * len(wanted), 0
        return cls(dict(zip(wanted, found)), warnings=warnings, commits_read=commits_read)

    def last_changed(self, path: Path) -> LastChange:
        """The answer for a path passed to ``read``; any other path is untracked."""
        change = self._answers.get(path)
        if change is None:
            if self._normalized is None:  # built once, only if a lookup ever misses
                self._normalized = {os.path.abspath(p): c for p, c in self._answers.items()}
            change = self._normalized.get(os.path.abspath(path), Unknown("untracked"))
        return change



def _read(
    folder: Path, wanted: list[Path], options: HistoryOptions, warnings: list[str]
) -> tuple[list[LastChange], int]:
    """One answer per wanted path, in order, and the number of commits read.

    Finds the repository and the tracked files, then walks by the options' rule.
    """
    if not wanted:
        return [], 0
    repo = find_repository(folder, warnings)
    if isinstance(repo, Unknown):
        return [repo] * len(wanted), 0
    names = git_names(wanted, repo.top)
    tracked = tracked_files(repo.top, {n for n in names if n is not None}, warnings)
    names = [match_tracked(n, tracked) if n is not None else None for n in names]
    want = {n for n in names if n is not None}
    ignored = resolve_ignored(repo.top, options.ignore_commits, warnings)
    results: dict[bytes, LastChange] = {}
    commits_read = 0
    if want:
        rule = FirstParentWalk if options.rule == "first-parent" else AllParentsWalk
        walk = rule(repo, want, options.date, ignored)
        results = walk.run()
        commits_read = walk.commits_read
        if walk.failure:
            warnings.append(walk.failure)
    answers = [results.get(n, Unknown("untracked")) if n else Unknown("untracked") for n in names]
    return answers, commits_read
