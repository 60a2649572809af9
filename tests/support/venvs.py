"""Virtual environments made once for the tests that run this project installed apart,
cached by the hash of its sources and shared by every test and process that needs one.

A venv is not relocatable, so it is built in place; a lock makes a second process (a
pytest-xdist worker, another run) wait for the first instead of building over it, and
``ready`` marks a finished one.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import REPO


def cached_venv(name: str, steps: Callable[[list[str]], list[list[str]]]) -> Path:
    """The venv ``name``-<hash of the sources>, made by ``steps(pip)`` if it is not there
    yet; a failed step skips the test, or fails it under CI.

    The venv has no pip of its own (``--without-pip``, as pipx makes them): ``pip`` is
    this environment's pip run against it (``pip --python``), which spares the seconds
    ``ensurepip`` takes to install one."""
    sources = sorted((REPO / "mkdocs_sitemap_pro").rglob("*.py")) + [REPO / "pyproject.toml"]
    recipe = repr(steps(["pip"])).encode()  # a changed recipe makes another venv
    key = hashlib.sha256(b"".join(p.read_bytes() for p in sources) + recipe).hexdigest()[:16]
    venv = Path(tempfile.gettempdir()) / "mkdocs-sitemap-pro-tests" / f"{name}-{key}"
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(venv.parent / f"{venv.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (venv / "ready").is_file():
            return venv
        shutil.rmtree(venv, ignore_errors=True)
        python = venv / "bin" / "python"
        pip = [sys.executable, "-m", "pip", "--python", str(python)]
        for step in [[sys.executable, "-m", "venv", "--without-pip", str(venv)], *steps(pip)]:
            result = subprocess.run(step, capture_output=True, text=True, timeout=600)
            if result.returncode != 0:
                shutil.rmtree(venv, ignore_errors=True)
                message = f"could not make the venv ({' '.join(step[:5])}): {result.stderr[-500:]}"
                if os.environ.get("CI"):
                    pytest.fail(message)
                pytest.skip(message)
        (venv / "ready").write_text("")
    return venv
