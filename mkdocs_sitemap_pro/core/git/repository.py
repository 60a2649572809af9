"""Facts about the repository a site lives in, each from at most one git process.

Where the top level is, HEAD, the shallow boundary, which files HEAD tracks, what git
calls a given file, and which commits ``ignore_commits`` names. Trouble is never fatal:
each function adds a warning a user can act on and gives the reason files cannot be
dated (an ``Unknown``).
"""

import os
import re
import unicodedata
from datetime import datetime
from collections.abc import Container, Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.answers import DateKind, Known, Unknown
from mkdocs_sitemap_pro.core.git.platforms import shallow_advice
from mkdocs_sitemap_pro.core.git.process import GitProcesses, run_git
from mkdocs_sitemap_pro.core.page.realpaths import RealPaths
from mkdocs_sitemap_pro.core.words import printable

__all__ = [
    "COMMIT_ID",
    "SHALLOW_CLONE",
    "Repository",
    "find_repository",
    "garbled",
    "git_names",
    "is_commit_id",
    "newest_commit",
    "read_ignore_revs_file",
    "resolve_ignored",
    "tree_objects",
]

#: A commit id as a user may write it: 7 hexadecimal digits (abbreviated) up to 64
#: (a full SHA-256 id; SHA-1 ids have 40).
COMMIT_ID = re.compile(r"[0-9A-Fa-f]{7,64}")

#: A full commit id as git prints it (SHA-1 or SHA-256).
COMMIT_HASH = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")

#: What the shallow-clone warning says, to know it again (dates carried make it moot).
SHALLOW_CLONE = "is a shallow clone"


def is_commit_id(text: str) -> bool:
    """Whether ``text`` can name a commit (see ``COMMIT_ID``)."""
    return bool(COMMIT_ID.fullmatch(text))


class Repository(NamedTuple):
    """The repository a folder lies in: its top level, HEAD and shallow boundary."""

    top: str
    head: str
    boundary: frozenset[bytes]  # the shallow clone's boundary commits; empty if complete


def read_ignore_revs_file(path: Path, warnings: list[str] | None = None) -> list[str]:
    """The SHAs in a file in git's ``.git-blame-ignore-revs`` format, in order.

    One revision a line; ``#`` starts a comment (anywhere on the line, as git reads it);
    blank lines are skipped. A line that is not a commit id is left out, and ``warnings``
    gets its number (never its text: the file may not be what the user thinks). An
    unreadable file raises ``OSError``.
    """
    revs: list[str] = []
    text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        rev = line.split("#", 1)[0].strip()
        if not rev:
            continue
        if is_commit_id(rev):
            revs.append(rev.lower())
        elif warnings is not None:
            warnings.append(f"ignore_commits: line {number} of {path} is not a commit SHA "
                            "(7 to 64 hex digits); it is ignored.")
    return revs


def find_repository(folder: Path, warnings: list[str],
                    processes: GitProcesses | None = None) -> Repository | Unknown:
    """The repository ``folder`` lies in (one ``rev-parse``), or why there is no history."""
    if not folder.is_dir():
        warnings.append(f"{folder} is not a folder, so its files cannot be dated from git history.")
        return Unknown("not-a-repo")
    status, out, err = run_git(
        ["rev-parse", "--show-toplevel", "--is-shallow-repository",
         "--git-path", "shallow", "--verify", "-q", "HEAD^{commit}"],
        folder, processes=processes,
    )
    lines = out.decode("utf-8", "surrogateescape").splitlines()
    if not _rev_parse_answer(lines, status):
        warnings.append(
            f"the `git` program on PATH answered `git rev-parse` in {folder} with "
            f"{garbled(out)}, which is not what git prints, so no file can be dated from "
            "git history; see what `git --version` prints there, and put git first on PATH"
        )
        return Unknown("no-git")
    if len(lines) < 3:
        detail = err.splitlines()[0] if err else (
            f"git rev-parse printed {garbled(out)}" if out.strip() else "git rev-parse failed")
        if "safe.directory" in err:
            # Another user owns the repository (CI containers): it is one, git just
            # will not read it. The hint command is never translated.
            owner = err.rpartition("safe.directory")[2].strip() or str(folder)
            warnings.append(
                f"git refuses to read the repository at {owner}, which another user "
                f"owns ({detail}), so its files cannot be dated from git history; "
                f"trust it before the build: git config --global --add safe.directory {owner}"
            )
            return Unknown("not-a-repo")
        warnings.append(
            f"{folder} is not inside a git repository ({detail}), so its files cannot "
            "be dated from git history; build in a clone of the repository (`git clone`, "
            "not a download of its files or a copy without `.git`), or, if the site is "
            "not kept in git, set the option `lastmod: mtime` or `lastmod: none`"
        )
        return Unknown("not-a-repo")
    top = os.path.realpath(lines[0])
    if status != 0 or len(lines) < 4:
        warnings.append(
            f"the git repository at {top} has no commits yet, so its files cannot be "
            "dated from git history until the first commit."
        )
        return Unknown("no-commits")
    boundary: frozenset[bytes] = frozenset()
    if lines[1].strip() == "true":
        warnings.append(
            f"the git repository at {top} {SHALLOW_CLONE}: files whose last change "
            "is older than its oldest fetched commit cannot be dated. "
            + shallow_advice(os.environ)
        )
        try:
            boundary = frozenset((folder / lines[2]).read_bytes().split())
        except OSError:
            pass
    return Repository(top, lines[3].strip(), boundary)


def _rev_parse_answer(lines: Sequence[str], status: int) -> bool:
    """Whether ``lines`` can be what ``find_repository``'s ``rev-parse`` prints: on
    success an absolute folder, ``true`` or ``false``, a path and a commit id; on failure
    (no repository, no commit) those it printed before it failed."""
    if status != 0 and len(lines) < 3:
        return True  # git's own failure: stderr says why
    if len(lines) != (4 if status == 0 else 3):
        return False
    return (os.path.isabs(lines[0]) and os.path.isdir(lines[0])
            and lines[1] in ("true", "false") and bool(lines[2])
            and (status != 0 or COMMIT_HASH.fullmatch(lines[3]) is not None))


def garbled(out: bytes, limit: int = 120) -> str:
    """What git printed, quoted for a message: its first ``limit`` characters, control
    characters as ``\\xNN`` codes."""
    text = out.decode("utf-8", "replace").strip()
    shown = text if len(text) <= limit else text[:limit] + "…"
    return repr(printable(shown.replace("\n", " / ")))


def git_names(
    paths: Sequence[str | os.PathLike[str]], top: str, folders: dict[str, str] | None = None
) -> list[bytes | None]:
    """Each file's path relative to the top level, as git prints it (None: outside).

    Symlinks are resolved (a page is dated by the file its content comes from).
    Folders are resolved once each (``folders`` keeps them across calls); a file
    itself costs one ``lstat``.
    """
    real_paths = RealPaths(folders)
    prefix = top.rstrip(os.sep) + os.sep
    names: list[bytes | None] = []
    for path in paths:
        real = real_paths.file(os.path.abspath(path))
        if not real.startswith(prefix) or len(real) == len(prefix):
            names.append(None)
            continue
        names.append(os.fsencode(real[len(prefix):].replace(os.sep, "/")))
    return names


def tree_objects(top: str, warnings: list[str], processes: GitProcesses | None = None
                 ) -> tuple[dict[bytes, str], frozenset[bytes]]:
    """Every file of HEAD's tree and its object id, the identity of its content (a
    blob's, or a submodule's commit), and which files are symbolic links (one
    ``ls-tree``; nothing, with a warning, if it fails)."""
    status, out, err = run_git(["ls-tree", "-r", "-z", "--full-tree", "HEAD"], top,
                               processes=processes)
    if status != 0:
        warnings.append(f"git ls-tree failed in {top}: {err}")
        return {}, frozenset()
    objects: dict[bytes, str] = {}
    links: set[bytes] = set()
    for entry in out.split(b"\0"):
        meta, tab, name = entry.partition(b"\t")  # "<mode> <type> <id>\t<name>"
        if tab:
            objects[name] = meta[meta.rfind(b" ") + 1:].decode("ascii")
            if meta.startswith(b"120000 "):
                links.add(name)
    return objects, frozenset(links)


def newest_commit(top: str, commits: Iterable[str], date: DateKind,
                  processes: GitProcesses | None = None) -> Known | None:
    """The newest of ``commits`` by the ``date`` rule, with its date (one ``log
    --no-walk``), or None when git cannot say."""
    wanted = sorted(set(commits))
    if not wanted:
        return None
    kind = "%cI" if date == "committer" else "%aI"
    status, out, _ = run_git(["log", "--no-walk=unsorted", f"--format=%H {kind}", *wanted, "--"],
                             top, processes=processes)
    newest: Known | None = None
    for line in out.decode("ascii", "replace").splitlines() if status == 0 else ():
        sha, _, iso = line.partition(" ")
        try:
            when = datetime.fromisoformat(iso)
        except ValueError:
            continue
        if newest is None or when > newest.when:
            newest = Known(when, sha)
    return newest


def match_tracked(name: bytes, tracked: Container[bytes]) -> bytes | None:
    """The tracked name for a path, also across Unicode NFC/NFD spellings, or None."""
    if name in tracked:
        return name
    text = os.fsdecode(name)
    for form in ("NFC", "NFD"):
        other = os.fsencode(unicodedata.normalize(form, text))
        if other in tracked:
            return other
    return None


def resolve_ignored(top: str, commits: Sequence[str], warnings: list[str],
                    processes: GitProcesses | None = None) -> frozenset[bytes]:
    """Full SHAs of ``ignore_commits`` (one ``cat-file``); warn about unknown ones."""
    names = list(dict.fromkeys(s.strip() for s in commits if s.strip()))
    good = [n for n in names if is_commit_id(n)]
    for bad in names:
        if bad not in good:
            warnings.append(
                f"ignore_commits: {bad!r} is not a commit SHA (7 to 64 hex digits); it is ignored."
            )
    if not good:
        return frozenset()
    query = "".join(f"{n}^{{commit}}\n" for n in good).encode()
    status, out, err = run_git(
        ["cat-file", "--batch-check=%(objectname) %(objecttype)"], top, stdin=query,
        processes=processes,
    )
    lines = out.decode("utf-8", "replace").splitlines()
    shas: set[bytes] = set()
    for name, line in zip(good, lines + [""] * (len(good) - len(lines))):
        fields = line.split()
        if len(fields) == 2 and fields[1] == "commit":
            shas.add(fields[0].encode())
        else:
            why = "is ambiguous" if line.endswith("ambiguous") else "is not a commit"
            warnings.append(
                f"ignore_commits: {name!r} {why} in the repository at {top}; it is ignored."
            )
    return frozenset(shas)

