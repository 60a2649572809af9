"""Smoke test of the benchmarks: each runs at its ``--quick`` size and reports a ratio.

No timing is asserted (machines are noisy); only that every bench runs to the end, exits
0 (``git_dates`` exits 2 if our dates differ from ``git log -1``) and prints its
``ratio ...`` lines. Scratch repositories go to pytest's tmp_path, not bench/.work/.

Marked ``bench``: a plain ``python -m pytest`` deselects them (pyproject's addopts);
``python -m pytest -q -m bench`` runs them, as .ci/run does (with valgrind installed).
``output_digest.py`` times nothing: its test checks the lines it prints instead.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO

pytestmark = pytest.mark.bench  # deselected unless -m bench (pyproject's addopts)

BENCH = REPO / "bench"
RATIO = re.compile(r"^ratio .+: \d+\.\d+x", re.MULTILINE)


@pytest.mark.parametrize(
    "script",
    ["git_dates.py", "generator.py", "build.py", "build.py --split", "dependencies.py",
     "dependencies.py --api",
     "history.py", "scale.py", "hooks.py", "api.py", "serve.py", "instructions.py", "instructions.py --serve"],
)
def test_bench_quick(script: str, tmp_path: Path) -> None:
    name, *flags = script.split()
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONDONTWRITEBYTECODE="1")
    res = subprocess.run(
        [sys.executable, str(BENCH / name), *flags, "--quick", "--work-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-4000:]
    assert RATIO.search(res.stdout), out[-4000:]
    if "--split" in flags:  # every part of the plugin against plain
        for part in ("off", "no-git", "no-deps"):
            assert re.search(rf"^ratio {part} / plain: \d+\.\d+x", res.stdout, re.MULTILINE), out[-4000:]


LINE = re.compile(r"^[0-9a-f]{64}  [abc]/\S.*$")


def test_output_digest_quick(tmp_path: Path) -> None:
    """``output_digest.py --quick`` digests every file of its three parts, then all of them."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=str(REPO))
    res = subprocess.run(
        [sys.executable, str(BENCH / "output_digest.py"), "--quick", "--work-dir", str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert res.returncode == 0, (res.stdout + res.stderr)[-4000:]
    *lines, last = res.stdout.splitlines()
    assert all(LINE.match(line) for line in lines), res.stdout[-4000:]
    parts = {line.split("  ", 1)[1].split("/", 1)[0] for line in lines}
    assert parts == {"a", "b", "c"}
    for name in ("a/sitemap.xml", "a/sitemap.xml.gz", "b/sitemap.xml", "c/index/sitemap-1.xml.gz",
                 "c/index/sitemap.atom", "c/bytes/sitemap.xml"):
        assert any(line.endswith(f"  {name}") for line in lines), name
    assert re.fullmatch(r"combined [0-9a-f]{64}", last), last
