"""The plugin's options, typed and validated before the build starts.

Every option of the spec's table lives here. A value that cannot work fails MkDocs'
configuration check, which names the option (``Plugin 'sitemap-pro' option 'max_urls'``),
so a bad setting stops the build before any page is rendered.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Optional, TypeVar

import pathspec
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.core import protocol
from mkdocs_sitemap_pro.core.git import is_commit_id
from mkdocs_sitemap_pro.core.git.process import DEFAULT_TIMEOUT
from mkdocs_sitemap_pro.core.deploy.indexnow_key import check_indexnow_key
from mkdocs_sitemap_pro.core.protocol import (
    MAX_BYTES,
    MAX_URLS,
    MIN_BYTES,
    check_filename,
    check_limit,
)
from mkdocs_sitemap_pro.core.writer.feed import FEED_MAX_SIZE
from mkdocs_sitemap_pro.core.words import named

T = TypeVar("T")


def _checked(check: Callable[[], T]) -> T:
    """Run one of the core's checks; its ``ValueError`` becomes MkDocs' ``ValidationError``."""
    try:
        return check()
    except ValueError as error:
        raise base.ValidationError(str(error)) from None


class _BoundedInt(base.BaseConfigOption[int]):
    """A whole number within ``[low, high]`` (``True``/``False`` are not numbers here)."""

    def __init__(self, low: int, high: int, default: int) -> None:
        super().__init__()
        self.default = default
        self.low, self.high = low, high

    def run_validation(self, value: object) -> int:
        return _checked(lambda: check_limit(value, self.low, self.high))


Depth = Literal["lines", "files", False]


class _Dependencies(base.BaseConfigOption[Depth]):
    """What dates a page besides its source: ``lines`` (of a file shown in part, only
    the lines shown), ``files`` (whole files), ``false`` (nothing); ``true`` is ``lines``."""

    def __init__(self) -> None:
        super().__init__()
        self.default = "lines"

    def run_validation(self, value: object) -> Depth:
        if value is True or value == "lines":
            return "lines"
        if value == "files":
            return "files"
        if value is False:
            return False
        raise base.ValidationError(
            f"expected 'lines', 'files' or false (true means 'lines'), not {value!r}")


class _Filename(base.BaseConfigOption[str]):
    """A bare ``*.xml`` file name in the root of site_dir (robots.txt points to it)."""

    def __init__(self) -> None:
        super().__init__()
        self.default = "sitemap.xml"

    def run_validation(self, value: object) -> str:
        return _checked(lambda: check_filename(value))


class _ProtocolValue(base.BaseConfigOption[Optional[T]]):
    """An optional value checked by one of the core's rules (changefreq, priority, the
    IndexNow key)."""

    def __init__(self, check: Callable[[object], T]) -> None:
        super().__init__()
        self.default = None
        self._check = check

    def run_validation(self, value: object) -> T | None:
        if value is None:
            return None
        return _checked(lambda: self._check(value))


class _IgnoreCommits(base.BaseConfigOption["list[str] | str"]):
    """A list of commit SHAs, or the path of a ``.git-blame-ignore-revs`` style file.

    The path is resolved against the folder of mkdocs.yml and must exist: a missing file
    would silently date pages by the commits the user meant to ignore. It must lie in
    the repository (after links): the file is read, and its lines may be reported.
    """

    def __init__(self) -> None:
        super().__init__()
        self.default = []

    def run_validation(self, value: object) -> list[str] | str:
        if isinstance(value, str):
            folder = config_folder(self.config_file_path)
            path = os.path.normpath(os.path.join(folder, value))
            if not os.path.isfile(path):
                raise base.ValidationError(f"the file {value!r} does not exist (looked for {path})")
            top = _repository_top(folder)
            real = os.path.realpath(path)
            if top is None or not real.startswith(os.path.join(top, "")):
                raise base.ValidationError(
                    f"the file {value!r} ({real}) must be inside the repository"
                    + (f" ({top})" if top else ", and the project is in none"))
            return path
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            for sha in value:
                if not is_commit_id(sha):
                    raise base.ValidationError(
                        f"{sha!r} is not a commit SHA (7 to 64 hexadecimal digits)"
                    )
            return [v.lower() for v in value]
        raise base.ValidationError(
            "expected a list of commit SHAs or the path of a .git-blame-ignore-revs file"
        )

    def pre_validation(self, config: base.Config, key_name: str) -> None:
        self.config_file_path = config.config_file_path


def _repository_top(folder: str) -> str | None:
    """The top level of the git repository ``folder`` lies in (the nearest folder up
    holding ``.git``, after links), or None: no git process for a configuration check."""
    current = os.path.realpath(folder)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


class _Exclude(base.BaseConfigOption[pathspec.gitignore.GitIgnoreSpec]):
    """Patterns in ``exclude_docs`` syntax (gitignore style): a list or a multi-line string."""

    def __init__(self) -> None:
        super().__init__()
        self.default = []

    def run_validation(self, value: object) -> pathspec.gitignore.GitIgnoreSpec:
        if isinstance(value, str):
            lines = value.splitlines()
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            lines = value
        else:
            raise base.ValidationError("expected a list of patterns (gitignore syntax)")
        try:
            return pathspec.gitignore.GitIgnoreSpec.from_lines(lines)
        except ValueError as error:
            raise base.ValidationError(str(error)) from None


class _Previous(base.BaseConfigOption[Optional[str]]):
    """The last published manifest: ``auto``, an ``http(s)`` URL, or a path (a file, or
    the folder holding it), resolved against the folder of mkdocs.yml. A missing file is
    no error here: on a first deploy there is none (the build says so, and goes on)."""

    def __init__(self) -> None:
        super().__init__()
        self.default = None

    def run_validation(self, value: object) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise base.ValidationError(
                "expected 'auto', an http(s) URL or the path of the last published manifest"
            )
        value = value.strip()
        if value == "auto":
            return value
        scheme = value.split(":", 1)[0].lower() if "://" in value else ""
        if scheme in ("http", "https"):
            return value
        if scheme:
            raise base.ValidationError(f"{value!r}: only http and https URLs can be read")
        return os.path.normpath(os.path.join(config_folder(self.config_file_path), value))

    def pre_validation(self, config: base.Config, key_name: str) -> None:
        self.config_file_path = config.config_file_path


# The ignore: MkDocs' Config.__init_subclass__, run for a subclass, is untyped.
class SitemapProConfig(base.Config):  # type: ignore[no-untyped-call]
    """The options of ``sitemap-pro`` in mkdocs.yml (see the docs site's Options page)."""

    enabled = c.Type(bool, default=True)
    filename = _Filename()
    max_urls = _BoundedInt(1, MAX_URLS, MAX_URLS)
    max_bytes = _BoundedInt(MIN_BYTES, MAX_BYTES, MAX_BYTES)
    index = c.Choice[Literal["auto", "always"]](("auto", "always"), default="auto")
    gzip = c.Type(bool, default=True)
    lastmod = c.Choice[Literal["git", "mtime", "none"]](("git", "mtime", "none"), default="git")
    lastmod_fallback = c.Choice[Literal["omit", "mtime", "build_time"]](
        ("omit", "mtime", "build_time"), default="omit"
    )
    lastmod_format = c.Choice[Literal["datetime", "date"]](("datetime", "date"), default="datetime")
    git_date = c.Choice[Literal["committer", "author"]](("committer", "author"), default="committer")
    git_history = c.Choice[Literal["first-parent", "all"]](
        ("first-parent", "all"), default="first-parent"
    )
    ignore_commits = _IgnoreCommits()
    changefreq = _ProtocolValue(protocol.check_changefreq)
    priority = _ProtocolValue(protocol.check_priority)
    exclude = _Exclude()
    dependencies = _Dependencies()
    dependencies_exclude = _Exclude()  # gitignore patterns, relative to the repository's top
    robots_txt = c.Optional(c.Type(bool))  # unset: true, except in a version folder (mike)
    html_view = c.Type(bool, default=True)
    images = c.Type(bool, default=False)  # image:image entries: the images a page's content shows
    show_date = c.Type(bool, default=False)  # the page's "last update" is the sitemap's
    meta_modified_time = c.Type(bool, default=False)  # article:modified_time in the head
    cache = c.Type(bool, default=True)  # keep the history map and dependency records
    cache_dir = c.Type(str, default=".cache/plugin/sitemap-pro")  # relative to mkdocs.yml
    git_timeout = _BoundedInt(1, 86_400, DEFAULT_TIMEOUT)  # seconds git may take, then the fallback
    # A shallow clone with a remote is deepened (blobless) before the walk.
    fetch_history = c.Choice[Literal["never", "auto"]](("never", "auto"), default="never")
    manifest = c.Type(bool, default=True)  # <stem>.manifest.json beside the entry sitemap
    previous = _Previous()  # the last deploy's manifest: dates for a shallow clone
    indexnow_key = _ProtocolValue(check_indexnow_key)  # writes <key>.txt at site_dir's root
    feed = c.Type(bool, default=False)  # <stem>.atom: the most recently updated pages
    feed_size = _BoundedInt(1, FEED_MAX_SIZE, 20)  # entries in that feed
    # The option is `validate`; the trailing underscore (MkDocs strips it) keeps
    # Config.validate(), the method MkDocs calls, from being shadowed.
    validate_ = c.Type(bool, default=False)

    def _validate(self) -> tuple[base.ConfigErrors, base.ConfigWarnings]:
        # MkDocs says "Unrecognised configuration name" of a typo: say which one was meant.
        failed, warnings = super()._validate()
        return failed, [(key, _did_you_mean(key, message)) for key, message in warnings]


def _did_you_mean(key: str, message: str) -> str:
    """``message`` about option ``key``, with the nearest real option if it is a typo."""
    if not message.startswith("Unrecognised configuration name"):
        return message
    import difflib

    close = difflib.get_close_matches(key, [name for name, _ in SitemapProConfig._schema], n=1)
    return f"{message}; did you mean '{close[0]}'?" if close else message


def cache_file(config: MkDocsConfig, options: SitemapProConfig, name: str) -> Path | None:
    """A file in ``cache_dir`` (relative to mkdocs.yml), or None with ``cache: false``."""
    if not options.cache:
        return None
    return project_folder(config) / options.cache_dir / name


def check_cache_dir(config: MkDocsConfig, options: SitemapProConfig) -> None:
    """A ``PluginError`` naming ``cache_dir`` if it lies in docs_dir or site_dir: its
    files (which hold the repository's local path) would be published; or if it is
    empty (the project's own folder)."""
    if not options.cache:
        return
    if not options.cache_dir.strip():
        raise PluginError(
            "sitemap-pro: cache_dir is empty: give it a folder for the cache (relative to "
            "mkdocs.yml; the default is .cache/plugin/sitemap-pro), or set cache: false")
    if "\0" in options.cache_dir:  # no folder can be named so (the OS refuses it)
        raise PluginError(
            f"sitemap-pro: cache_dir '{named(options.cache_dir)}' holds a NUL byte, which "
            "no folder's name can; give it a folder for the cache, or set cache: false")
    cache = os.path.realpath(project_folder(config) / options.cache_dir)
    for name, folder in (("docs_dir", config.docs_dir), ("site_dir", config.site_dir)):
        if not folder:
            continue
        folder = os.path.realpath(folder)
        if cache == folder or cache.startswith(os.path.join(folder, "")):
            raise PluginError(
                f"sitemap-pro: cache_dir {options.cache_dir!r} lies in {name} ({folder}), "
                "so its files would be published with the site; give cache_dir a folder "
                "outside both (the default is .cache/plugin/sitemap-pro)")


def project_folder(config: MkDocsConfig) -> Path:
    """The folder of mkdocs.yml, which relative paths of the plugin's files start from."""
    return Path(config_folder(config.config_file_path))


def config_folder(config_file_path: str | None) -> str:
    """The absolute folder of a config file, however ``-f`` named it (``mkdocs.yml``,
    ``./mkdocs.yml``, ``sub/mkdocs.yml``, absolute): MkDocs keeps the name as given, and
    a path made from a relative one would not be the same string as the files read."""
    return os.path.abspath(os.path.dirname(config_file_path or ""))
