"""One history read's steps: the repository, the memo, the names asked, and the walk.

``history`` wraps them (``GitHistory``, ``HistoryRead``); this module fills a dict of
answers and knows nothing of those classes. The walk runs by the options' rule, only for
the files neither the memo nor an earlier batch could answer.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mkdocs_sitemap_pro.core.git.all_parents import AllParentsWalk
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions, LastChange, Unknown
from mkdocs_sitemap_pro.core.git.first_parent import FirstParentWalk
from mkdocs_sitemap_pro.core.git.memo import HistoryMemo, MemoKey, Remembered
from mkdocs_sitemap_pro.core.git.requests import PathRequests
from mkdocs_sitemap_pro.core.git.repository import (
    find_repository,
    git_names,
    match_tracked,
    resolve_ignored,
    tracked_files,
)

__all__ = ["answer_rest", "read_into"]


def answer_rest(requests: PathRequests, found: dict[Path, LastChange], change: LastChange) -> None:
    """Give every path not answered yet, and every one still to come, the same answer."""
    while (batch := requests.take()) is not None:
        for path in batch:
            found.setdefault(path, change)
    for path, answer in list(found.items()):
        if answer is _PENDING:
            found[path] = change


_PENDING = Unknown("pending")


def read_into(
    folder: Path,
    requests: PathRequests,
    options: HistoryOptions,
    warnings: list[str],
    found: dict[Path, LastChange],
    open_ended: bool,
    memo: HistoryMemo | None,
    found_key: Callable[[MemoKey | None], None],
) -> tuple[int, str | None, MemoKey | None]:
    """Fill ``found`` with an answer per requested path; the commits read, the top level
    and the key of the answers.

    Finds the repository (before waiting for paths, for an open-ended read) and the
    tracked files, then walks by the options' rule, only for the files neither ``memo``
    nor an earlier batch could answer.
    """
    repo = find_repository(folder, warnings) if open_ended else None
    if repo is not None:
        found_key(None if isinstance(repo, Unknown) else MemoKey.of(repo, options))
    first = requests.take() or []
    for path in first:
        found[path] = _PENDING
    if not first and not open_ended:
        return 0, None, None
    if repo is None:
        repo = find_repository(folder, warnings)
    if isinstance(repo, Unknown):
        answer_rest(requests, found, repo)
        return 0, None, None
    key = MemoKey.of(repo, options)
    known = memo.get(key) if memo is not None else None
    whole = open_ended or memo is not None  # a memo learns every file HEAD tracks
    if known is None:
        known = _facts(repo.top, first, options, whole)
        if memo is not None and (known.tracked or not known.warnings):
            memo.put(key, known)
    warnings.extend(known.warnings)
    tracked = known.tracked
    names: dict[Path, bytes | None] = {}
    folders: dict[str, str] = {}

    def resolve(batch: list[Path]) -> list[bytes]:
        new = [p for p in dict.fromkeys(batch) if p not in names]
        for path, name in zip(new, git_names(new, repo.top, folders)):
            names[path] = match_tracked(name, tracked) if name is not None else None
            found.setdefault(path, _PENDING)
        return [n for n in (names[p] for p in new) if n is not None]

    def more() -> list[bytes] | None:
        batch = requests.take()
        return None if batch is None else resolve(batch)

    results: dict[bytes, LastChange] = known.answers
    need = set(resolve(first)) - results.keys()
    while open_ended and not need:  # every file asked so far is known: no walk yet
        batch = requests.take()
        if batch is None:
            break
        need = set(resolve(batch)) - results.keys()
    commits_read, failed = 0, False
    if need:
        universe = tracked if whole else need
        rule = FirstParentWalk if options.rule == "first-parent" else AllParentsWalk
        walk = rule(repo, set(universe), options.date, known.ignored, asked=need, more=more)
        walk.answers.update(known.answers)  # answered from memory, not looked for again
        results = walk.run()
        commits_read = walk.commits_read
        if walk.failure:
            warnings.append(walk.failure)
            failed = True
        elif memo is not None:
            known.answers.update((n, results[n]) for n in walk.decided)
    elif memo is not None:
        memo.hits += 1
    while (batch := requests.take()) is not None:  # asked after the walk ended
        resolve(batch)
    for path, name in names.items():
        found[path] = results.get(name, Unknown("untracked")) if name else Unknown("untracked")
    return commits_read, repo.top, None if failed else key


def _facts(top: str, first: list[Path], options: HistoryOptions, whole: bool) -> Remembered:
    """HEAD's tracked files and the ignored commits' full ids (ls-tree, cat-file)."""
    said: list[str] = []
    candidates = set() if whole else {n for n in git_names(first, top) if n}
    tracked = tracked_files(top, candidates, said, whole=whole)
    ignored = resolve_ignored(top, options.ignore_commits, said)
    return Remembered(tracked, ignored, tuple(said))
