"""The ``first-parent`` rule: the commit that brought a change into the built branch.

Agrees with ``git log -1 --first-parent -- <file>``: one ``git log --first-parent -m
--name-only`` walk from HEAD (merges show their diff against the first parent only); a
file is answered by the first commit that lists it. An ignored commit's names are skipped. Reaching the base (``walk.Base``), every file still open that
the base knows takes the base's answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from mkdocs_sitemap_pro.core.git.process import LOG_FLAGS
from mkdocs_sitemap_pro.core.git.walk import Walk

__all__ = ["FirstParentWalk"]


class FirstParentWalk(Walk):
    """``git log --first-parent``: the first commit listing a file answers it."""

    def args(self) -> list[str | bytes]:
        placeholder = "%cI" if self.date == "committer" else "%aI"
        args: list[str | bytes] = [
            "log", "--first-parent", "-m", "--name-only",
            *LOG_FLAGS, f"--format=%x00%H {placeholder}", self.head,
        ]
        return args

    def consume(self, chunks: Iterator[list[bytes]]) -> bool:
        # Records are: "" (from %x00), "<sha> <date>", then names, the first one
        # prefixed with "\n"; names are never empty, so "" always starts a record.
        pending = set(self.want)
        ignored = self.ignored
        base = self.base.head if self.base is not None else None
        state = 0  # 0: a header comes next, 1: the first name, 2: more names
        sha = iso = b""
        skip = False
        commits = 0
        try:
            for tokens in chunks:
                for tok in tokens:
                    if not tok:
                        state = 0
                        continue
                    if state == 0:
                        sha, _, iso = tok.partition(b" ")
                        if sha == base:
                            pending = self.from_base(pending)
                            if not pending:
                                return True
                            base = None
                        commits += 1
                        skip = sha in ignored
                        state = 1
                        continue
                    if state == 1:
                        tok = tok[1:]
                        state = 2
                    if tok in pending:
                        if skip:
                            self.touched_by_ignored.add(tok)
                            continue
                        pending.discard(tok)
                        self.answer(tok, sha, self._when(sha, iso))
                        if not pending:
                            return True
            return False
        finally:
            self.commits_read = commits

    def _when(self, sha: bytes, iso: bytes) -> datetime:
        when = self._dates.get(sha)
        if when is None:
            when = self._dates[sha] = datetime.fromisoformat(iso.decode("ascii"))
        return when
