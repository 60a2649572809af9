"""``mkdocs-sitemap-pro versions --rebuild``: the plugin's sitemap for a deployed version.

A version mike deployed before the plugin was used has no sitemap of ours (none, an
empty one, or MkDocs' own, dated by the build). Its built pages are still on the branch,
and mike's commit message names the commit they were built from. So the version's
folder is exported into a temporary folder, that commit checked out into a temporary
worktree, and ``build_sitemap`` run with the commit's mkdocs.yml as ``mike deploy`` runs
the plugin (``MIKE_DOCS_VERSION`` set, site_url the version's folder): the plugin's rules
and that commit's options (else the defaults), dated by the history up to that commit.
A commit without the config named by ``-f`` (an ``mkdocs.sp.yml`` added later) is
built with its ``mkdocs.yml`` (or ``properdocs.yml``) beside that path; a commit with none
of them is not rebuilt (``RebuildFailed``). When the repository does not hold the commit
(or its config cannot be read), the pages are listed undated, by today's config, with a
warning. Nothing but temporary folders is
written: the caller commits the files returned.
"""

from __future__ import annotations

import os
import posixpath
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.branch import Branch
from mkdocs_sitemap_pro.core.git.branch import (
    Deployed,
    deployed_from,
    export_folder,
    has_file,
    source_worktree,
)
from mkdocs_sitemap_pro.plugin.integrations.mike import VERSION_VARIABLE
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.plugin.standalone.config import ConfigError, Replaced
from mkdocs_sitemap_pro.plugin.standalone.run import WriteFailed, build_sitemap

__all__ = ["FALLBACK_CONFIGS", "RebuildFailed", "Rebuilt", "Target", "rebuild_version"]

#: The configs an old commit may have instead of the one named (in this order).
FALLBACK_CONFIGS = ("mkdocs.yml", "properdocs.yml")


class RebuildFailed(Exception):
    """The version's sitemap could not be made; the message says why."""


@dataclass(frozen=True)
class Target:
    """One version to rebuild, and where things are."""

    branch: Branch
    folder: str  # the version's folder on the branch: <deploy_prefix>/<version>
    version: str
    url: str  # where the folder is published, ending in "/"
    config: str  # mkdocs.yml's path from the top of the repository (-f)
    current: Path  # today's mkdocs.yml: its settings when the source cannot be read
    filename: str  # the sitemap's name, where the root index looks for it


class Rebuilt(NamedTuple):
    """The files to commit into the version's folder (path below it -> content), and the
    source commit that dated the pages (None: listed undated)."""

    files: dict[str, bytes]
    dated_by: str | None
    config: str | None = None  # the source commit's config it was built with, if dated


def rebuild_version(target: Target) -> Rebuilt:
    """The plugin's sitemap files for ``target``'s folder as it is on the branch."""
    with tempfile.TemporaryDirectory(prefix="sitemap-pro-rebuild-") as temp:
        site = Path(temp) / "site"
        site.mkdir()
        export_folder(target.branch, target.folder, site)
        before = _stamps(site)
        deployed = deployed_from(target.branch, target.folder, target.version)
        why = _why_undated(target, deployed)
        dated_by = config = None
        if why is None:
            assert deployed is not None and deployed.source is not None
            config = _config_of(target, deployed)
            why = _dated(target, deployed, config, site, Path(temp))
            dated_by = None if why else deployed.source
        if why is not None:
            _undated(target, why, site, Path(temp))
        changed = [path for path, stamp in _stamps(site).items() if before.get(path) != stamp]
        return Rebuilt({path: (site / path).read_bytes() for path in sorted(changed)}, dated_by,
                       config if dated_by else None)


def _why_undated(target: Target, deployed: Deployed | None) -> str | None:
    """Why the pages cannot be dated by their source commit, or None if they can."""
    branch = target.branch.name
    if deployed is None:
        return (f"no commit on {branch} that changed {target.folder}/ says which commit it "
                f"was built from (mike's message: Deployed <commit> to {target.version})")
    if deployed.source is None:
        return (f"commit {deployed.rev}, which mike deployed it from ({deployed.commit[:12]} "
                f"on {branch} says so), is not in this repository; fetch it (git fetch "
                "origin, or git fetch --unshallow in a shallow clone) and rebuild it again")
    return None


def _config_of(target: Target, deployed: Deployed) -> str:
    """The config of the source commit to build with: the one named, else the first of
    ``FALLBACK_CONFIGS`` beside it; ``RebuildFailed`` when the commit has none."""
    assert deployed.source is not None
    folder = posixpath.dirname(target.config)
    candidates = [target.config, *(posixpath.join(folder, name) for name in FALLBACK_CONFIGS)]
    for path in dict.fromkeys(candidates):
        if has_file(target.branch.repo, deployed.source, path):
            return path
    raise RebuildFailed(
        f"version {target.version}: commit {deployed.rev}, which mike deployed it from, "
        f"holds none of {', '.join(dict.fromkeys(candidates))}, so it cannot be rebuilt; "
        f"deploy it again (mike deploy {target.version}) or leave it out of --rebuild")


def _dated(target: Target, deployed: Deployed, config: str, site: Path,
           temp: Path) -> str | None:
    """Build with the source commit's ``config`` and history; or why that cannot be."""
    assert deployed.source is not None
    with source_worktree(target.branch.repo, deployed.source) as tree:
        log.info(f"version {target.version}: its pages are dated by the history of commit "
                 f"{deployed.rev}, which mike deployed it from")
        replaced = Replaced({"site_url": target.url}, _options(target, temp))
        try:
            _build(tree / config, site, replaced, target.version)
        except ConfigError as error:
            return f"the {config} of commit {deployed.rev} cannot be used: {error}"
    return None


def _undated(target: Target, why: str, site: Path, temp: Path) -> None:
    """List the folder's pages without dates, by today's URL settings and options."""
    log.warning(f"version {target.version}: its pages are listed undated (by the settings "
                f"of {target.current}): {why}")
    no_docs = temp / "no-docs"  # no source: every page is the HTML the folder holds
    no_docs.mkdir(exist_ok=True)
    settings = {"site_url": target.url, "docs_dir": str(no_docs)}
    try:
        _build(target.current, site,
               Replaced(settings, {**_options(target, temp), "lastmod": "none"}), target.version)
    except ConfigError as error:
        raise RebuildFailed(f"version {target.version}: {error}") from None


def _options(target: Target, temp: Path) -> dict[str, object]:
    """Options every rebuild sets: on (asked for), the name the root index reads, the
    cache in the temporary folder."""
    return {"enabled": True, "filename": target.filename, "cache_dir": str(temp / "cache")}


def _build(config: Path, site: Path, replaced: Replaced, version: str) -> None:
    with _building_version(version):
        try:
            build_sitemap(str(config), str(site), replaced)
        except WriteFailed as error:
            raise RebuildFailed(f"version {version}: {error}") from None


@contextmanager
def _building_version(version: str) -> Iterator[None]:
    """The plugin's rules for a version folder, as under ``mike deploy`` (which sets it)."""
    old = os.environ.get(VERSION_VARIABLE)
    os.environ[VERSION_VARIABLE] = version
    try:
        yield
    finally:
        if old is None:
            del os.environ[VERSION_VARIABLE]
        else:
            os.environ[VERSION_VARIABLE] = old


def _stamps(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Every file below ``folder`` (``/``-separated) -> its inode, size and mtime."""
    out = {}
    for parent, _, names in os.walk(folder):
        for name in names:
            path = Path(parent, name)
            stat = path.lstat()
            out[path.relative_to(folder).as_posix()] = (stat.st_ino, stat.st_size,
                                                        stat.st_mtime_ns)
    return out
