"""History answers kept between reads while what they depend on is unchanged.

``mkdocs serve`` rebuilds the site on every save, yet uncommitted edits never change a
git date: only a new HEAD does (a commit, a checkout, a rebase, an amend). A read given a
``HistoryMemo`` checks the repository with the ``rev-parse`` it runs anyway and, while
the key is the same (top level, HEAD's commit, the shallow boundary, the rule, the date
kind and ``ignore_commits``), answers from memory every file an earlier walk decided; it
walks again only for a file no earlier walk reached, and keeps what that walk learns.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.answers import HistoryOptions, LastChange
from mkdocs_sitemap_pro.core.git.repository import Repository

__all__ = ["HistoryMemo", "MemoKey", "Remembered"]

_KEEP = 4  # repositories (or HEADs) remembered at once


class MemoKey(NamedTuple):
    """Everything a file's answer depends on besides the file."""

    top: str
    head: str
    boundary: frozenset[bytes]
    options: HistoryOptions

    @classmethod
    def of(cls, repo: Repository, options: HistoryOptions) -> MemoKey:
        return cls(repo.top, repo.head, repo.boundary, options)


@dataclass
class Remembered:
    """What reads under one key learned: HEAD's files, the ignored commits, the answers."""

    tracked: set[bytes]
    ignored: frozenset[bytes]
    warnings: tuple[str, ...] = ()  # said once per read, from ls-tree / ignore_commits
    answers: dict[bytes, LastChange] = field(default_factory=dict)  # decided by a walk


class HistoryMemo:
    """The answers of the last few keys (one process, many builds). Not thread-safe:
    one read at a time uses it (the plugin's single git worker)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[MemoKey, Remembered] = OrderedDict()
        self.hits = 0  # reads answered without a walk (for tests and DEBUG)

    def get(self, key: MemoKey) -> Remembered | None:
        known = self._kept.get(key)
        if known is not None:
            self._kept.move_to_end(key)
        return known

    def put(self, key: MemoKey, known: Remembered) -> None:
        self._kept[key] = known
        self._kept.move_to_end(key)
        while len(self._kept) > _KEEP:
            self._kept.popitem(last=False)

    def clear(self) -> None:
        self._kept.clear()
