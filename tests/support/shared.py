"""A project made once a run and copied into each test that starts from it.

Real deploys and builds take seconds; with fixed dates they give the same repository
wherever they run, so the tests that start from the same state share one made by the
real steps, and each gets a copy of its own to change (copying a small repository costs
a few milliseconds). Under pytest-xdist the workers share it too (their base folders have
one parent); a lock makes the others wait for the one making it. What the plugin keeps
by the folder's absolute path (its history map's key) does not follow the copy: a build
in the copy walks the history afresh, as in a CI job whose cache was restored elsewhere.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.sites import Site


def made_once(site: Site, factory: pytest.TempPathFactory, key: str,
              make: Callable[[Site], Any]) -> Any:
    """Turn ``site`` (a fresh project from the ``site`` fixture) into what ``make`` makes of
    such a project: ``make`` runs once a run for ``key``, on a project of its own, whose
    folder (git repository included) and configuration are then copied into ``site``,
    and what ``make`` wrote beside that folder, beside ``site``'s. Returns what ``make``
    returned (it must be JSON)."""
    base = factory.getbasetemp()
    cache = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "made-once"
    cache.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha256(key.encode()).hexdigest()[:16]
    made, ready = cache / name / site.root.name, cache / f"{name}.json"
    with open(cache / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready.is_file():
            shutil.rmtree(made.parent, ignore_errors=True)
            origin = Site(made)
            origin.repo.write(".gitignore", "site/\n")  # as the site fixture's
            value = make(origin)
            ready.write_text(json.dumps({"config": origin.config, "value": value}))
    state = json.loads(ready.read_text())
    shutil.rmtree(site.root)
    for entry in made.parent.iterdir():
        if entry.is_dir():
            shutil.copytree(entry, site.root.parent / entry.name, symlinks=True)
        else:
            shutil.copy2(entry, site.root.parent / entry.name)
    site.config = state["config"]
    return state["value"]
