"""``mkdocs-sitemap-pro versions``: one entry point for crawlers on a mike branch.

Run after ``mike deploy``. On the branch mike deploys to it commits, without a
checkout and the way mike commits, a root ``sitemap.xml`` index listing each version's
sitemap (aliases left out; with ``canonical_version`` only that version) and a root
``robots.txt`` holding one ``Sitemap:`` line for it. Exit status 0 when done (or
already up to date), 1 when the push failed, 2 when it could not run: then nothing is
committed.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs_sitemap_pro.core.git.commit import Branch, BranchError, commit_files
from mkdocs_sitemap_pro.core.git.process import NoGit, run_git
from mkdocs_sitemap_pro.core.reader import SitemapReadError, parse_sitemap
from mkdocs_sitemap_pro.core.robots import with_sitemap_line
from mkdocs_sitemap_pro.core.urls import SiteUrl
from mkdocs_sitemap_pro.core.versions import (
    Version,
    VersionsError,
    parse_versions,
    root_url,
    version_index,
)

__all__ = ["register", "run"]


class CannotRun(Exception):
    """The command cannot do its job; the message says what to do."""


def register(commands: Any) -> None:
    """Add the ``versions`` subcommand to the top-level parser's subcommands."""
    sub = commands.add_parser(
        "versions",
        help="write the root sitemap index and robots.txt for a mike-versioned site",
        description=(
            "After `mike deploy`: commit to the branch mike deploys to a root sitemap.xml "
            "listing each version's sitemap, and a robots.txt line naming it."
        ),
    )
    sub.add_argument("-f", "--config-file", default="mkdocs.yml",
                     help="the site's mkdocs.yml (default: mkdocs.yml)")
    sub.add_argument("-b", "--branch", help="the branch mike deploys to (default: mike's remote_branch, gh-pages)")
    sub.add_argument("-r", "--remote", help="the remote to push to (default: mike's remote_name, origin)")
    sub.add_argument("--deploy-prefix", help="the folder of the branch mike deploys into (default: mike's deploy_prefix)")
    sub.add_argument("--site-url", help="the URL the branch's root is served at (default: site_url)")
    sub.add_argument("-p", "--push", action="store_true", help="push the branch after committing")
    sub.add_argument("-m", "--message", help="the commit message")
    sub.set_defaults(run=run)


@dataclass(frozen=True)
class _Settings:
    """What the command needs of the site's configuration and the command line."""

    repo: Path
    branch: str
    remote: str
    prefix: str
    root: SiteUrl
    filename: str
    canonical: str | None


def run(args: argparse.Namespace) -> int:
    """Write and commit the root files; return the exit status."""
    try:
        settings = _settings(args)
        branch = Branch.find(settings.repo, settings.branch)
        if branch is None:
            raise CannotRun(
                f"the repository {settings.repo} has no branch {settings.branch!r}; run "
                "`mike deploy` first, fetch it (`git fetch origin gh-pages:gh-pages`), or "
                "name it with --branch"
            )
        listed = _listed_versions(branch, settings)
        files = _root_files(branch, settings, listed)
        message = args.message or (
            f"Sitemap index for {', '.join(listed)} (mkdocs-sitemap-pro versions)"
        )
        commit = commit_files(branch, files, message)
    except (CannotRun, BranchError, VersionsError, NoGit) as error:
        print(f"mkdocs-sitemap-pro versions: {error or 'git is not installed'}", file=sys.stderr)
        return 2
    index_url = settings.root.join(settings.filename)
    if commit is None:
        print(f"{settings.branch} is up to date: {index_url} lists {', '.join(listed)}")
    else:
        print(f"committed {commit[:12]} on {settings.branch}: {index_url} lists "
              f"{', '.join(listed)}; robots.txt names it")
    if not settings.root.at_host_root:
        # Crawlers read robots.txt only at the root of a host.
        print(f"note: {settings.root.join('robots.txt')} is not at the root of the host, where "
              f"crawlers read robots.txt; add there: Sitemap: {index_url}")
    if args.push:
        status, _, err = run_git(
            ["push", settings.remote, f"refs/heads/{settings.branch}"], settings.repo
        )
        if status != 0:
            print(f"mkdocs-sitemap-pro versions: git push failed: {err}", file=sys.stderr)
            return 1
    return 0


def _settings(args: argparse.Namespace) -> _Settings:
    """Options from the command line, else from mkdocs.yml (mike's and ours)."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import ConfigurationError

    config_file = Path(args.config_file)
    if not config_file.is_file():
        raise CannotRun(f"no {config_file} here; run in the site's folder or pass -f")
    try:
        config = load_config(str(config_file))
    except ConfigurationError as error:
        raise CannotRun(f"{config_file}: {error}") from None
    mike: Any = getattr(config.plugins.get("mike"), "config", {})
    ours: Any = getattr(config.plugins.get("sitemap-pro"), "config", {})
    status, out, err = run_git(["rev-parse", "--show-toplevel"], config_file.resolve().parent)
    if status != 0:
        raise CannotRun(f"{config_file} is not in a git repository: {err}")
    site_url = args.site_url or config.site_url
    if not site_url:
        raise CannotRun("site_url is not set; set it in mkdocs.yml or pass --site-url")
    try:
        root = root_url(site_url, None)
    except ValueError as error:
        raise CannotRun(f"site URL {error}") from None
    prefix = args.deploy_prefix if args.deploy_prefix is not None else mike.get("deploy_prefix", "")
    return _Settings(
        repo=Path(out.decode().strip()),
        branch=args.branch or mike.get("remote_branch") or "gh-pages",
        remote=args.remote or mike.get("remote_name") or "origin",
        prefix=(prefix or "").strip("/"),
        root=root,
        filename=ours.get("filename") or "sitemap.xml",
        canonical=mike.get("canonical_version") or None,
    )


def _path(settings: _Settings, *parts: str) -> str:
    return "/".join(p for p in (settings.prefix, *parts) if p)


def _listed_versions(branch: Branch, settings: _Settings) -> list[str]:
    """The version folders the index lists: every version, or the canonical one."""
    data = branch.read(_path(settings, "versions.json"))
    if data is None:
        raise CannotRun(
            f"{_path(settings, 'versions.json')} is not on {settings.branch}: is it the "
            "branch mike deploys to? (--branch, --deploy-prefix)"
        )
    versions = parse_versions(data)
    if not versions:
        raise CannotRun(f"versions.json on {settings.branch} lists no version")
    names = [v.name for v in versions]
    if settings.canonical is not None:
        names = _canonical(settings.canonical, versions)
    for name in names:
        _check_sitemap(branch, settings, name)
    return names


def _canonical(canonical: str, versions: list[Version]) -> list[str]:
    """canonical_version as the one folder to list (an alias is listed by its own path)."""
    for version in versions:
        if canonical == version.name or canonical in version.aliases:
            return [canonical]
    raise CannotRun(f"canonical_version {canonical!r} is neither a version nor an alias "
                    "in versions.json")


def _check_sitemap(branch: Branch, settings: _Settings, name: str) -> None:
    """The version's sitemap exists and lists only URLs inside its folder."""
    path = _path(settings, name, settings.filename)
    data = branch.read(path)
    if data is None:
        raise CannotRun(
            f"{path} is not on {settings.branch}: deploy version {name} with sitemap-pro in "
            "the plugins of mkdocs.yml (with canonical_version set, only that version's "
            "pages are listed)"
        )
    folder = settings.root.join(name) + "/"
    try:
        entries = parse_sitemap(data).entries
    except SitemapReadError as error:
        raise CannotRun(f"{path} is not a sitemap: {error}") from None
    outside = [e.loc for e in entries if not e.loc.startswith(folder)]
    if outside:
        raise CannotRun(
            f"{path} lists {outside[0]}, outside {folder} where version {name} is served: "
            "check site_url (or --site-url) and deploy the version again"
        )


def _root_files(branch: Branch, settings: _Settings, listed: list[str]) -> dict[str, bytes]:
    """The root index and robots.txt (its other lines kept, the Sitemap: line once)."""
    sitemaps = [f"{name}/{settings.filename}" for name in listed]
    files = {_path(settings, settings.filename): version_index(settings.root, sitemaps)}
    robots_path = _path(settings, "robots.txt")
    old = branch.read(robots_path)
    text = old.decode("utf-8", errors="surrogateescape") if old is not None else ""
    updated = with_sitemap_line(text, settings.root.join(settings.filename))
    if updated is not None:
        files[robots_path] = updated.encode("utf-8", errors="surrogateescape")
    return files
