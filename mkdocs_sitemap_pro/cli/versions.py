"""``mkdocs-sitemap-pro versions``: one entry point for crawlers on a mike branch.

Run after ``mike deploy``. On the branch mike deploys to it commits, without a
checkout and the way mike commits, a root ``sitemap.xml`` index listing each version's
sitemap (aliases left out; with ``canonical_version`` only that version; a version
whose own entry is an index, its files: an index may not list an index), each with the
newest lastmod inside it, its ``.gz`` twin and a page for people (``sitemap.html``), and
a root ``robots.txt`` holding one ``Sitemap:`` line for it. A version whose sitemap is
missing, empty, not a sitemap or lists URLs outside its folder (built before the plugin,
say) is left out with one warning saying why, or rebuilt from its pages on the branch
in the same commit (``--rebuild``: ``cli.versions``). Exit status 0 when done (or already
up to date), 1 when the push failed, 2 when it could not run: then nothing is committed.

Also ``versions --rebuild VERSION…`` and ``--rebuild-all-stale``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs_sitemap_pro.cli import WithExamples
from mkdocs_sitemap_pro.core.atomic import gzip_bytes
from mkdocs_sitemap_pro.core.deploy.versions import (
    Listed,
    Version,
    VersionsError,
    listed_urlset,
    parse_versions,
    root_url,
    version_index,
)
from mkdocs_sitemap_pro.core.git.branch import Branch, BranchError, commit_files
from mkdocs_sitemap_pro.core.git.process import GitTimeout, NoGit, run_git
from mkdocs_sitemap_pro.core.git.repository import garbled
from mkdocs_sitemap_pro.core.reader import SitemapReadError, parse_sitemap
from mkdocs_sitemap_pro.core.robots import with_sitemap_line
from mkdocs_sitemap_pro.core.urls import SiteUrl, redact_credentials
from mkdocs_sitemap_pro.core.words import named, printable
from mkdocs_sitemap_pro.core.writer.html_view import ViewFile, index_page, is_ours_text, view_name
from mkdocs_sitemap_pro.plugin.standalone.config import ConfigError, SiteConfig, load_site_config
from mkdocs_sitemap_pro.plugin.standalone.rebuild import (
    FALLBACK_CONFIGS,
    RebuildFailed,
    Target,
    rebuild_version,
)
from mkdocs_sitemap_pro.plugin.standalone.run import console_log

__all__ = ["register", "run", "RebuildFailed", "add_options", "asked_versions", "rebuild"]


_MIKE = "mike"
# mike's options this command reads: where it deploys, and the version the index lists.
_MIKE_OPTIONS = ("remote_branch", "remote_name", "deploy_prefix", "canonical_version")


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
        epilog=(
            "example: in the folder of mkdocs.yml, after each deploy:\n"
            "  mike deploy --update-aliases 2.0 latest\n"
            "  mkdocs-sitemap-pro versions --push"
        ),
        formatter_class=WithExamples,
    )
    sub.add_argument("-f", "--config-file", metavar="FILE",
                     help="zensical.toml or mkdocs.yml, read as data (default: the first of "
                          "./zensical.toml, ./mkdocs.yml, ./mkdocs.yaml, as Zensical looks)")
    sub.add_argument("-b", "--branch", help="the branch mike deploys to (default: mike's remote_branch, gh-pages)")
    sub.add_argument("-r", "--remote", help="the remote to push to (default: mike's remote_name, origin)")
    sub.add_argument("--deploy-prefix", help="the folder of the branch mike deploys into (default: mike's deploy_prefix)")
    sub.add_argument("--site-url", help="the URL the branch's root is served at (default: site_url)")
    sub.add_argument("-p", "--push", action="store_true", help="push the branch after committing")
    sub.add_argument("-m", "--message", help="the commit message")
    add_options(sub)
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
    config_file: Path


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
        names, known = _listed_versions(branch, settings)
        asked = asked_versions(args.rebuild, known, settings.branch)
        files: dict[str, bytes] = {}  # rebuilt versions' files, then the root's
        sitemaps: list[Listed] = []
        listed: list[str] = []
        rebuilt: list[str] = []
        explained: set[str] = set()  # what the rebuilds said once for all
        for name in dict.fromkeys([*names, *asked]):
            found = _version_sitemaps(_reader(branch, files), settings, name)
            if name in asked or (args.rebuild_all_stale and isinstance(found, str)):
                files.update(rebuild(branch, _path(settings, name), name,
                                     settings.root.join(name) + "/", settings.config_file,
                                     settings.filename, explained))
                rebuilt.append(name)
                found = _version_sitemaps(_reader(branch, files), settings, name)
            if name not in names:  # rebuilt, but not listed (canonical_version)
                continue
            if isinstance(found, str):
                _say(f"mkdocs-sitemap-pro versions: warning: version {name} is left out of "
                     f"the index: {found}; deploy it again with sitemap-pro in mkdocs.yml's "
                     f"plugins (mike deploy {name}), or rebuild its sitemap from the branch "
                     f"(mkdocs-sitemap-pro versions --rebuild {name})", error=True)
                continue
            sitemaps += found
            listed.append(name)
        if not listed:
            raise CannotRun(f"no version on {settings.branch} has a sitemap the index can "
                            "list (see the warnings above)")
        files.update(_root_files(branch, settings, sitemaps))
        also = f"; {', '.join(rebuilt)} rebuilt" if rebuilt else ""
        message = args.message or (
            f"Sitemap index for {', '.join(listed)}{also} (mkdocs-sitemap-pro versions)"
        )
        commit = commit_files(branch, files, message)
    except (CannotRun, BranchError, VersionsError, NoGit, GitTimeout,
            RebuildFailed) as error:
        _say(f"mkdocs-sitemap-pro versions: {str(error) or 'git failed'}", error=True)
        return 2
    index_url = settings.root.join(settings.filename)
    if commit is None:
        _say(f"{settings.branch} is up to date: {index_url} lists {', '.join(listed)}")
    else:
        _say(f"committed {commit[:12]} on {settings.branch}: {index_url} lists "
             f"{', '.join(listed)}; robots.txt names it")
    if not settings.root.at_host_root:
        # Crawlers read robots.txt only at the root of a host.
        _say(f"note: {settings.root.join('robots.txt')} is not at the root of the host, where "
             f"crawlers read robots.txt; add there: Sitemap: {index_url}")
    if args.push:
        try:
            status, _, err = run_git(
                ["push", "--", settings.remote, f"refs/heads/{settings.branch}"], settings.repo
            )
        except (NoGit, GitTimeout) as error:
            _say(f"mkdocs-sitemap-pro versions: git push failed: {error}", error=True)
            return 1
        if status != 0:
            # git's own message, line by line as git wrote it
            print("mkdocs-sitemap-pro versions: git push failed: "
                  + printable(redact_credentials(err), lines=True), file=sys.stderr)
            return 1
        try:
            pushed = Branch.find(settings.repo, settings.branch)
        except (NoGit, GitTimeout, BranchError):
            pushed = None
        _say(f"pushed {settings.branch} ({pushed.tip[:12] if pushed else '?'}) to "
             f"{redact_credentials(settings.remote)}")
    return 0


def _say(text: str, *, error: bool = False) -> None:
    """One line for the user (stderr if ``error``): what it quotes of the branch, the
    config or git (a version's name, a URL) with every control character as ``\\xNN``."""
    print(printable(text), file=sys.stderr if error else sys.stdout)


def _settings(args: argparse.Namespace) -> _Settings:
    """Options from the command line, else from the config file (mike's and ours), read
    as data as ``build`` reads it: nothing the file names is imported."""
    _no_nul(args.message or "", "--message")
    site = _site(args.config_file)
    config_file = Path(site.mkdocs.config_file_path)
    mike = _mike_options(site.plugin_options.get(_MIKE))
    repo = _repository(config_file)
    root = _root(args.site_url or site.mkdocs.site_url, config_file)
    prefix = _deploy_prefix(args, mike)  # checked before the branch and the remote
    return _Settings(
        repo=repo,
        branch=_branch(args.branch or mike.get("remote_branch") or "gh-pages",
                       "--branch" if args.branch else f"Plugin '{_MIKE}' option 'remote_branch'",
                       repo),
        remote=_remote(args.remote or mike.get("remote_name") or "origin",
                       "--remote" if args.remote else f"Plugin '{_MIKE}' option 'remote_name'"),
        prefix=prefix,
        root=root,
        filename=site.options.filename,
        canonical=mike.get("canonical_version") or None,
        config_file=config_file,
    )


def _site(config_file: str | None) -> SiteConfig:
    """The config file read as data (``CannotRun`` if it cannot be), its warnings said
    on stderr."""
    try:
        site = load_site_config(config_file)
    except ConfigError as error:
        raise CannotRun(str(error)) from None
    for warning in site.warnings:
        _say(f"mkdocs-sitemap-pro versions: warning: {warning}", error=True)
    return site


def _repository(config_file: Path) -> Path:
    """The top folder of the git repository holding the config file; ``CannotRun`` if
    there is none, or git's answer is not a folder."""
    status, out, err = run_git(["rev-parse", "--show-toplevel"], config_file.parent)
    if status != 0:
        raise CannotRun(f"{config_file} is not in a git repository: {err}")
    top = out.decode("utf-8", "surrogateescape").strip()
    if not (os.path.isabs(top) and os.path.isdir(top)):
        raise CannotRun(f"the `git` program on PATH answered `git rev-parse --show-toplevel` "
                        f"with {garbled(out)}, which is not a folder; see what "
                        "`git --version` prints, and put git first on PATH")
    return Path(top)


def _root(site_url: str | None, config_file: Path) -> SiteUrl:
    """The site's root URL (``--site-url``, else the config's site_url); ``CannotRun``
    if there is none or it cannot be one."""
    if not site_url:
        raise CannotRun(f"site_url is not set; set it in {config_file.name} or pass --site-url")
    try:
        return root_url(site_url, None)
    except ValueError as error:
        raise CannotRun(f"site URL {error}") from None


def _deploy_prefix(args: argparse.Namespace, mike: Mapping[str, str]) -> str:
    """The folder of the branch mike deploys into (``--deploy-prefix``, else mike's
    ``deploy_prefix``), without its slashes; ``CannotRun`` if it holds a NUL byte."""
    prefix = args.deploy_prefix if args.deploy_prefix is not None else mike.get("deploy_prefix")
    _no_nul(prefix or "", "--deploy-prefix" if args.deploy_prefix is not None
            else f"Plugin '{_MIKE}' option 'deploy_prefix'")
    return (prefix or "").strip("/")

def _remote(remote: str, option: str) -> str:
    """``remote``, which git must read as a remote (its name, a URL or a path), never as
    one of its options; ``CannotRun`` naming ``option`` otherwise."""
    _no_nul(remote, option)
    if remote.startswith("-"):
        raise CannotRun(f"{option} {remote!r}: a remote cannot start with '-', which git "
                        "would read as one of its options; give the remote's name or URL")
    return remote


def _branch(branch: str, option: str, repo: Path) -> str:
    """``branch``, a name git accepts for a branch (so ``refs/heads/<branch>`` is one ref,
    never a refspec or a revision); ``CannotRun`` naming ``option`` otherwise."""
    _no_nul(branch, option)
    status, _, _ = run_git(["check-ref-format", f"refs/heads/{branch}"], repo)
    if status != 0 or branch.startswith("-"):
        raise CannotRun(f"{option} {branch!r} is not a branch name git accepts")
    return branch


def _no_nul(value: str, option: str) -> None:
    """``CannotRun`` naming ``option`` for a value holding a NUL byte, which no argument
    of a command (git's) can hold."""
    if "\0" in value:
        raise CannotRun(f"{option} '{named(value)}' holds a NUL byte, which no argument of "
                        "git can hold")


def _mike_options(entry: object) -> dict[str, str]:
    """mike's settings this command uses, from its plugin entry as written (mike is not
    loaded); ``CannotRun`` naming the option for one that is not a string."""
    if entry is None:
        return {}
    if not isinstance(entry, Mapping):
        raise CannotRun(f"Plugin '{_MIKE}': its options must be a mapping")
    out = {}
    for key in _MIKE_OPTIONS:
        value = entry.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise CannotRun(f"Plugin '{_MIKE}' option '{key}': must be a string, not "
                            f"{type(value).__name__}")
        out[key] = value
    return out


def _path(settings: _Settings, *parts: str) -> str:
    return "/".join(p for p in (settings.prefix, *parts) if p)


def _listed_versions(branch: Branch, settings: _Settings) -> tuple[list[str], list[Version]]:
    """The version folders the index lists (every version, or the canonical one), and
    every version of versions.json."""
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
    return names, versions


def _canonical(canonical: str, versions: list[Version]) -> list[str]:
    """canonical_version as the one folder to list (an alias is listed by its own path)."""
    for version in versions:
        if canonical == version.name or canonical in version.aliases:
            return [canonical]
    raise CannotRun(f"canonical_version {canonical!r} is neither a version nor an alias "
                    "in versions.json")


def _reader(branch: Branch, files: dict[str, bytes]) -> Callable[[str], bytes | None]:
    """A file of the branch as it will be once ``files`` are committed."""
    return lambda path: files[path] if path in files else branch.read(path)


def _version_sitemaps(read: Callable[[str], bytes | None], settings: _Settings,
                      name: str) -> list[Listed] | str:
    """What the root index lists for one version: its sitemap (or, when that is an
    index, the files it lists), each dated by the newest lastmod inside; or why none."""
    path = _path(settings, name, settings.filename)
    data = read(path)
    if data is None:
        return f"{path} is not on {settings.branch} (deployed before sitemap-pro was used?)"
    folder = settings.root.join(name) + "/"
    try:
        sitemap = parse_sitemap(data)
    except SitemapReadError as error:
        return f"{path} is not a sitemap ({error})"
    if not sitemap.is_index:
        return listed_urlset(path, sitemap, folder) if sitemap.entries else f"{path} lists no URL"
    out: list[Listed] = []
    for entry in sitemap.entries:
        if not entry.loc.startswith(folder):
            return f"{path} lists {entry.loc}, outside {folder} where version {name} is served"
        child = _path(settings, name, entry.loc[len(folder):])
        child_data = read(child)
        if child_data is None:
            return f"{path} lists {entry.loc}, which is not on {settings.branch}"
        try:
            found = listed_urlset(child, parse_sitemap(child_data), folder)
        except SitemapReadError as error:
            return f"{child} is not a sitemap ({error})"
        if isinstance(found, str):
            return found
        out += found
    return out or f"{path} lists no sitemap"


def _root_files(branch: Branch, settings: _Settings, sitemaps: list[Listed]) -> dict[str, bytes]:
    """The root index (``.gz`` twin and page for people too) and robots.txt (its other
    lines kept, the Sitemap: line once)."""
    prefix = f"{settings.prefix}/" if settings.prefix else ""
    below = [s._replace(path=s.path[len(prefix):]) for s in sitemaps]  # paths from the root
    index = version_index(settings.root, below)
    name = _path(settings, settings.filename)
    files = {name: index, name + ".gz": gzip_bytes(index)}
    page = _path(settings, view_name(settings.filename))
    old_page = branch.read(page)
    if old_page is None or is_ours_text(old_page):  # never over the site's own page
        views = [ViewFile((), s.path, s.url_count, s.newest) for s in below]
        files[page] = index_page(views, "Versions", settings.filename).encode("utf-8")
    robots_path = _path(settings, "robots.txt")
    old = branch.read(robots_path)
    text = old.decode("utf-8", errors="surrogateescape") if old is not None else ""
    updated = with_sitemap_line(text, settings.root.join(settings.filename))
    if updated is not None:
        files[robots_path] = updated.encode("utf-8", errors="surrogateescape")
    return files


_NAME = "mkdocs-sitemap-pro versions"  # what each line of the command starts with


def add_options(sub: Any) -> None:
    """Add ``--rebuild`` and ``--rebuild-all-stale`` to the ``versions`` subcommand."""
    sub.add_argument(
        "--rebuild", nargs="+", default=[], metavar="VERSION",
        help="write the sitemap of these versions from their built pages on the branch, "
             "dated by the commit each was deployed from, and commit it with the index",
    )
    sub.add_argument(
        "--rebuild-all-stale", action="store_true",
        help="rebuild every version whose sitemap is missing, empty, invalid or lists "
             "URLs outside its folder (instead of leaving it out)",
    )


def asked_versions(asked: list[str], versions: list[Version], branch: str) -> list[str]:
    """The versions named by ``--rebuild``, each once; ``RebuildFailed`` for a name that
    versions.json does not list as a version."""
    names = [version.name for version in versions]
    for name in asked:
        if name in names:
            continue
        real = [v.name for v in versions if name in v.aliases]
        if real:
            raise RebuildFailed(f"--rebuild {name}: {name} is an alias of version {real[0]}; "
                                f"rebuild {real[0]}")
        raise RebuildFailed(f"--rebuild {name}: versions.json on {branch} lists no version "
                            f"{name} (its versions: {', '.join(names)})")
    return list(dict.fromkeys(asked))


def rebuild(branch: Branch, folder: str, version: str, url: str, config_file: Path,
            filename: str, explained: set[str] | None = None) -> dict[str, bytes]:
    """The rebuilt sitemap files of one version, by their path on the branch. ``explained``:
    what this run said already (a fallback config is explained once)."""
    config_file = config_file.resolve()
    try:
        config = config_file.relative_to(branch.repo).as_posix()
    except ValueError:
        raise RebuildFailed(f"{config_file} is not inside the repository {branch.repo}") from None
    print(printable(f"{_NAME}: rebuilding the sitemap of version {version} from "
                    f"{branch.name}:{folder}/"), file=sys.stderr)
    with console_log():
        rebuilt = rebuild_version(Target(branch, folder, version, url, config, config_file,
                                        filename))
    how = f"dated by commit {rebuilt.dated_by[:12]}" if rebuilt.dated_by else "undated"
    if rebuilt.config is not None and rebuilt.config != config:
        how += f" with its {rebuilt.config}"
        if explained is not None and config not in explained:
            explained.add(config)
            print(printable(f"{_NAME}: {config} is not in every commit the versions were "
                            f"deployed from: "
                            f"a commit without it is rebuilt with its own "
                            f"{' or '.join(FALLBACK_CONFIGS)} (the version's line says which)"),
                  file=sys.stderr)
    print(printable(f"{_NAME}: rebuilt the sitemap of version {version} ({how}): "
                    f"{', '.join(rebuilt.files) or 'nothing written'}"), file=sys.stderr)
    return {f"{folder}/{path}": data for path, data in rebuilt.files.items()}
