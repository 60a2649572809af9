"""When did each source file last change on the branch being built? One pass over git.

``GitHistory.read`` answers that question for every file of a site at once, with a
constant number of git processes per build (``rev-parse``, ``ls-tree``, at most one
``cat-file`` for ``ignore_commits``, and one ``log``), never one per file. It knows
nothing of MkDocs.

Two rules, chosen by ``history``, each agreeing exactly with a per-file git command:

``first-parent`` (``git log -1 --first-parent -- <file>``)
    One ``git log --first-parent -m --name-only`` walk from HEAD (merges show their diff
    against the first parent only). A file is answered by the first commit that lists
    it.

``all`` (``git log -1 -- <file>``, git's default history simplification)
    Per file, git follows at each merge the first parent the file is unchanged in
    (TREESAME to); a merge TREESAME to no parent is itself the answer, and a non-merge
    commit that changes the file is the answer. So each file's answer lies on one chain.
    This module follows every chain at once: one ``git log -m --name-status --date-order``
    walk (each merge's diff against each parent; children before parents) keeps, per
    commit, the set of files that have "arrived" there and moves each one on. ``-m``
    prints one section per parent *with a non-empty diff* only, so a user format cannot
    tell which parent a lone section belongs to; ``--pretty=raw`` says it with
    ``(from <parent>)``.

Neither walk takes a pathspec: under one, git runs a tree diff per commit for its own
simplification on top of the diff it prints, about doubling the cost when most commits
touch the docs; and under ``all`` that simplification would drop parents some file's
chain needs. Names outside the wanted set are simply not looked up.

``ignore_commits``: a change made by an ignored commit does not count. Under
``first-parent`` an ignored commit's names are skipped. Under ``all`` an ignored commit,
merge or not, passes every file on to its first parent, so naming a merge ignores what
that merge brought in, as under ``first-parent``. A file whose every change is ignored
is ``Unknown("ignored")``.
"""

from __future__ import annotations

import os
import posixpath
import subprocess
import tempfile
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import IO, Iterable, Iterator, Literal, Sequence, Union

__all__ = ["GitHistory", "Known", "LastChange", "Unknown", "read_ignore_revs_file"]


@dataclass(frozen=True)
class Known:
    """The commit that last changed a file, and its date in the commit's own zone."""

    when: datetime
    commit: str


@dataclass(frozen=True)
class Unknown:
    """Why git cannot date a file.

    ``reason`` is one of ``untracked`` (not in HEAD's tree: new, ignored by git, outside
    the repository, inside a nested submodule), ``shallow`` (its change is older than a
    shallow clone's history), ``ignored`` (every change was made by an ignored commit),
    ``no-git`` (no git program, or git failed reading history), ``not-a-repo`` and
    ``no-commits``.
    """

    reason: str


LastChange = Union[Known, Unknown]

HistoryRule = Literal["first-parent", "all"]
DateKind = Literal["committer", "author"]

# Settings that would change what git prints, pinned whatever the user's config says.
_CONFIG: tuple[str, ...] = (
    "-c", "core.quotePath=false",
    "-c", "log.showRoot=true",
    "-c", "log.showSignature=false",
    "-c", "log.mailmap=false",
    "-c", "log.decorate=false",
    "-c", "log.follow=false",
    "-c", "diff.relative=false",
    "-c", "diff.renames=false",
    "-c", "i18n.logOutputEncoding=UTF-8",
    "-c", "color.ui=false",
)
_LOG_FLAGS: tuple[str, ...] = (
    "--no-renames",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-show-signature",
    "--no-notes",
    "--no-decorate",
    "--no-abbrev-commit",
    "-z",
)
_CHUNK = 1 << 20
_HEX = frozenset("0123456789abcdef")

_SHALLOW_ADVICE = (
    "Fetch the full history: `fetch-depth: 0` for actions/checkout on GitHub Actions, "
    "`GIT_DEPTH: 0` on GitLab CI, or `git fetch --unshallow` elsewhere."
)


class _NoGit(Exception):
    """The git program could not be started."""


def _git(args: Sequence[str | bytes], cwd: str | os.PathLike[str], stdin: bytes | None = None
         ) -> tuple[int, bytes, str]:
    """Run one git command to completion; return (exit status, stdout, stderr text)."""
    try:
        proc = subprocess.run(
            ["git", "--no-pager", *_CONFIG, *args],
            cwd=cwd,
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
        )
    except FileNotFoundError as exc:
        raise _NoGit from exc
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace").strip()


def read_ignore_revs_file(path: Path) -> list[str]:
    """The SHAs in a file in git's ``.git-blame-ignore-revs`` format, in order.

    One revision a line; ``#`` starts a comment (anywhere on the line, as git reads it);
    blank lines are skipped. An unreadable file raises ``OSError``.
    """
    revs: list[str] = []
    for line in Path(path).read_text(encoding="utf-8-sig").splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            revs.append(text)
    return revs


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
        if history not in ("first-parent", "all"):
            raise ValueError(f"history must be 'first-parent' or 'all', not {history!r}")
        if date not in ("committer", "author"):
            raise ValueError(f"date must be 'committer' or 'author', not {date!r}")
        wanted = list(dict.fromkeys(p if isinstance(p, Path) else Path(p) for p in paths))
        reader = _Reader(Path(folder), wanted, history, date, ignore_commits)
        answers = dict(zip(wanted, reader.run()))
        return cls(answers, warnings=reader.warnings, commits_read=reader.commits_read)

    def last_changed(self, path: Path) -> LastChange:
        """The answer for a path passed to ``read``; any other path is untracked."""
        change = self._answers.get(path)
        if change is None:
            if self._normalized is None:  # built once, only if a lookup ever misses
                self._normalized = {os.path.abspath(p): c for p, c in self._answers.items()}
            change = self._normalized.get(os.path.abspath(path), Unknown("untracked"))
        return change


class _Reader:
    """One ``GitHistory.read``: find the repository, the tracked files, then walk."""

    def __init__(
        self,
        folder: Path,
        wanted: list[Path],
        history: HistoryRule,
        date: DateKind,
        ignore_commits: Sequence[str],
    ) -> None:
        self.folder = folder
        self.wanted = wanted
        self.history = history
        self.date = date
        self.ignore_commits = list(ignore_commits)
        self.warnings: list[str] = []
        self.commits_read = 0

    def run(self) -> list[LastChange]:
        """One answer per wanted path, in order."""
        if not self.wanted:
            return []
        try:
            return self._run()
        except _NoGit:
            self.warnings.append(
                "git is not installed (no `git` program on PATH), so no file can be dated "
                "from git history; install git on the machine that builds the site."
            )
            return [Unknown("no-git")] * len(self.wanted)

    def _run(self) -> list[LastChange]:
        repo = self._find_repository()
        if isinstance(repo, Unknown):
            return [repo] * len(self.wanted)
        top, head, boundary = repo
        keys = self._keys(self.wanted, top)
        candidates = {key for key in keys if key is not None}
        tracked = self._tracked(top, candidates)
        keys = [_match_tracked(key, tracked) if key is not None else None for key in keys]
        want = {key for key in keys if key is not None}
        ignored = self._resolve_ignored(top)
        results: dict[bytes, LastChange] = {}
        if want:
            kind = _FirstParentWalk if self.history == "first-parent" else _AllWalk
            walk = kind(top, head, want, self.date, ignored, boundary)
            results = walk.run()
            self.commits_read = walk.commits_read
            if walk.failure:
                self.warnings.append(walk.failure)
        return [results.get(key, Unknown("untracked")) if key else Unknown("untracked")
                for key in keys]

    # -- repository -------------------------------------------------------------------

    def _find_repository(self) -> tuple[str, str, frozenset[bytes]] | Unknown:
        """(toplevel, HEAD, shallow boundary SHAs), or the reason there is no history."""
        folder = self.folder
        if not folder.is_dir():
            self.warnings.append(
                f"{folder} is not a folder, so its files cannot be dated from git history."
            )
            return Unknown("not-a-repo")
        status, out, err = _git(
            ["rev-parse", "--show-toplevel", "--is-shallow-repository",
             "--git-path", "shallow", "--verify", "-q", "HEAD^{commit}"],
            folder,
        )
        lines = out.decode("utf-8", "surrogateescape").splitlines()
        if len(lines) < 3:
            detail = err.splitlines()[0] if err else "git rev-parse failed"
            if "safe.directory" in err:
                # Another user owns the repository (CI containers): it is one, git
                # just will not read it. The hint command is never translated.
                owner = err.rpartition("safe.directory")[2].strip() or str(folder)
                self.warnings.append(
                    f"git refuses to read the repository at {owner}, which another user "
                    f"owns ({detail}), so its files cannot be dated from git history; "
                    f"trust it before the build: git config --global --add safe.directory {owner}"
                )
                return Unknown("not-a-repo")
            self.warnings.append(
                f"{folder} is not inside a git repository ({detail}), so its files cannot "
                "be dated from git history."
            )
            return Unknown("not-a-repo")
        top = os.path.realpath(lines[0])
        if status != 0 or len(lines) < 4:
            self.warnings.append(
                f"the git repository at {top} has no commits yet, so its files cannot be "
                "dated from git history until the first commit."
            )
            return Unknown("no-commits")
        boundary: frozenset[bytes] = frozenset()
        if lines[1].strip() == "true":
            self.warnings.append(
                f"the git repository at {top} is a shallow clone: files whose last change "
                "is older than its oldest fetched commit cannot be dated. " + _SHALLOW_ADVICE
            )
            try:
                text = (folder / lines[2]).read_bytes()
                boundary = frozenset(text.split())
            except OSError:
                pass
        return top, lines[3].strip(), boundary

    @staticmethod
    def _keys(paths: list[Path], top: str) -> list[bytes | None]:
        """Each file's path relative to the top level, as git prints it (None: outside).

        Symlinks are resolved (a page is dated by the file its content comes from).
        Folders are resolved once each; a file itself costs one ``lstat``.
        """
        folders: dict[str, str] = {}
        prefix = top.rstrip(os.sep) + os.sep
        keys: list[bytes | None] = []
        for path in paths:
            folder, name = os.path.split(os.path.abspath(path))
            real_folder = folders.get(folder)
            if real_folder is None:
                real_folder = folders[folder] = os.path.realpath(folder)
            real = os.path.join(real_folder, name)
            if os.path.islink(real):
                real = os.path.realpath(real)
            if not real.startswith(prefix) or len(real) == len(prefix):
                keys.append(None)
                continue
            keys.append(os.fsencode(real[len(prefix):].replace(os.sep, "/")))
        return keys

    def _tracked(self, top: str, candidates: set[bytes]) -> set[bytes]:
        """The files in HEAD's tree under the candidates' common folder (one ``ls-tree``)."""
        if not candidates:
            return set()
        args: list[str | bytes] = ["--literal-pathspecs", "ls-tree", "-r", "-z",
                                   "--name-only", "--full-tree", "HEAD"]
        common = _common_folder(candidates)
        if common:
            args += ["--", common]
        status, out, err = _git(args, top)
        if status != 0:
            self.warnings.append(f"git ls-tree failed in {top}: {err}")
            return set()
        return set(out.split(b"\0")) - {b""}

    def _resolve_ignored(self, top: str) -> frozenset[bytes]:
        """Full SHAs of ``ignore_commits`` (one ``cat-file``); warn about unknown ones."""
        names = list(dict.fromkeys(s.strip() for s in self.ignore_commits if s.strip()))
        good = [n for n in names if 7 <= len(n) <= 64 and set(n.lower()) <= _HEX]
        for bad in names:
            if bad not in good:
                self.warnings.append(
                    f"ignore_commits: {bad!r} is not a commit SHA (7 to 64 hex digits); "
                    "it is ignored."
                )
        if not good:
            return frozenset()
        query = "".join(f"{n}^{{commit}}\n" for n in good).encode()
        status, out, err = _git(["cat-file", "--batch-check=%(objectname) %(objecttype)"],
                                top, stdin=query)
        lines = out.decode("utf-8", "replace").splitlines()
        shas: set[bytes] = set()
        for name, line in zip(good, lines + [""] * (len(good) - len(lines))):
            fields = line.split()
            if len(fields) == 2 and fields[1] == "commit":
                shas.add(fields[0].encode())
            else:
                why = "is ambiguous" if line.endswith("ambiguous") else "is not a commit"
                self.warnings.append(
                    f"ignore_commits: {name!r} {why} in the repository at {top}; it is "
                    "ignored."
                )
        return frozenset(shas)


def _common_folder(keys: Iterable[bytes]) -> bytes:
    """The deepest folder holding every key (``b""`` for the top level)."""
    folders = [posixpath.dirname(k) for k in keys]
    common = posixpath.commonpath(folders) if folders else b""
    return common


def _match_tracked(key: bytes, tracked: set[bytes]) -> bytes | None:
    """The tracked name for a path, also across Unicode NFC/NFD spellings, or None."""
    if key in tracked:
        return key
    text = os.fsdecode(key)
    for form in ("NFC", "NFD"):
        other = os.fsencode(unicodedata.normalize(form, text))
        if other in tracked:
            return other
    return None


def _token_chunks(stream: IO[bytes]) -> Iterator[list[bytes]]:
    """The NUL-separated tokens of a byte stream, a large chunk at a time."""
    tail = b""
    while True:
        data = stream.read(_CHUNK)
        if not data:
            break
        tokens = (tail + data).split(b"\0")
        tail = tokens.pop()
        if tokens:
            yield tokens
    if tail:
        yield [tail]


_ZONES: dict[bytes, timezone] = {}


def _raw_date(line: bytes) -> datetime:
    """The date of a raw ``committer``/``author`` line (``... <epoch> <+hhmm>``)."""
    _, epoch, zone = line.rsplit(b" ", 2)
    tz = _ZONES.get(zone)
    if tz is None:
        sign = -1 if zone[:1] == b"-" else 1
        minutes = int(zone[1:3]) * 60 + int(zone[3:5])
        tz = _ZONES[zone] = timezone(timedelta(minutes=sign * minutes))
    return datetime.fromtimestamp(int(epoch), tz)


class _Walk:
    """One ``git log`` run, read as a stream and stopped once every file is answered."""

    def __init__(
        self,
        top: str,
        head: str,
        want: set[bytes],
        date: DateKind,
        ignored: frozenset[bytes],
        boundary: frozenset[bytes],
    ) -> None:
        self.top = top
        self.head = head
        self.want = want
        self.date = date
        self.ignored = ignored
        self.boundary = boundary
        self.commits_read = 0
        self.failure: str | None = None
        self.answers: dict[bytes, LastChange] = {}
        self.touched_by_ignored: set[bytes] = set()
        self._dates: dict[bytes, datetime] = {}

    def args(self) -> list[str | bytes]:
        """The ``git log`` arguments after the global options."""
        raise NotImplementedError

    def consume(self, chunks: Iterator[list[bytes]]) -> bool:
        """Read records until every file is answered (True) or the stream ends (False)."""
        raise NotImplementedError

    def run(self) -> dict[bytes, LastChange]:
        """Walk, then give every file not answered by a commit its reason."""
        with tempfile.TemporaryFile() as errors:
            try:
                proc = subprocess.Popen(
                    ["git", "--no-pager", *_CONFIG, *self.args()],
                    cwd=self.top,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=errors,
                    bufsize=0,
                )
            except FileNotFoundError as exc:
                raise _NoGit from exc
            assert proc.stdout is not None
            stopped = False
            try:
                stopped = self.consume(_token_chunks(proc.stdout))
            finally:
                if stopped or proc.poll() is None:
                    proc.kill()
                proc.stdout.close()
                proc.wait()
            if not stopped and proc.returncode != 0:
                errors.seek(0)
                detail = errors.read().decode("utf-8", "replace").strip()
                self.failure = (
                    f"git log failed in {self.top} (exit status {proc.returncode}): "
                    f"{detail or 'no message'}; files it did not reach are not dated."
                )
        for key in self.want:
            if key not in self.answers:
                if key in self.touched_by_ignored:
                    reason = "ignored"
                elif self.failure:
                    reason = "no-git"
                elif self.boundary:
                    reason = "shallow"
                else:
                    reason = "ignored"
                self.answers[key] = Unknown(reason)
        return self.answers

    def answer(self, key: bytes, sha: bytes, when: datetime) -> None:
        """Record ``sha`` as the file's last change (a shallow boundary cannot date it)."""
        if sha in self.boundary:
            self.answers[key] = Unknown("shallow")
        else:
            self.answers[key] = Known(when, sha.decode("ascii"))


class _FirstParentWalk(_Walk):
    """``git log --first-parent``: the first commit listing a file answers it."""

    def args(self) -> list[str | bytes]:
        placeholder = "%cI" if self.date == "committer" else "%aI"
        args: list[str | bytes] = [
            "log", "--first-parent", "-m", "--name-only",
            *_LOG_FLAGS, f"--format=%x00%H {placeholder}", self.head,
        ]
        return args

    def consume(self, chunks: Iterator[list[bytes]]) -> bool:
        # Records are: "" (from %x00), "<sha> <date>", then names, the first one
        # prefixed with "\n"; names are never empty, so "" always starts a record.
        pending = set(self.want)
        ignored = self.ignored
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


class _AllWalk(_Walk):
    """``git log`` with default simplification, simulated for every file at once.

    ``pending`` maps a commit to the files whose chain has reached it. ``--date-order``
    shows every child before its parents, so when a commit's record arrives, every file
    that will ever reach it is already there.
    """

    def args(self) -> list[str | bytes]:
        return ["log", "-m", "--name-status", *_LOG_FLAGS, "--pretty=raw",
                "--date-order", self.head]

    def consume(self, chunks: Iterator[list[bytes]]) -> bool:
        # Each section: a raw header token ("commit <sha>[ (from <parent>)]\n...");
        # with a diff it ends in "\n\n<status>" and is followed by name, status, name,
        # ..., "" ; without a diff it ends in "\n" and the next token is a header.
        head = self.head.encode("ascii")
        self.pending: dict[bytes, set[bytes]] = {head: set(self.want)}
        self.open = len(self.want)
        date_prefix = b"committer " if self.date == "committer" else b"author "
        state = 0  # 0: header, 1: name, 2: status or end of section
        sha = b""
        files: set[bytes] | None = None
        parents: list[bytes] = []
        when_line = b""
        sections: dict[bytes, list[bytes]] = {}
        names: list[bytes] | None = None
        commits = 0
        try:
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
                    end = tok.find(b"\n")
                    first = tok[7:end].split(b" ")  # after "commit "
                    if first[0] != sha:
                        if files is not None:
                            self._step(sha, files, parents, sections, when_line)
                            if not self.open:
                                return True
                        sha = first[0]
                        commits += 1
                        files = self.pending.pop(sha, None)
                        sections = {}
                        if files is not None:
                            parents, when_line = _raw_header(tok, date_prefix)
                            if sha in self.boundary:
                                parents = []
                    if files is not None and has_diff:
                        source = first[2][:-1] if len(first) > 2 else b""
                        names = sections.setdefault(source, [])
                    else:
                        names = None
                    state = 1 if has_diff else 0
            if files is not None:
                self._step(sha, files, parents, sections, when_line)
            return not self.open
        finally:
            self.commits_read = commits

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
            for diff in sections.values():
                self.touched_by_ignored.update(n for n in diff if n in files)
            if parents:
                self._give(parents[0], files)
            else:
                self.open -= len(files)
            return
        remaining = files
        if len(parents) <= 1:
            diff = next(iter(sections.values()), [])
            changed = {n for n in diff if n in remaining}
            remaining.difference_update(changed)
            if remaining:
                if parents:
                    self._give(parents[0], remaining)
                else:  # absent from a root: only after an ignored commit added it
                    self.open -= len(remaining)
            remaining = changed
        else:
            for parent in parents:
                parent_diff = sections.get(parent)
                if not parent_diff:
                    self._give(parent, remaining)
                    return
                stay = {n for n in parent_diff if n in remaining}
                if len(stay) == len(remaining):
                    continue
                remaining.difference_update(stay)
                self._give(parent, remaining)
                remaining = stay
                if not remaining:
                    return
        if remaining:
            when = self._dates.get(sha)
            if when is None:
                when = self._dates[sha] = _raw_date(when_line)
            for key in remaining:
                self.answer(key, sha, when)
            self.open -= len(remaining)


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
