"""IndexNow: telling search engines which URLs changed, by one POST per batch.

What the protocol asks (indexnow.org): a key of 8 to 128 characters of ``a-zA-Z0-9-``,
served in a text file holding only the key; a JSON body ``{"host", "key",
"keyLocation", "urlList"}`` of at most 10,000 URLs, all of ``host``; a key file under a
folder covers only the URLs under that folder. Nothing here knows MkDocs: the site is a
folder and the URL it is published at, the URLs come from ``changes``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

from mkdocs_sitemap_pro.core.regular import read_regular
from mkdocs_sitemap_pro.core.deploy.indexnow_key import check_indexnow_key
from mkdocs_sitemap_pro.core.urls import redact_credentials
from mkdocs_sitemap_pro.core.web import Timeout, WebError, check_url, exchange

__all__ = [
    "DEFAULT_ENDPOINT",
    "MAX_URLS_PER_REQUEST",
    "IndexNowError",
    "KeyFile",
    "Request",
    "SendError",
    "batches",
    "check_key",
    "explain",
    "find_key_file",
    "plan",
    "post",
    "uncovered",
]

#: URLs in one IndexNow request (the protocol's limit).
MAX_URLS_PER_REQUEST = 10_000
DEFAULT_ENDPOINT = "https://api.indexnow.org/indexnow"
#: The statuses that mean the URLs were received (202: the key is still to be checked).
ACCEPTED = frozenset({200, 202})
_KEY_FILE_MAX_BYTES = 1024  # a key is at most 128 characters; room for white space
_USER_AGENT = "mkdocs-sitemap-pro-indexnow"


class IndexNowError(Exception):
    """Nothing can be sent: no usable key, or a key file that does not cover the URLs."""


class SendError(Exception):
    """A request got no answer (a timeout, a refused connection): the message says why."""


class KeyFile(NamedTuple):
    """The key, its file in the site folder, and the URL it is served at (keyLocation)."""

    key: str
    path: Path
    url: str


class Request(NamedTuple):
    """One POST: the endpoint, the host its URLs are of, and the JSON body."""

    endpoint: str
    host: str
    body: dict[str, object]

    def data(self) -> bytes:
        """The body as sent: UTF-8 JSON."""
        return json.dumps(self.body, ensure_ascii=False).encode("utf-8")


def check_key(value: str) -> str:
    """Return ``value`` if it is an IndexNow key (``core.deploy.indexnow_key``'s rule)."""
    try:
        return check_indexnow_key(value)
    except ValueError as error:
        raise IndexNowError(f"not an IndexNow key: {error}") from None


def _is_key(value: str) -> bool:
    try:
        check_indexnow_key(value)
    except ValueError:
        return False
    return True


def _held(path: Path) -> str | None:
    """The text a key file holds (white space around it dropped), None if unreadable or
    no regular file (a FIFO named as the key file would block ``open`` forever)."""
    try:
        data = read_regular(path, _KEY_FILE_MAX_BYTES)
    except OSError:  # NotRegular too
        return None
    if data is None or len(data) > _KEY_FILE_MAX_BYTES:
        return None
    return data.decode("utf-8", "replace").strip()


def find_key_file(site_dir: Path, site_url: str, key: str | None = None,
                  key_file: Path | None = None) -> KeyFile:
    """The key file the engines will read, checked: ``key_file`` (inside ``site_dir``,
    holding the key), else ``<key>.txt`` at the root, else the one root ``*.txt`` that
    holds its own name. ``IndexNowError`` says what is missing."""
    root = site_dir.resolve()
    if key is not None:
        check_key(key)
    if key_file is None and key is not None:
        key_file = site_dir / f"{key}.txt"
    if key_file is None:
        found = [p for p in sorted(root.glob("*.txt"))
                 if p.is_file() and _is_key(p.stem) and _held(p) == p.stem]
        if not found:
            raise IndexNowError(f"no key file in {site_dir}: pass --key KEY (with KEY.txt "
                                "holding KEY in the site) or --key-file PATH")
        if len(found) > 1:
            names = ", ".join(p.name for p in found)
            raise IndexNowError(f"more than one key file in {site_dir} ({names}): pass --key")
        key_file = found[0]
    path = key_file.resolve()
    if not path.is_relative_to(root):
        raise IndexNowError(f"the key file {key_file} is not in the site folder {site_dir}: "
                            "the engines can only read what is deployed")
    if path.exists() and not path.is_file() and not path.is_dir():  # a FIFO, a device
        raise IndexNowError(f"{key_file} is not a regular file: the key file must be one, "
                            "deployed with the site, holding the key")
    held = _held(path)
    if held is None or not path.is_file():
        raise IndexNowError(f"there is no key file at {key_file} (it must be deployed "
                            "with the site, holding the key)")
    if key is not None and held != key:
        raise IndexNowError(f"{key_file} does not hold the key {key!r}: the engines "
                            "would refuse it (403)")
    check_key(held)
    return KeyFile(held, path, site_url + path.relative_to(root).as_posix())


def uncovered(urls: Iterable[str], key: KeyFile) -> list[str]:
    """The URLs a key file does not cover: another host or scheme, or outside its folder."""
    where = urlsplit(key.url.rsplit("/", 1)[0] + "/")
    scheme, host, path = where.scheme.lower(), where.netloc.lower(), where.path
    out = []
    for url in urls:
        parts = urlsplit(url)
        if (parts.scheme.lower(), parts.netloc.lower()) != (scheme, host) \
                or not (parts.path or "/").startswith(path):
            out.append(url)
    return out


def batches(urls: Iterable[str], limit: int = MAX_URLS_PER_REQUEST
            ) -> list[tuple[str, list[str]]]:
    """``urls`` grouped by host (in order of first appearance), cut into runs of at most
    ``limit``: one request each."""
    if limit < 1:
        raise ValueError(f"a batch holds at least one URL, not {limit}")
    by_host: dict[str, list[str]] = {}
    for url in dict.fromkeys(urls):
        by_host.setdefault(urlsplit(url).hostname or "", []).append(url)
    return [(host, listed[at:at + limit]) for host, listed in by_host.items()
            for at in range(0, len(listed), limit)]


def plan(urls: Sequence[str], key: KeyFile, endpoint: str = DEFAULT_ENDPOINT,
         limit: int = MAX_URLS_PER_REQUEST) -> list[Request]:
    """The requests that submit ``urls`` with ``key``."""
    try:
        check_url(endpoint)
    except ValueError as error:
        raise IndexNowError(f"the endpoint {redact_credentials(endpoint)!r} cannot be used: "
                            f"{error}") from None
    return [Request(endpoint, host, {"host": host, "key": key.key, "keyLocation": key.url,
                                     "urlList": listed})
            for host, listed in batches(urls, limit)]


def post(request: Request, timeout: float) -> int:
    """Send one request, the whole exchange within ``timeout`` seconds; its HTTP status
    (redirects are not followed: a POST is not resent elsewhere). The endpoint's user
    information is sent as Basic authentication. ``SendError`` when there is no answer."""
    headers = {"Content-Type": "application/json; charset=utf-8", "User-Agent": _USER_AGENT}
    shown = redact_credentials(request.endpoint)
    try:
        answer = exchange(request.endpoint, timeout, 64 * 1024, data=request.data(),
                          headers=headers, follow=False)
    except Timeout:
        raise SendError(f"no answer from {shown} within {timeout:g} seconds") from None
    except WebError as error:
        raise SendError(f"cannot reach {shown}: {error}") from None
    return answer.status


def explain(status: int, request: Request) -> str:
    """What a status means for this request, and what to do about it."""
    host, where = request.host, str(request.body["keyLocation"])
    if status == 200:
        return "200 OK: received"
    if status == 202:
        return "202 Accepted: received; the endpoint will check the key"
    if status == 400:
        return ("400 Bad Request: the endpoint found the request malformed; "
                "see it with --dry-run and report it as a bug of mkdocs-sitemap-pro")
    if status == 403:
        return (f"403 Forbidden: the key is not valid for {host}: {where} must be "
                "deployed and serve exactly the key (deploy first, then submit)")
    if status == 422:
        return (f"422 Unprocessable Entity: URLs that are not of {host} or not under "
                f"{where.rsplit('/', 1)[0]}/, or a key the protocol refuses: "
                "check site_url and the key")
    if status == 429:
        return ("429 Too Many Requests: the endpoint takes this for spam; retry later, "
                "and submit only URLs that changed")
    return f"HTTP {status}: not an answer of the IndexNow protocol; retry later"
