"""A branch without a checkout: its files read, new ones committed, and what a version on
mike's branch was built from.

Reading a branch's files and committing new ones to it, without a checkout.

The way mike commits to gh-pages: the branch is never checked out and the working tree,
the index and HEAD are never touched. Files are read with ``cat-file``; a commit is made
from the branch's tree in a temporary index file (``read-tree``, ``hash-object``,
``update-index``, ``write-tree``, ``commit-tree``) and the branch moves with
``update-ref`` only if it still points where it pointed when read (compare and swap), so
a concurrent ``mike deploy`` is never overwritten. Committer identity and dates come from
git's usual environment and configuration.

Also what a version on mike's branch was built from, read back from git.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.process import run_git

__all__ = [
    "Branch", "BranchError", "commit_files", "Deployed", "deployed_from", "export_folder",
    "has_file", "source_worktree",
]


class BranchError(Exception):
    """A git command on the branch failed; the message says which and why."""


def _git(repo: Path, *args: str, stdin: bytes | None = None,
         env: dict[str, str] | None = None) -> bytes:
    status, out, err = run_git(list(args), repo, stdin=stdin, env=env)
    if status != 0:
        raise BranchError(f"git {args[0]} failed: {err or f'exit status {status}'}")
    return out


@dataclass(frozen=True)
class Branch:
    """A branch as it was when read: its name and tip commit."""

    repo: Path
    name: str
    tip: str

    @classmethod
    def find(cls, repo: Path, name: str) -> Branch | None:
        """The local branch ``name`` of the repository at ``repo``, or None if it has none."""
        status, out, _ = run_git(
            ["rev-parse", "--verify", "-q", f"refs/heads/{name}^{{commit}}"], repo
        )
        return cls(repo, name, out.decode().strip()) if status == 0 else None

    def read(self, path: str) -> bytes | None:
        """The content of the file at ``path`` in the tip's tree, or None if there is none
        (a symlink is followed inside the tree, as a web server would)."""
        status, out, _ = run_git(["cat-file", "-t", f"{self.tip}:{path}"], self.repo)
        if status != 0:
            return None
        if out.strip() == b"blob":
            status, mode, _ = run_git(["ls-tree", self.tip, "--", path], self.repo)
            data = _git(self.repo, "cat-file", "blob", f"{self.tip}:{path}")
            if mode.startswith(b"120000 "):  # a symlink: its blob is the target
                target = os.path.normpath(os.path.join(os.path.dirname(path), data.decode()))
                return None if target.startswith("..") else self.read(target)
            return data
        return None


def commit_files(branch: Branch, files: Mapping[str, bytes], message: str) -> str | None:
    """Commit ``files`` (path in the tree -> content) on top of the branch's tip.

    Returns the new commit's id, or None when the tree would not change (no empty
    commit). ``BranchError`` if git fails or the branch moved since it was read.
    """
    repo = branch.repo
    handle, index = tempfile.mkstemp(prefix="sitemap-pro-index-")
    os.close(handle)
    os.unlink(index)  # git creates the index file itself
    env = {"GIT_INDEX_FILE": index}
    try:
        _git(repo, "read-tree", branch.tip, env=env)
        for path, data in sorted(files.items()):
            blob = _git(repo, "hash-object", "-w", "--stdin", stdin=data).decode().strip()
            _git(repo, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", env=env)
        tree = _git(repo, "write-tree", env=env).decode().strip()
    finally:
        if os.path.exists(index):
            os.unlink(index)
    old_tree = _git(repo, "rev-parse", f"{branch.tip}^{{tree}}").decode().strip()
    if tree == old_tree:
        return None
    commit = _git(repo, "commit-tree", tree, "-p", branch.tip, "-m", message).decode().strip()
    _git(repo, "update-ref", "-m", message, f"refs/heads/{branch.name}", commit, branch.tip)
    return commit


class Deployed(NamedTuple):
    """The commit that deployed a version and the source commit its message names."""

    commit: str  # on the branch
    rev: str  # the source's id as the message writes it (abbreviated)
    source: str | None  # its full id, None when the repository does not hold it


def _subject(version: str) -> re.Pattern[str]:
    """mike's deploy message for ``version`` (any prefix, any MkDocs and mike)."""
    return re.compile(
        rf"Deployed (?P<rev>[0-9a-fA-F]{{4,64}}) to {re.escape(version)}"
        r"(?: in \S.*?)?(?: with .*)?"
    )


def deployed_from(branch: Branch, folder: str, version: str) -> Deployed | None:
    """The newest commit of ``branch`` that touched ``folder`` with mike's deploy message
    for ``version``, or None when no commit says where the folder came from."""
    out = _git(branch.repo, "--literal-pathspecs", "log", "--no-renames", "-z",
               "--format=%H %s", branch.tip, "--", folder)
    pattern = _subject(version)
    for record in out.decode("utf-8", "replace").split("\0"):
        commit, _, subject = record.strip("\n").partition(" ")
        found = pattern.fullmatch(subject.strip())
        if found is None:
            continue
        rev = found["rev"]
        status, full, _ = run_git(
            ["rev-parse", "--verify", "-q", f"{rev}^{{commit}}"],  # rev: hex only
            branch.repo,
        )
        return Deployed(commit, rev, full.decode().strip() if status == 0 else None)
    return None


def has_file(repo: Path, commit: str, path: str) -> bool:
    """Whether ``commit``'s tree holds a file at ``path``."""
    status, out, _ = run_git(["cat-file", "-t", f"{commit}:{path}"], repo)
    return status == 0 and out.strip() == b"blob"


def export_folder(branch: Branch, folder: str, dest: Path) -> None:
    """Write the files of ``folder`` on the branch's tip into ``dest`` (which exists)."""
    status, kind, _ = run_git(["cat-file", "-t", f"{branch.tip}:{folder}"], branch.repo)
    if status != 0 or kind.strip() != b"tree":
        raise BranchError(f"{folder}/ is not a folder on {branch.name}")
    handle, index = tempfile.mkstemp(prefix="sitemap-pro-index-")
    os.close(handle)
    os.unlink(index)  # git creates the index file itself
    env = {"GIT_INDEX_FILE": index}
    try:
        _git(branch.repo, "read-tree", f"{branch.tip}:{folder}", env=env)
        _git(branch.repo, f"--work-tree={dest}", "checkout-index", "--all", "--force", env=env)
    finally:
        if os.path.exists(index):
            os.unlink(index)


@contextmanager
def source_worktree(repo: Path, commit: str) -> Iterator[Path]:
    """``commit`` checked out in a temporary detached worktree of ``repo``, its hooks
    not run; the worktree is removed when the block ends, however it ends."""
    parent = Path(tempfile.mkdtemp(prefix="sitemap-pro-source-"))
    path = parent / "source"
    hooks = parent / "no-hooks"
    hooks.mkdir()
    try:
        _git(repo, "-c", f"core.hooksPath={hooks}", "worktree", "add", "--quiet", "--detach",
             "--", str(path), commit)
        yield path
    finally:
        status, _, _ = run_git(["worktree", "remove", "--force", "--", str(path)], repo)
        if status != 0 and path.exists():  # not even added, or git could not remove it
            shutil.rmtree(path, ignore_errors=True)
            run_git(["worktree", "prune"], repo)
        shutil.rmtree(parent, ignore_errors=True)
