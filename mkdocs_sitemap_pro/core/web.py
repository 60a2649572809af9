"""The one place that speaks HTTP(S): every fetch (``check``, ``changes``, ``indexnow
--since``, the plugin's ``previous``) and every IndexNow post goes through ``exchange``.

Why one place: every exchange must end within one deadline, whatever the server does
(a server sending a byte a second kept a per-read timeout waiting for ever); a URL read
from a server (a ``<loc>``, a ``Sitemap:`` line) must be refused with a reason, never
raise; a redirect to another host is refused (a sitemap, a manifest or a POST is not
taken from, or sent to, a host nobody named); credentials in a URL are sent as HTTP
Basic authentication and never printed. Only ``http`` and ``https`` are spoken; no
proxy, cookie or compression.
"""

from __future__ import annotations

import base64
import http.client
import math
import re
import socket
import threading
from collections.abc import Mapping
from typing import NamedTuple
from urllib.parse import SplitResult, unquote, urljoin, urlsplit, urlunsplit

from mkdocs_sitemap_pro.core.urls import redact_credentials
from mkdocs_sitemap_pro.core.words import printable

__all__ = ["MAX_SECONDS", "Answer", "Timeout", "WebError", "check_seconds", "check_url", "exchange"]

#: The longest deadline accepted, in seconds (a day): beyond it a wait is a mistake.
MAX_SECONDS = 86_400.0
#: Redirects followed at most, each on the same host.
MAX_REDIRECTS = 5
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_UNUSABLE = re.compile(r"[\x00-\x20\x7f-\x9f]")  # what no request line may hold


class WebError(Exception):
    """No usable answer: the message says why (it never holds credentials)."""


class Timeout(WebError):
    """The server did not answer in full within the deadline."""


class Answer(NamedTuple):
    """A server's answer: its status, reason phrase and body (at most ``limit`` + 1 bytes)."""

    status: int
    reason: str
    body: bytes


def check_seconds(value: float) -> float:
    """``value`` if it can bound a wait: a number of seconds above 0 and at most a day.
    ``ValueError`` otherwise (``inf``, ``nan``, ``1e308``, 0 and below)."""
    if not (isinstance(value, (int, float)) and math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise ValueError(f"{value!r} is not a number of seconds above 0 and at most "
                         f"{MAX_SECONDS:,.0f}")
    return float(value)


def check_url(url: str) -> None:
    """``ValueError`` saying why ``url`` cannot be fetched: not ``http(s)``, no host, a
    bad port, or a space or control character anywhere (a request line cannot hold one)."""
    bad = _UNUSABLE.search(url)
    if bad:
        char = bad.group()
        what = "a space" if char == " " else f"the control character {printable(char)}"
        raise ValueError(f"it holds {what}, which no HTTP request can carry")
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https"):
        raise ValueError("it is not an http(s) URL")
    if not parts.hostname:
        raise ValueError("it names no host")
    try:
        parts.port
    except ValueError:
        raise ValueError("its port is not a number from 0 to 65535") from None


def exchange(url: str, timeout: float, limit: int, *, data: bytes | None = None,
             headers: Mapping[str, str] | None = None, follow: bool = True) -> Answer:
    """Send one request to ``url`` (GET, or POST of ``data``) and read its answer, the
    whole of it within ``timeout`` seconds. Redirects are followed (``follow``, GET only)
    on the same host; the body is read up to ``limit`` + 1 bytes. ``WebError`` (``Timeout``)
    says why there is no answer; ``ValueError`` for a timeout that bounds nothing."""
    seconds = check_seconds(timeout)
    try:
        check_url(url)
    except ValueError as error:
        raise WebError(str(error)) from None
    call = _Call(url, seconds, limit, data, dict(headers or {}), follow and data is None)
    # The exchange runs in a thread so that nothing it waits for (the name's lookup, the
    # connection, a server sending a byte a second) can outlast the deadline.
    worker = threading.Thread(target=call.run, name="sitemap-pro-http", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        call.cut()
        raise Timeout(f"no complete answer within {seconds:g} s")
    return call.result()


def _credentials(url: str) -> tuple[str, str | None]:
    """A URL with user information as the URL without it and the Basic ``Authorization``
    it stands for; else itself and None."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url, None
    userinfo, _, host = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    token = base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode("ascii")
    return urlunsplit(parts._replace(netloc=host)), f"Basic {token}"


def _origin(parts: SplitResult) -> tuple[str, str, int]:
    """Scheme, host and port (the scheme's own if none is given)."""
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or (443 if scheme == "https" else 80)


def _same_host(before: str, after: str) -> bool:
    """Whether a redirect stays on the host asked: the same scheme, host and port, or
    the same host from ``http`` to ``https`` on the default ports."""
    was, now = _origin(urlsplit(before)), _origin(urlsplit(after))
    return was == now or (was == ("http", now[1], 80) and now == ("https", was[1], 443))


class _Call:
    """One exchange, run by a worker thread; ``cut`` ends it from another thread."""

    def __init__(self, url: str, seconds: float, limit: int, data: bytes | None,
                 headers: dict[str, str], follow: bool) -> None:
        self.url, self.seconds, self.limit, self.data = url, seconds, limit, data
        self.headers, self.follow = headers, follow
        self._lock = threading.Lock()
        self._connection: http.client.HTTPConnection | None = None
        self._cut = False
        self._answer: Answer | None = None
        self._error: BaseException | None = None

    def run(self) -> None:
        try:
            self._answer = self._exchange()
        except WebError as error:
            self._error = error
        except TimeoutError:  # a socket's own timeout, the same deadline, may come first
            self._error = Timeout(f"no complete answer within {self.seconds:g} s")
        except (OSError, http.client.HTTPException, ValueError) as error:
            self._error = WebError(_why(error))
        except BaseException as error:  # a bug: raised where the caller waits
            self._error = error

    def result(self) -> Answer:
        if self._error is not None:
            raise self._error
        assert self._answer is not None
        return self._answer

    def cut(self) -> None:
        """Stop the exchange: wake a read that waits (shutting its socket down)."""
        with self._lock:
            self._cut = True
            sock = self._connection.sock if self._connection is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _exchange(self) -> Answer:
        target, authorization = _credentials(self.url)
        headers = dict(self.headers)
        if authorization:
            headers["Authorization"] = authorization
        for _ in range(MAX_REDIRECTS + 1):
            parts = urlsplit(target)
            scheme, host, port = _origin(parts)
            kind = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
            connection = kind(host.encode("idna").decode("ascii"), port, timeout=self.seconds)
            with self._lock:
                self._connection = connection
            try:
                connection.connect()
                with self._lock:  # cut while connecting, before there was a socket to cut
                    if self._cut:
                        raise WebError("cut")
                path = urlunsplit(("", "", parts.path or "/", parts.query, ""))
                connection.request("POST" if self.data is not None else "GET", path,
                                   body=self.data, headers=headers)
                response = connection.getresponse()
                location = response.getheader("Location")
                if self.follow and response.status in _REDIRECTS and location:
                    after = urljoin(target, location.strip())
                    try:
                        check_url(after)
                    except ValueError as error:
                        raise WebError(f"redirected to {redact_credentials(after)!r}: "
                                       f"{error}") from None
                    if not _same_host(target, after):
                        where = ("from https to http" if _origin(urlsplit(after))[1] == host
                                 else "on another host")
                        raise WebError(f"redirected to {redact_credentials(after)}, {where}: "
                                       "not followed (give that URL itself if it is meant)")
                    target = after
                    continue
                return Answer(response.status, response.reason, response.read(self.limit + 1))
            finally:
                connection.close()
        raise WebError(f"more than {MAX_REDIRECTS} redirects: not followed further")


def _why(error: BaseException) -> str:
    """What went wrong, in words, without credentials."""
    if isinstance(error, http.client.IncompleteRead):
        return "the answer ended early"
    return redact_credentials(str(error) or type(error).__name__)
