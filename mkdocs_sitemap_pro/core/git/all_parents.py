"""The ``all`` rule: the last commit on any merged branch, as ``git log -1 -- <file>`` says.

Per file, git follows at each merge the first parent the file is unchanged in (TREESAME
to); a merge TREESAME to no parent is itself the answer, and a non-merge commit that
changes the file is the answer. So each file's answer lies on one chain. This module
follows every chain at once: one ``git log -m --name-status --date-order`` walk (each
merge's diff against each parent; children before parents) keeps, per commit, the set of
files that have "arrived" there and moves each one on. ``-m`` prints one section per
parent *with a non-empty diff* only, so a user format cannot tell which parent a lone
section belongs to; ``--pretty=raw`` says it with ``(from <parent>)``.

An ignored commit, merge or not, passes every file on to its first parent, so naming a
merge ignores what that merge brought in, as under ``first-parent``. Files whose chain
reaches the base (``walk.Base``) take the base's answer there.
"""

from __future__ import annotations

from collections.abc import Iterator

from mkdocs_sitemap_pro.core.git.process import LOG_FLAGS
from mkdocs_sitemap_pro.core.git.walk import Walk, raw_date

__all__ = ["AllParentsWalk"]


class AllParentsWalk(Walk):
    """``git log`` with default simplification, simulated for every file at once.

    ``pending`` maps a commit to the files whose chain has reached it. ``--date-order``
    shows every child before its parents, so when a commit's record arrives, every file
    that will ever reach it is already there.
    """

    def args(self) -> list[str | bytes]:
        return ["log", "-m", "--name-status", *LOG_FLAGS, "--pretty=raw",
                "--date-order", self.head]

    def consume(self, chunks: Iterator[list[bytes]]) -> bool:
        # Each section: a raw header token ("commit <sha>[ (from <parent>)]\n...");
        # with a diff it ends in "\n\n<status>" and is followed by name, status, name,
        # ..., "" ; without a diff it ends in "\n" and the next token is a header.
        head = self.head.encode("ascii")
        self.pending: dict[bytes, set[bytes]] = {head: set(self.want)}
        self.open = len(self.want)
        self.commits_read = 0
        date_prefix = b"committer " if self.date == "committer" else b"author "
        state = 0  # 0: header, 1: name, 2: status or end of section
        commit = _Commit(b"", None, [], b"")
        names: list[bytes] | None = None
        base = self.base.head if self.base is not None else None
        for tokens in chunks:
            for tok in tokens:
                if state == 1:
                    if names is not None:
                        names.append(tok)
                    state = 2
                    continue
                if state == 2:
                    state = 1 if tok else 0
                    continue
                # A header.
                has_diff = not tok.endswith(b"\n")
                first = tok[7:tok.find(b"\n")].split(b" ")  # after "commit "
                if first[0] != commit.sha:
                    following = self._next_commit(commit, first[0], tok, date_prefix, base)
                    if following is None:
                        return True
                    commit = following
                names = commit.section(first) if commit.files is not None and has_diff else None
                state = 1 if has_diff else 0
        if commit.files is not None:
            self._step(commit.sha, commit.files, commit.parents, commit.sections,
                       commit.when_line)
        return not self.open

    def _next_commit(self, done: _Commit, sha: bytes, tok: bytes, date_prefix: bytes,
                     base: bytes | None) -> _Commit | None:
        """Answer or move on the files that reached ``done``, then start reading commit
        ``sha`` (``tok``: its first header); None once every file is answered."""
        if done.files is not None:
            self._step(done.sha, done.files, done.parents, done.sections, done.when_line)
            if not self.open:
                return None
        files = self.pending.pop(sha, None)
        if sha == base and files is not None:
            files = self._at_base(files)
            if not self.open:
                return None
        else:
            self.commits_read += 1
        if files is None:
            return _Commit(sha, None, [], b"")
        parents, when_line = _raw_header(tok, date_prefix)
        return _Commit(sha, files, [] if sha in self.boundary else parents, when_line)

    def _at_base(self, files: set[bytes]) -> set[bytes] | None:
        """The files that reached the base and that its answers leave open (None: none)."""
        before = len(files)
        left = self.from_base(files) or None
        self.open -= before - (len(left) if left else 0)
        return left

    def _give(self, parent: bytes, files: set[bytes]) -> None:
        """Move files on to a parent, merging the smaller set into the larger."""
        there = self.pending.get(parent)
        if there is None:
            self.pending[parent] = files
        elif len(there) >= len(files):
            there.update(files)
        else:
            files.update(there)
            self.pending[parent] = files

    def _step(
        self,
        sha: bytes,
        files: set[bytes],
        parents: list[bytes],
        sections: dict[bytes, list[bytes]],
        when_line: bytes,
    ) -> None:
        """Answer or move on every file that has reached commit ``sha``."""
        if not files:
            return
        if sha in self.ignored:
            self._pass_ignored(files, parents, sections)
            return
        remaining = (self._changed_by_one(files, parents, sections) if len(parents) <= 1
                     else self._changed_by_merge(files, parents, sections))
        if remaining:
            self._answer_here(sha, remaining, when_line)

    def _pass_ignored(self, files: set[bytes], parents: list[bytes],
                      sections: dict[bytes, list[bytes]]) -> None:
        """An ignored commit: note the files it touched and pass them all on to its first
        parent (at a root they are closed unanswered)."""
        for diff in sections.values():
            self.touched_by_ignored.update(n for n in diff if n in files)
        if parents:
            self._give(parents[0], files)
        else:
            self.open -= len(files)

    def _changed_by_one(self, files: set[bytes], parents: list[bytes],
                        sections: dict[bytes, list[bytes]]) -> set[bytes]:
        """A commit with one parent (or none): the files it changes, the answer here; the
        others move on to its parent."""
        diff = next(iter(sections.values()), [])
        changed = {n for n in diff if n in files}
        files.difference_update(changed)
        if files:
            if parents:
                self._give(parents[0], files)
            else:  # absent from a root: only after an ignored commit added it
                self.open -= len(files)
        return changed

    def _changed_by_merge(self, files: set[bytes], parents: list[bytes],
                          sections: dict[bytes, list[bytes]]) -> set[bytes]:
        """A merge: each file moves on to the first parent it is unchanged in (TREESAME
        to); those changed against every parent are the answer here."""
        remaining = files
        for parent in parents:
            parent_diff = sections.get(parent)
            if not parent_diff:
                self._give(parent, remaining)
                return set()
            stay = {n for n in parent_diff if n in remaining}
            if len(stay) == len(remaining):
                continue
            remaining.difference_update(stay)
            self._give(parent, remaining)
            remaining = stay
            if not remaining:
                return remaining
        return remaining

    def _answer_here(self, sha: bytes, files: set[bytes], when_line: bytes) -> None:
        """Answer ``files`` with commit ``sha``, dated by its ``when_line`` (read once)."""
        when = self._dates.get(sha)
        if when is None:
            when = self._dates[sha] = raw_date(when_line, self.zones)
        for key in files:
            self.answer(key, sha, when)
        self.open -= len(files)


class _Commit:
    """The commit whose sections are being read: the files that reached it (None: none
    did, its sections are skipped), its parents, its date line, each parent's diff."""

    __slots__ = ("files", "parents", "sections", "sha", "when_line")

    def __init__(self, sha: bytes, files: set[bytes] | None, parents: list[bytes],
                 when_line: bytes) -> None:
        self.sha, self.files, self.parents, self.when_line = sha, files, parents, when_line
        self.sections: dict[bytes, list[bytes]] = {}

    def section(self, first: list[bytes]) -> list[bytes]:
        """The names of the diff a section header's first line (split at spaces) opens:
        against the parent its ``(from <parent>)`` names, or the only one."""
        source = first[2][:-1] if len(first) > 2 else b""
        return self.sections.setdefault(source, [])


def _raw_header(token: bytes, date_prefix: bytes) -> tuple[list[bytes], bytes]:
    """The parents and the wanted date line of a ``--pretty=raw`` header."""
    end = token.find(b"\n\n")
    parents: list[bytes] = []
    when_line = b""
    for line in (token[:end] if end >= 0 else token).split(b"\n"):
        if line.startswith(b"parent "):
            parents.append(line[7:])
        elif line.startswith(date_prefix):
            when_line = line
    return parents, when_line
