"""Where the checker reads files from: a local site folder, or the web over HTTP(S).

Both are addressed by URL, so the rules never care which one they read: a local folder
maps the URLs under its site URL onto its files. Over HTTP(S) (``core.web``) every file
is read whole within one deadline and up to a size cap, on the host asked (a redirect to
another host is refused), and a URL that cannot be fetched is a ``FetchError``.

A local site folder is read through ``inside``: nothing outside it.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Protocol
from urllib.parse import unquote, urlsplit

from mkdocs_sitemap_pro.core.regular import NotRegular, read_regular
from mkdocs_sitemap_pro.core.urls import SiteUrl
from mkdocs_sitemap_pro.core.web import Timeout, WebError, exchange

__all__ = [
    "FetchError", "HttpSource", "LocalSource", "OutsideFolder", "Source", "NotRegular",
    "Outside", "inside", "read_regular",
]


class Outside(ValueError):
    """A path that leads outside the folder (absolute, ``..``, or through a symlink)."""


#: Resolved folders remembered by ``inside`` (then forgotten, all at once).
_FOLDERS_KEPT = 4_096
#: Deeper paths are resolved by ``os.path.realpath`` alone.
_DEEPEST_REMEMBERED = 64


def inside(root: Path, rel: str, folders: dict[str, str] | None = None) -> Path:
    """``root/rel`` with every symlink resolved; ``Outside`` unless it stays in ``root``
    (itself resolved). ``rel`` is a relative POSIX path; an absolute one, a ``..``
    segment or a NUL byte is refused without touching the file system. ``folders``
    remembers the folders resolved on the way, for the next call (``check`` asks once
    per listed URL, half a million times in a hostile sitemap)."""
    if rel.startswith("/") or "\x00" in rel or ".." in rel.split("/"):
        raise Outside(f"{rel} leads outside the folder")
    top = str(root)
    if folders is None or rel.count("/") > _DEEPEST_REMEMBERED:
        real = os.path.realpath(os.path.join(top, rel))
    else:
        real = _resolved(top, rel, folders)
    # A string test: ``root in Path(real).parents`` builds every parent.
    if real != top and not real.startswith(top if top.endswith(os.sep) else top + os.sep):
        raise Outside(f"{rel} leads outside the folder (through a symbolic link)")
    return Path(real)


def _resolved(top: str, rel: str, folders: dict[str, str]) -> str:
    """``os.path.realpath(top/rel)`` for a resolved ``top``, one ``lstat`` per name not
    under a folder in ``folders`` (which learns the folders on the way)."""
    names = rel.split("/")
    known = len(names) - 1  # names[:known] is the folder that holds the last name
    while known > 0 and "/".join(names[:known]) not in folders:
        known -= 1
    real = folders["/".join(names[:known])] if known else top
    for position in range(known, len(names)):
        name = names[position]
        if name not in ("", "."):
            path = os.path.join(real, name)
            try:
                linked = stat.S_ISLNK(os.lstat(path).st_mode)
            except (OSError, ValueError):
                linked = False  # as ``realpath`` does: the rest is taken as written
            real = os.path.realpath(path) if linked else path
        if position < len(names) - 1:
            if len(folders) >= _FOLDERS_KEPT:
                folders.clear()
            folders["/".join(names[: position + 1])] = real
    return real

_USER_AGENT = "mkdocs-sitemap-pro-check"
#: A URL path that ``urlsplit`` and ``unquote`` would give back as it is.
_PLAIN_PATH = re.compile(r"[^:?#%\x00-\x20\x7f]*")


class FetchError(Exception):
    """A file exists (or may) but could not be read: the message says why."""


class TooLarge(FetchError):
    """A response or file is larger than the cap; ``limit`` is the cap in bytes."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"larger than {limit:,} bytes; not read further")
        self.limit = limit


class Source(Protocol):
    """Reads the file at a URL: its bytes, ``None`` if there is none (404), or ``FetchError``."""

    def read(self, url: str, limit: int) -> bytes | None: ...

    def display(self, url: str) -> str: ...


class OutsideFolder(FetchError):
    """A URL under the site URL whose file would lie outside the folder: never read."""


class LocalSource:
    """The files of a built site in ``folder``, published at ``site``; nothing outside
    ``folder`` (after symlinks) is ever read."""

    def __init__(self, folder: Path, site: SiteUrl) -> None:
        self.folder = folder
        self.root = Path(os.path.realpath(folder))
        self.site = site
        self.folders: dict[str, str] = {}  # resolved folders, for ``inside``

    def _rel(self, url: str) -> str | None:
        """The relative path a URL under the site URL names, unescaped, or None."""
        if not url.startswith(self.site.url):
            return None
        rest = url[len(self.site.url):]
        if _PLAIN_PATH.fullmatch(rest) and not rest.startswith("//"):
            rel = rest  # a plain path, the usual case: as ``urlsplit`` would give it
        else:
            parts = urlsplit(rest)
            if parts.scheme or parts.netloc:
                return None
            rel = unquote(parts.path)
        if rel == "" or rel.endswith("/"):
            rel += "index.html"
        return rel

    def path_of(self, url: str) -> Path | None:
        """The file a URL under the site URL names (``…/`` is ``…/index.html``), symlinks
        resolved; None if not under the site URL; ``Outside`` if outside the folder."""
        rel = self._rel(url)
        return None if rel is None else inside(self.root, rel, self.folders)

    def read(self, url: str, limit: int) -> bytes | None:
        try:
            path = self.path_of(url)
        except Outside:
            raise OutsideFolder(f"leads outside the folder {self.folder}; not read") from None
        if path is None:
            raise FetchError(f"not under {self.site.url}, so not in the folder {self.folder}")
        try:
            data = read_regular(path, limit)
        except NotRegular:
            raise FetchError(f"{path} is not a regular file; not read") from None
        except OSError as error:
            raise FetchError(f"cannot read {path}: {error.strerror or error}") from None
        if data is not None and len(data) > limit:
            raise TooLarge(limit)
        return data

    def display(self, url: str) -> str:
        rel = self._rel(url)
        if rel is None or rel.startswith("/") or "\x00" in rel or ".." in rel.split("/"):
            return url
        return rel


class HttpSource:
    """Files on the web, each fetched whole within ``timeout`` seconds (``core.web``). A
    host that let one fetch run out of time is not asked again: a server sending a byte
    a second would otherwise hold every file of the tree for the whole deadline."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._stalled: dict[str, str] = {}  # host -> the fetch that ran out of time

    def read(self, url: str, limit: int) -> bytes | None:
        host = (urlsplit(url).hostname or "").lower()
        if host in self._stalled:
            raise FetchError(f"not fetched: {self._stalled[host]}")
        try:
            answer = exchange(url, self.timeout, limit,
                              headers={"User-Agent": _USER_AGENT})
        except Timeout as error:
            self._stalled[host] = f"{host} gave {url} {error}"
            raise FetchError(f"cannot fetch: {error}") from None
        except (WebError, ValueError) as error:
            raise FetchError(f"cannot fetch: {error}") from None
        if answer.status in (404, 410):
            return None
        if not 200 <= answer.status < 300:
            raise FetchError(f"HTTP {answer.status} {answer.reason}")
        if len(answer.body) > limit:
            raise TooLarge(limit)
        return answer.body

    def display(self, url: str) -> str:
        return url
