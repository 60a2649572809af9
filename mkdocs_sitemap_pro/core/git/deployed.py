"""What a version on mike's branch was built from, read back from git.

``mike deploy`` commits a version's built folder with the message ``Deployed <rev> to
<version>[ in <deploy_prefix>] with MkDocs <x> and mike <y>``, where ``<rev>`` is the
abbreviated id of the source commit it built. ``deployed_from`` finds the newest such
commit among those that touched the folder, and that source commit in the repository
(None when it is not there: a clone without it, a deploy from elsewhere).
``export_folder`` copies a folder of the branch into a folder on disk through a
temporary index, and ``source_worktree`` checks a commit out into a temporary detached
worktree (removed afterwards, also on error): the branch, the user's working tree, index
and HEAD are never touched.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.commit import Branch, BranchError
from mkdocs_sitemap_pro.core.git.process import run_git

__all__ = ["Deployed", "deployed_from", "export_folder", "has_file", "source_worktree"]


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


def _git(repo: Path, *args: str, env: dict[str, str] | None = None) -> bytes:
    status, out, err = run_git(list(args), repo, env=env)
    if status != 0:
        raise BranchError(f"git {args[0]} failed: {err or f'exit status {status}'}")
    return out


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
