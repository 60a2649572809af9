"""A local IndexNow endpoint for tests: records every request, answers as told."""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests.support.web_server import serving


@dataclass
class Received:
    """One request as the endpoint saw it: method, path, headers and the parsed body."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class Endpoint:
    """``url`` to post to; ``requests`` received; ``statuses`` answered in turn (the last
    one repeats); ``delay`` seconds waited before answering."""

    url: str = ""
    statuses: Sequence[int] = (200,)
    delay: float = 0.0
    requests: list[Received] = field(default_factory=list)


@contextmanager
def endpoint(statuses: Sequence[int] = (200,), delay: float = 0.0) -> Iterator[Endpoint]:
    """Run an endpoint on 127.0.0.1 (a free port) in a thread while the block runs."""
    state = Endpoint(statuses=statuses, delay=delay)
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            data = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                state.requests.append(Received("POST", self.path, dict(self.headers),
                                               json.loads(data)))
                status = state.statuses[min(len(state.requests), len(state.statuses)) - 1]
            time.sleep(state.delay)
            try:
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
            except OSError:
                pass  # the client gave up (a timeout test)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    with serving(Handler) as root:
        state.url = root + "indexnow"
        yield state
