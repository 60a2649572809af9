"""A hostile web server for tests, on 127.0.0.1: answers as told per path, redirects,
asks for Basic authentication, or sends its answer one byte a second; records every
request it receives."""

from __future__ import annotations

import base64
import http.server
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

#: A trickling answer stops after this many seconds, so a test of old code stays bounded.
TRICKLE_LIMIT = 40.0


@dataclass(frozen=True)
class Reply:
    """What one path answers: a status, a body and headers (``Location`` for a redirect)."""

    body: bytes = b""
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)


def redirect(to: str, status: int = 302) -> Reply:
    return Reply(status=status, headers={"Location": to})


@dataclass
class Seen:
    """One request as the server saw it."""

    path: str
    headers: dict[str, str]


@dataclass
class Server:
    """``url`` (the base, ending in ``/``) and the ``requests`` received, in order."""

    url: str = ""
    requests: list[Seen] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].strip("/"))


@contextmanager
def web(routes: Mapping[str, Reply] | None = None, *, trickle: bool = False,
        user: tuple[str, str] | None = None) -> Iterator[Server]:
    """Serve ``routes`` (path -> reply; any other path: 404) in a thread while the block
    runs. ``trickle``: every path answers 200 with a body sent one byte a second (up to
    ``TRICKLE_LIMIT``). ``user``: a request without that Basic authentication gets 401."""
    state = Server()
    stop = threading.Event()
    lock = threading.Lock()
    expected = ("Basic " + base64.b64encode(f"{user[0]}:{user[1]}".encode()).decode()
                if user else None)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            with lock:
                state.requests.append(Seen(self.path, dict(self.headers)))
            try:
                if expected and self.headers.get("Authorization") != expected:
                    self._answer(Reply(b"who are you?", 401,
                                       {"WWW-Authenticate": 'Basic realm="site"'}))
                elif trickle:
                    self._trickle()
                else:
                    self._answer((routes or {}).get(self.path, Reply(b"not here", 404)))
            except OSError:
                pass  # the client gave up (a deadline test)

        def _answer(self, reply: Reply) -> None:
            self.send_response(reply.status)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def _trickle(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", "1000000")
            self.end_headers()
            self.wfile.flush()
            waited = 0.0
            while waited < TRICKLE_LIMIT and not stop.wait(1.0):
                waited += 1.0
                self.wfile.write(b"<")
                self.wfile.flush()
            self.close_connection = True

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    try:
        with serving(Handler) as root:
            state.url = root
            yield state
    finally:
        stop.set()  # first, so that a trickling answer lets the server shut down


@contextmanager
def serving(handler: Callable[..., http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` served on 127.0.0.1 (a free port) in threads while the block runs;
    the block gets the server's root URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
        server.server_close()
        thread.join(5)
