"""A real browser for tests: Debian's headless Chromium, and a folder served on 127.0.0.1.

``dump_dom`` gives the DOM after the page's scripts ran (``--dump-dom``; a virtual
time budget lets timers fire without waiting), ``screenshot`` a PNG of a window of the
given size. Each run gets a fresh profile and its own process group, killed whole on a
timeout. No network is needed: every page is served from 127.0.0.1.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.web_server import serving

# --no-sandbox: Chromium refuses to run as root otherwise (CI runs as root).
# --log-level=3: silences the D-Bus errors of a machine without a session bus.
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--log-level=3",
)
_REAL_BINARY = "/usr/lib/chromium/chromium"  # Debian's; /usr/bin/chromium is a shell wrapper


def chromium() -> str | None:
    """The Chromium program, or None when it is not installed."""
    if os.access(_REAL_BINARY, os.X_OK):
        return _REAL_BINARY
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 (a free port) in a thread; yield its base URL."""
    with serving(functools.partial(_Quiet, directory=os.fspath(folder))) as base:
        yield base


def _run(args: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    binary = chromium()
    if binary is None:
        raise RuntimeError("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        command = [binary, *FLAGS, f"--user-data-dir={profile}", *args]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   stdin=subprocess.DEVNULL, text=True, start_new_session=True)
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def dump_dom(url: str, width: int = 1280, height: int = 900, flags: tuple[str, ...] = ()) -> str:
    """The page's DOM after load and its scripts (never pass a budget of 0: it hangs).
    ``flags``: more of Chromium's, e.g. ``--force-dark-mode``."""
    done = _run(["--dump-dom", "--virtual-time-budget=2000",
                 f"--window-size={width},{height}", *flags, url])
    if done.returncode != 0 or "<html" not in done.stdout.lower():
        raise RuntimeError(f"chromium --dump-dom failed ({done.returncode}): {done.stderr[-2000:]}")
    return done.stdout


def screenshot(url: str, png: Path, width: int, height: int) -> Path:
    """A PNG of the page in a ``width`` x ``height`` window (scroll bars hidden)."""
    png.unlink(missing_ok=True)
    done = _run([f"--screenshot={png}", f"--window-size={width},{height}",
                 "--virtual-time-budget=2000", "--hide-scrollbars", url])
    if done.returncode != 0 or not png.exists():
        raise RuntimeError(f"chromium --screenshot failed ({done.returncode}): {done.stderr[-2000:]}")
    return png
